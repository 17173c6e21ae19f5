# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# All interfaces: the phones on the home network reach it. HOST=127.0.0.1 keeps it on this machine.
HOST ?= 0.0.0.0
PORT ?= 8000
WORKERS ?= 4
export FLASK_APP := wsgi

.PHONY: run test bench migrate clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Installed again only when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/activate
	$(BIN)/pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

migrate: $(VENV)/.installed
	$(BIN)/flask db upgrade

run: migrate
	$(BIN)/gunicorn --config python:companion.gunicorn_conf --bind $(HOST):$(PORT) --workers $(WORKERS) wsgi:app

# With TEST_POSTGRES_URL set (as .ci/run does), every database-touching test runs a second time on PostgreSQL.
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest
	$(if $(TEST_POSTGRES_URL),TEST_DATABASE_URL=$(TEST_POSTGRES_URL) $(BIN)/python -m pytest -p no:cacheprovider --ignore=tests/rules)

bench: $(VENV)/.installed-test
	$(BIN)/python -m bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
