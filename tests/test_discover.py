"""Discovery and the ledger: which WARCs a run takes, and readmission of filtered-out hosts."""

from __future__ import annotations

import shutil
from datetime import datetime, timezone

import psycopg
import pytest

from conftest import DEMO_WARCS
from warc2corpus.stages import per_run, run
from warc2corpus.stages.crawljobs import CrawlJob

WARC_1 = "DEMO-20240301120000-00000.warc.gz"
WARC_2 = "DEMO-20240302120000-00001.warc.gz"
WARC_3 = "fjordposten-spesial.warc.gz"  # no timestamp in the name: its first WARC-Date is 2024-03-03


def day(d: int) -> datetime:
    return datetime(2024, 3, d, tzinfo=timezone.utc)


@pytest.fixture
def job(tmp_path) -> CrawlJob:
    directory = tmp_path / "warcs"
    directory.mkdir()
    for name in (WARC_1, WARC_2, WARC_3):
        shutil.copy(DEMO_WARCS / name, directory / name)
    shutil.copy(DEMO_WARCS / WARC_1, directory / "DEMO-20240304120000-00002.warc.gz.open")
    return CrawlJob(name="demo", directory=directory)


def names(selected: list[dict]) -> list[str]:
    return sorted(s["warc_file"].rsplit("/", 1)[1] for s in selected)


@pytest.mark.parametrize("interval, expected", [
    (None, [WARC_1, WARC_2, WARC_3]),
    ((day(1), day(2)), [WARC_1]),
    ((day(2), day(3)), [WARC_2]),
    ((day(3), day(4)), [WARC_3]),
    ((day(4), day(5)), []),
    ((datetime(2019, 1, 1, tzinfo=timezone.utc), datetime(2020, 1, 1, tzinfo=timezone.utc)), []),
])
def test_interval_selects_by_capture_start(corpus_db, job, interval, expected):
    assert names(per_run.discover(job, interval=interval)) == expected


def test_ledger_records_capture_start_and_skips_open_files(corpus_db, job):
    per_run.discover(job)
    with psycopg.connect(corpus_db) as conn:
        rows = dict(conn.execute("SELECT path, capture_start FROM warc_files").fetchall())
    starts = {path.rsplit("/", 1)[1]: value for path, value in rows.items()}
    assert starts == {WARC_1: datetime(2024, 3, 1, 12, tzinfo=timezone.utc),
                      WARC_2: datetime(2024, 3, 2, 12, tzinfo=timezone.utc),
                      WARC_3: datetime(2024, 3, 3, 12, 0, 0, tzinfo=timezone.utc)}


def test_loaded_files_are_left_out_unless_reprocess(corpus_db, staging_dir, job):
    run.run_files([job.directory / WARC_1], "demo")
    assert names(per_run.discover(job)) == [WARC_2, WARC_3]
    assert names(per_run.discover(job, reprocess=True)) == [WARC_1, WARC_2, WARC_3]


def test_a_loaded_file_that_changed_is_taken_again(corpus_db, staging_dir, job):
    run.run_files([job.directory / WARC_3], "demo")
    assert WARC_3 not in names(per_run.discover(job))
    with open(job.directory / WARC_3, "ab") as warc:
        warc.write((DEMO_WARCS / WARC_3).read_bytes())  # the crawler appended records
    assert WARC_3 in names(per_run.discover(job, interval=(day(1), day(2))))


def test_hosts_accepted_later_are_readmitted_whatever_the_order(corpus_db, staging_dir, job, monkeypatch):
    """WARC_2 holds fjordposten articles but not its front page; WARC_1 has the front page.

    Processed newer-first (as parallel backfill runs may), the articles are first filtered out as
    unassessed; once the host is accepted the file is flagged, taken by the next run whatever its
    interval, and the corpus ends up as if the files had come in order. (autoCat would accept the
    host from the articles' footers alone: it reads no article page here, as for a site whose
    articles carry no declaration.)
    """
    from warc2corpus import autocat

    monkeypatch.setitem(autocat.SUPPORTING_PAGES_PER_HOST, "article", 0)
    run.run_files([job.directory / WARC_2], "demo")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM rejections WHERE reason = 'host_unassessed'").fetchone()[0] == 3

    run.run_files([job.directory / WARC_1], "demo")
    readmitted = per_run.discover(job, interval=(day(1), day(2)))
    assert names(readmitted) == [WARC_2]
    for manifest in readmitted:
        run.run_files([manifest["warc_file"]], "demo")

    with psycopg.connect(corpus_db) as conn:
        paths = {r[0] for r in conn.execute("SELECT url_path FROM documents WHERE host = 'www.fjordposten.no'")}
        assert "/amp/nyheter/2024/02/ferja-innstilt" in paths
        assert conn.execute("SELECT count(*) FROM rejections WHERE stage = 'filter'"
                            " AND host = 'www.fjordposten.no'").fetchone()[0] == 0
        assert conn.execute("SELECT count(*) FROM warc_files WHERE readmit").fetchone()[0] == 0
    assert names(per_run.discover(job, interval=(day(1), day(2)))) == []


def test_a_file_whose_name_is_not_utf8_is_left_out_and_said(corpus_db, staging_dir, job, caplog):
    """A WARC named in ISO-8859-1 on a UTF-8 system ("høst" as b"h\\xf8st"): its path is no text PostgreSQL
    takes, and registering it failed the run's discovery, so every file of the run, on every retry. It is
    left out and logged, named as its bytes read; the others are taken. A run given it says so."""
    import os

    latin1 = job.directory / os.fsdecode(b"DEMO-20240305120000-00003-h\xf8st.warc.gz")
    shutil.copy(DEMO_WARCS / WARC_1, latin1)
    with caplog.at_level("WARNING"):
        assert names(per_run.discover(job)) == [WARC_1, WARC_2, WARC_3]
    assert "DEMO-20240305120000-00003-h\\xf8st.warc.gz: its path is not UTF-8" in caplog.text
    [result] = [r for r in run.run_files([latin1], "demo") if r["status"] == "skipped"]
    assert result["warc_file"].endswith("h\\xf8st.warc.gz") and "not UTF-8" in result["error"]


def test_discovery_logs_its_interval_as_dates_not_python_reprs(corpus_db, job, caplog):
    import pendulum

    caplog.set_level("INFO", logger="warc2corpus.stages.per_run")
    # Airflow hands pendulum DateTimes, whose repr is DateTime(2024, 3, 1, 0, 0, 0, tzinfo=Timezone('UTC')).
    per_run.discover(job, interval=(pendulum.datetime(2024, 3, 1), pendulum.datetime(2024, 3, 2)))
    per_run.discover(job, interval=(pendulum.datetime(2024, 3, 1, 6), pendulum.datetime(2024, 3, 1, 18)))
    per_run.discover(job)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("crawl job demo")]
    assert "captured 2024-03-01," in lines[0]
    assert "captured from 2024-03-01T06:00:00+00:00 to 2024-03-01T18:00:00+00:00" in lines[1]
    assert "every file not loaded yet" in lines[2]
    assert not any("DateTime(" in line or "datetime(" in line for line in lines)
