"""The research API inside Airflow: the plugin in plugins/ mounts it at /corpus in Airflow's own API app,
and everything that changes state needs Airflow's login (its JWT, validated by Airflow's auth manager),
of a user allowed to edit the warc2corpus DAG. Tested in-process (Airflow's FastAPI app with the plugin
loaded) and with the real `airflow api-server`."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path

import httpx
import jwt
import psycopg
import pytest
from fastapi.testclient import TestClient

from conftest import _with_database
from warc2corpus import settings as w2c_settings
from warc2corpus.store import db, publications
from warc2corpus.research import auth

AIRFLOW = Path(sys.executable).with_name("airflow")
HOST = "www.example-avis.no"
USERS = {"editor": ("admin", "editor-secret-1"), "reader": ("viewer", "reader-secret-2")}


@pytest.fixture(scope="module")
def airflow_env(airflow_db, server_url, tmp_path_factory):
    """A corpus database with one known host, and Airflow's simple auth manager with two real users
    (an admin and a viewer) and no all-admins shortcut; the environment stays set for the module."""
    name = "w2c_test_api_airflow_" + uuid.uuid4().hex[:10]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    with db.connect(url) as conn:
        publications.decide(conn, HOST, None, by="setup")  # a host the corpus knows, nobody's decision
        conn.commit()
    passwords = tmp_path_factory.mktemp("airflow-auth") / "passwords.json"
    passwords.write_text(json.dumps({user: password for user, (_, password) in USERS.items()}))
    env = {
        w2c_settings.DATABASE_URL_VARIABLE: url,
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS": "False",
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": ",".join(f"{u}:{role}" for u, (role, _) in USERS.items()),
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(passwords),
        "AIRFLOW__API_AUTH__JWT_SECRET": "test-secret-" + uuid.uuid4().hex * 3,  # >= 64 bytes for HS512
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        yield {"url": url, "env": env}
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def forged_jwt(username: str = "editor") -> str:
    """A JWT with every claim Airflow expects, signed with a key that is not Airflow's."""
    now = datetime.now(timezone.utc)
    claims = {"sub": username, "role": "admin", "aud": "apache-airflow", "iat": now, "nbf": now,
              "exp": now + timedelta(hours=1), "jti": uuid.uuid4().hex}
    return jwt.encode(claims, "not-airflows-secret-" * 4, algorithm="HS512")


def login(client, user: str) -> str:
    answer = client.post("/auth/token", json={"username": user, "password": USERS[user][1]})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["access_token"]


def request(client, method, path, body=None, headers=None, cookies=None):
    if cookies:
        client.cookies.update(cookies)
    try:
        return client.request(method, path, json=body, headers=headers or {})
    finally:
        client.cookies.clear()


def decision(client, choice, **credentials):
    return request(client, "POST", f"/corpus/publications/{HOST}/decision",
                   {"decision": choice, "note": "by test"}, **credentials)


def _decisions(url) -> list[tuple]:
    with db.connect(url) as conn:
        return conn.execute("SELECT status, decided_by FROM publication_decisions WHERE note = 'by test' "
                            "ORDER BY id").fetchall()


def _tokens(url) -> list[dict]:
    with db.connect(url) as conn:
        return auth.list_tokens(conn)


def check_refusals_and_a_login(client, url):
    # the plugin's routes answer under /corpus, open for research
    assert client.get("/corpus/collection").status_code == 200
    spec = client.get("/corpus/openapi.json").json()
    assert "/publications/{host}/decision" in spec["paths"]
    docs = client.get("/corpus/docs")
    assert docs.status_code == 200 and "/corpus/openapi.json" in docs.text
    assert client.get(f"/corpus/publications/{HOST}").json()["status"] == "unassessed"  # nobody decided (yet)
    # the researcher page, open like the research endpoints (here over an empty collection)
    for path in ("/corpus/app/", "/corpus/app/collection"):
        answer = client.get(path, headers={"Accept-Language": "en"})
        assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/html"), path
    assert "The collection is empty so far." in answer.text
    with db.connect(url) as conn:
        api_token = auth.create_token(conn, "standalone admin", scope="admin", by="test")
        conn.commit()
    decisions, tokens = _decisions(url), _tokens(url)
    # every change: unauthenticated, forged (header and cookie), an API token and a viewer are refused
    viewer = login(client, "reader")
    changes = [("POST", f"/corpus/publications/{HOST}/decision", {"decision": "reject", "note": "by test"}),
               ("GET", "/corpus/tokens", None), ("POST", "/corpus/tokens", {"name": "someone"}),
               ("DELETE", f"/corpus/tokens/{api_token['id']}", None)]
    for method, path, body in changes:
        assert request(client, method, path, body).status_code == 401, path
        for credentials in ({"headers": {"Authorization": f"Bearer {forged_jwt()}"}},
                            {"cookies": {"_token": forged_jwt()}},
                            {"headers": {"Authorization": f"Bearer {api_token['token']}"}}):
            assert request(client, method, path, body, **credentials).status_code in (401, 403), (path, credentials)
        refused = request(client, method, path, body, headers={"Authorization": f"Bearer {viewer}"})
        assert refused.status_code == 403 and "warc2corpus" in refused.json()["detail"], path
    assert (_decisions(url), _tokens(url)) == (decisions, tokens)  # nothing changed
    # Airflow's login of an admin: as a Bearer JWT, and as the UI's cookie
    editor = login(client, "editor")
    done = decision(client, "reject", headers={"Authorization": f"Bearer {editor}"})
    assert done.status_code == 200, done.text
    assert done.json()["decided_by"] == "editor" and done.json()["status"] == "rejected"
    done = decision(client, "clear", cookies={"_token": editor})
    assert done.status_code == 200, done.text
    assert _decisions(url) == decisions + [("rejected", "editor"), (None, "editor")]
    made = request(client, "POST", "/corpus/tokens", {"name": "a researcher"},
                   headers={"Authorization": f"Bearer {editor}"})
    assert made.status_code == 201 and made.json()["token"].startswith("w2c_")
    assert made.json()["created_by"] == "editor"
    revoked = request(client, "DELETE", f"/corpus/tokens/{made.json()['id']}", cookies={"_token": editor})
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]


def test_plugin_is_mounted_at_corpus_in_airflows_app_and_changes_need_airflows_login(airflow_env):
    from airflow import plugins_manager
    from airflow.api_fastapi.app import create_app, purge_cached_app

    info = {p["name"]: p for p in plugins_manager.get_plugin_info()}
    assert "warc2corpus_research" in info
    views = info["warc2corpus_research"]["external_views"]   # the researcher page in the UI's navigation
    assert [(v["href"], v["destination"]) for v in views] == [("/corpus/app/", "nav")]
    assert not [source for source in plugins_manager.get_import_errors() if "warc2corpus" in source]
    purge_cached_app()
    app = create_app(apps="core")
    with TestClient(app) as client:
        check_refusals_and_a_login(client, airflow_env["url"])
    purge_cached_app()


def test_inside_airflow_required_tokens_accept_an_airflow_login_or_an_api_token(airflow_env):
    from airflow.api_fastapi.app import create_app, purge_cached_app

    from warc2corpus.research.api import Settings, create_app as create_research_app

    purge_cached_app()
    with TestClient(create_app(apps="core")) as airflow:  # Airflow's auth manager, initialised
        viewer = login(airflow, "reader")
        research = create_research_app(Settings(database_url=airflow_env["url"], inside_airflow=True,
                                                require_token=True))
        with TestClient(research) as client, db.connect(airflow_env["url"]) as conn:
            token = auth.create_token(conn, "a researcher", scope="research", by="test")["token"]
            conn.commit()
            assert client.get("/collection").status_code == 401
            forged = client.get("/collection", headers={"Authorization": f"Bearer {forged_jwt()}"})
            assert forged.status_code in (401, 403)
            assert client.get("/collection", headers={"Authorization": f"Bearer {viewer}"}).status_code == 200
            client.cookies.update({"_token": viewer})
            assert client.get("/collection").status_code == 200
            client.cookies.clear()
            assert client.get("/collection", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    purge_cached_app()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_real_airflow_api_server_serves_the_plugin(airflow_env, tmp_path):
    port = _free_port()
    log = tmp_path / "api-server.log"
    env = {**os.environ, **airflow_env["env"], "AIRFLOW__API__PORT": str(port)}
    with open(log, "wb") as out:
        server = subprocess.Popen([str(AIRFLOW), "api-server", "--host", "127.0.0.1", "--port", str(port),
                                   "--workers", "1", "--apps", "core"], env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(base + "/corpus/openapi.json", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(1)
        with httpx.Client(base_url=base, timeout=30) as client:
            check_refusals_and_a_login(client, airflow_env["url"])
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
