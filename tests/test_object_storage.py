"""Staging in object storage: an S3-compatible server on loopback (moto's server mode) stands in
for S3. The staging class is tested on it directly, and the DAG runs with its staging there, through
Airflow's ObjectStoragePath and an Airflow connection, and gives the corpus a local run gives."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import psycopg
import pytest

from conftest import DEMO_WARCS, _with_database
from test_dag import load_dag_module
from warc2corpus import settings
from warc2corpus.store import stats
from warc2corpus.store.staging import Staging

BUCKET = "w2c-staging"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def s3_endpoint(tmp_path_factory):
    """moto's S3 server on 127.0.0.1 with an empty bucket; its endpoint URL."""
    server = Path(sys.executable).with_name("moto_server")
    if not server.exists():
        pytest.skip("moto[server] is not installed (requirements-dev.txt): the S3 staging tests need it")
    port = _free_port()
    log = (tmp_path_factory.mktemp("moto") / "moto.log").open("w")
    process = subprocess.Popen([str(server), "-H", "127.0.0.1", "-p", str(port)], stdout=log, stderr=log)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise RuntimeError(f"moto_server did not start on port {port}")
                time.sleep(0.2)
        import boto3

        boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="testing", aws_secret_access_key="testing",
                     region_name="us-east-1").create_bucket(Bucket=BUCKET)
        yield endpoint
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


@pytest.fixture
def s3_credentials(s3_endpoint, monkeypatch):
    """What fsspec (s3fs) reads from the environment when the staging is given as a URL."""
    for name, value in {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
                        "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": s3_endpoint}.items():
        monkeypatch.setenv(name, value)
    return s3_endpoint


def _objects(endpoint: str, prefix: str) -> list[str]:
    import boto3

    client = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id="testing", aws_secret_access_key="testing",
                          region_name="us-east-1")
    return [o["Key"] for o in client.list_objects_v2(Bucket=BUCKET, Prefix=prefix).get("Contents", [])]


def _loaded(conn) -> dict[str, str]:
    """The checksums of what the DAG writes (the derived tables are the derived DAG's, which `warc2corpus
    run` also fills at its end)."""
    return {table: checksum for table, checksum in stats.corpus_checksums(conn).items()
            if not table.startswith(("near_duplicate", "research_"))}


def test_staging_on_s3_round_trips_writes_atomically_and_cleans(s3_credentials, monkeypatch):
    prefix = f"unit-{uuid.uuid4().hex[:8]}"
    staging = Staging(f"s3://{BUCKET}/{prefix}")
    assert not staging.local

    rows = [{"text": "Ansvarlig redaktør: Åse Ødegård", "n": i} for i in range(1000)]
    assert staging.write_jsonl("job/run-1/file/documents.jsonl.gz", rows) == 1000
    assert list(staging.read_jsonl("job/run-1/file/documents.jsonl.gz")) == rows

    # A block that fails leaves nothing under the key, not even its temporary object.
    with pytest.raises(RuntimeError):
        with staging.writer("job/run-1/file/broken.jsonl.gz") as out:
            out.write({"half": True})
            raise RuntimeError("the task died")
    assert _objects(s3_credentials, f"{prefix}/job/run-1/file/") == [f"{prefix}/job/run-1/file/documents.jsonl.gz"]

    # A run owned by this live process stays; one where nothing was written for longer than the limit goes.
    staging.claim("job/run-live")
    staging.write_json("job/run-old/allow_list.json.gz", {"host": "accepted"})
    monkeypatch.setenv("WARC2CORPUS_STAGING_STALE_HOURS", str(1 / 3600))
    time.sleep(2.5)  # S3 times have whole seconds
    staging.heartbeat("job/run-live")
    removed = staging.clean()
    assert sorted(r.key for r in removed) == ["job/run-1", "job/run-old"]
    assert _objects(s3_credentials, f"{prefix}/") == [f"{prefix}/job/run-live/owner.json.gz"]
    staging.remove("job/run-live")
    assert _objects(s3_credentials, f"{prefix}/") == []


def test_the_dag_stages_through_object_storage_and_gives_the_corpus_of_a_local_run(
        s3_endpoint, tmp_path, monkeypatch, corpus_db, server_url, airflow_db):
    warcs = tmp_path / "warcs"
    shutil.copytree(DEMO_WARCS, warcs)
    config = tmp_path / "crawl_jobs.yaml"
    config.write_text(f"crawl_jobs:\n  - name: demo\n    directory: {warcs}\n")
    monkeypatch.setenv("WARC2CORPUS_CRAWL_JOBS", str(config))
    prefix = f"dag-{uuid.uuid4().hex[:8]}"
    monkeypatch.setenv("WARC2CORPUS_STAGING", f"s3://{BUCKET}/{prefix}")
    monkeypatch.setenv("WARC2CORPUS_STAGING_CONN_ID", "w2c_staging")
    # Only the Airflow connection knows the endpoint and the keys: ObjectStoragePath must use it.
    monkeypatch.setenv("AIRFLOW_CONN_W2C_STAGING", json.dumps({
        "conn_type": "aws", "login": "testing", "password": "testing",
        "extra": {"endpoint_url": s3_endpoint, "region_name": "us-east-1"}}))
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_ENDPOINT_URL"):
        monkeypatch.delenv(name, raising=False)

    run = load_dag_module("dag_object_storage").dag.test()
    assert run.state == "success"
    staged = _objects(s3_endpoint, f"{prefix}/demo/")
    # Each file's staging is removed once it is loaded; the run's allow-list stays until the run is over.
    assert staged and all(key.endswith("allow_list.json.gz") for key in staged), staged
    assert not (settings.project_home() / "var" / "staging" / "demo" / run.run_id).exists()
    with psycopg.connect(corpus_db) as conn:
        through_s3 = _loaded(conn)
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] >= 10

    # The same WARCs by `warc2corpus run` with a local staging directory, into another database.
    name = "w2c_local_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    local = _with_database(server_url, name)
    try:
        env = {**os.environ, settings.DATABASE_URL_VARIABLE: local, "WARC2CORPUS_STAGING": str(tmp_path / "staging")}
        result = subprocess.run([str(Path(sys.executable).with_name("warc2corpus")), "run", "--crawl-job", "demo",
                                 *sorted(map(str, warcs.glob("*.warc.gz")))], env=env, capture_output=True,
                                text=True, timeout=900)
        assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
        with psycopg.connect(local) as conn:
            assert _loaded(conn) == through_s3
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
