"""Shared fixtures: a fresh corpus database per test on a real PostgreSQL, a private staging area,
and the shared real-world samples (tests that need them skip when they are absent)."""

from __future__ import annotations

import logging
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

import psycopg
import pytest

from warc2corpus import settings
from warc2corpus.store import db

ROOT = Path(__file__).resolve().parents[1]
DEMO_WARCS = ROOT / "demo" / "warcs"
SAMPLES = Path(os.environ.get("WARC2CORPUS_SAMPLES", ROOT.parent / "shared" / "samples"))

# Airflow reads its configuration when first imported: give the tests their own temporary home
# (its metadata database is created by the `airflow_db` fixture) before any test imports it.
os.environ["AIRFLOW_HOME"] = tempfile.mkdtemp(prefix="w2c-airflow-home-")
os.environ["AIRFLOW__CORE__DAGS_FOLDER"] = str(ROOT / "dags")
os.environ["AIRFLOW__CORE__PLUGINS_FOLDER"] = str(ROOT / "plugins")
os.environ["AIRFLOW__CORE__LOAD_EXAMPLES"] = "False"
os.environ["AIRFLOW__CORE__UNIT_TEST_MODE"] = "False"
os.environ.pop("WARC2CORPUS_CRAWL_JOBS", None)
# Discovery leaves files modified within the settle time for a later run; the tests copy their WARCs
# just before discovering them (tests of the settle time set it themselves).
os.environ["WARC2CORPUS_SETTLE_SECONDS"] = "0"


@pytest.fixture(scope="session")
def server_url() -> str:
    """An admin URL of the PostgreSQL server the tests use: the configured one, else the embedded one."""
    url = settings.external_database_url() or db.start_embedded()
    return url


def _with_database(url: str, name: str) -> str:
    base, _, query = url.partition("?")
    base = base.rsplit("/", 1)[0] + "/" + name
    return base + ("?" + query if query else "")


@pytest.fixture(scope="session")
def airflow_db() -> Path:
    """Airflow's metadata database (SQLite, in the temporary AIRFLOW_HOME), migrated once."""
    home = Path(os.environ["AIRFLOW_HOME"])
    result = subprocess.run([str(Path(sys.executable).with_name("airflow")), "db", "migrate"],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return home


@pytest.fixture
def corpus_db(server_url, monkeypatch) -> str:
    """A new, empty corpus database for one test; everything in the test uses it."""
    name = "w2c_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    monkeypatch.setenv(settings.DATABASE_URL_VARIABLE, url)
    yield url
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def staging_dir(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "staging"
    monkeypatch.setenv("WARC2CORPUS_STAGING", str(path))
    return path


@pytest.fixture(autouse=True)
def root_logging_restored():
    """The root logger's handlers and level as they were before each test: a test that configures logging
    in-process (Airflow's app, the CLI's ``basicConfig``) leaves a handler on a stream pytest closes after
    it, and every later test's log records then come out on stderr as "--- Logging error ---" with their
    text (test_real_world_input's check that warcio's warnings never reach stderr failed after them)."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    root.setLevel(level)

def run_cli(capsys, *argv) -> tuple[int, str, str]:
    """The warc2corpus command in-process: (exit code, stdout, stderr)."""
    from warc2corpus.cli import main as cli

    try:
        cli.main(list(argv))
        code = 0
    except SystemExit as exit_:
        code = exit_.code or 0
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="session")
def samples() -> Path:
    if not SAMPLES.is_dir():
        pytest.skip(f"shared samples not found at {SAMPLES} (set WARC2CORPUS_SAMPLES); real-data test skipped")
    return SAMPLES


ARTIFACTS = ROOT / "var" / "test-artifacts"


@pytest.fixture
def browser(tmp_path, request):
    """Headless Chromium (Debian's `chromium` and `chromium-driver`, no browser download) driven by
    Selenium. Files it downloads land in ``browser.download_dir``; a screenshot of the last page is
    saved to var/test-artifacts/screenshots/<test>.png when the test ends, passed or failed."""
    import shutil

    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    chromedriver = shutil.which("chromedriver")
    if not chromium or not chromedriver:
        pytest.skip("browser tests need Debian's chromium and chromium-driver (apt install chromium chromium-driver)")
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    downloads = tmp_path / "downloads"
    downloads.mkdir()
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,1000", "--lang=en-GB"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"download.default_directory": str(downloads),
                                              "download.prompt_for_download": False})
    driver = webdriver.Chrome(service=Service(chromedriver), options=options)
    driver.download_dir = downloads
    driver.implicitly_wait(0)
    try:
        yield driver
    finally:
        shots = ARTIFACTS / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        try:
            driver.save_screenshot(str(shots / f"{request.node.name}.png"))
        finally:
            driver.quit()
