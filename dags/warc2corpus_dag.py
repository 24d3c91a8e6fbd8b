"""The warc2corpus DAG: one task group per crawl job in config/crawl_jobs.yaml.

discover -> extract (one task per WARC) -> autocat -> refresh_allow_list -> filter -> deduplicate -> load
-> train_naturalness (a new model of natural text when the corpus has grown enough)
and -> index_research (the research index takes in what was loaded).
Thin by design: every task hands its work to ``warc2corpus.tasks`` and passes on its manifest. The
library is imported inside the tasks so that parsing this file stays cheap.
"""

from __future__ import annotations

from datetime import timedelta

import pendulum
from airflow.sdk import DAG, Param, TaskGroup, get_current_context, task
from airflow.timetables.interval import CronDataIntervalTimetable

from warc2corpus.crawljobs import load_crawl_jobs

CRAWL_JOBS = load_crawl_jobs()
# Scheduled and backfill runs process the WARCs whose capture started in their data interval.
INTERVAL_RUN_TYPES = {"scheduled", "backfill"}


def _run_interval(context) -> tuple | None:
    run_type = context["dag_run"].run_type
    if getattr(run_type, "value", run_type) not in INTERVAL_RUN_TYPES:
        return None  # a manual run processes every WARC not loaded yet
    return context["data_interval_start"], context["data_interval_end"]


@task
def discover(crawl_job: str):
    from warc2corpus import tasks
    from warc2corpus.crawljobs import crawl_job as find_crawl_job

    context = get_current_context()
    selected = context["params"]["crawl_jobs"]
    if selected and crawl_job not in selected:
        return []
    return tasks.discover(find_crawl_job(crawl_job), interval=_run_interval(context),
                          reprocess=context["params"]["reprocess"])


@task
def extract(warc: dict):
    from warc2corpus import tasks

    return tasks.extract_warc(warc["warc_file"], warc["crawl_job"], get_current_context()["run_id"])


@task
def autocat(manifests):
    from warc2corpus import tasks

    return tasks.run_autocat(list(manifests))


@task
def refresh_allow_list(crawl_job: str):
    from warc2corpus import tasks

    return tasks.refresh_allowlist(crawl_job, get_current_context()["run_id"])


@task(task_id="filter")
def filter_by_allow_list(manifest: dict, allow_list: dict):
    from warc2corpus import tasks

    return tasks.filter_warc(manifest, allow_list)


@task
def deduplicate(manifest: dict):
    from warc2corpus import tasks

    return tasks.dedup_warc(manifest)


@task
def load(manifest: dict):
    from warc2corpus import tasks

    return tasks.load_warc_results(manifest)


@task
def train_naturalness():
    from warc2corpus import tasks

    return tasks.train_naturalness()


@task
def index_research():
    from warc2corpus import tasks

    return tasks.index_research()


with DAG(
    dag_id="warc2corpus",
    description="WARC files to a deduplicated, language-tagged corpus of edited news in PostgreSQL",
    # Real one-day data intervals; Airflow 3's "@daily" would give zero-length ones.
    schedule=CronDataIntervalTimetable("0 0 * * *", timezone="UTC"),
    start_date=pendulum.datetime(2000, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=2,
    default_args={"retries": 2, "retry_delay": timedelta(minutes=1)},
    params={
        "crawl_jobs": Param([], type="array", items={"type": "string", "enum": [j.name for j in CRAWL_JOBS]},
                            description="Crawl jobs to process; empty means all."),
        "reprocess": Param(False, type="boolean",
                           description="Also reload WARCs already loaded (still without duplicates)."),
    },
    tags=["warc2corpus"],
    doc_md=__doc__,
) as dag:
    for job in CRAWL_JOBS:
        with TaskGroup(group_id=job.name, tooltip=job.description):
            extracted = extract.expand(warc=discover(job.name))
            allow_list = refresh_allow_list(job.name)
            autocat(extracted) >> allow_list
            loaded = load.expand(manifest=deduplicate.expand(
                manifest=filter_by_allow_list.partial(allow_list=allow_list).expand(manifest=extracted)))
            loaded >> train_naturalness()
            loaded >> index_research()
