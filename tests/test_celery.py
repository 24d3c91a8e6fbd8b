"""The DAG on the real distributed engine (`make airflow-celery`): CeleryExecutor with Redis and a
PostgreSQL metadata database on loopback, two workers as separate processes with their own host
names. A DAG run over the demo WARCs spreads its mapped tasks over both workers and gives the same
corpus as the LocalExecutor (`airflow dags test`). bench/scale_out.py measures the wall times and
kills a worker mid-task."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

import psutil
import psycopg
import pytest

from conftest import ROOT
from test_airflow_local import _free_port, _listening
from test_dag import load_dag_module
from warc2corpus.store import stats

pytestmark = pytest.mark.skipif(shutil.which("redis-server") is None,
                                reason="redis-server (Debian package redis-server) not installed; .ci/run installs it")


def _api(base: str, path: str, body: dict | None = None, method: str | None = None):
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"},
                                     method=method or ("POST" if body is not None else "GET"))
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def _checksums(url: str) -> dict:
    with psycopg.connect(url) as conn:
        return stats.corpus_checksums(conn)


@pytest.fixture
def second_corpus(server_url):
    name = "w2c_celery_test"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    from conftest import _with_database

    yield _with_database(server_url, name)
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_dag_run_spreads_over_two_celery_workers_and_gives_the_local_corpus(
        tmp_path, corpus_db, staging_dir, second_corpus, airflow_db):
    env = {**os.environ, "AIRFLOW_HOME": str(tmp_path / "airflow"), "AIRFLOW_NO_LOGIN": "1",
           "WARC2CORPUS_STAGING": str(tmp_path / "staging")}
    # The reference: the LocalExecutor's run (in-process `airflow dags test`) into the test's corpus.
    assert load_dag_module("dag_celery_reference").dag.test().state == "success"

    port = _free_port()
    env.update({"AIRFLOW_CONN_WARC2CORPUS_DB": second_corpus, "AIRFLOW__API__PORT": str(port),
                "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://127.0.0.1:{port}/execution/",
                "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(_free_port()),
                "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(_free_port()),
                "AIRFLOW_REDIS_PORT": str(_free_port())})
    log = tmp_path / "airflow-celery.log"
    with open(log, "wb") as out:
        launcher = subprocess.Popen([sys.executable, str(ROOT / "bin" / "airflow-local"), "--celery", "--workers", "2"],
                                    env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}/api/v2"
    try:
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            assert launcher.poll() is None, log.read_text()[-3000:]
            try:
                if "warc2corpus" in {d["dag_id"] for d in _api(base, "/dags").get("dags", [])}:
                    break
            except OSError:
                pass
            time.sleep(2)
        else:
            pytest.fail("Airflow did not come up:\n" + log.read_text()[-3000:])
        listening = _listening(psutil.Process(launcher.pid))
        assert listening and all(ip in ("127.0.0.1", "::1") for ip, _, _ in listening), listening

        _api(base, "/dags/warc2corpus", {"is_paused": False}, method="PATCH")
        run_id = _api(base, "/dags/warc2corpus/dagRuns", {"logical_date": None})["dag_run_id"]
        while time.monotonic() < deadline + 300:
            state = _api(base, f"/dags/warc2corpus/dagRuns/{run_id}")["state"]
            if state in ("success", "failed"):
                break
            time.sleep(2)
        assert state == "success", log.read_text()[-3000:]
        tis = _api(base, f"/dags/warc2corpus/dagRuns/{run_id}/taskInstances?limit=100")["task_instances"]
        mapped = [t for t in tis if t["map_index"] >= 0]
        assert {t["hostname"] for t in mapped} == {"worker-1", "worker-2"}, [(t["task_id"], t["hostname"]) for t in tis]
        assert {t["rendered_map_index"] for t in mapped} == {
            "DEMO-20240301120000-00000.warc.gz", "DEMO-20240302120000-00001.warc.gz", "fjordposten-spesial.warc.gz"}
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(120)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
    assert _checksums(second_corpus) == _checksums(corpus_db)
    with psycopg.connect(second_corpus) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 10
