"""The allow-list in Airflow's UI (plugins/warc2corpus_review.py): a view in the UI's navigation behind
Airflow's login and permissions. In-process through Airflow's own app with the plugin loaded (refusals,
a viewer, the page), and in a real browser against the real `airflow api-server` on loopback: an admin
logs in on Airflow's login page, accepts one uncertain host and rejects another with a reason, and the
database shows the effect."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import psycopg
import pytest
from fastapi.testclient import TestClient

from conftest import ARTIFACTS, DEMO_WARCS, _with_database
from warc2corpus import settings as w2c_settings
from warc2corpus.stages import run
from warc2corpus.store import db, publications

AIRFLOW = Path(sys.executable).with_name("airflow")
USERS = {"editor": ("admin", "editor-secret-1"), "reader": ("viewer", "reader-secret-2")}
UNCERTAIN = "www.ukeskrift-nord.no"   # autoCat: weak evidence only; its 2 articles were filtered out
DOUBTED = "www.dalen-tidend.no"       # accepted, then made uncertain here; its 3 documents are in the corpus


@pytest.fixture(scope="module")
def review_env(airflow_db, server_url, tmp_path_factory):
    """The demo corpus with two uncertain hosts, and Airflow's simple auth manager with an admin and a
    viewer (no all-admins shortcut); the environment stays set for the module."""
    name = "w2c_test_review_" + uuid.uuid4().hex[:10]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    passwords = tmp_path_factory.mktemp("airflow-auth") / "passwords.json"
    passwords.write_text(json.dumps({user: password for user, (_, password) in USERS.items()}))
    env = {
        w2c_settings.DATABASE_URL_VARIABLE: url,
        "WARC2CORPUS_STAGING": str(tmp_path_factory.mktemp("staging")),
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS": "False",
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS": ",".join(f"{u}:{role}" for u, (role, _) in USERS.items()),
        "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE": str(passwords),
        "AIRFLOW__API_AUTH__JWT_SECRET": "test-secret-" + uuid.uuid4().hex * 3,
    }
    with pytest.MonkeyPatch.context() as patch:
        for key, value in env.items():
            patch.setenv(key, value)
        run.run_files(sorted(DEMO_WARCS.glob("*.warc.gz")), "demo")
        with db.connect(url) as conn:  # autoCat's latest verdict on a host whose declaration disappeared
            conn.execute("UPDATE publications SET status = 'uncertain', score = 0.5, reason = %s WHERE host = %s",
                         ("declared until 2024-03-01; the latest front page is silent", DOUBTED))
            conn.commit()
            assert [h["host"] for h in publications.review_queue(conn)] == [UNCERTAIN, DOUBTED]
        yield {"url": url, "env": env}
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _login(client, user: str) -> str:
    answer = client.post("/auth/token", json={"username": user, "password": USERS[user][1]})
    assert answer.status_code in (200, 201), answer.text
    return answer.json()["access_token"]


def _state(url) -> dict:
    with db.connect(url) as conn:
        return {"decisions": publications.decision_history(conn), "statuses": publications.host_statuses(conn),
                "readmit": publications.files_to_readmit(conn)}


def test_the_review_view_is_in_airflows_navigation_behind_its_login_and_permissions(review_env):
    from airflow import plugins_manager
    from airflow.api_fastapi.app import create_app, purge_cached_app

    assert not [source for source in plugins_manager.get_import_errors() if "warc2corpus" in source]
    purge_cached_app()
    with TestClient(create_app(apps="core")) as client:
        editor, viewer = _login(client, "editor"), _login(client, "reader")
        views = client.get("/api/v2/plugins", headers={"Authorization": f"Bearer {editor}"}).json()
        review = next(p for p in views["plugins"] if p["name"] == "warc2corpus_review")
        assert review["external_views"][0]["href"] == "/allow-list/"
        assert review["external_views"][0]["url_route"] == "allow-list"
        before = _state(review_env["url"])
        form = {"host": UNCERTAIN, "decision": "accept", "note": "by test"}
        # anonymous, a forged cookie: the page and the decision are refused
        assert client.get("/allow-list/").status_code == 401
        assert client.post("/allow-list/decide", data=form, follow_redirects=False).status_code == 401
        client.cookies.update({"_token": "forged." + editor.split(".", 1)[1]})
        assert client.get("/allow-list/").status_code in (401, 403)
        client.cookies.clear()
        # a viewer may look, not decide
        as_viewer = {"Authorization": f"Bearer {viewer}"}
        page = client.get("/allow-list/", headers=as_viewer)
        assert page.status_code == 200 and UNCERTAIN in page.text and "read only" in page.text
        assert "<form" not in page.text
        refused = client.post("/allow-list/decide", data=form, headers=as_viewer, follow_redirects=False)
        assert refused.status_code == 403 and "warc2corpus" in refused.text
        # an admin's decision posted from another site is refused too
        as_editor = {"Authorization": f"Bearer {editor}"}
        elsewhere = client.post("/allow-list/decide", data=form, follow_redirects=False,
                                headers={**as_editor, "Origin": "https://evil.example"})
        assert elsewhere.status_code == 403
        # a rejection needs a reason
        client.cookies.update({"_token": editor})  # the UI's cookie, as in the browser
        page = client.post("/allow-list/decide", data={"host": DOUBTED, "decision": "reject", "note": " "})
        assert page.status_code == 200 and "not rejected: say why" in page.text
        assert _state(review_env["url"]) == before  # nothing changed
        # the admin's page: the queue with autoCat's evidence, a form per host
        page = client.get("/allow-list/")
        assert page.status_code == 200 and "Review queue (2)" in page.text
        assert "a bare link to a press body" in page.text and f'value="{DOUBTED}"' in page.text
        client.cookies.clear()
    purge_cached_app()


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_an_admin_clears_the_review_queue_in_the_browser(review_env, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ready
    from selenium.webdriver.support.ui import WebDriverWait

    port = _free_port()
    log = tmp_path / "api-server.log"
    env = {**os.environ, **review_env["env"], "AIRFLOW__API__PORT": str(port)}
    with open(log, "wb") as out:
        server = subprocess.Popen([str(AIRFLOW), "api-server", "--host", "127.0.0.1", "--port", str(port),
                                   "--workers", "1", "--apps", "core"], env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    wait = WebDriverWait(browser, 60)
    try:
        deadline = time.monotonic() + 180
        while True:
            try:
                if httpx.get(base + "/api/v2/monitor/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert server.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(1)
        # Airflow's own login page
        browser.get(base + "/plugin/allow-list")
        wait.until(ready.presence_of_element_located((By.NAME, "username"))).send_keys("editor")
        browser.find_element(By.NAME, "password").send_keys(USERS["editor"][1])
        browser.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        # the review view inside the UI, in its navigation
        wait.until(ready.url_contains("/plugin/allow-list"))
        frame = wait.until(ready.presence_of_element_located((By.CSS_SELECTOR, "iframe")))
        browser.switch_to.frame(frame)
        wait.until(ready.presence_of_element_located((By.ID, "queue")))
        browser.switch_to.default_content()
        (ARTIFACTS / "screenshots").mkdir(parents=True, exist_ok=True)
        browser.save_screenshot(str(ARTIFACTS / "screenshots" / "allow-list-review-queue.png"))  # README's
        browser.switch_to.frame(frame)

        def decide(host: str, decision: str, note: str) -> str:
            field = wait.until(ready.presence_of_element_located((By.ID, f"queue-note-{host}")))
            field.send_keys(note)
            field.find_element(By.XPATH, f"following-sibling::button[@value='{decision}']").click()
            # The page after the post says what the decision did: wait for this host's line, not for the
            # effect of the decision before (still on screen until the new page is in; a race seen in CI).
            wait.until(ready.text_to_be_present_in_element((By.ID, "effect"), f"{host}: "))
            return browser.find_element(By.ID, "effect").text

        accepted = decide(UNCERTAIN, "accept", "editor named in the print edition")
        assert f"{UNCERTAIN}: accepted" in accepted and "1 WARC file(s) flagged" in accepted
        rejected = decide(DOUBTED, "reject", "the editor's declaration is gone; a newsletter now")
        assert f"{DOUBTED}: rejected" in rejected and "3 document(s) withdrawn" in rejected
        history = browser.find_element(By.ID, "history").text
        assert "a newsletter now" in history and "editor" in history
        assert "Nothing to review" in browser.find_element(By.ID, "queue").text
        assert "DEMO-20240301120000-00000.warc.gz" in browser.find_element(By.ID, "readmit").text
        browser.switch_to.default_content()
    finally:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)
    with db.connect(review_env["url"]) as conn:
        statuses = publications.host_statuses(conn)
        assert (statuses[UNCERTAIN], statuses[DOUBTED]) == ("accepted", "rejected")
        withdrawn = conn.execute("SELECT count(*) FILTER (WHERE withdrawn), count(*) FILTER (WHERE NOT withdrawn) "
                                 "FROM documents WHERE host = %s", (DOUBTED,)).fetchone()
        assert withdrawn == (3, 0)
        decisions = [(d["host"], d["decision"], d["by"], d["note"]) for d in publications.decision_history(conn)]
        assert decisions == [(DOUBTED, "rejected", "editor", "the editor's declaration is gone; a newsletter now"),
                             (UNCERTAIN, "accepted", "editor", "editor named in the print edition")]
        flagged = [Path(f["path"]).name for f in publications.files_to_readmit(conn)]
        assert flagged == ["DEMO-20240301120000-00000.warc.gz"]


def test_the_message_after_a_decision_reads_a_hand_written_address_without_failing():
    """The counts come in the redirect's query; an address written by hand with other values shows 0 (it was a 500)."""
    from warc2corpus.review.app import _effect

    shown = _effect({"host": "www.example.no", "status": "accepted", "withdrawn": "3", "restored": "lots",
                     "readmit": "²"})
    assert "3 document(s) withdrawn, 0 restored; 0 WARC file(s)" in shown
