"""Scale-out on the real distributed engine: the DAG on CeleryExecutor with two workers against one,
a worker killed with kill -9 mid-task, and every corpus compared with a LocalExecutor run.

What it does
    1. Builds a crawl job of real pages: the pages of ``../shared/samples`` (as ``bench_extract.py``
       reads them) split over ``--files`` WARCs, with every host on the register, so every page loads.
    2. LocalExecutor: ``airflow dags test`` over the job into a fresh corpus database: the reference.
    3. For 1 and 2 Celery workers (``bin/airflow-local --celery``, everything on loopback): a manual
       DAG run into a fresh corpus database; wall time from the run's start to its end.
    4. Two workers again, and when an extract task is running, the worker running it is killed with
       kill -9 (its whole process group). Airflow finds the task without a heartbeat, fails it and
       retries it on the other worker.
    5. Prints, per run: wall time, which workers ran the mapped tasks, tries, and whether each corpus
       table's checksum equals the LocalExecutor run's (``stats.corpus_checksums``).

Run: ``.venv/bin/python bench/scale_out.py [--files 8] [--copies 1]`` (about 10 minutes; the machine
should be otherwise idle, as the wall times are the point). Needs Debian's redis-server.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from bench_extract import load_pages, samples_dir, write_warc  # noqa: E402

from warc2corpus.store import db, stats  # noqa: E402

BIN = Path(sys.executable).parent
JOB = "scale"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def build_job(work: Path, files: int, copies: int) -> Path:
    """WARCs named by the IIPC convention (so discovery dates them), and a register accepting every host."""
    pages = load_pages(samples_dir())
    warcs = work / "warcs"
    warcs.mkdir()
    for n in range(files):
        write_warc(warcs / f"SCALE-20250101{n:02d}0000-{n:05d}.warc.gz", pages[n::files], copies)
    hosts = sorted({urlsplit(url).hostname for url, _ in pages})
    register = work / "register.csv"
    register.write_text("domain,title,has_responsible_editor\n" +
                        "".join(f"{h},{h},yes\n" for h in hosts), encoding="utf-8")
    (work / "crawl_jobs.yaml").write_text(f"crawl_jobs:\n  - name: {JOB}\n    directory: {warcs}\n")
    return register


def fresh_corpus(name: str, register: Path) -> str:
    """A new corpus database on the embedded server, with the register imported."""
    server = db.database_url()
    with psycopg.connect(server, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')
    url = urlunsplit(urlsplit(server)._replace(path=f"/{name}"))
    env = {**os.environ, "AIRFLOW_CONN_WARC2CORPUS_DB": url}
    subprocess.run([BIN / "warc2corpus", "publications", "import", str(register)], env=env, check=True,
                   capture_output=True)
    return url


def checksums(url: str) -> dict[str, str]:
    with db.connect(url) as conn:
        return stats.corpus_checksums(conn)


def airflow_env(work: Path, corpus_url: str, name: str) -> dict[str, str]:
    home = work / f"airflow-{name}"
    home.mkdir()
    port = _free_port()
    return {**os.environ, "AIRFLOW_HOME": str(home), "AIRFLOW_CONN_WARC2CORPUS_DB": corpus_url,
            "WARC2CORPUS_CRAWL_JOBS": str(work / "crawl_jobs.yaml"),
            "WARC2CORPUS_STAGING": str(work / f"staging-{name}"),
            "AIRFLOW__CORE__DAGS_FOLDER": str(REPO / "dags"), "AIRFLOW__CORE__PLUGINS_FOLDER": str(REPO / "plugins"),
            "AIRFLOW__CORE__LOAD_EXAMPLES": "False", "AIRFLOW__API__PORT": str(port),
            "AIRFLOW__CORE__EXECUTION_API_SERVER_URL": f"http://127.0.0.1:{port}/execution/",
            "AIRFLOW__LOGGING__WORKER_LOG_SERVER_PORT": str(_free_port()),
            "AIRFLOW__LOGGING__TRIGGER_LOG_SERVER_PORT": str(_free_port()),
            "AIRFLOW_REDIS_PORT": str(_free_port()), "AIRFLOW_NO_LOGIN": "1",
            # A killed worker's task is found without a heartbeat after 30 s (default 300 s).
            "AIRFLOW__SCHEDULER__TASK_INSTANCE_HEARTBEAT_TIMEOUT": "30",
            "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}


def local_run(work: Path, register: Path) -> tuple[str, float]:
    url = fresh_corpus("w2c_scale_local", register)
    env = airflow_env(work, url, "local")
    subprocess.run([BIN / "airflow", "db", "migrate"], env=env, check=True, capture_output=True)
    started = time.monotonic()
    result = subprocess.run([BIN / "airflow", "dags", "test", "warc2corpus"], env=env, capture_output=True, text=True)
    elapsed = time.monotonic() - started
    if result.returncode:
        sys.exit("LocalExecutor run failed:\n" + result.stdout[-3000:] + result.stderr[-3000:])
    return url, elapsed


def _api(base: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode() if body is not None else None,
                                     headers={"Content-Type": "application/json"},
                                     method="POST" if body is not None else "GET")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read() or b"{}")


def celery_run(work: Path, register: Path, name: str, workers: int, kill: bool = False) -> dict:
    url = fresh_corpus(f"w2c_scale_{name}", register)
    env = airflow_env(work, url, name)
    log = open(work / f"airflow-{name}.log", "wb")
    launcher = subprocess.Popen([sys.executable, str(REPO / "bin" / "airflow-local"), "--celery", "--workers",
                                 str(workers)], env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{env['AIRFLOW__API__PORT']}/api/v2"
    try:
        for _ in range(300):
            try:
                if _api(base, "/monitor/health"):
                    break
            except OSError:
                time.sleep(1)
        while "warc2corpus" not in {d["dag_id"] for d in _api(base, "/dags").get("dags", [])}:
            time.sleep(1)
        request = urllib.request.Request(f"{base}/dags/warc2corpus", data=b'{"is_paused": false}',
                                         headers={"Content-Type": "application/json"}, method="PATCH")
        urllib.request.urlopen(request, timeout=30).read()  # DAGs start paused
        run = _api(base, "/dags/warc2corpus/dagRuns", {"logical_date": None, "conf": {}})
        run_id = run["dag_run_id"]
        killed = None
        while True:
            state = _api(base, f"/dags/warc2corpus/dagRuns/{run_id}")
            if state["state"] in ("success", "failed"):
                break
            if kill and killed is None:
                tis = _api(base, f"/dags/warc2corpus/dagRuns/{run_id}/taskInstances?limit=200")["task_instances"]
                running = [t for t in tis if t["task_id"] == f"{JOB}.extract" and t["state"] == "running"
                           and t.get("hostname")]
                if running:
                    killed = _kill_worker(launcher.pid, running[0]["hostname"])
                    print(f"  killed {killed} (kill -9) while it ran extract, map index {running[0]['map_index']}")
            time.sleep(1)
        tis = _api(base, f"/dags/warc2corpus/dagRuns/{run_id}/taskInstances?limit=200")["task_instances"]
        start, end = (time.mktime(time.strptime(state[k][:19], "%Y-%m-%dT%H:%M:%S")) for k in ("start_date", "end_date"))
        return {"state": state["state"], "seconds": end - start, "url": url, "killed": killed,
                "hosts": sorted({t["hostname"] for t in tis if t.get("hostname")}),
                "retried": sorted(t["rendered_map_index"] or t["task_id"] for t in tis if t["try_number"] > 1)}
    finally:
        launcher.send_signal(signal.SIGTERM)
        try:
            launcher.wait(90)
        except subprocess.TimeoutExpired:
            os.killpg(launcher.pid, signal.SIGKILL)
        log.close()


def _kill_worker(launcher_pid: int, hostname: str) -> str:
    """kill -9 the Celery worker with this host name: its whole process group (main process, its
    pool process and the task's supervisor and task processes)."""
    for process in psutil.Process(launcher_pid).children():
        if f"{hostname}@" in " ".join(process.cmdline()):
            os.killpg(os.getpgid(process.pid), signal.SIGKILL)
            return hostname
    raise RuntimeError(f"no worker {hostname}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=8, help="WARC files the pages are split over (default 8)")
    parser.add_argument("--copies", type=int, default=1, help="copies of each page under distinct URLs")
    args = parser.parse_args()
    if not shutil.which("redis-server"):
        sys.exit("scale_out: needs redis-server (Debian: apt-get install redis-server)")
    work = Path(tempfile.mkdtemp(prefix="w2c-scale-"))
    register = build_job(work, args.files, args.copies)
    print(f"crawl job: {args.files} WARCs in {work / 'warcs'}")
    reference, local_seconds = local_run(work, register)
    expected = checksums(reference)
    with db.connect(reference) as conn:
        documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
    print(f"LocalExecutor (airflow dags test): {documents} documents in {local_seconds:.0f} s")
    rows = []
    for name, workers, kill in (("one_worker", 1, False), ("two_workers", 2, False), ("killed", 2, True)):
        result = celery_run(work, register, name, workers, kill)
        same = checksums(result["url"]) == expected
        rows.append((name, result))
        print(f"Celery, {workers} worker(s){', one killed' if kill else ''}: {result['state']} in "
              f"{result['seconds']:.0f} s; ran on {', '.join(result['hosts'])}; retried: "
              f"{', '.join(result['retried']) or 'none'}; corpus identical to LocalExecutor: {same}")
    one, two = rows[0][1]["seconds"], rows[1][1]["seconds"]
    print(f"\nwall time, two workers against one: {two:.0f} s / {one:.0f} s = {two / one:.2f} "
          f"(speed-up {one / two:.2f}x)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
