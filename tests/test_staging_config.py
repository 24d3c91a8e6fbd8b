"""Staging area, crawl-job config, settings and the ledger's interval check."""

from __future__ import annotations

import gzip
import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from warc2corpus import settings
from warc2corpus.store import ledger
from warc2corpus.stages.crawljobs import ConfigError, CrawlJob, crawl_job, load_crawl_jobs
from warc2corpus.store.staging import Staging

ROWS = [
    {"id": 1, "text": "Blåbærsyltetøy på brødskiva – «sitat»", "tokens": ["Blåbærsyltetøy", "på"]},
    {"id": 2, "text": "Sámi: Váldodoaimmaheaddji čđŋšŧž", "none": None, "nested": {"a": [1.5, True]}},
    {"id": 3, "text": "emoji 🙂 and NFD a\u030a", "empty": ""},
]


# --- staging ---------------------------------------------------------------------------------------


def test_jsonl_round_trip_with_unicode(tmp_path):
    staging = Staging(tmp_path)
    key = Staging.key("extract", "TEST-20190412093000-00001-host.warc.gz", "documents.jsonl.gz")
    assert staging.write_jsonl(key, iter(ROWS)) == 3
    assert list(staging.read_jsonl(key)) == ROWS
    path = staging.path(key)
    assert path == tmp_path / key and path.is_file()
    raw = gzip.decompress(path.read_bytes()).decode("utf-8")
    assert "Blåbærsyltetøy" in raw  # written as UTF-8, not \u escapes
    assert [json.loads(line) for line in raw.splitlines()] == ROWS


def test_empty_jsonl(tmp_path):
    staging = Staging(tmp_path)
    assert staging.write_jsonl("a/empty", []) == 0
    assert list(staging.read_jsonl("a/empty")) == []


def test_json_round_trip(tmp_path):
    staging = Staging(tmp_path)
    manifest = {"warc": "/data/ø.warc.gz", "counts": {"records": 7}, "keys": ["a", "b"]}
    staging.write_json("m/manifest", manifest)
    assert staging.read_json("m/manifest") == manifest


def test_overwrite_replaces_content(tmp_path):
    staging = Staging(tmp_path)
    staging.write_jsonl("k", ROWS)
    staging.write_jsonl("k", ROWS[:1])
    assert list(staging.read_jsonl("k")) == ROWS[:1]


def test_atomic_write_leaves_no_temporary_files(tmp_path):
    staging = Staging(tmp_path)
    staging.write_jsonl("run/one", ROWS)
    staging.write_jsonl("run/two", ROWS)
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["one", "two"]


def test_failed_write_keeps_the_old_file(tmp_path):
    staging = Staging(tmp_path)
    staging.write_jsonl("run/one", ROWS)

    def broken():
        yield {"id": 9}
        raise RuntimeError("task died half way")

    with pytest.raises(RuntimeError):
        staging.write_jsonl("run/one", broken())
    assert list(staging.read_jsonl("run/one")) == ROWS  # a reader never sees half a file


@pytest.mark.parametrize(
    "parts, expected",
    [
        (("extract", "file.warc.gz"), "extract/file.warc.gz"),
        (("a b/c", "d"), "a_b_c/d"),
        (("../../etc", "passwd"), "etc/passwd"),
        ((".hidden.", "x"), "hidden/x"),
        (("", "..", "ok"), "_/_/ok"),
        (("blåbær", "v1+2"), "bl_b_r/v1+2"),
        ((2024, "x"), "2024/x"),
    ],
)
def test_key_sanitises(parts, expected):
    assert Staging.key(*parts) == expected


def test_keys_stay_inside_the_base(tmp_path):
    staging = Staging(tmp_path / "base")
    key = Staging.key("..", "../..", "/etc/passwd")
    assert ".." not in key.split("/")
    assert staging.path(key).resolve().is_relative_to((tmp_path / "base").resolve())


def test_remove_prefix(tmp_path):
    staging = Staging(tmp_path)
    staging.write_jsonl("run1/a", ROWS)
    staging.write_jsonl("run1/sub/b", ROWS)
    staging.write_jsonl("run2/a", ROWS)
    staging.remove("run1")
    assert not (tmp_path / "run1").exists()
    assert list(staging.read_jsonl("run2/a")) == ROWS
    staging.remove("does-not-exist")  # no error


def test_base_from_environment(staging_dir):
    staging = Staging()
    assert staging.base == staging_dir
    staging.write_jsonl("x/y", ROWS[:1])
    assert (staging_dir / "x" / "y").is_file()


# --- crawl jobs --------------------------------------------------------------------------------------


@pytest.fixture
def project(tmp_path) -> Path:
    """A project folder with config/ and a WARC directory."""
    (tmp_path / "config").mkdir()
    warcs = tmp_path / "data" / "warcs"
    warcs.mkdir(parents=True)
    for name in ("B-20190101000000-00001-h.warc.gz", "A-20190101000000-00000-h.warc.gz",
                 "C-20190101000000-00002-h.warc.gz.open", "notes.txt"):
        (warcs / name).write_bytes(b"x")
    (warcs / "subdir.warc.gz").mkdir()
    return tmp_path


def _config(project: Path, text: str) -> Path:
    path = project / "config" / "crawl_jobs.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_config(project):
    path = _config(project, """
crawl_jobs:
  - name: demo
    directory: data/warcs
    description: Small test job
  - name: absolute_job-2
    directory: /srv/warcs
    glob: "*.warc"
""")
    jobs = load_crawl_jobs(path)
    assert jobs == [
        CrawlJob(name="demo", directory=project.resolve() / "data" / "warcs", glob="*.warc.gz",
                 description="Small test job"),
        CrawlJob(name="absolute_job-2", directory=Path("/srv/warcs"), glob="*.warc", description=""),
    ]
    assert crawl_job("demo", path) == jobs[0]


def test_relative_directory_resolved_from_config_folders_parent(project, monkeypatch, tmp_path):
    path = _config(project, "crawl_jobs:\n  - name: demo\n    directory: data/warcs\n")
    monkeypatch.chdir(tmp_path / "data")  # the working directory does not matter
    (job,) = load_crawl_jobs(path)
    assert job.directory == project.resolve() / "data" / "warcs"
    assert job.directory.is_dir()


def test_warc_files_sorted_without_open_files(project):
    job = CrawlJob(name="demo", directory=project / "data" / "warcs")
    assert [p.name for p in job.warc_files()] == [
        "A-20190101000000-00000-h.warc.gz",
        "B-20190101000000-00001-h.warc.gz",
    ]
    everything = CrawlJob(name="all", directory=project / "data" / "warcs", glob="*")
    assert [p.name for p in everything.warc_files()] == [
        "A-20190101000000-00000-h.warc.gz",
        "B-20190101000000-00001-h.warc.gz",
        "notes.txt",
    ]


def test_config_file_from_environment(project, monkeypatch):
    path = _config(project, "crawl_jobs:\n  - name: envjob\n    directory: data/warcs\n")
    monkeypatch.setenv("WARC2CORPUS_CRAWL_JOBS", str(path))
    assert settings.crawl_jobs_file() == path.resolve()
    assert [job.name for job in load_crawl_jobs()] == ["envjob"]


def test_missing_file(tmp_path):
    path = tmp_path / "config" / "nope.yaml"
    with pytest.raises(ConfigError, match=r"cannot read crawl-job config .*nope\.yaml"):
        load_crawl_jobs(path)


def test_invalid_yaml(project):
    path = _config(project, "crawl_jobs:\n  - name: demo\n    directory: [unclosed\n")
    with pytest.raises(ConfigError, match="is not valid YAML"):
        load_crawl_jobs(path)


@pytest.mark.parametrize("text", ["", "crawl_jobs: []\n", "crawl_jobs:\n", "other: 1\n", "- name: x\n",
                                  "crawl_jobs: {name: demo}\n"])
def test_empty_or_missing_list(project, text):
    path = _config(project, text)
    with pytest.raises(ConfigError, match="expected a non-empty list under 'crawl_jobs'"):
        load_crawl_jobs(path)


def test_entry_not_a_mapping(project):
    path = _config(project, "crawl_jobs:\n  - demo\n")
    with pytest.raises(ConfigError, match=r"crawl job #1 is not a mapping"):
        load_crawl_jobs(path)


def test_duplicate_names(project):
    path = _config(project, """
crawl_jobs:
  - {name: demo, directory: a}
  - {name: other, directory: b}
  - {name: demo, directory: c}
""")
    with pytest.raises(ConfigError, match=r"crawl job name 'demo' is used twice"):
        load_crawl_jobs(path)


@pytest.mark.parametrize("name", ["", "with space", "ø-jobb", "a/b", "x.y"])
def test_bad_name(project, name):
    path = _config(project, "crawl_jobs:\n  - {name: ok, directory: a}\n  - name: " + json.dumps(name)
                   + "\n    directory: b\n")
    with pytest.raises(ConfigError, match=r"crawl job #2 needs a name of letters, digits, '-' or '_'"):
        load_crawl_jobs(path)


def test_name_missing(project):
    path = _config(project, "crawl_jobs:\n  - directory: a\n")
    with pytest.raises(ConfigError, match=r"crawl job #1 needs a name"):
        load_crawl_jobs(path)


@pytest.mark.parametrize("entry", ["{name: demo}", "{name: demo, directory: ''}", "{name: demo, directory: null}"])
def test_missing_directory(project, entry):
    path = _config(project, f"crawl_jobs:\n  - {entry}\n")
    with pytest.raises(ConfigError, match=r"crawl job 'demo' has no 'directory'"):
        load_crawl_jobs(path)


def test_error_message_names_the_file(project):
    path = _config(project, "crawl_jobs: []\n")
    with pytest.raises(ConfigError) as caught:
        load_crawl_jobs(path)
    assert str(path) in str(caught.value)


def test_unknown_crawl_job(project):
    path = _config(project, "crawl_jobs:\n  - {name: demo, directory: a}\n")
    with pytest.raises(ConfigError, match=r"no crawl job named 'other'"):
        crawl_job("other", path)


def test_config_error_is_a_value_error():
    assert issubclass(ConfigError, ValueError)


# --- settings ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, expected",
    [
        ("", None),
        ("   ", None),
        ("postgresql://u:p@db:5432/corpus", "postgresql://u:p@db:5432/corpus"),
        ("postgres://u:p@db:5432/corpus", "postgresql://u:p@db:5432/corpus"),
        ("postgres://u:p@db:5432/corpus?__extra__=%7B%7D", "postgresql://u:p@db:5432/corpus"),
        ("postgres://u:p@db/corpus?sslmode=require&__extra__=%7B%22a%22%3A1%7D",
         "postgresql://u:p@db/corpus?sslmode=require"),
        ("postgresql://u:p@db/corpus?__extra__=%7B%7D&sslmode=disable&connect_timeout=5",
         "postgresql://u:p@db/corpus?sslmode=disable&connect_timeout=5"),
        ("  postgres://u@db/corpus  ", "postgresql://u@db/corpus"),
    ],
)
def test_external_database_url(monkeypatch, value, expected):
    monkeypatch.setenv(settings.DATABASE_URL_VARIABLE, value)
    assert settings.external_database_url() == expected


def test_external_database_url_unset(monkeypatch):
    monkeypatch.delenv(settings.DATABASE_URL_VARIABLE, raising=False)
    assert settings.external_database_url() is None


def test_locations_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("WARC2CORPUS_HOME", str(tmp_path))
    monkeypatch.delenv("WARC2CORPUS_STAGING", raising=False)
    monkeypatch.delenv("WARC2CORPUS_PGDATA", raising=False)
    monkeypatch.delenv("WARC2CORPUS_CRAWL_JOBS", raising=False)
    assert settings.project_home() == tmp_path.resolve()
    assert settings.staging_base() == str(tmp_path.resolve() / "var" / "staging")
    assert settings.embedded_pgdata() == tmp_path.resolve() / "var" / "postgres"
    assert settings.crawl_jobs_file() == tmp_path.resolve() / "config" / "crawl_jobs.yaml"
    monkeypatch.setenv("WARC2CORPUS_STAGING", str(tmp_path / "s"))
    assert settings.staging_base() == str(tmp_path / "s")


# --- ledger.in_interval -------------------------------------------------------------------------------

START = datetime(2024, 8, 1, tzinfo=timezone.utc)
END = datetime(2024, 9, 1, tzinfo=timezone.utc)


@pytest.mark.parametrize(
    "capture_start, expected",
    [
        (START, True),
        (START + timedelta(days=10), True),
        (END - timedelta(microseconds=1), True),
        (END, False),
        (START - timedelta(microseconds=1), False),
        (END + timedelta(days=1), False),
        (None, False),
    ],
)
def test_in_interval(capture_start, expected):
    assert ledger.in_interval(capture_start, (START, END)) is expected


@pytest.mark.parametrize("capture_start", [None, START, datetime(1999, 1, 1, tzinfo=timezone.utc)])
def test_no_interval_means_everything(capture_start):
    assert ledger.in_interval(capture_start, None) is True


def test_in_interval_compares_instants_across_time_zones():
    oslo = timezone(timedelta(hours=2))
    # 01:30 in Oslo on 1 August is 23:30 UTC on 31 July: before the interval
    assert ledger.in_interval(datetime(2024, 8, 1, 1, 30, tzinfo=oslo), (START, END)) is False
    assert ledger.in_interval(datetime(2024, 8, 1, 2, 0, tzinfo=oslo), (START, END)) is True
