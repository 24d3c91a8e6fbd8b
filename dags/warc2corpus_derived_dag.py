"""What is derived from the corpus, once per update of the corpus asset (not once per crawl job):
train_naturalness (a new model of natural text when the corpus has grown enough) and, beside it,
find_near_duplicates (signatures of the new documents, the clusters they join), and index_research
(the research index takes in what was loaded).
Thin by design: every task hands its work to the stage of its name in ``warc2corpus.stages.derived``.
"""

from __future__ import annotations

from datetime import timedelta

import pendulum
from airflow.sdk import DAG, Asset, task

from warc2corpus.settings import CORPUS_ASSET


@task
def train_naturalness():
    from warc2corpus.stages import derived

    return derived.train_naturalness()


@task
def find_near_duplicates():
    from warc2corpus.stages import derived

    return derived.find_near_duplicates()


@task
def index_research():
    from warc2corpus.stages import derived

    return derived.index_research()


with DAG(
    dag_id="warc2corpus_derived",
    description="Models and indexes derived from the warc2corpus corpus, after each update of it",
    schedule=[Asset(CORPUS_ASSET)],
    start_date=pendulum.datetime(2000, 1, 1, tz="UTC"),
    catchup=False,
    max_active_runs=1,  # updates that arrive meanwhile are taken together by the next run
    default_args={"retries": 2, "retry_delay": timedelta(minutes=1)},
    tags=["warc2corpus"],
    doc_md=__doc__,
) as dag:
    train_naturalness()
    find_near_duplicates()
    index_research()
