# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# All interfaces: the phones on the home network reach it. HOST=127.0.0.1 keeps it on this machine.
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 4
export FLASK_APP := companion.wsgi

.PHONY: run test bench migrate clean translations

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

# With TEST_POSTGRES_URL set (as .ci/run does), every database-touching test runs a second time on PostgreSQL
# (not the pure rules, the layout, the built wheel, the editable install or the HTML checker, not the read-only
# SQLite file faults or the library's backups (tests/library), which are about SQLite files (PostgreSQL's backups
# are pg_dump's; the commands' answer saying so connects to no database and runs in the first pass), and not the
# browser tests of what a page draws at a width, with the keyboard's focus or to axe's eyes, which read the same
# tables whatever database they come from; nor the stream's two minute-long tests, a quiet phone's requests and a
# stream cut every 20 s, which are about the phone and the network: PostgreSQL's pushes are every other browser
# test's second pass).
test: $(VENV)/.installed-test $(COMPILED) $(VNU_JAR)
	$(BIN)/python -m pytest
	$(if $(TEST_POSTGRES_URL),TEST_DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest -p no:cacheprovider --ignore=tests/rules --ignore=tests/test_faults_read_only.py --ignore=tests/library \
		--ignore=tests/test_layout.py --ignore=tests/server/test_wheel.py \
		--ignore=tests/server/test_editable.py --ignore=tests/web/test_html_checker.py \
		--ignore=tests/browser/test_narrow_pages.py --ignore=tests/browser/test_narrow_boards.py \
		--ignore=tests/browser/test_focus.py --ignore=tests/browser/test_calculator.py \
		--ignore=tests/browser/test_accessibility.py \
		--deselect=tests/browser/test_stream.py::test_a_phone_left_on_the_table_for_a_minute_sends_at_most_six_requests_and_still_hears_at_once \
		--deselect=tests/browser/test_stream.py::test_a_stream_cut_every_20_s_misses_no_entry_and_shows_none_twice)

bench: $(VENV)/.installed-test $(COMPILED)
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .vnu .pytest_cache .hypothesis
