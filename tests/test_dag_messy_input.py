"""No input file can fail a DAG run: broken WARCs next to good ones, through the real DAG."""

from __future__ import annotations

import os
import shutil
import time

import psycopg

from conftest import DEMO_WARCS
from test_dag import load_dag_module


def test_broken_files_never_fail_the_dag_run(tmp_path, monkeypatch, corpus_db, staging_dir, airflow_db):
    warcs = tmp_path / "warcs"
    warcs.mkdir()
    shutil.copy(DEMO_WARCS / "DEMO-20240301120000-00000.warc.gz", warcs)
    (warcs / "EMPTY-20240301000000-00001.warc.gz").write_bytes(b"")
    (warcs / "GARBAGE-20240301000000-00002.warc.gz").write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    good = (DEMO_WARCS / "DEMO-20240302120000-00001.warc.gz").read_bytes()
    (warcs / "CUT-20240302000000-00003.warc.gz").write_bytes(good[: len(good) * 2 // 3])
    (warcs / "LOOP-20240301000000-00004.warc.gz").symlink_to(warcs / "LOOP-20240301000000-00004.warc.gz")
    (warcs / "DANGLING-20240301000000-00005.warc.gz").symlink_to(warcs / "gone.warc.gz")
    # named in ISO-8859-1 ("høst"): no path PostgreSQL's text takes; it failed discovery, so the whole run
    (warcs / os.fsdecode(b"LATIN1-20240301000000-00006-h\xf8st.warc.gz")).write_bytes(good)
    # What runs that are over left in staging: discover removes it (nothing written for over a day),
    # and keeps what a run at work writes.
    abandoned, working = staging_dir / "messy" / "scheduled__2024-02-29", staging_dir / "messy" / "manual__busy"
    for run_directory in (abandoned, working):
        (run_directory / "file-1").mkdir(parents=True)
        (run_directory / "file-1" / "extracted.jsonl.gz").write_bytes(b"x" * 1000)
    day_old = time.time() - 25 * 3600
    for entry in (abandoned, abandoned / "file-1", abandoned / "file-1" / "extracted.jsonl.gz"):
        os.utime(entry, (day_old, day_old))
    config = tmp_path / "config" / "crawl_jobs.yaml"
    config.parent.mkdir()
    config.write_text(f"crawl_jobs:\n  - name: messy\n    directory: {warcs}\n")
    monkeypatch.setenv("WARC2CORPUS_CRAWL_JOBS", str(config))

    run = load_dag_module("dag_messy").dag.test()
    assert run.state == "success"
    assert not abandoned.exists() and working.exists()
    with psycopg.connect(corpus_db) as conn:
        ledger = {path.rsplit("/", 1)[1]: (status, error) for path, status, error in
                  conn.execute("SELECT path, status, error FROM warc_files").fetchall()}
        documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    assert len(ledger) == 4  # the symlink loop, the dangling symlink and the Latin-1 name are logged and left out
    with psycopg.connect(corpus_db) as conn:  # the run's claims on its files ended with it
        assert conn.execute("SELECT count(*) FROM warc_files WHERE claimed_by IS NOT NULL").fetchone()[0] == 0
    assert ledger["DEMO-20240301120000-00000.warc.gz"] == ("loaded", None)
    assert ledger["EMPTY-20240301000000-00001.warc.gz"] == ("quarantined", "the file is empty (0 bytes)")
    assert ledger["GARBAGE-20240301000000-00002.warc.gz"][0] == "quarantined"
    assert ledger["CUT-20240302000000-00003.warc.gz"][0] == "partial"
    assert all(error for status, error in ledger.values() if status in ("partial", "quarantined"))
    assert documents >= 7

    # Each mapped task instance is named by its WARC file (map_index_template), a failed file found at a glance.
    from airflow.models import TaskInstance
    from airflow.utils.session import create_session
    from sqlalchemy import select

    with create_session() as session:
        names = session.execute(select(TaskInstance.task_id, TaskInstance.rendered_map_index).where(
            TaskInstance.run_id == run.run_id, TaskInstance.map_index >= 0)).all()
    for stage in ("extract", "filter", "deduplicate", "load"):
        shown = {name for task_id, name in names if task_id == f"messy.{stage}"}
        assert shown == set(ledger), (stage, shown)

    # The run's counts are the metadata of its corpus asset event (shown in Airflow's UI).
    from airflow.models.asset import AssetEvent, AssetModel

    from warc2corpus.settings import CORPUS_ASSET

    with create_session() as session:
        events = session.execute(select(AssetEvent.extra).join(AssetModel, AssetEvent.asset_id == AssetModel.id)
                                 .where(AssetModel.name == CORPUS_ASSET, AssetEvent.source_run_id == run.run_id)).all()
    assert len(events) == 1, events
    extra = events[0][0]
    assert extra["files"] == {"loaded": 1, "quarantined": 2, "partial": 1}  # the empty file is quarantined
    assert extra["new_documents"] == documents
    assert extra["records"] > extra["documents_extracted"] >= documents
