# Quick start: `make run` (the DAG over the demo WARCs into the embedded PostgreSQL) and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# A local Airflow that lives in var/airflow and sees only this project's DAGs.
# `make airflow AIRFLOW_PORT=8081` moves the UI (and the task execution API with it).
AIRFLOW_PORT ?= 8080
export AIRFLOW_HOME ?= $(CURDIR)/var/airflow
export AIRFLOW__API__PORT := $(AIRFLOW_PORT)
export AIRFLOW__CORE__EXECUTION_API_SERVER_URL := http://localhost:$(AIRFLOW_PORT)/execution/
export AIRFLOW__CORE__DAGS_FOLDER := $(CURDIR)/dags
export AIRFLOW__CORE__PLUGINS_FOLDER := $(CURDIR)/plugins
export AIRFLOW__CORE__LOAD_EXAMPLES := False
export AIRFLOW__CORE__PARALLELISM ?= 4
export AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS ?= True

.PHONY: install run test eval airflow bench bench-peer env clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt -r requirements-dev.txt -c constraints.txt
	$(BIN)/pip install --quiet --no-deps -e .
	touch $@

$(AIRFLOW_HOME)/airflow.db: $(VENV)/.installed
	mkdir -p $(AIRFLOW_HOME)
	$(BIN)/airflow db migrate > $(AIRFLOW_HOME)/db-migrate.log 2>&1 || (cat $(AIRFLOW_HOME)/db-migrate.log; exit 1)

run: $(AIRFLOW_HOME)/airflow.db
	$(BIN)/warc2corpus db start
	$(BIN)/airflow dags test warc2corpus > $(AIRFLOW_HOME)/dags-test.log 2>&1 \
		|| (tail -n 60 $(AIRFLOW_HOME)/dags-test.log; exit 1)
	@grep -E "state=|DagRun Finished" $(AIRFLOW_HOME)/dags-test.log | tail -n 1 || true
	@echo "full log: $(AIRFLOW_HOME)/dags-test.log"
	$(BIN)/warc2corpus stats

test: $(VENV)/.installed
	$(BIN)/python -m pytest

# The web UI on http://localhost:8080 with no login (local use only); standalone starts its
# components as `airflow ...` subprocesses, so the venv goes first on PATH.
airflow: $(AIRFLOW_HOME)/airflow.db
	$(BIN)/warc2corpus db start
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/airflow standalone

# The quality gate alone (`make test` runs it too, in tests/test_eval_gate.py): exit 1 on any drop.
eval: $(VENV)/.installed
	$(BIN)/warc2corpus eval

bench: $(VENV)/.installed
	$(BIN)/python bench/bench_extract.py

# warc2corpus run against DataTrove (its own venv in var/bench-peer-venv); `make bench-peer WARC=file` for your WARC.
bench-peer: $(VENV)/.installed
	$(BIN)/python bench/bench_peer.py $(if $(WARC),--warc $(WARC))

# `eval "$$(make -s env)"` gives a shell this project's Airflow and venv (for airflow CLI commands).
env:
	@echo 'export PATH="$(CURDIR)/$(BIN):$$PATH"'
	@for v in AIRFLOW_HOME AIRFLOW__API__PORT AIRFLOW__CORE__EXECUTION_API_SERVER_URL AIRFLOW__CORE__DAGS_FOLDER AIRFLOW__CORE__PLUGINS_FOLDER AIRFLOW__CORE__LOAD_EXAMPLES \
		AIRFLOW__CORE__PARALLELISM AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS; do echo "export $$v='$${!v}'"; done

clean:
	rm -rf var/staging var/airflow
