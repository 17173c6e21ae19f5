# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# All interfaces: the phones on the home network reach it. HOST=127.0.0.1 keeps it on this machine.
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 4
export FLASK_APP := companion.wsgi

.PHONY: run test check bench migrate clean translations

# The Nu Html Checker (vnu), which tests/web/test_html_checker.py runs over every kind of page: the
# npm package vnu-jar at this version, in .vnu/<version>/ (not in git), run by the machine's Java (Debian's
# default-jre-headless). Without npm, make test goes on and the test says what is missing (in CI it fails).
VNU_VERSION := 26.9.27
VNU_JAR := .vnu/$(VNU_VERSION)/node_modules/vnu-jar/build/dist/vnu.jar

# The gettext catalogs (companion/translations/<lang>/LC_MESSAGES/messages.po) are kept compiled:
# `make run` and `make test` build each .mo from its .po whenever the .po is newer.
CATALOGS := $(wildcard companion/translations/*/LC_MESSAGES/messages.po)
COMPILED := $(CATALOGS:.po=.mo)

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Installed again only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml setup.py | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml setup.py | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

# --ignore-scripts: the package's postinstall would download a Java of its own; the machine's runs the jar.
$(VNU_JAR):
	@if command -v npm >/dev/null; then \
		npm install --silent --prefix .vnu/$(VNU_VERSION) --no-save --no-audit --no-fund --ignore-scripts vnu-jar@$(VNU_VERSION); \
	else echo "no npm: the HTML checker's test will say what is missing"; fi

%.mo: %.po | $(VENV)/.installed
	$(BIN)/pybabel -q compile -i $< -o $@

# Every message of the source into messages.pot, then into each language's catalog (new ones
# untranslated; nothing guessed). Translate the empty entries; `make test` says what is missing.
translations: $(VENV)/.installed
	$(BIN)/pybabel -q extract -F babel.cfg -k _l -k N_plural:1,2 -c "Translators:" --add-location=file --sort-by-file \
		--project=companion -o companion/translations/messages.pot .
	$(BIN)/pybabel -q update -i companion/translations/messages.pot -d companion/translations \
		--no-fuzzy-matching --ignore-obsolete
	$(BIN)/python -m companion.i18n.catalogs english
	$(MAKE) $(COMPILED)
	@# What is left to translate (make test fails on the same list).
	-$(BIN)/python -m companion.i18n.catalogs check

migrate: $(VENV)/.installed $(COMPILED)
	$(BIN)/flask db upgrade

run: migrate
	$(BIN)/gunicorn --config python:companion.server.gunicorn_conf --bind $(HOST):$(PORT) --workers $(WORKERS) companion.wsgi:app

PYTEST := $(BIN)/python -m pytest
# Two cores, two workers (pytest-xdist); a file's tests on one worker, so that its module's server, tables and
# browser are made once. What measures how soon a phone shows something (marked timing) runs after, alone.
PARALLEL := -n 2 --dist loadfile -m "not timing"
ALONE := -p no:xdist -m timing

# The fast tier, for every change (under two minutes): the rules and their properties, the forms, every view
# through the test client, the security headers and every page's answer, the catalogs and the grammar, the layout.
CHECK := tests/rules tests/forms tests/views tests/groups tests/web tests/i18n tests/inputs tests/test_layout.py tests/test_factory.py \
	--ignore=tests/web/test_html_checker.py

# With TEST_POSTGRES_URL set (as .ci/run does), what differs between SQLite and PostgreSQL is tested again on
# PostgreSQL: the table's row lock and the writers' order (tests/table, test_write_turn), the change notices and the
# heads kept between them (tests/live, the streams' server, the browser's pushes; not the stream's tests of the phone
# and the network: a blocked or buffered stream, a quiet phone, a cut stream), the migrations
# (test_migrations, tests/groups), the statuses and rows of groups, members and bins, the history's SQL filters and
# the import's unique index (tests/review), the atomic rate counts (test_join_codes), a connection dropped or a
# worker killed mid-write (test_faults_database, test_faults_crash). The rest reads the same rows through the same
# ORM whatever the database (docs/testing.md).
POSTGRES := tests/table tests/live tests/groups tests/review tests/test_migrations.py tests/test_write_turn.py \
	tests/web/test_join_codes.py tests/test_faults_database.py tests/server/test_streams_server.py \
	tests/server/test_faults_crash.py tests/browser/test_table_night.py \
	tests/browser/test_stream.py::test_the_region_comes_on_the_stream_and_a_phone_that_changes_seat_is_pushed_its_new_one \
	tests/browser/test_stream.py::test_a_phone_on_each_of_two_app_servers_sees_the_others_entries_pushed \
	tests/browser/test_stream.py::test_a_worker_killed_or_the_whole_server_restarted_every_phone_catches_up_within_5_s \
	tests/browser/test_table_flow.py tests/browser/test_recorded_once.py tests/browser/test_removed_session.py \
	tests/browser/test_bell.py tests/browser/test_bell_due.py tests/browser/test_seat_moved.py \
	tests/browser/test_sheet_play.py tests/browser/test_carambouille_play.py tests/browser/test_undo_older.py
ON_POSTGRES = TEST_DATABASE_URL=$(TEST_POSTGRES_URL) $(PYTEST) -p no:cacheprovider

check: $(VENV)/.installed-test $(COMPILED)
	$(PYTEST) -p no:cacheprovider -n 2 $(CHECK)

test: $(VENV)/.installed-test $(COMPILED) $(VNU_JAR)
	$(PYTEST) $(PARALLEL)
	$(PYTEST) $(ALONE)
	$(if $(TEST_POSTGRES_URL),$(ON_POSTGRES) $(PARALLEL) $(POSTGRES))
	$(if $(TEST_POSTGRES_URL),$(ON_POSTGRES) $(ALONE) $(POSTGRES))

bench: $(VENV)/.installed-test $(COMPILED)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .vnu .pytest_cache .hypothesis
