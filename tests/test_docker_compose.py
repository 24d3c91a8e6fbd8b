"""Offline validation of the Docker Compose deployment (docker-compose.yaml + Dockerfile).

`docker-compose config` parses, validates and fully resolves the compose file (YAML
anchors/merge keys, variable interpolation, relative paths) without a Docker engine, so
these tests check what Compose will actually run rather than the raw YAML text.
"""

from __future__ import annotations

import base64
import os
import re
import shutil
import stat
import subprocess
import sys
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

COMPOSE_ENV_SCRIPT = REPO / "tools" / "compose_env.py"
ENV_EXAMPLE = REPO / ".env.example"
# The secrets compose takes from .env, with no default (`${NAME:?message}`).
SECRETS = ("_AIRFLOW_WWW_USER_PASSWORD", "AIRFLOW_DB_PASSWORD", "CORPUS_DB_PASSWORD", "AIRFLOW_FERNET_KEY",
           "AIRFLOW_JWT_SECRET")


def common_env(env_secrets: dict[str, str]) -> dict[str, str]:
    """The environment every Airflow service must share (the x-airflow-common block)."""
    airflow_db = f"airflow:{env_secrets['AIRFLOW_DB_PASSWORD']}@postgres/airflow"
    return {
        "AIRFLOW__CORE__EXECUTOR": "CeleryExecutor",
        "AIRFLOW__CORE__AUTH_MANAGER": (
            "airflow.api_fastapi.auth.managers.simple.simple_auth_manager.SimpleAuthManager"
        ),
        "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": "http://airflow-apiserver:8080/execution/",
        "AIRFLOW__CORE__LOAD_EXAMPLES": "false",
        "AIRFLOW__CORE__DAGS_ARE_PAUSED_AT_CREATION": "true",
        "AIRFLOW__CORE__FERNET_KEY": env_secrets["AIRFLOW_FERNET_KEY"],
        "AIRFLOW__API_AUTH__JWT_SECRET": env_secrets["AIRFLOW_JWT_SECRET"],
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": f"postgresql+psycopg2://{airflow_db}",
        "AIRFLOW__CELERY__RESULT_BACKEND": f"db+postgresql://{airflow_db}",
        "AIRFLOW__CELERY__BROKER_URL": "redis://:@redis:6379/0",
        "AIRFLOW_CONFIG": "/opt/airflow/config/airflow.cfg",
        "PYTHONPATH": "/opt/airflow/include",
        "AIRFLOW_CONN_WARC2CORPUS_DB": f"postgresql://corpus:{env_secrets['CORPUS_DB_PASSWORD']}@corpus-db:5432/corpus",
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

# Variables that would change what `config` prints; the tests give them through --env-file only.
_COMPOSE_ENV_OVERRIDES = (
    "AIRFLOW_UID",
    "AIRFLOW_PROJ_DIR",
    "AIRFLOW_IMAGE_NAME",
    "AIRFLOW_API_PORT",
    "CORPUS_DB_PORT",
    "W2C_BIND",
    "_AIRFLOW_WWW_USER_USERNAME",
    *SECRETS,
    "COMPOSE_FILE",
    "COMPOSE_PROFILES",
    "COMPOSE_PROJECT_NAME",
    "COMPOSE_PATH_SEPARATOR",
)


def _read_env(path: Path) -> dict[str, str]:
    values = {}
    for line in path.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            values[name.strip()] = value.strip()
    return values


def _write_env(path: Path) -> subprocess.CompletedProcess:
    """tools/compose_env.py, run without site-packages (it must need nothing installed)."""
    return subprocess.run([sys.executable, "-I", "-S", str(COMPOSE_ENV_SCRIPT), str(path)],
                          capture_output=True, text=True, timeout=60)


def _compose_config(env_file: Path) -> subprocess.CompletedProcess:
    """`docker-compose config` with the variables of env_file only (never the checkout's own .env)."""
    exe = shutil.which("docker-compose")
    if exe is None:
        pytest.skip("docker-compose (Debian package docker-compose) not installed; .ci/run installs it")
    env = {k: v for k, v in os.environ.items() if k not in _COMPOSE_ENV_OVERRIDES}
    # Activate all profiles so that profile-gated services (flower, airflow-cli) are printed
    # by Compose v2 as well (docker-compose 1.29 prints them regardless).
    cmd = [exe, "--env-file", str(env_file), "--profile", "flower", "--profile", "debug",
           "-f", str(COMPOSE_FILE), "config"]
    return subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def env_file(tmp_path_factory) -> Path:
    """A .env as `make compose-env` writes it."""
    path = tmp_path_factory.mktemp("compose") / ".env"
    result = _write_env(path)
    assert result.returncode == 0, result.stderr
    return path


@pytest.fixture(scope="module")
def env_secrets(env_file) -> dict[str, str]:
    return {name: _read_env(env_file)[name] for name in SECRETS}


@pytest.fixture(scope="module")
def config(env_file) -> dict:
    """The resolved compose configuration as printed by `docker-compose config`."""
    proc = _compose_config(env_file)
    assert proc.returncode == 0, f"`docker-compose config` failed with exit code {proc.returncode}:\n{proc.stderr}"
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


def test_every_airflow_service_has_the_common_environment(config, env_secrets):
    expected = common_env(env_secrets)
    for name in AIRFLOW_SERVICES:
        env = _env(_service(config, name))
        wrong = {k: env.get(k) for k, v in expected.items() if env.get(k) != v}
        assert not wrong, f"{name}: common environment missing or different: {wrong}"


def test_pythonpath_contains_include(config):
    for name in AIRFLOW_SERVICES:
        pythonpath = _env(_service(config, name)).get("PYTHONPATH", "")
        assert "/opt/airflow/include" in pythonpath.split(":"), f"{name}: PYTHONPATH={pythonpath!r}"


def test_corpus_db_setting_points_at_corpus_db_service(config, env_secrets):
    corpus_db = _service(config, "corpus-db")
    db_env = _env(corpus_db)
    for name in AIRFLOW_SERVICES:
        url = urlsplit(_env(_service(config, name))["AIRFLOW_CONN_WARC2CORPUS_DB"])
        assert url.scheme in ("postgresql", "postgres"), name
        assert url.hostname == "corpus-db", f"{name}: corpus DB host is {url.hostname!r}"
        assert (url.port or 5432) == 5432, name
        assert url.path.lstrip("/") == db_env["POSTGRES_DB"] == "corpus", name
        assert url.username == db_env["POSTGRES_USER"] == "corpus", name
        assert url.password == db_env["POSTGRES_PASSWORD"] == env_secrets["CORPUS_DB_PASSWORD"], name


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
    assert urlsplit(_env(_service(config, "airflow-apiserver"))["AIRFLOW__CORE__EXECUTION_API_SERVER_URL"]).hostname \
        in config["services"]


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


# --------------------------------------------------------------------------- access: ports and secrets


def _published(service: dict) -> list[tuple[str | None, int]]:
    """(host address or None, host port) of every published port, in either syntax."""
    published = []
    for port in service.get("ports") or []:
        if isinstance(port, dict):
            published.append((port.get("host_ip"), int(port["published"])))
        else:
            parts = str(port).split("/")[0].split(":")
            assert len(parts) in (2, 3), port  # a bare container port would be published on a random one
            published.append((parts[0] if len(parts) == 3 else None, int(parts[-2])))
    return published


def test_published_ports_listen_on_loopback_only(config):
    published = {name: _published(service) for name, service in config["services"].items() if service.get("ports")}
    assert set(published) == {"airflow-apiserver", "corpus-db", "flower", "research-api"}
    for name, ports in published.items():
        for host_ip, _ in ports:
            assert host_ip == "127.0.0.1", f"{name} publishes on {host_ip or 'every interface'}"
    raw = yaml.safe_load(COMPOSE_FILE.read_text())
    for name, service in raw["services"].items():
        for port in service.get("ports") or []:
            assert str(port).startswith("${W2C_BIND:-127.0.0.1}:"), f"{name}: {port}"


def test_the_bind_address_comes_from_env(env_file, tmp_path):
    custom = tmp_path / ".env"
    custom.write_text(env_file.read_text().replace("W2C_BIND=127.0.0.1", "W2C_BIND=192.0.2.7"))
    proc = _compose_config(custom)
    assert proc.returncode == 0, proc.stderr
    services = yaml.safe_load(proc.stdout)["services"]
    assert {host for name in ("airflow-apiserver", "corpus-db", "flower", "research-api")
            for host, _ in _published(services[name])} == {"192.0.2.7"}


# Environment keys holding a secret, and the password of a URL.
_SECRET_KEY = re.compile(r"PASSWORD|FERNET_KEY|SECRET", re.IGNORECASE)
_URL_PASSWORD = re.compile(r"://[^:/@\s]*:([^@]*)@")


def _secret_values(config: dict) -> list[tuple[str, str, str]]:
    """(service, variable, value) of every secret in the services' environments."""
    found = []
    for name, service in config["services"].items():
        for key, value in _env(service).items():
            if _SECRET_KEY.search(key) and not key.endswith("_FILE"):
                found.append((name, key, value))
            found += [(name, key, password) for password in _URL_PASSWORD.findall(value) if password]
    return found


def test_no_secret_is_written_in_the_compose_file():
    raw = yaml.safe_load(COMPOSE_FILE.read_text())
    found = _secret_values(raw)
    assert {key for _, key, _ in found} >= {"POSTGRES_PASSWORD", "AIRFLOW__CORE__FERNET_KEY",
                                            "AIRFLOW_CONN_WARC2CORPUS_DB", "_AIRFLOW_WWW_USER_PASSWORD"}
    for name, key, value in found:
        match = re.fullmatch(r"\$\{(\w+):\?[^}]+\}", value)
        assert match and match.group(1) in SECRETS, f"{name}: {key} is not taken from .env: {value!r}"


def test_every_secret_in_the_resolved_config_comes_from_env(config, env_secrets):
    found = _secret_values(config)
    assert found
    for name, key, value in found:
        assert value in env_secrets.values(), f"{name}: {key} holds a secret that is not from .env"
    used = {value for _, _, value in found}
    assert used == set(env_secrets.values())


@pytest.mark.parametrize("missing", SECRETS)
def test_config_fails_naming_the_secret_missing_from_env(env_file, tmp_path, missing):
    partial = tmp_path / ".env"
    partial.write_text("".join(line + "\n" for line in env_file.read_text().splitlines()
                               if not line.startswith(missing + "=")))
    proc = _compose_config(partial)
    assert proc.returncode != 0
    assert f"{missing} is not set, run make compose-env" in proc.stderr


def test_env_example_is_not_enough_on_its_own():
    proc = _compose_config(ENV_EXAMPLE)
    assert proc.returncode != 0 and "is not set, run make compose-env" in proc.stderr


def test_env_example_lists_what_compose_reads_and_the_script_writes(env_file):
    example = _read_env(ENV_EXAMPLE)
    assert set(example) == set(_read_env(env_file))
    required = set(re.findall(r"\$\{(\w+):\?", COMPOSE_FILE.read_text()))
    assert required == set(SECRETS) and required <= set(example)
    assert all(example[name] == "" for name in SECRETS), "the example must hold no secret"
    assert example["W2C_BIND"] == "127.0.0.1"
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=REPO)
    assert ignored.returncode == 0, ".env must be ignored by git"
    assert subprocess.run(["git", "check-ignore", "-q", ".env.example"], cwd=REPO).returncode == 1


def test_compose_env_writes_fresh_secrets_readable_by_the_owner_only(tmp_path):
    from cryptography.fernet import Fernet

    first, second = tmp_path / "a.env", tmp_path / "b.env"
    for path in (first, second):
        result = _write_env(path)
        assert result.returncode == 0, result.stderr
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    one, two = _read_env(first), _read_env(second)
    assert one["AIRFLOW_UID"] == str(os.getuid()) and one["W2C_BIND"] == "127.0.0.1"
    key = one["AIRFLOW_FERNET_KEY"]
    assert Fernet(key.encode()).decrypt(Fernet(key.encode()).encrypt(b"conn")) == b"conn"
    jwt_key = one["AIRFLOW_JWT_SECRET"]  # HS512's key: 64 bytes at least (RFC 7518, 3.2)
    assert len(base64.urlsafe_b64decode(jwt_key + "=" * (-len(jwt_key) % 4))) >= 64
    for name in SECRETS:
        assert one[name] != two[name], f"{name} is not fresh"
        assert re.fullmatch(r"[A-Za-z0-9_=-]{24,}", one[name]), f"{name} is short or not URL-safe"
        assert one[name] not in result.stdout  # names are printed, never values
    assert len(set(one[name] for name in SECRETS)) == len(SECRETS)


def test_compose_env_completes_an_existing_env_and_keeps_its_values(tmp_path):
    path = tmp_path / ".env"
    path.write_text("# mine\nAIRFLOW_UID=1234\nCORPUS_DB_PASSWORD=kept-as-it-was\nAIRFLOW_FERNET_KEY=\n")
    path.chmod(0o644)
    result = _write_env(path)
    assert result.returncode == 0, result.stderr
    values = _read_env(path)
    assert path.read_text().startswith("# mine\nAIRFLOW_UID=1234\nCORPUS_DB_PASSWORD=kept-as-it-was\n")
    assert values["AIRFLOW_FERNET_KEY"] and set(values) == set(_read_env(ENV_EXAMPLE))
    assert "AIRFLOW_FERNET_KEY" in result.stdout and "CORPUS_DB_PASSWORD" not in result.stdout
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    before = path.read_text()
    again = _write_env(path)
    assert again.returncode == 0 and "complete" in again.stdout and path.read_text() == before


def test_the_warc_folder_is_mounted_from_env_read_only(env_file, tmp_path):
    custom = tmp_path / ".env"
    custom.write_text(env_file.read_text().replace("W2C_WARC_DIR=./demo/warcs", "W2C_WARC_DIR=/srv/archive/warcs"))
    proc = _compose_config(custom)
    assert proc.returncode == 0, proc.stderr
    services = yaml.safe_load(proc.stdout)["services"]
    for name in ("airflow-scheduler", "airflow-worker", "airflow-dag-processor"):
        mount = _mounts(services[name])["/data/warcs"]
        assert mount["source"] == "/srv/archive/warcs" and mount["read_only"], (name, mount)


def test_init_creates_the_pool_of_corpus_database_writers(config):
    script = " ".join(_words(_service(config, "airflow-init")["command"]))
    assert "airflow pools set warc2corpus_db" in script


def test_the_research_api_serves_the_corpus_database_on_its_own_port(config, env_secrets):
    api = _service(config, "research-api")
    assert _words(api.get("entrypoint")) == ["python", "-m", "warc2corpus.cli"]
    assert _words(api.get("command")) == ["serve", "--host", "0.0.0.0", "--port", "8000"]
    assert 8000 in _container_ports(api)
    assert urlsplit(_env(api)[
        "AIRFLOW_CONN_WARC2CORPUS_DB"]).hostname == "corpus-db"
    assert api["depends_on"]["corpus-db"]["condition"] == "service_healthy"


def test_the_staging_area_can_be_an_object_store(env_file, tmp_path):
    custom = tmp_path / ".env"
    custom.write_text(env_file.read_text().replace("W2C_STAGING=/opt/airflow/staging", "W2C_STAGING=s3://archive/staging")
                      .replace("W2C_STAGING_CONN_ID=", "W2C_STAGING_CONN_ID=minio"))
    proc = _compose_config(custom)
    assert proc.returncode == 0, proc.stderr
    for name, service in yaml.safe_load(proc.stdout)["services"].items():
        if name in AIRFLOW_SERVICES:
            assert _env(service)["WARC2CORPUS_STAGING"] == "s3://archive/staging", name
            assert _env(service)["WARC2CORPUS_STAGING_CONN_ID"] == "minio", name
