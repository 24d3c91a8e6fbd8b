# Quick start: `make run` (the DAG over the demo WARCs into the embedded PostgreSQL) and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# A local Airflow that lives in var/airflow and sees only this project's DAGs, on loopback.
# `make airflow AIRFLOW_PORT=8081` moves the UI (and the task execution API with it);
# AIRFLOW_LOG_PORT / AIRFLOW_TRIGGER_LOG_PORT move the two log servers; AIRFLOW_NO_LOGIN=1 drops the login.
AIRFLOW_PORT ?= 8080
AIRFLOW_LOG_PORT ?= 8793
AIRFLOW_TRIGGER_LOG_PORT ?= 8794
export AIRFLOW_HOME ?= $(CURDIR)/var/airflow
export AIRFLOW__API__PORT := $(AIRFLOW_PORT)
export AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT := $(AIRFLOW_LOG_PORT)
export AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT := $(AIRFLOW_TRIGGER_LOG_PORT)
export AIRFLOW__CORE__EXECUTION_API_SERVER_URL := http://127.0.0.1:$(AIRFLOW_PORT)/execution/
export AIRFLOW__CORE__DAGS_FOLDER := $(CURDIR)/dags
export AIRFLOW__CORE__PLUGINS_FOLDER := $(CURDIR)/plugins
export AIRFLOW__CORE__LOAD_EXAMPLES := False
export AIRFLOW__CORE__PARALLELISM ?= 4

.PHONY: install compile run test eval airflow airflow-celery backfill bench bench-peer env compose-env clean

install: $(VENV)/.installed

$(VENV)/.installed: requirements.txt requirements-dev.txt constraints.txt pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -r requirements.txt -r requirements-dev.txt -c constraints.txt
	$(BIN)/pip install --quiet --no-deps -e .
	$(MAKE) --no-print-directory compile
	touch $@

# The project's own modules compiled, as pip compiles an installed package's: where
# PYTHONDONTWRITEBYTECODE is set (some containers and CI set it), every process, each Airflow task's
# included, would otherwise compile them from source (0.11 s of a run's start-up here).
compile:
	$(BIN)/python -m compileall -q include plugins dags

$(AIRFLOW_HOME)/airflow.db: $(VENV)/.installed
	mkdir -p -m 700 $(AIRFLOW_HOME)
	$(BIN)/airflow db migrate > $(AIRFLOW_HOME)/db-migrate.log 2>&1 || (cat $(AIRFLOW_HOME)/db-migrate.log; exit 1)

# The demo WARCs are complete however recently they were checked out: no settle time for them.
run: $(AIRFLOW_HOME)/airflow.db
	$(BIN)/warc2corpus db start
	WARC2CORPUS_SETTLE_SECONDS=0 $(BIN)/airflow dags test warc2corpus > $(AIRFLOW_HOME)/dags-test.log 2>&1 \
		|| (tail -n 60 $(AIRFLOW_HOME)/dags-test.log; exit 1)
	$(BIN)/airflow dags test warc2corpus_derived >> $(AIRFLOW_HOME)/dags-test.log 2>&1 \
		|| (tail -n 60 $(AIRFLOW_HOME)/dags-test.log; exit 1)
	@grep -E "state=|DagRun Finished" $(AIRFLOW_HOME)/dags-test.log | tail -n 1 || true
	@echo "full log: $(AIRFLOW_HOME)/dags-test.log"
	$(BIN)/warc2corpus stats

test: $(VENV)/.installed
	$(BIN)/python -m pytest

# The web UI on http://127.0.0.1:8080 behind a login (bin/airflow-local: standalone's components,
# everything on loopback, Airflow's state private).
airflow: $(AIRFLOW_HOME)/airflow.db
	$(BIN)/warc2corpus db start
	$(BIN)/python bin/airflow-local

# The same on the distributed engine: CeleryExecutor, Redis (Debian's redis-server) and PostgreSQL on
# loopback, WORKERS Celery workers as separate processes with their own host names.
WORKERS ?= 2
airflow-celery: $(VENV)/.installed
	$(BIN)/warc2corpus db start
	$(BIN)/python bin/airflow-local --celery --workers $(WORKERS)

# `make backfill FROM=2019-01-01 TO=2019-12-31`: a backfill with the DAG's own limit of 2 active runs
# (a backfill's runs obey the backfill's max_active_runs, 10 unless given, not the DAG's).
BACKFILL_MAX_ACTIVE_RUNS ?= 2
backfill: $(AIRFLOW_HOME)/airflow.db
	@test -n "$(FROM)" -a -n "$(TO)" || (echo "usage: make backfill FROM=YYYY-MM-DD TO=YYYY-MM-DD"; exit 2)
	$(BIN)/airflow dags unpause warc2corpus
	$(BIN)/airflow backfill create --dag-id warc2corpus --from-date $(FROM) --to-date $(TO) \
		--max-active-runs $(BACKFILL_MAX_ACTIVE_RUNS)

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
		AIRFLOW__CORE__PARALLELISM AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT; do echo "export $$v='$${!v}'"; done

# docker-compose's .env with fresh secrets (mode 0600); an existing .env keeps its values and only
# gains the variables it lacks. The system python3 is enough (standard library only).
compose-env:
	$(PYTHON) tools/compose_env.py .env

clean:
	rm -rf var/staging var/airflow
