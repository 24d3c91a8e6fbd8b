"""warc2corpus: web-archive WARC files to a curated, deduplicated news-text corpus in PostgreSQL.

The package is importable and testable without Airflow; the DAG in ``dags/`` and the ``warc2corpus``
console script both call the stage functions in :mod:`warc2corpus.stages`.
"""

__version__ = "0.1.0"
