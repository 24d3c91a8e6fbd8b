"""Where things live. Every location can be overridden with an environment variable.

WARC2CORPUS_HOME          project root holding ``var/`` (default: the checkout this package lives in)
WARC2CORPUS_STAGING       staging area for bulk data handed between tasks: a path or a URL
                          (file://…, s3://bucket/prefix…; default: $HOME/var/staging)
WARC2CORPUS_STAGING_CONN_ID  the Airflow connection the DAG's ObjectStoragePath uses for a staging URL
                          (e.g. an `aws` connection for s3://; default: none, the store's own defaults)
WARC2CORPUS_PGDATA        data directory of the embedded PostgreSQL (default: $HOME/var/postgres);
                          its superuser's password is kept beside it (var/postgres.credentials)
WARC2CORPUS_CRAWL_JOBS    crawl-job config file (default: $HOME/config/crawl_jobs.yaml)
WARC2CORPUS_SAMPLES       the shared third-party samples the quality gates measure on
                          (default: $HOME/../shared/samples)
AIRFLOW_CONN_WARC2CORPUS_DB  a PostgreSQL URI; when set, everything uses that server instead of the
                          embedded one. The same variable is Airflow's connection ``warc2corpus_db``.
"""

from __future__ import annotations

import math
import os
from pathlib import Path

DATABASE_URL_VARIABLE = "AIRFLOW_CONN_WARC2CORPUS_DB"
# The Airflow Asset the DAG updates after its loads; what is derived from the corpus runs from it.
CORPUS_ASSET = "warc2corpus_corpus"


class SettingError(ValueError):
    """An environment variable's value is unusable; the message names the variable and the value."""


def number(variable: str, default: float, *, above_zero: bool = False) -> float:
    """The environment variable's number (``default`` when it is unset or empty): never negative, and more than
    zero where ``above_zero``; anything else is a :class:`SettingError`."""
    value = os.environ.get(variable, "").strip()
    if not value:
        return default
    try:
        found = float(value)
    except ValueError:
        raise SettingError(f"{variable}={value!r} is not a number") from None
    if not math.isfinite(found) or found < 0 or (above_zero and found == 0):
        raise SettingError(f"{variable}={value!r} must be a number {'above' if above_zero else 'of at least'} zero")
    return found


def _configured_path(variable: str) -> Path | None:
    configured = os.environ.get(variable)
    return Path(configured).expanduser().resolve() if configured else None


def project_home() -> Path:
    # include/warc2corpus/settings.py -> the checkout. The one place that knows the checkout's layout:
    # every other path of the package comes from the functions below.
    return _configured_path("WARC2CORPUS_HOME") or Path(__file__).resolve().parents[2]


def staging_base() -> str:
    return os.environ.get("WARC2CORPUS_STAGING") or str(project_home() / "var" / "staging")


def staging_url() -> str:
    """The staging area as a URL (a plain path becomes a file:// URL), for Airflow's ObjectStoragePath."""
    base = staging_base()
    return base if "://" in base else Path(base).expanduser().resolve().as_uri()


def staging_conn_id() -> str | None:
    return os.environ.get("WARC2CORPUS_STAGING_CONN_ID") or None


def embedded_pgdata() -> Path:
    return _configured_path("WARC2CORPUS_PGDATA") or project_home() / "var" / "postgres"


def embedded_credentials_file() -> Path:
    """The file (mode 0600) holding the embedded server's superuser password: beside the data
    directory, owned by the user who started it, out of reach of the server's OS user."""
    pgdata = embedded_pgdata()
    return pgdata.with_name(pgdata.name + ".credentials")


def cache_dir() -> Path:
    """Where files derived once per machine from installed packages are kept (see
    ``text.language._second_reader``): never anything the corpus depends on, deleted at will."""
    return _configured_path("WARC2CORPUS_CACHE") or project_home() / "var" / "cache"


def crawl_jobs_file() -> Path:
    return _configured_path("WARC2CORPUS_CRAWL_JOBS") or project_home() / "config" / "crawl_jobs.yaml"


def samples_dir() -> Path:
    """The shared third-party samples (read-only) the eval gates and the real-data tests use."""
    configured = os.environ.get("WARC2CORPUS_SAMPLES")
    return Path(configured).expanduser() if configured else project_home().parent / "shared" / "samples"


def eval_baseline_file() -> Path:
    """The eval gate's pinned floors."""
    return project_home() / "eval" / "baseline.json"


def autocat_fixtures_file() -> Path:
    """autoCat's labelled front pages (autocat-eval and the tests read them)."""
    return project_home() / "tests" / "fixtures" / "autocat" / "front_pages.yaml"


def external_database_url() -> str | None:
    """The configured PostgreSQL URI, normalised for psycopg, or None for the embedded server."""
    url = os.environ.get(DATABASE_URL_VARIABLE, "").strip()
    if not url:
        return None
    # Airflow writes postgres:// URIs and may append its own "__extra__" query parameter.
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if "__extra__" in url:
        base, _, query = url.partition("?")
        kept = [p for p in query.split("&") if p and not p.startswith("__extra__=")]
        url = base + ("?" + "&".join(kept) if kept else "")
    return url
