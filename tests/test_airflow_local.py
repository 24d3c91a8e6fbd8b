"""`make airflow` (bin/airflow-local) is safe by default: the real API server and log servers listen on
loopback only, the REST API refuses anonymous requests and hands no token without a password, and
Airflow's state is private to the user."""

from __future__ import annotations

import base64
import json
import os
import signal
import socket
import stat
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import jwt
import psutil
import pytest

from conftest import ROOT


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _request(url: str, *, data: dict | None = None, token: str | None = None) -> tuple[int, bytes]:
    headers = {"Content-Type": "application/json"} if data is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    body = json.dumps(data).encode() if data is not None else None
    request = urllib.request.Request(url, data=body, headers=headers, method="POST" if data is not None else "GET")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def _listening(root: psutil.Process) -> list[tuple[str, int, str]]:
    found = []
    for process in [root, *root.children(recursive=True)]:
        try:
            for conn in process.net_connections(kind="inet"):
                if conn.status == psutil.CONN_LISTEN:
                    found.append((conn.laddr.ip, conn.laddr.port, " ".join(process.cmdline()[:3])))
        except (psutil.NoSuchProcess, psutil.AccessDenied):
            continue
    return found


@pytest.fixture
def local_airflow(airflow_db):
    ports = {"api": _free_port(), "logs": _free_port(), "trigger_logs": _free_port()}
    home = Path(os.environ["AIRFLOW_HOME"])
    (home / "airflow.db").chmod(0o644)  # as `airflow db migrate` leaves it, before the launcher
    env = {**os.environ, "AIRFLOW__API__PORT": str(ports["api"]),
           "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(ports["logs"]),
           "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(ports["trigger_logs"]),
           "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://127.0.0.1:{ports['api']}/execution/"}
    for name in ("AIRFLOW_HOST", "AIRFLOW_NO_LOGIN", "AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS"):
        env.pop(name, None)
    log = home / "airflow-local.log"
    with open(log, "wb") as out:
        launcher = subprocess.Popen([sys.executable, str(ROOT / "bin" / "airflow-local")], env=env,
                                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{ports['api']}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        assert launcher.poll() is None, log.read_text()[-3000:]
        try:
            if _request(base + "/api/v2/monitor/health")[0] == 200:
                break
        except OSError:
            pass
        time.sleep(1)
    else:
        pytest.fail("the API server did not come up:\n" + log.read_text()[-3000:])
    time.sleep(3)  # the other components' sockets
    yield launcher, base, ports, home, log
    launcher.send_signal(signal.SIGTERM)
    try:
        launcher.wait(60)
    except subprocess.TimeoutExpired:
        os.killpg(launcher.pid, signal.SIGKILL)
        raise


def test_local_airflow_listens_on_loopback_only_and_requires_a_login(local_airflow):
    launcher, base, ports, home, log = local_airflow
    root = psutil.Process(launcher.pid)
    children = root.children(recursive=True)

    listening = _listening(root)
    assert {port for _, port, _ in listening} >= set(ports.values()), listening
    assert all(ip in ("127.0.0.1", "::1") for ip, _, _ in listening), listening

    # The REST API refuses anonymous clients and forged tokens, and gives no token without a password.
    assert _request(base + "/api/v2/dags")[0] == 401
    assert _request(base + "/api/v2/variables", data={"key": "k", "value": "v"})[0] == 401
    assert _request(base + "/api/v2/dags", token="forged.token.value")[0] in (401, 403)
    assert _request(base + "/auth/token")[0] >= 400
    assert _request(base + "/auth/token", data={"username": "admin", "password": "wrong"})[0] == 401

    # The generated password works, and is kept where only the user can read it.
    passwords_file = home / "simple_auth_manager_passwords.json.generated"
    password = json.loads(passwords_file.read_text())["admin"]
    status, body = _request(base + "/auth/token", data={"username": "admin", "password": password})
    assert status in (200, 201), body
    token = json.loads(body)["access_token"]
    assert _request(base + "/api/v2/dags", token=token)[0] == 200

    # Tokens are signed with the launcher's key of 64 random bytes (RFC 7518's least for HS512), kept
    # where only the user can read it, not with the 16-byte key Airflow writes into airflow.cfg: PyJWT
    # then has no short key to warn of.
    key_file = home / "jwt.secret"
    key = key_file.read_text().strip()
    assert len(base64.urlsafe_b64decode(key + "=" * (-len(key) % 4))) >= 64
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    claims = jwt.decode(token, key, algorithms=[jwt.get_unverified_header(token)["alg"]],
                        options={"verify_aud": False})
    assert claims["sub"]
    with pytest.raises(jwt.InvalidSignatureError):
        jwt.decode(token, key[:-1] + ("A" if key[-1] != "A" else "B"), algorithms=["HS512"],
                   options={"verify_aud": False})
    assert "InsecureKeyLengthWarning" not in log.read_text(errors="replace")

    assert stat.S_IMODE(home.stat().st_mode) == 0o700
    for path in (home / "airflow.db", passwords_file):
        assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0, path

    # Stopping the launcher stops every component.
    launcher.send_signal(signal.SIGTERM)
    launcher.wait(60)
    gone, alive = psutil.wait_procs(children, timeout=30)
    assert not alive, [p.cmdline() for p in alive]
