"""The warc2corpus DAG: one task group per crawl job in config/crawl_jobs.yaml.

[harvest ->] discover -> extract (one task per WARC) -> autocat -> refresh_allow_list -> filter -> deduplicate -> load;
then, once for all groups, corpus_updated: the corpus asset's event, with the run's counts in its
metadata. What is derived from the corpus runs from that asset (DAG warc2corpus_derived).
Thin by design: every task hands its work to the stage of its name in ``warc2corpus.stages`` and
passes on its manifest. The
library is imported inside the tasks so that parsing this file stays cheap.
"""

from __future__ import annotations

from datetime import timedelta

import pendulum
from airflow.sdk import DAG, Asset, Param, TaskGroup, get_current_context, task, teardown
from airflow.timetables.interval import CronDataIntervalTimetable

from warc2corpus.stages.crawljobs import load_crawl_jobs
from warc2corpus.settings import CORPUS_ASSET

CRAWL_JOBS = load_crawl_jobs()
CORPUS = Asset(CORPUS_ASSET)
# Scheduled and backfill runs process the WARCs whose capture started in their data interval.
INTERVAL_RUN_TYPES = {"scheduled", "backfill"}


def _name_map_index(context, warc_file: str) -> None:
    """A mapped task instance is shown by its WARC file's name (map_index_template="{{ warc }}")."""
    context["warc"] = warc_file.rsplit("/", 1)[-1]


def _each(results) -> list:
    """The items of a mapped task's results. Iterating Airflow's lazy sequence probes one index past
    its end, which logs an "XCom not found" error in every successful run; its length does not."""
    return [results[i] for i in range(len(results))] if results else []


def _staging():
    """The staging area through Airflow's ObjectStoragePath: a local directory by default, or an object
    store (WARC2CORPUS_STAGING=s3://…, credentials from the connection WARC2CORPUS_STAGING_CONN_ID)
    that workers on several hosts share."""
    from airflow.sdk import ObjectStoragePath

    from warc2corpus import settings
    from warc2corpus.store.staging import Staging

    return Staging(ObjectStoragePath(settings.staging_url(), conn_id=settings.staging_conn_id()))


def _run_interval(context) -> tuple | None:
    run_type = context["dag_run"].run_type
    if getattr(run_type, "value", run_type) not in INTERVAL_RUN_TYPES:
        return None  # a manual run processes every WARC not loaded yet
    return context["data_interval_start"], context["data_interval_end"]


@task
def harvest(crawl_job: str):
    """Crawl jobs of kind wayback: the captures of the run's interval into the job's directory."""
    from warc2corpus.stages import per_run
    from warc2corpus.stages.crawljobs import crawl_job as find_crawl_job

    context = get_current_context()
    selected = context["params"]["crawl_jobs"] or []
    if selected and crawl_job not in selected:
        return None
    return per_run.harvest(find_crawl_job(crawl_job), interval=_run_interval(context))


# all_done: a harvest that failed for good (its retries spent) still lets discovery take what it wrote.
@task(trigger_rule="all_done")
def discover(crawl_job: str):
    from warc2corpus.stages import per_run
    from warc2corpus.stages.crawljobs import crawl_job as find_crawl_job

    context = get_current_context()
    selected = context["params"]["crawl_jobs"] or []  # None or empty: all jobs
    if selected and crawl_job not in selected:
        return []
    _staging().clean()  # what runs that are over left behind (nothing written for a day)
    return per_run.discover(find_crawl_job(crawl_job), interval=_run_interval(context),
                            reprocess=bool(context["params"]["reprocess"]), run_id=context["run_id"])


@task(map_index_template="{{ warc }}")
def extract(warc: dict):
    from warc2corpus.stages import per_file

    context = get_current_context()
    _name_map_index(context, warc["warc_file"])
    return per_file.extract(warc["warc_file"], warc["crawl_job"], context["run_id"], staging=_staging())


@task
def autocat(manifests):
    from warc2corpus.stages import per_run

    return per_run.autocat(_each(manifests), staging=_staging())


@task
def refresh_allow_list(crawl_job: str):
    from warc2corpus.stages import per_run

    return per_run.refresh_allow_list(crawl_job, get_current_context()["run_id"], staging=_staging())


@task(task_id="filter", map_index_template="{{ warc }}")
def filter_by_allow_list(manifest: dict, allow_list: dict):
    from warc2corpus.stages import per_file

    _name_map_index(get_current_context(), manifest["warc_file"])
    return per_file.filter(manifest, allow_list, staging=_staging())


@task(map_index_template="{{ warc }}")
def deduplicate(manifest: dict):
    from warc2corpus.stages import per_file

    _name_map_index(get_current_context(), manifest["warc_file"])
    return per_file.deduplicate(manifest, staging=_staging())


# Writers to the corpus database share a pool (bin/airflow-local and the compose file create it with
# 2 slots): however many workers extract, only so many loads hold their big transactions at once.
@task(map_index_template="{{ warc }}", pool="warc2corpus_db")
def load(manifest: dict):
    from warc2corpus.stages import per_file

    _name_map_index(get_current_context(), manifest["warc_file"])
    return per_file.load(manifest, staging=_staging())


# Once for all task groups, when at least one file was loaded (a group with no files is skipped).
@task(outlets=[CORPUS], trigger_rule="none_failed_min_one_success")
def corpus_updated(results_per_job: list):
    from warc2corpus.stages import per_run

    summary = per_run.corpus_updated(r for results in results_per_job for r in _each(results))
    get_current_context()["outlet_events"][CORPUS].extra = summary
    return summary


# Whatever became of the run's tasks, its claims on files end with it (see ledger.claim).
@teardown
def release_claims():
    from warc2corpus.stages import per_run

    return per_run.release_claims(get_current_context()["run_id"])


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
        # "null" in the type makes the field optional in the trigger form; "examples" makes it a multi-select.
        "crawl_jobs": Param(None, type=["null", "array"], items={"type": "string", "enum": [j.name for j in CRAWL_JOBS]},
                            examples=[j.name for j in CRAWL_JOBS], title="Crawl jobs",
                            description="Crawl jobs to process; none chosen means all."),
        "reprocess": Param(False, type=["boolean", "null"], title="Reprocess",
                           description="Also reload WARCs already loaded (still without duplicates)."),
    },
    tags=["warc2corpus"],
    doc_md=__doc__,
) as dag:
    loaded = []
    for job in CRAWL_JOBS:
        with TaskGroup(group_id=job.name, tooltip=job.description):
            found = discover(job.name)
            if job.wayback:
                harvest(job.name) >> found
            extracted = extract.expand(warc=found)
            allow_list = refresh_allow_list(job.name)
            autocat(extracted) >> allow_list
            loaded.append(load.expand(manifest=deduplicate.expand(
                manifest=filter_by_allow_list.partial(allow_list=allow_list).expand(manifest=extracted))))
    corpus_updated(loaded) >> release_claims()
