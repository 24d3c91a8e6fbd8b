"""Nothing lost (issue 9): passing faults are retried and broken bytes quarantined, bad paths are
skipped without stopping a run or a discovery, files still being written wait, what dead runs
staged is cleaned up, and a database lost mid-load is one clear line with the file rolled back."""

from __future__ import annotations

import builtins
import json
import logging
import os
import shutil
import subprocess
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import psycopg
import pytest

from conftest import DEMO_WARCS, run_cli
from warc2corpus.reading import warcs
from warc2corpus.stages import per_file, per_run, run
from warc2corpus.store import ledger, load
from warc2corpus.stages.crawljobs import CrawlJob
from warc2corpus.store.staging import OWNER_KEY, Staging

WARC_1 = "DEMO-20240301120000-00000.warc.gz"  # 7 documents when loaded alone
WARC_2 = "DEMO-20240302120000-00001.warc.gz"


@pytest.fixture
def job(tmp_path) -> CrawlJob:
    directory = tmp_path / "warcs"
    directory.mkdir()
    for name in (WARC_1, WARC_2):
        shutil.copy(DEMO_WARCS / name, directory / name)
    return CrawlJob(name="demo", directory=directory)


def ledger_row(url: str, path: Path) -> dict:
    with psycopg.connect(url) as conn:
        cur = conn.execute("SELECT status, attempts, next_attempt_at, error_class, error, readmit"
                           " FROM warc_files WHERE path = %s", (str(path),))
        names = [c.name for c in cur.description]
        row = cur.fetchone()
    return dict(zip(names, row)) if row else {}


def documents_of(url: str, path: Path) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM captures WHERE warc_file = %s AND record_type = 'response'",
                            (str(path),)).fetchone()[0]


def names(selected: list[dict]) -> list[str]:
    return sorted(Path(s["warc_file"]).name for s in selected)


def refuse_to_open(monkeypatch, refused: Path) -> None:
    """Simulated: the operating system refuses to open one file (EACCES). Tests run as root, which
    chmod 000 does not stop, so warcs' open() raises for that path as the kernel would."""
    def guarded_open(file, *args, **kwargs):
        if os.fspath(file) == str(refused):
            raise PermissionError(13, "Permission denied", str(refused))
        return builtins.open(file, *args, **kwargs)
    monkeypatch.setattr(warcs, "open", guarded_open, raising=False)


def run_selected(job: CrawlJob, **discover) -> list[dict]:
    """What a DAG run does with the job: discover, then process the files it took."""
    selected = per_run.discover(job, **discover)
    return run.run_files([Path(s["warc_file"]) for s in selected], job.name) if selected else []


# --- 1. passing faults are retried, broken bytes quarantined ------------------------------------

def test_a_passing_fault_is_retried_when_due_and_loads_once_it_has_passed(corpus_db, staging_dir, job,
                                                                          monkeypatch):
    path = job.directory / WARC_1
    refuse_to_open(monkeypatch, path)
    results = run_selected(job)
    assert {Path(r["warc_file"]).name: r["status"] for r in results} == {WARC_1: "retry", WARC_2: "loaded"}
    row = ledger_row(corpus_db, path)
    assert (row["status"], row["attempts"], row["error_class"]) == ("retry", 1, "PermissionError")
    wait = (row["next_attempt_at"] - datetime.now(timezone.utc)).total_seconds()
    assert 250 < wait <= 300  # the first delay: 5 minutes

    assert per_run.discover(job) == []  # not due yet: no run takes it (the quarantine of old never came back)

    with psycopg.connect(corpus_db) as conn:  # the 5 minutes pass
        conn.execute("UPDATE warc_files SET next_attempt_at = now() - interval '1 second'")
    monkeypatch.delattr(warcs, "open")  # the permission is back
    other_day = (datetime(2019, 1, 1, tzinfo=timezone.utc), datetime(2019, 1, 2, tzinfo=timezone.utc))
    assert names(per_run.discover(job, interval=other_day)) == [WARC_1]  # a due retry, whatever the interval
    results = run_selected(job, interval=other_day)
    assert [r["status"] for r in results] == ["loaded"]
    assert ledger_row(corpus_db, path)["attempts"] == 0 and documents_of(corpus_db, path) == 7


def test_after_the_last_attempt_a_passing_fault_is_quarantined_and_requeue_brings_it_back(
        corpus_db, staging_dir, job, monkeypatch, capsys):
    monkeypatch.setenv("WARC2CORPUS_RETRY_ATTEMPTS", "2")
    monkeypatch.setenv("WARC2CORPUS_RETRY_DELAY_SECONDS", "0")
    path = job.directory / WARC_1
    refuse_to_open(monkeypatch, path)
    assert [r["status"] for r in run.run_files([path], "demo")] == ["retry"]
    assert names(per_run.discover(job)) == [WARC_1, WARC_2]  # due at once with no delay
    assert [r["status"] for r in run.run_files([path], "demo")] == ["quarantined"]
    row = ledger_row(corpus_db, path)
    assert row["status"] == "quarantined" and row["attempts"] == 2
    assert row["error"].startswith("gave up after 2 attempts: [Errno 13] Permission denied")
    assert names(per_run.discover(job)) == [WARC_2]  # quarantined files are not taken again by themselves

    monkeypatch.delattr(warcs, "open")  # the permission is back
    code, out, err = run_cli(capsys, "requeue", "--status", "quarantined", "--crawl-job", "other")
    assert code == 0 and out.strip() == "0 files re-queued: the next run takes them"
    code, out, err = run_cli(capsys, "requeue", "--status", "quarantined", "--crawl-job", "demo")
    assert code == 0 and out.splitlines() == [f"re-queued {path} (was quarantined)",
                                              "1 file re-queued: the next run takes it"]
    assert ledger_row(corpus_db, path)["error"] is None
    one_day = (datetime(2024, 3, 2, tzinfo=timezone.utc), datetime(2024, 3, 3, tzinfo=timezone.utc))
    assert names(per_run.discover(job, interval=one_day)) == [WARC_1, WARC_2]  # re-queued: whatever the interval
    assert [r["status"] for r in run_selected(job, interval=one_day)] == ["loaded", "loaded"]
    assert documents_of(corpus_db, path) == 7


def test_requeue_by_path_and_its_errors(corpus_db, staging_dir, job, capsys, tmp_path):
    empty = job.directory / "CRAWL-20240301000000-00009.warc.gz"
    empty.write_bytes(b"")
    run.run_files([empty], "demo")
    assert ledger_row(corpus_db, empty)["status"] == "quarantined"
    code, _, err = run_cli(capsys, "requeue", str(empty), str(tmp_path / "unknown.warc.gz"))
    assert code == 2 and err.count("\n") == 1
    assert f"not in the ledger: {tmp_path / 'unknown.warc.gz'}" in err and "nothing re-queued" in err
    assert ledger_row(corpus_db, empty)["status"] == "quarantined"
    code, _, err = run_cli(capsys, "requeue")
    assert code == 2 and "give either PATH... or --status" in err
    code, out, _ = run_cli(capsys, "requeue", str(empty))
    assert code == 0 and f"re-queued {empty} (was quarantined)" in out
    assert ledger_row(corpus_db, empty)["status"] == "discovered"


def test_a_real_operating_system_error_is_passing(corpus_db, staging_dir, job):
    """No simulation: the file is replaced by a directory between discovery and extraction (open()
    raises IsADirectoryError); put back, the next discovery takes it and it loads."""
    path = job.directory / WARC_1
    assert WARC_1 in names(per_run.discover(job))
    saved = path.with_name("saved")
    path.rename(saved)
    path.mkdir()
    manifest = per_file.extract(str(path), "demo", "run-1")
    assert manifest["status"] == "retry"
    assert ledger_row(corpus_db, path)["error_class"] == "IsADirectoryError"
    path.rmdir()
    saved.rename(path)
    os.utime(path)  # as a copy back would
    assert names(per_run.discover(job)) == [WARC_1, WARC_2]  # changed since: taken before its retry is due
    assert [r["status"] for r in run_selected(job)] == ["loaded", "loaded"]


def test_a_file_that_changes_while_it_is_read_is_retried(corpus_db, staging_dir, job):
    """The crawler appends to the file while it is read (really: the progress callback appends)."""
    path = job.directory / WARC_1
    per_run.discover(job)

    def grow(counts, position):  # once: the progress callback comes with every record
        if counts["records"] == 1:
            with open(path, "ab") as warc:
                warc.write((DEMO_WARCS / WARC_2).read_bytes())

    manifest = per_file.extract(str(path), "demo", "run-1", on_progress=grow)
    assert manifest["status"] == "retry" and "changed while it was read" in manifest["error"]
    assert ledger_row(corpus_db, path)["error_class"] == "FileChanged"


def test_broken_bytes_are_quarantined_at_once(corpus_db, staging_dir, tmp_path):
    empty = tmp_path / "CRAWL-20240301000000-00001.warc.gz"
    empty.write_bytes(b"")
    corrupt = tmp_path / "CRAWL-20240301000000-00002.warc.gz"
    corrupt.write_bytes(b"\x1f\x8b" + os.urandom(200))
    results = run.run_files([empty, corrupt], "manual")
    assert [r["status"] for r in results] == ["quarantined", "quarantined"]  # never `loaded` with 0 records
    assert ledger_row(corpus_db, empty)["error_class"] == "EmptyFile"
    assert ledger_row(corpus_db, empty)["error"] == "the file is empty (0 bytes)"
    assert ledger_row(corpus_db, corrupt)["error_class"] == "CorruptGzip"
    assert ledger_row(corpus_db, corrupt)["attempts"] == 0


# --- 2. one bad path never stops a run or a discovery -------------------------------------------

def test_bad_paths_are_skipped_and_the_other_files_load(corpus_db, staging_dir, capsys, tmp_path):
    loop = tmp_path / "loop.warc.gz"
    loop.symlink_to(tmp_path / "loop2.warc.gz")
    (tmp_path / "loop2.warc.gz").symlink_to(loop)
    missing = tmp_path / "nope.warc.gz"
    fifo = tmp_path / "fifo.warc.gz"
    os.mkfifo(fifo)
    code, out, err = run_cli(capsys, "run", str(loop), str(DEMO_WARCS / WARC_1), str(missing), str(fifo),
                             "--crawl-job", "demo")
    assert code == 3
    assert f"warc2corpus: skipped {loop}: Too many levels of symbolic links" in err
    assert f"warc2corpus: skipped {missing}: No such file or directory" in err
    assert f"warc2corpus: skipped {fifo}: not a regular file" in err
    assert "3 of 4 inputs not loaded" in err
    rows = {line.split()[0]: line for line in out.splitlines()[2:6]}
    assert "skipped: Too many levels of symbolic links" in rows["loop.warc.gz"]
    assert rows[WARC_1].split()[1:4] == ["loaded", "15", "12"]
    code, out, _ = run_cli(capsys, "stats", "--json")
    assert json.loads(out)["warc_files_by_status"] == {"loaded": 1}  # skipped paths are not in the ledger


def test_discovery_skips_what_it_cannot_look_at(corpus_db, job, caplog):
    directory = job.directory
    (directory / "loop.warc.gz").symlink_to(directory / "loop2.warc.gz")
    (directory / "loop2.warc.gz").symlink_to(directory / "loop.warc.gz")
    (directory / "dangling.warc.gz").symlink_to(directory / "gone.warc.gz")
    os.mkfifo(directory / "fifo.warc.gz")
    (directory / "folder.warc.gz").mkdir()
    with caplog.at_level(logging.WARNING):
        assert names(per_run.discover(job)) == [WARC_1, WARC_2]
    skipped = {Path(r.args[1]).name: r.getMessage() for r in caplog.records if "skipped" in r.msg}
    assert "Too many levels of symbolic links" in skipped["loop.warc.gz"]
    assert "No such file or directory" in skipped["dangling.warc.gz"]
    assert "not a regular file" in skipped["fifo.warc.gz"] and "not a regular file" in skipped["folder.warc.gz"]


def test_an_unlistable_crawl_job_directory_is_logged(corpus_db, tmp_path, caplog):
    job = CrawlJob(name="gone", directory=tmp_path / "nowhere")
    with caplog.at_level(logging.ERROR):
        assert per_run.discover(job) == []
    assert "cannot list" in caplog.text and "nowhere" in caplog.text


# --- 3. files still being written wait --------------------------------------------------------

def test_files_modified_within_the_settle_time_wait(corpus_db, job, monkeypatch, caplog):
    monkeypatch.setenv("WARC2CORPUS_SETTLE_SECONDS", "60")
    old = time.time() - 3600
    os.utime(job.directory / WARC_2, (old, old))
    with caplog.at_level(logging.INFO):
        assert names(per_run.discover(job)) == [WARC_2]  # WARC_1 was copied just now
    assert "less than the settle time of 60 s" in caplog.text
    with psycopg.connect(corpus_db) as conn:  # not even registered with a size that may still change
        assert conn.execute("SELECT count(*) FROM warc_files").fetchone()[0] == 1
    os.utime(job.directory / WARC_1, (old, old))
    assert names(per_run.discover(job)) == [WARC_1, WARC_2]


def test_a_file_that_grows_between_two_looks_waits(job):
    path = job.directory / WARC_1
    first_look = path.stat()
    assert ledger.unsettled(path, first_look, 0) is None
    with open(path, "ab") as warc:
        warc.write(b"more")
    assert ledger.unsettled(path, first_look, 0).startswith("still being written")


# --- 4. what dead runs staged is cleaned up ------------------------------------------------------

def dead_pid() -> int:
    process = subprocess.Popen([sys.executable, "-c", "pass"])
    process.wait()
    return process.pid


def make_run(staging: Staging, prefix: str, owner_pid: int | None, age_hours: float = 0) -> Path:
    staging.write_jsonl(f"{prefix}/file-1/extracted.jsonl.gz", [{"text": "x" * 1000}])
    if owner_pid is not None:
        staging.claim(prefix)
        if owner_pid != os.getpid():  # as written by another process
            owner = staging.read_json(f"{prefix}/{OWNER_KEY}") | {"pid": owner_pid, "process_start": "1"}
            staging.write_json(f"{prefix}/{OWNER_KEY}", owner)
    run = staging.path(prefix)
    when = time.time() - age_hours * 3600
    for entry in [run, *run.rglob("*")]:
        os.utime(entry, (when, when))
    return run


def test_staging_clean_removes_dead_runs_and_keeps_live_ones(staging_dir, capsys):
    staging = Staging()
    dead = make_run(staging, "manual/cli-dead", dead_pid())
    live = make_run(staging, "manual/cli-live", os.getpid(), age_hours=48)  # idle, but its process lives
    abandoned = make_run(staging, "demo/scheduled__2024-03-01", None, age_hours=25)
    working = make_run(staging, "demo/manual__2024-03-02", None, age_hours=2)

    code, out, _ = run_cli(capsys, "staging", "clean", "--dry-run")
    assert code == 0 and "2 run directories to remove" in out
    assert dead.exists() and abandoned.exists()
    code, out, _ = run_cli(capsys, "staging", "clean")
    assert code == 0
    assert f"removed {dead} (" in out and "on this host has ended" in out
    assert f"removed {abandoned} (" in out and "nothing written for 25.0 h (limit 24 h)" in out
    assert "2 run directories removed" in out and "2 kept" in out
    assert not dead.exists() and not abandoned.exists()
    assert live.exists() and working.exists()


def test_a_run_cleans_up_after_dead_runs_and_leaves_nothing_itself(corpus_db, staging_dir, capsys):
    staging = Staging()
    dead = make_run(staging, "manual/cli-dead", dead_pid())
    code, _, _ = run_cli(capsys, "run", str(DEMO_WARCS / WARC_1))
    assert code == 0 and not dead.exists()
    assert [p.name for p in staging_dir.glob("*/*")] == []


def test_the_staging_of_a_killed_run_is_removed_by_the_next_run(corpus_db, staging_dir, capsys):
    """The case of the issue: `warc2corpus run` killed (SIGKILL) while it works leaves its staging."""
    script = Path(sys.executable).with_name("warc2corpus")
    process = subprocess.Popen([str(script), "run", str(DEMO_WARCS / WARC_1)], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while not list(staging_dir.glob(f"manual/*/{OWNER_KEY}")) and time.monotonic() < deadline:
        assert process.poll() is None, "the run ended before it staged anything"
        time.sleep(0.05)
    process.kill()
    process.wait()
    left = [p for p in staging_dir.glob("manual/*") if p.is_dir()]
    assert len(left) == 1  # what the killed run left behind
    code, out, _ = run_cli(capsys, "staging", "clean", "--dry-run")
    assert code == 0 and f"would remove {left[0]}" in out and f"its process {process.pid} on this host" in out
    code, _, _ = run_cli(capsys, "run", str(DEMO_WARCS / WARC_2))
    assert code == 0 and not left[0].exists()


# --- 5. the database lost mid-load --------------------------------------------------------------

def test_the_database_lost_mid_load_is_one_line_and_the_file_is_rolled_back(corpus_db, staging_dir, capsys,
                                                                            monkeypatch):
    """The loading connection is really terminated (pg_terminate_backend from another connection)
    while the load copies the file's documents."""
    path = DEMO_WARCS / WARC_1
    load_warc = load.load_warc
    terminated = []

    def load_and_lose_the_server(conn, warc_file, *, documents, **kwargs):
        def documents_until_the_server_goes():
            for number, document in enumerate(documents()):
                if number == 2 and not terminated:
                    with psycopg.connect(corpus_db, autocommit=True) as other:
                        terminated.append(other.execute(
                            "SELECT pg_terminate_backend(%s)", (conn.info.backend_pid,)).fetchone()[0])
                yield document
        return load_warc(conn, warc_file, documents=documents_until_the_server_goes, **kwargs)

    monkeypatch.setattr(load, "load_warc", load_and_lose_the_server)
    code, _, err = run_cli(capsys, "run", str(path))
    assert terminated == [True]
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"lost the corpus database while loading {path}" in err and "rolled back" in err and "run again" in err
    assert ledger_row(corpus_db, path)["status"] == "extracted"
    assert documents_of(corpus_db, path) == 0

    monkeypatch.setattr(load, "load_warc", load_warc)
    code, out, _ = run_cli(capsys, "run", str(path))
    assert code == 0 and ledger_row(corpus_db, path)["status"] == "loaded"
    assert documents_of(corpus_db, path) == 7
