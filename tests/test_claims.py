"""Two runs never process one file at the same time (issue 13): a run claims the files it discovers;
another run leaves them out until the first records their outcome, ends, or its claim lapses."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest

from conftest import DEMO_WARCS, run_cli
from warc2corpus.stages import per_run, run
from warc2corpus.stages.crawljobs import CrawlJob
from warc2corpus.store import db, ledger

WARC_1 = "DEMO-20240301120000-00000.warc.gz"
WARC_2 = "DEMO-20240302120000-00001.warc.gz"


@pytest.fixture
def job(tmp_path) -> CrawlJob:
    directory = tmp_path / "warcs"
    directory.mkdir()
    for name in (WARC_1, WARC_2):
        shutil.copy(DEMO_WARCS / name, directory / name)
    return CrawlJob(name="demo", directory=directory)


def names(selected: list[dict]) -> list[str]:
    return sorted(Path(s["warc_file"]).name for s in selected)


def claims(url: str) -> dict[str, str | None]:
    with psycopg.connect(url) as conn:
        return {Path(p).name: run for p, run in conn.execute("SELECT path, claimed_by FROM warc_files")}


def test_a_readmitted_file_is_processed_by_one_run_at_a_time(corpus_db, staging_dir, job):
    # The case of the issue: a manual run is processing a readmitted file when the DAG is unpaused and
    # a scheduled run (whose interval does not hold the file) discovers; readmitted files are always taken.
    assert names(per_run.discover(job, run_id="manual__1")) == [WARC_1, WARC_2]
    with db.connect() as conn:
        conn.execute("UPDATE warc_files SET readmit = true WHERE path LIKE %s", (f"%{WARC_1}",))
        conn.commit()
    assert names(per_run.discover(job, run_id="manual__1")) == [WARC_1, WARC_2]  # its own claims
    assert per_run.discover(job, interval=None, run_id="scheduled__2")  == []
    assert claims(corpus_db) == {WARC_1: "manual__1", WARC_2: "manual__1"}

    # The outcome of one file ends the claim on it; the end of the run ends the others.
    with db.connect() as conn:
        ledger.mark(conn, str(job.directory / WARC_1), "loaded")
        conn.commit()
    assert claims(corpus_db)[WARC_1] is None
    with db.connect() as conn:
        conn.execute("UPDATE warc_files SET readmit = true WHERE path LIKE %s", (f"%{WARC_1}",))
        conn.commit()
    assert names(per_run.discover(job, run_id="scheduled__2")) == [WARC_1]
    assert per_run.release_claims("manual__1") == 1
    assert names(per_run.discover(job, run_id="scheduled__3")) == [WARC_2]
    assert claims(corpus_db) == {WARC_1: "scheduled__2", WARC_2: "scheduled__3"}


def test_progress_renews_a_claim_and_an_unrenewed_claim_lapses(corpus_db, staging_dir, job, monkeypatch):
    per_run.discover(job, run_id="died__1")
    with db.connect() as conn:
        conn.execute("UPDATE warc_files SET claimed_at = now() - interval '2 hours'")
        ledger.mark(conn, str(job.directory / WARC_1), "extracted")  # progress on one file
        conn.commit()
    monkeypatch.setenv(ledger.CLAIM_HOURS_VARIABLE, "1")
    assert names(per_run.discover(job, run_id="later__2")) == [WARC_2]
    assert claims(corpus_db) == {WARC_1: "died__1", WARC_2: "later__2"}
    monkeypatch.setenv(ledger.CLAIM_HOURS_VARIABLE, "soon")
    with pytest.raises(ValueError, match="WARC2CORPUS_CLAIM_HOURS"):
        per_run.discover(job, run_id="later__3")


def test_warc2corpus_run_leaves_out_a_file_another_run_is_processing(corpus_db, staging_dir, job, capsys):
    per_run.discover(job, run_id="scheduled__busy")
    with db.connect() as conn:
        ledger.release(conn, "scheduled__busy")
        ledger.claim(conn, [str(job.directory / WARC_2)], "scheduled__busy")
        conn.commit()
    code, out, err = run_cli(capsys, "run", str(job.directory / WARC_1), str(job.directory / WARC_2))
    assert code == 3, out + err  # some input could not be taken
    assert "run scheduled__busy is processing it" in out + err
    assert claims(corpus_db) == {WARC_1: None, WARC_2: "scheduled__busy"}  # its own claims ended with it


def test_a_killed_warc2corpus_run_does_not_hold_its_files(corpus_db, staging_dir, job):
    # A `warc2corpus run` that died on this host: its claims are taken over at once, not after a day.
    died = subprocess.run([sys.executable, "-c", "from warc2corpus.stages import run; print(run.cli_run_id())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    assert run.cli_run_over(died) and not run.cli_run_over(run.cli_run_id())
    assert not run.cli_run_over("scheduled__2024-03-01T00:00:00+00:00")
    per_run.discover(job, run_id=died)
    results = run.run_files([job.directory / WARC_1], "demo")
    assert [r["status"] for r in results] == ["loaded"]
    assert claims(corpus_db) == {WARC_1: None, WARC_2: died}
