"""Offline validation of the Docker Compose deployment (docker-compose.yaml + Dockerfile).

`docker-compose config` parses, validates and fully resolves the compose file (YAML
anchors/merge keys, variable interpolation, relative paths) without a Docker engine, so
these tests check what Compose will actually run rather than the raw YAML text.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from importlib import metadata
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import yaml

REPO = Path(__file__).resolve().parents[1]
COMPOSE_FILE = REPO / "docker-compose.yaml"
DOCKERFILE = REPO / "Dockerfile"

# Every service that runs the Airflow image (built from this repository).
AIRFLOW_SERVICES = (
    "airflow-apiserver",
    "airflow-scheduler",
    "airflow-dag-processor",
    "airflow-worker",
    "airflow-triggerer",
    "airflow-init",
    "flower",
)
# Airflow services that must wait for the databases, the broker and airflow-init.
LONG_RUNNING_AIRFLOW_SERVICES = tuple(s for s in AIRFLOW_SERVICES if s != "airflow-init")
BACKING_SERVICES = ("postgres", "redis", "corpus-db")

CORPUS_DB_URL = "postgresql://corpus:corpus@corpus-db:5432/corpus"

# The environment every Airflow service must share (the x-airflow-common block).
COMMON_ENV = {
    "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
    "AIRFLOW__CORE__AUTH_MANAGER": (
        "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
    ),
    "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": "http://airflow-apiserver:8080/execution/",
    "AIRFLOW__CORE__LOAD_EXAMPLES": "false",
    "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "true",
    "AIRFLOW__CORE__FERNET_KEY": "",
    "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": "postgresql+psycopg2://airflow:airflow@postgres/airflow",
    "AIRFLOW__CELERY__RESULT_BACKEND": "db+postgresql://airflow:airflow@postgres/airflow",
    "AIRFLOW__CELERY__BROKER_URL": "redis://:@redis:6379/0",
    "AIRFLOW_CONFIG": "/opt/airflow/config/airflow.cfg",
    "PYTHONPATH": "/opt/airflow/include",
    "AIRFLOW_CONN_WARC2CORPUS_DB": CORPUS_DB_URL,
    "WARC2CORPUS_CRAWL_JOBS": "/opt/airflow/config/crawl_jobs.yaml",
    "WARC2CORPUS_STAGING": "/opt/airflow/staging",
}

# container path -> repository directory bind-mounted there
BIND_MOUNTS = {
    "/opt/airflow/dags": "dags",
    "/opt/airflow/plugins": "plugins",
    "/opt/airflow/include": "include",
    "/opt/airflow/config": "config",
    "/opt/airflow/logs": "logs",
    "/opt/airflow/demo/warcs": "demo/warcs",
}

# Variables that would change what `config` prints; the test checks the defaults.
_COMPOSE_ENV_OVERRIDES = (
    "AIRFLOW_UID",
    "AIRFLOW_PROJ_DIR",
    "AIRFLOW_IMAGE_NAME",
    "AIRFLOW_API_PORT",
    "CORPUS_DB_PORT",
    "_AIRFLOW_WWW_USER_USERNAME",
    "_AIRFLOW_WWW_USER_PASSWORD",
    "COMPOSE_FILE",
    "COMPOSE_PROFILES",
    "COMPOSE_PROJECT_NAME",
    "COMPOSE_PATH_SEPARATOR",
)


@pytest.fixture(scope="module")
def config() -> dict:
    """The resolved compose configuration as printed by `docker-compose config`."""
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.skip("docker-compose (Debian package docker-compose) not installed; .ci/run installs it")
    env = {k: v for k, v in os.environ.items() if k not in _COMPOSE_ENV_OVERRIDES}
    # Activate all profiles so that profile-gated services (flower, airflow-cli) are printed
    # by Compose v2 as well (docker-compose 1.29 prints them regardless).
    cmd = [exe, "--profile", "flower", "--profile", "debug", "-f", str(COMPOSE_FILE), "config"]
    proc = subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (
        f"`{' '.join(cmd)}` failed with exit code {proc.returncode}:\n{proc.stderr}"
    )
    parsed = yaml.safe_load(proc.stdout)
    assert isinstance(parsed, dict) and isinstance(parsed.get("services"), dict), proc.stdout
    return parsed


# --------------------------------------------------------------------------- helpers


def _service(config: dict, name: str) -> dict:
    services = config["services"]
    assert name in services, f"service {name!r} missing; services: {sorted(services)}"
    return services[name]


def _env(service: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):  # KEY=VALUE list form
        env = dict(item.split("=", 1) if "=" in item else (item, None) for item in env)
    return {k: ("" if v is None else str(v)) for k, v in env.items()}


def _words(command) -> list[str]:
    if command is None:
        return []
    return command.split() if isinstance(command, str) else [str(c) for c in command]


def _mounts(service: dict) -> dict[str, dict]:
    """container target -> {"type", "source", "read_only"} for short and long volume syntax."""
    mounts = {}
    for vol in service.get("volumes") or []:
        if isinstance(vol, str):
            parts = vol.split(":")
            source, target = parts[0], parts[1]
            mode = parts[2] if len(parts) > 2 else "rw"
            kind = "bind" if source.startswith(("/", ".", "~")) else "volume"
            mounts[target] = {"type": kind, "source": source, "read_only": "ro" in mode.split(",")}
        else:
            mounts[vol["target"]] = {
                "type": vol.get("type"),
                "source": vol.get("source"),
                "read_only": bool(vol.get("read_only", False)),
            }
    return mounts


def _conditions(service: dict) -> dict[str, str]:
    deps = service.get("depends_on") or {}
    if isinstance(deps, list):  # short form: no conditions at all
        return {name: "service_started" for name in deps}
    return {name: (spec or {}).get("condition", "service_started") for name, spec in deps.items()}


def _container_ports(service: dict) -> set[int]:
    ports = set()
    for port in service.get("ports") or []:
        if isinstance(port, dict):
            ports.add(int(port["target"]))
        else:
            ports.add(int(str(port).split("/")[0].rsplit(":", 1)[-1]))
    return ports


# --------------------------------------------------------------------------- tests


def test_all_services_exist(config):
    services = set(config["services"])
    missing = (set(AIRFLOW_SERVICES) | set(BACKING_SERVICES)) - services
    assert not missing, f"missing services: {sorted(missing)}"


def test_flower_is_optional_under_a_profile(config):
    assert "flower" in (_service(config, "flower").get("profiles") or [])
    for name in (*BACKING_SERVICES, *AIRFLOW_SERVICES):
        if name == "flower":
            continue
        assert not _service(config, name).get("profiles"), f"{name} must start by default"


def test_executor_is_celery_with_redis_broker(config):
    for name in AIRFLOW_SERVICES:
        env = _env(_service(config, name))
        assert env.get("AIRFLOW__CORE__EXECUTOR") == "CeleryExecutor", name
        assert urlsplit(env["AIRFLOW__CELERY__BROKER_URL"]).hostname == "redis", name
        assert urlsplit(env["AIRFLOW__DATABASE__SQL_ALCHEMY_CONN"]).hostname == "postgres", name


def test_every_airflow_service_has_the_common_environment(config):
    for name in AIRFLOW_SERVICES:
        env = _env(_service(config, name))
        wrong = {k: env.get(k) for k, v in COMMON_ENV.items() if env.get(k) != v}
        assert not wrong, f"{name}: common environment missing or different: {wrong}"


def test_pythonpath_contains_include(config):
    for name in AIRFLOW_SERVICES:
        pythonpath = _env(_service(config, name)).get("PYTHONPATH", "")
        assert "/opt/airflow/include" in pythonpath.split(":"), f"{name}: PYTHONPATH={pythonpath!r}"


def test_corpus_db_setting_points_at_corpus_db_service(config):
    corpus_db = _service(config, "corpus-db")
    db_env = _env(corpus_db)
    for name in AIRFLOW_SERVICES:
        url = urlsplit(_env(_service(config, name))["AIRFLOW_CONN_WARC2CORPUS_DB"])
        assert url.scheme in ("postgresql", "postgres"), name
        assert url.hostname == "corpus-db", f"{name}: corpus DB host is {url.hostname!r}"
        assert (url.port or 5432) == 5432, name
        assert url.path.lstrip("/") == db_env["POSTGRES_DB"] == "corpus", name
        assert url.username == db_env["POSTGRES_USER"] == "corpus", name
        assert url.password == db_env["POSTGRES_PASSWORD"] == "corpus", name


def test_corpus_db_is_a_separate_healthchecked_postgres_with_named_volume(config):
    corpus_db = _service(config, "corpus-db")
    assert re.fullmatch(r"postgres:16(\.\d+)*(-\S+)?", corpus_db.get("image", "")), corpus_db.get("image")
    assert corpus_db.get("healthcheck", {}).get("test"), "corpus-db needs a healthcheck"
    data = _mounts(corpus_db).get("/var/lib/postgresql/data")
    assert data and data["type"] == "volume", "corpus-db data must live in a named volume"
    assert data["source"] in (config.get("volumes") or {}), data
    metadata_db = _mounts(_service(config, "postgres")).get("/var/lib/postgresql/data")
    assert metadata_db and metadata_db["source"] != data["source"], "corpus and metadata DBs share a volume"


def test_image_is_built_from_the_repo(config):
    for name in AIRFLOW_SERVICES:
        build = _service(config, name).get("build")
        assert build, f"{name} is not built from the repository"
        build = {"context": build} if isinstance(build, str) else build
        context = Path(build["context"])
        assert context.resolve() == REPO, f"{name}: build context {context}"
        assert (context / build.get("dockerfile", "Dockerfile")).resolve() == DOCKERFILE, name
    images = {_service(config, n).get("image") for n in AIRFLOW_SERVICES}
    assert len(images) == 1, f"airflow services should share one image tag, got {images}"


def test_project_directories_are_mounted(config):
    for name in AIRFLOW_SERVICES:
        mounts = _mounts(_service(config, name))
        for target, rel in BIND_MOUNTS.items():
            mount = mounts.get(target)
            assert mount, f"{name}: nothing mounted at {target}"
            assert mount["type"] == "bind", f"{name}: {target} is not a bind mount"
            assert Path(mount["source"]).resolve() == (REPO / rel).resolve(), f"{name}: {target}"
        assert mounts["/opt/airflow/demo/warcs"]["read_only"], f"{name}: demo/warcs must be read-only"
        staging = mounts.get("/opt/airflow/staging")
        assert staging and staging["type"] == "volume", f"{name}: staging must be a named volume"
        assert staging["source"] in (config.get("volumes") or {}), staging


def test_airflow_services_wait_for_backing_services_and_init(config):
    for name in AIRFLOW_SERVICES:
        conditions = _conditions(_service(config, name))
        for backing in BACKING_SERVICES:
            assert conditions.get(backing) == "service_healthy", f"{name} -> {backing}: {conditions}"
        if name in LONG_RUNNING_AIRFLOW_SERVICES:
            assert conditions.get("airflow-init") == "service_completed_successfully", name
    for backing in BACKING_SERVICES:
        assert _service(config, backing).get("healthcheck", {}).get("test"), f"{backing}: no healthcheck"


def test_service_commands_and_api_port(config):
    expected = {
        "airflow-apiserver": ["api-server"],
        "airflow-scheduler": ["scheduler"],
        "airflow-dag-processor": ["dag-processor"],
        "airflow-worker": ["celery", "worker"],
        "airflow-triggerer": ["triggerer"],
        "flower": ["celery", "flower"],
    }
    for name, words in expected.items():
        assert _words(_service(config, name).get("command")) == words, name
    assert 8080 in _container_ports(_service(config, "airflow-apiserver"))
    assert urlsplit(COMMON_ENV["AIRFLOW__CORE__EXECUTION_API_SERVER_URL"]).hostname in config["services"]


def test_dockerfile_extends_the_matching_airflow_image():
    text = DOCKERFILE.read_text()
    match = re.search(r"^FROM\s+apache/airflow:(\S+?)-python(\S+)\s*$", text, re.MULTILINE)
    assert match, "Dockerfile must extend apache/airflow:<version>-python<x.y>"
    assert match.group(1) == metadata.version("apache-airflow"), (
        "Dockerfile's Airflow version differs from the locked/installed apache-airflow"
    )
    assert re.search(r"pip install[^\n]*(\\\n[^\n]*)*-r\s+\S*requirements\.txt", text)
    assert re.search(r"pip install[^\n]*(\\\n[^\n]*)*-c\s+\S*constraints\.txt", text)
    assert not re.search(r"^USER\s+root\b", text, re.MULTILINE), "pip must run as the airflow user"
