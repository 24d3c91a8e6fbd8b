"""Benchmark: `warc2corpus run` against DataTrove's WarcReader -> Trafilatura -> JsonlWriter on one WARC.

What it measures
    Two whole commands, each run as a user runs it, on the same WARC and on one core:
    (a) ``warc2corpus run WARC``: everything, from reading the records to the PostgreSQL load and the
        naturalness training that follows it, on a fresh corpus database each pass in which every host
        of the WARC is on the register (imported before the pass, not timed), so no page is held back
        by the allow-list;
    (b) DataTrove 0.10.1's ``WarcReader -> Trafilatura(favour_precision=True) -> JsonlWriter``
        (``bench/peer_datatrove.py``), which does extraction only, in a separate venv
        (``var/bench-peer-venv``, built from ``bench/peer-requirements.txt`` and reused while that file
        is unchanged).

How
    Unless ``--warc FILE`` is given, the WARC is built from every real page in ``../shared/samples``
    (or ``$WARC2CORPUS_SAMPLES``): the news_fundus, scrapinghub, readability, htmldate and Wayback
    pages, their bytes as published, each with the URL and date its sample records (made up where it
    records none), as a crawler writes them: gzip per record, a warcinfo record, then per page a
    request and a response record with HTTP headers (Date, Server, Content-Type with the charset
    when the body is UTF-8, Content-Length; the Wayback captures keep their recorded headers) and
    WARC-Payload-Digest, WARC-IP-Address and WARC-Identified-Payload-Type as Common Crawl writes them.
    The set is repeated ``--copies`` times (default 7: ~800 pages), each copy under its own URL path
    (so every page becomes a document of its own) and a later date. DataTrove's Trafilatura step
    deduplicates by default (trafilatura's ``deduplicate``: paragraphs seen before in the process are
    dropped), so of the copies it writes fewer documents, after extracting them all the same.

    Both commands run pinned to core 0 (``taskset -c 0``, OMP/BLAS threads = 1), and so does the
    embedded PostgreSQL server while the benchmark runs (its backends do the load's work). The sides
    alternate (DataTrove, ours, DataTrove, ours, ...), ``--repeats`` passes each (default 3). docs/s is
    the number of HTML response records of the WARC (the pages both sides are given) per second of
    the whole command; beside it, the same with a fixed start-up taken off: each side's median time
    on a one-page WARC. Peak RSS is the kernel's (the largest process of the command) and the sampled
    peak of the whole process tree's PSS (DataTrove extracts in a forked sandbox process); the
    PostgreSQL server is in neither.

    ``--profile FILE`` instead runs ``warc2corpus run`` once under cProfile on the WARC (same setup,
    same core) and writes the 60 functions with most cumulative and most own time to FILE, and the raw
    statistics to FILE.prof.
    ``--sample FILE`` instead runs it once under py-spy (requirements-dev.txt), a sampling profiler
    that lets the program run at its own speed, and writes each function's share of the samples in
    which it is on the stack to FILE, the raw stacks to FILE.stacks.

Run: ``.venv/bin/python bench/bench_peer.py [--warc FILE] [--copies N] [--repeats N] [--profile FILE | --sample FILE]``
(or ``make bench-peer``, ``make bench-peer WARC=FILE``).
"""

from __future__ import annotations

import argparse
import base64
import compileall
import gzip
import hashlib
import io
import json
import math
import os
import platform
import re
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import psutil
import psycopg
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

REPO = Path(__file__).resolve().parents[1]
PEER_VENV = REPO / "var" / "bench-peer-venv"
PEER_REQUIREMENTS = REPO / "bench" / "peer-requirements.txt"
PEER_SCRIPT = REPO / "bench" / "peer_datatrove.py"
OURS = Path(sys.executable).parent / "warc2corpus"
DATABASE_VARIABLE = "AIRFLOW_CONN_WARC2CORPUS_DB"
CORE = "0"
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
              "NUMEXPR_NUM_THREADS": "1", "RAYON_NUM_THREADS": "1", "TOKENIZERS_PARALLELISM": "false"}
HTML_TYPES = ("text/html", "application/xhtml+xml")
WAYBACK_URL = re.compile(r"/web/\d{14}[a-z_]*/(https?://[^/?#]+)", re.IGNORECASE)


def fail(message: str) -> None:
    sys.exit(f"bench_peer: {message}")


# ---------------------------------------------------------------------------------------------
# The peer's venv
# ---------------------------------------------------------------------------------------------

def peer_python() -> Path:
    """The peer venv's python, built from peer-requirements.txt unless it was built from the same file."""
    python = PEER_VENV / "bin" / "python"
    stamp = PEER_VENV / ".requirements"
    wanted = PEER_REQUIREMENTS.read_text(encoding="utf-8")
    if python.exists() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return python
    print(f"building the peer venv in {PEER_VENV} (about a minute) ...", flush=True)
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(PEER_VENV)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "-r", str(PEER_REQUIREMENTS)], check=True)
    check = subprocess.run([str(python), "-c", "import magic, cchardet, orjson, warcio, datatrove, trafilatura"],
                           capture_output=True, text=True)
    if check.returncode != 0:
        fail("the peer venv cannot import what WarcReader needs (python-magic needs the system's "
             f"libmagic: apt-get install libmagic1):\n{check.stderr.strip()}")
    stamp.write_text(wanted, encoding="utf-8")
    return python


# ---------------------------------------------------------------------------------------------
# The benchmark WARC from the sample pages
# ---------------------------------------------------------------------------------------------

@dataclass
class Page:
    url: str
    body: bytes
    date: datetime
    status: int = 200
    headers: list[tuple[str, str]] = field(default_factory=list)  # recorded HTTP headers, if any


def samples_dir() -> Path:
    configured = os.environ.get("WARC2CORPUS_SAMPLES")
    path = Path(configured).expanduser() if configured else REPO.parent / "shared" / "samples"
    if not path.is_dir():
        fail(f"sample pages not found at {path} (check out ../shared/samples, set WARC2CORPUS_SAMPLES, "
             "or give --warc FILE)")
    return path


def _raw(path: Path) -> bytes:
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def _http_url(url: str | None, made_up: str) -> str:
    """The sample's URL when it is a usable http(s) one (one htmldate entry reads "xhttps://..."), else a
    made-up one."""
    return url if url and urlsplit(url).scheme in ("http", "https") else made_up


def _date(text: str | None, default: datetime) -> datetime:
    try:
        parsed = datetime.fromisoformat(str(text))
    except ValueError:
        return default
    return parsed.replace(tzinfo=parsed.tzinfo or timezone.utc).astimezone(timezone.utc).replace(microsecond=0)


def load_pages(samples: Path) -> list[Page]:
    """Every real HTML page of the samples, with the URL and date the sample records where it does."""
    default = datetime(2025, 1, 1, tzinfo=timezone.utc)
    pages: list[Page] = []

    fundus = samples / "news_fundus"
    truth = {}
    if (fundus / "ground_truth_flat.jsonl").is_file():
        for line in (fundus / "ground_truth_flat.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                truth[row["file"]] = row
    for path in sorted((fundus / "test_data").glob("**/*.html.gz")):
        row = truth.get(path.relative_to(fundus).as_posix(), {})
        pages.append(Page(_http_url(row.get("url"), f"https://fundus.example/{path.stem}"), _raw(path),
                          _date(row.get("crawl_date"), default)))

    aeb = samples / "extraction_scrapinghub_aeb"
    truth = json.loads((aeb / "ground-truth.json").read_text("utf-8")) if (aeb / "ground-truth.json").is_file() else {}
    for path in sorted((aeb / "html").glob("*.html*")) if (aeb / "html").is_dir() else []:
        page_id = path.name.split(".")[0]
        pages.append(Page(_http_url(truth.get(page_id, {}).get("url"), f"https://aeb.example/{page_id}.html"),
                          _raw(path), default))

    # Mozilla's test pages carry no URL: each gets a host named after its folder.
    for source in sorted((samples / "extraction_readability_testpages").glob("*/source.html*")):
        site = re.sub(r"[^a-z0-9-]", "-", source.parent.name.lower())
        pages.append(Page(f"https://www.{site}.example/article.html", _raw(source), default))

    dates = samples / "dates_htmldate_eval"
    truth = {}
    if (dates / "eval_default.json").is_file():
        truth = {v["file"]: (url, v.get("date")) for url, v in json.loads(
            (dates / "eval_default.json").read_text("utf-8")).items()}
    for path in sorted((dates / "html_bbaw").glob("*.htm*")) if (dates / "html_bbaw").is_dir() else []:
        name = path.name.removesuffix(".gz")
        url, published = truth.get(name, (None, None))
        # Captured a little after publication, as a crawl would be.
        pages.append(Page(_http_url(url, f"https://htmldate-eval.example/{name}"), _raw(path),
                          _date(published, default - timedelta(days=2)) + timedelta(days=2)))

    wayback = samples / "wayback_edgi"
    captures = json.loads((wayback / "captures.json").read_text("utf-8")) if (wayback / "captures.json").is_file() else []
    for capture in captures:
        path = wayback / capture["file"]
        if not path.is_file():
            continue
        headers = [(name, value) for name, values in capture.get("headers", {}).items() for value in values
                   if name.lower() not in ("content-encoding", "transfer-encoding", "content-length")]
        stamp = re.search(r"/web/(\d{14})", capture["uri"])
        date = datetime.strptime(stamp.group(1), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc) if stamp else default
        pages.append(Page(capture["uri"], _raw(path), date, int(capture.get("status", 200)), headers))

    if not pages:
        fail(f"no sample pages found under {samples}")
    return pages


def _copy_url(url: str, copy: int) -> str:
    """The page's URL in the given copy: the original first, then under a path of its own."""
    if copy == 0:
        return url
    parts = urlsplit(url)
    wayback = re.match(r"(/web/\d{14}[a-z_]*/)(.*)$", parts.path)
    if wayback:  # keep it a Wayback URL: the copy goes into the original's path
        return urlunsplit(parts._replace(path=wayback.group(1) + _copy_url(wayback.group(2), copy)))
    return urlunsplit(parts._replace(path=f"{parts.path.rstrip('/')}/copy-{copy}", fragment=""))


def _digest(data: bytes) -> str:
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


class GzipPerRecord:
    """Writes each record as a gzip member of its own at level 6, as Heritrix does (warcio's writer
    compresses at level 9, which makes building the WARC several times slower)."""

    def __init__(self, out):
        self.out = out
        self.buffer = io.BytesIO()
        self.writer = WARCWriter(self.buffer, gzip=False)

    def __getattr__(self, name):  # create_warc_record, create_warcinfo_record
        return getattr(self.writer, name)

    def write_record(self, record) -> None:
        self.buffer.seek(0)
        self.buffer.truncate()
        self.writer.write_record(record)
        self.out.write(gzip.compress(self.buffer.getvalue(), compresslevel=6, mtime=0))


def write_warc(path: Path, pages: list[Page], copies: int) -> int:
    """A per-record-gzipped WARC as a crawler writes it; the number of HTML response records."""
    n = 0
    with open(path, "wb") as out:
        writer = GzipPerRecord(out)
        writer.write_record(writer.create_warcinfo_record(path.name, {
            "software": "warc2corpus bench/bench_peer.py", "format": "WARC File Format 1.0",
            "description": "real pages of ../shared/samples"}))
        for copy in range(copies):
            for number, page in enumerate(pages):
                url = _copy_url(page.url, copy)
                date = page.date + timedelta(days=copy, seconds=number)
                try:
                    page.body.decode("utf-8")
                    content_type = "text/html; charset=utf-8"
                except UnicodeDecodeError:
                    content_type = "text/html"  # as many servers send it: the page declares its charset
                recorded = {name.lower() for name, _ in page.headers}
                headers = [("Date", format_datetime(date, usegmt=True))] if "date" not in recorded else []
                headers += page.headers or [("Server", "nginx"), ("Content-Type", content_type),
                                            ("Vary", "Accept-Encoding"), ("Connection", "close")]
                headers.append(("Content-Length", str(len(page.body))))
                reason = {200: "OK", 302: "Found", 404: "Not Found"}.get(page.status, "")
                http = StatusAndHeaders(f"{page.status} {reason}".strip(), headers, protocol="HTTP/1.1")
                warc_date = date.strftime("%Y-%m-%dT%H:%M:%SZ")
                response = writer.create_warc_record(
                    url, "response", payload=io.BytesIO(page.body), http_headers=http,
                    warc_headers_dict={"WARC-Date": warc_date, "WARC-IP-Address": "192.0.2.10",
                                       "WARC-Payload-Digest": _digest(page.body),
                                       "WARC-Identified-Payload-Type": "text/html"})
                parts = urlsplit(url)
                request = writer.create_warc_record(
                    url, "request", payload=io.BytesIO(b""),
                    http_headers=StatusAndHeaders(
                        f"GET {parts.path or '/'}{'?' + parts.query if parts.query else ''} HTTP/1.1",
                        [("Host", parts.netloc), ("User-Agent", "Mozilla/5.0 (compatible; bench-crawler/1.0)"),
                         ("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.8"),
                         ("Accept-Encoding", "identity")], is_http_request=True),
                    warc_headers_dict={"WARC-Date": warc_date, "WARC-IP-Address": "192.0.2.10",
                                       "WARC-Concurrent-To": response.rec_headers.get_header("WARC-Record-ID")})
                writer.write_record(request)
                writer.write_record(response)
                n += 1
    return n


# ---------------------------------------------------------------------------------------------
# What a WARC holds: its HTML pages and their hosts
# ---------------------------------------------------------------------------------------------

def survey(warc: Path) -> tuple[int, list[str]]:
    """The HTML response records of a WARC and the hosts they belong to (for a Wayback capture both
    the archive's and the original's), read with warcio. Stops quietly at a fault, as a reader would."""
    pages, hosts = 0, set()
    with open(warc, "rb") as stream:
        try:
            for record in ArchiveIterator(stream, arc2warc=True):
                if record.rec_type != "response":
                    continue
                content_type = (record.http_headers.get_header("Content-Type") or "") if record.http_headers else ""
                if content_type.split(";")[0].strip().lower() not in HTML_TYPES:
                    continue
                pages += 1
                url = record.rec_headers.get_header("WARC-Target-URI") or ""
                for candidate in [url] + WAYBACK_URL.findall(url):
                    host = (urlsplit(candidate.strip("<>")).hostname or "").rstrip(".")
                    if host:
                        hosts.add(host)
        except Exception as error:  # noqa: BLE001 - a broken tail still leaves the pages before it
            print(f"note: reading {warc.name} stopped at {type(error).__name__}: {error}", file=sys.stderr)
    return pages, sorted(hosts)


def first_page_warc(source: Path, target: Path) -> None:
    """A WARC of the source's first HTML response record (with its warcinfo), for the start-up runs."""
    with open(source, "rb") as stream, open(target, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for record in ArchiveIterator(stream, arc2warc=True):
            if record.rec_type == "warcinfo":
                writer.write_record(record)
            elif record.rec_type == "response" and record.http_headers is not None and \
                    (record.http_headers.get_header("Content-Type") or "").split(";")[0].strip().lower() in HTML_TYPES:
                writer.write_record(record)
                return
    fail(f"{source} holds no HTML response record")


# ---------------------------------------------------------------------------------------------
# Our side: a fresh corpus database with every host on the register
# ---------------------------------------------------------------------------------------------

class Corpus:
    """Fresh corpus databases on the server `warc2corpus db url` names (the embedded one unless
    AIRFLOW_CONN_WARC2CORPUS_DB points elsewhere)."""

    def __init__(self, workdir: Path):
        url = subprocess.run([str(OURS), "db", "url"], check=True, capture_output=True, text=True).stdout.strip()
        self.server = urlsplit(url.splitlines()[-1])
        self.admin = urlunsplit(self.server._replace(path="/postgres"))
        self.workdir = workdir
        self.names: list[str] = []

    def fresh(self, hosts: list[str]) -> dict[str, str]:
        """A new database whose register holds every host; the environment that points a command at it."""
        name = f"w2c_bench_peer_{secrets.token_hex(4)}"
        with psycopg.connect(self.admin, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"')
        self.names.append(name)
        staging = self.workdir / name / "staging"
        staging.mkdir(parents=True)
        env = {**os.environ, DATABASE_VARIABLE: urlunsplit(self.server._replace(path=f"/{name}")),
               "WARC2CORPUS_STAGING": str(staging), **ONE_THREAD}
        register = self.workdir / name / "register.csv"
        register.write_text("domain,title,has_responsible_editor\n"
                            + "".join(f"{host},{host},yes\n" for host in hosts), encoding="utf-8")
        subprocess.run([str(OURS), "publications", "import", str(register)], env=env, check=True,
                       stdout=subprocess.DEVNULL)
        return env

    def stats(self, env: dict[str, str]) -> dict:
        out = subprocess.run([str(OURS), "stats", "--json"], env=env, check=True, capture_output=True, text=True)
        return json.loads(out.stdout)

    def drop_all(self) -> None:
        with psycopg.connect(self.admin, autocommit=True) as admin:
            for name in self.names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.names.clear()


def postmaster_pid() -> int | None:
    """The embedded server's process when it is the one in use (to pin it to the benchmark's core)."""
    if os.environ.get(DATABASE_VARIABLE, "").strip():
        return None
    pgdata = Path(os.environ.get("WARC2CORPUS_PGDATA") or REPO / "var" / "postgres")
    try:
        return int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def set_affinity(pid: int, cores: str) -> None:
    """Every thread of the process (new backends fork from it and inherit it)."""
    subprocess.run(["taskset", "-a", "-p", "-c", cores, str(pid)], check=True, stdout=subprocess.DEVNULL)


# ---------------------------------------------------------------------------------------------
# Timing a whole command
# ---------------------------------------------------------------------------------------------

@dataclass
class Pass:
    seconds: float
    max_rss_mb: float   # the kernel's peak RSS of the largest process of the command (and the children it waited for)
    tree_pss_mb: float  # sampled peak of the command's whole process tree, as PSS (shared pages shared out)
    stdout: str


def timed(command: list[str], env: dict[str, str], log: Path) -> Pass:
    """Run a command on the benchmark core and time it from start to exit."""
    stop = threading.Event()
    tree_peak = [0]

    def sample(process: psutil.Process) -> None:
        while not stop.wait(0.1):
            try:
                members = [process] + process.children(recursive=True)
                total = 0
                for member in members:
                    try:
                        total += member.memory_full_info().pss
                    except psutil.Error:
                        pass
                tree_peak[0] = max(tree_peak[0], total)
            except psutil.Error:
                return

    with open(log, "w", encoding="utf-8") as err:
        clock = time.perf_counter()
        child = subprocess.Popen(["taskset", "-c", CORE, *command], env=env, stdout=subprocess.PIPE, stderr=err,
                                 text=True)
        sampler = threading.Thread(target=sample, args=(psutil.Process(child.pid),), daemon=True)
        sampler.start()
        stdout = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - clock
        child.returncode = os.waitstatus_to_exitcode(status)
        stop.set()
        sampler.join()
    if child.returncode != 0:
        fail(f"{' '.join(command)} exited {child.returncode}; its messages are in {log}:\n"
             + "\n".join(log.read_text(encoding="utf-8", errors="replace").splitlines()[-15:]))
    return Pass(seconds, usage.ru_maxrss / 1024, tree_peak[0] / 2**20, stdout)


# `warc2corpus -v run`'s log lines of its phases: "extract: 4 files in 26.9 s", "autocat and allow-list in 0.4 s", ...
PHASE = re.compile(r"INFO \S+ (extract|autocat and allow-list|filter, deduplicate, load|naturalness, near-duplicates, "
                   r"research index)(?::.*?)? in ([0-9.]+) s")


def phases(log: str) -> str:
    """The phases' seconds a `warc2corpus -v run` logged ("extract 26.9 s, ..."); says so when it
    logged none (its messages changed: stages/run.py writes them)."""
    found = PHASE.findall(log)
    return ", ".join(f"{name} {float(took):.1f} s" for name, took in found) if found else "(no phase in the log)"


def run_ours(warc: Path, corpus: Corpus, hosts: list[str], log: Path) -> tuple[Pass, dict]:
    env = corpus.fresh(hosts)
    result = timed([str(OURS), "-v", "run", str(warc), "--crawl-job", "bench-peer"], env, log)
    stats = corpus.stats(env)
    # Dropped at once: a pass's database left behind keeps the server busy (autovacuum, checkpoints)
    # on the benchmark's core during the passes after it (ours slowed by a third over three passes).
    corpus.drop_all()
    return result, stats


def run_peer(python: Path, warc: Path, workdir: Path, log: Path) -> tuple[Pass, dict]:
    """DataTrove's pass; with what it wrote and what its extractor gave up on (timeouts ...)."""
    output = Path(tempfile.mkdtemp(prefix="datatrove-", dir=workdir))
    result = timed([str(python), str(PEER_SCRIPT), str(warc), str(output)], {**os.environ, **ONE_THREAD}, log)
    return result, json.loads(result.stdout.strip().splitlines()[-1])


# ---------------------------------------------------------------------------------------------
# Profile
# ---------------------------------------------------------------------------------------------

def profile(warc: Path, hosts: list[str], corpus: Corpus, workdir: Path, report: Path) -> None:
    import pstats

    env = corpus.fresh(hosts)
    raw = report.with_name(report.name + ".prof")
    result = timed([sys.executable, "-m", "cProfile", "-o", str(raw), str(OURS), "run", str(warc),
                    "--crawl-job", "bench-peer"], env, workdir / "profile.log")
    documents = corpus.stats(env)["documents"]
    with open(report, "w", encoding="utf-8") as out:
        out.write(f"cProfile of `warc2corpus run {warc.name}` (fresh corpus, every host registered, core {CORE}):"
                  f" {result.seconds:.1f} s wall under the profiler, {documents} documents loaded\n\n")
        for order in ("cumulative", "tottime"):
            out.write(f"==== top 60 by {order} ====\n")
            pstats.Stats(str(raw), stream=out).sort_stats(order).print_stats(60)
    print(f"profile: {result.seconds:.1f} s under cProfile, {documents} documents; report in {report}, "
          f"statistics in {raw}")


def sampled_profile(warc: Path, hosts: list[str], corpus: Corpus, workdir: Path, report: Path) -> None:
    """One pass under py-spy (a sampling profiler: the program runs at its own speed, where cProfile
    inflates code that makes many small Python calls): each function's share of the samples in which
    it is on the stack, at least 0.5 %, the largest first."""
    import re
    import shutil
    from collections import Counter

    spy = shutil.which("py-spy", path=str(Path(sys.executable).parent)) or shutil.which("py-spy")
    if spy is None:
        fail("py-spy not found (pip install -r requirements-dev.txt -c constraints.txt)")
    env = corpus.fresh(hosts)
    raw = report.with_name(report.name + ".stacks")
    result = timed([spy, "record", "--rate", "200", "--format", "raw", "--output", str(raw), "--", str(OURS), "run",
                    str(warc), "--crawl-job", "bench-peer"], env, workdir / "sample.log")
    documents = corpus.stats(env)["documents"]
    frame = re.compile(r"\((?:.*/(?:site-packages|include|python3\.\d+)/)?(.*?)(?::\d+)?\)$")
    on_stack: Counter = Counter()
    total = 0
    for line in raw.read_text(encoding="utf-8").splitlines():
        stack, _, count = line.rpartition(" ")
        total += int(count)
        # "function (/path/to/package/file.py:line)" -> "function (package/file.py)", once per stack
        on_stack.update(dict.fromkeys({frame.sub(r"(\1)", f) for f in stack.split(";")}, int(count)))
    with open(report, "w", encoding="utf-8") as out:
        out.write(f"py-spy (200 samples/s) of `warc2corpus run {warc.name}` (fresh corpus, every host registered, "
                  f"core {CORE}): {result.seconds:.1f} s wall, {documents} documents loaded, {total} samples ({total / 200:.1f} s; "
                  "time spent waiting, on the database above all, is not sampled)\n\n"
                  "share of the samples with the function on the stack:\n")
        for function, count in on_stack.most_common():
            if count < 0.005 * total:
                break
            out.write(f"{100 * count / total:6.1f} %  {function}\n")
    print(f"sampled: {result.seconds:.1f} s, {documents} documents; report in {report}, stacks in {raw}")


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def _version(python: Path, module: str) -> str:
    out = subprocess.run([str(python), "-c", f"import importlib.metadata as m; print(m.version({module!r}))"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warc", type=Path, help="benchmark this WARC instead of one built from the samples")
    parser.add_argument("--copies", type=int, default=7, help="times the sample pages are repeated (default 7)")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes of each side (default 3)")
    parser.add_argument("--startup-repeats", type=int, default=3,
                        help="passes of each side on a one-page WARC for the start-up time (default 3)")
    parser.add_argument("--profile", type=Path, metavar="FILE",
                        help="profile one `warc2corpus run` pass instead, report to FILE")
    parser.add_argument("--sample", type=Path, metavar="FILE",
                        help="sample one `warc2corpus run` pass with py-spy instead, report to FILE")
    args = parser.parse_args()
    if args.copies < 1 or args.repeats < 1 or args.startup_repeats < 1:
        parser.error("--copies, --repeats and --startup-repeats must be at least 1")
    if args.warc is not None and not args.warc.is_file():
        parser.error(f"no such file: {args.warc}")
    if not OURS.exists():
        fail(f"{OURS} not found: run this with the project's venv (make install; .venv/bin/python ...)")
    compile_package()

    with tempfile.TemporaryDirectory(prefix="w2c-bench-peer-") as tmp:
        workdir = Path(tmp)
        if args.warc is not None:
            warc = args.warc.resolve()
            described = f"{warc}"
        else:
            pages = load_pages(samples_dir())
            warc = workdir / "BENCHPEER-20250101000000-00000-samples.warc.gz"
            write_warc(warc, pages, args.copies)
            described = f"built from {len(pages)} sample pages x {args.copies} copies"
        n_pages, hosts = survey(warc)
        if n_pages == 0:
            fail(f"{warc} holds no HTML response record")
        print(f"WARC: {n_pages} HTML pages of {len(hosts)} hosts, {warc.stat().st_size / 2**20:.1f} MB ({described})")

        corpus = Corpus(workdir)
        postmaster = postmaster_pid()
        affinity = psutil.Process(postmaster).cpu_affinity() if postmaster else None
        try:
            if postmaster:
                set_affinity(postmaster, CORE)
            if args.profile:
                profile(warc, hosts, corpus, workdir, args.profile.resolve())
                return
            if args.sample:
                sampled_profile(warc, hosts, corpus, workdir, args.sample.resolve())
                return
            python = peer_python()
            benchmark(args, warc, n_pages, hosts, python, corpus, workdir, pinned_server=bool(postmaster))
        finally:
            if postmaster and affinity is not None and psutil.pid_exists(postmaster):
                set_affinity(postmaster, ",".join(map(str, affinity)))
            corpus.drop_all()


def compile_package() -> None:
    """Our modules compiled, as an installed package's are (``make install`` does it too): where
    PYTHONDONTWRITEBYTECODE is set, every pass would otherwise compile them from source (0.11 s), while
    DataTrove's modules, installed by pip into its venv, are compiled."""
    import warc2corpus

    for folder in (Path(warc2corpus.__file__).parent, REPO / "plugins", REPO / "dags"):
        if folder.is_dir() and not compileall.compile_dir(str(folder), quiet=1):
            fail(f"compiling {folder} failed")


def benchmark(args, warc: Path, n_pages: int, hosts: list[str], python: Path, corpus: Corpus, workdir: Path,
              pinned_server: bool) -> None:
    one_page = workdir / "BENCHPEER-20250101000000-00001-one-page.warc.gz"
    first_page_warc(warc, one_page)
    _, one_host = survey(one_page)
    logs = workdir / "logs"
    logs.mkdir()

    startup = {"ours": [], "DataTrove": []}
    for i in range(args.startup_repeats):
        startup["DataTrove"].append(run_peer(python, one_page, workdir, logs / f"startup-peer-{i}.log")[0].seconds)
        startup["ours"].append(run_ours(one_page, corpus, one_host, logs / f"startup-ours-{i}.log")[0].seconds)
        corpus.drop_all()
    fixed = {side: statistics.median(times) for side, times in startup.items()}

    rows, passes, our_phases = [], {"ours": [], "DataTrove": []}, []
    for i in range(args.repeats):
        result, outcome = run_peer(python, warc, workdir, logs / f"peer-{i}.log")
        passes["DataTrove"].append(result)
        gave_up = ", ".join(f"{n} {label}" for label, n in (("timeouts", outcome["timeout"]),
                            ("dead sandbox", outcome["broken_process"]), ("errors", outcome["clean_error"])) if n)
        rows.append((i + 1, "DataTrove", result, f"{outcome['documents']} written" + (f" ({gave_up})" if gave_up else "")))
        result, stats = run_ours(warc, corpus, hosts, logs / f"ours-{i}.log")
        passes["ours"].append(result)
        corpus.drop_all()
        held_back = {k: v for k, v in stats["rejections_by_reason"].items() if k.startswith("filter:")}
        if held_back:
            fail(f"the allow-list held pages back, so the passes are not comparable: {held_back}")
        rows.append((i + 1, "ours", result, f"{stats['documents']} loaded"))
        our_phases.append(phases((logs / f"ours-{i}.log").read_text(encoding="utf-8", errors="replace")))

    def rate(seconds: float) -> float:
        return n_pages / seconds

    def rate_excl(side: str, seconds: float) -> float:
        return n_pages / (seconds - fixed[side]) if seconds > fixed[side] else math.nan

    print(f"warc2corpus {_version(Path(sys.executable), 'warc2corpus')} (trafilatura "
          f"{_version(Path(sys.executable), 'trafilatura')}) against DataTrove {_version(python, 'datatrove')} "
          f"(trafilatura {_version(python, 'trafilatura')}); Python {platform.python_version()}; "
          f"core {CORE} only (taskset{', PostgreSQL server too' if pinned_server else ''}), one thread")
    print(f"start-up (one-page WARC, median of {args.startup_repeats}): ours {fixed['ours']:.2f} s, "
          f"DataTrove {fixed['DataTrove']:.2f} s")
    print(f"\n{'pass':>4}  {'side':<9} {'seconds':>8} {'docs/s':>7} {'excl. start-up':>15} "
          f"{'peak RSS MB':>12} {'tree PSS MB':>12}  documents")
    for number, side, result, output in rows:
        print(f"{number:>4}  {side:<9} {result.seconds:>8.2f} {rate(result.seconds):>7.2f} "
              f"{rate_excl(side, result.seconds):>15.2f} {result.max_rss_mb:>12.0f} {result.tree_pss_mb:>12.0f}  {output}")
    print("\nour passes by phase, as the run logs them (the models load in extract; the rest of a pass is the "
          "interpreter, the imports and the run's bookkeeping):")
    for number, line in enumerate(our_phases, 1):
        print(f"{number:>4}  {line}")

    median = {side: statistics.median(rate(p.seconds) for p in ps) for side, ps in passes.items()}
    median_excl = {side: statistics.median(rate_excl(side, p.seconds) for p in ps) for side, ps in passes.items()}
    best = {side: max(rate(p.seconds) for p in ps) for side, ps in passes.items()}
    best_excl = {side: max(rate_excl(side, p.seconds) for p in ps) for side, ps in passes.items()}
    paired = [rate(o.seconds) / rate(d.seconds) for o, d in zip(passes["ours"], passes["DataTrove"])]
    print(f"\ndocs/s = {n_pages} HTML pages of the WARC / seconds of the whole command. Peak RSS: the largest "
          "process (kernel); tree PSS: sampled sum over all the command's processes, shared pages shared out "
          "(DataTrove extracts in a forked sandbox process). The PostgreSQL server is in neither.")
    for side in ("ours", "DataTrove"):
        ps = passes[side]
        print(f"{side:<9}: median {median[side]:.2f} docs/s (excl. start-up {median_excl[side]:.2f}), "
              f"best {best[side]:.2f} ({best_excl[side]:.2f}); peak RSS {max(p.max_rss_mb for p in ps):.0f} MB "
              f"(tree PSS {max(p.tree_pss_mb for p in ps):.0f} MB)")
    print(f"ratio ours/DataTrove (docs/s): median {median['ours'] / median['DataTrove']:.2f} "
          f"(excl. start-up {median_excl['ours'] / median_excl['DataTrove']:.2f}), best "
          f"{best['ours'] / best['DataTrove']:.2f} ({best_excl['ours'] / best_excl['DataTrove']:.2f}); "
          f"paired passes {', '.join(f'{r:.2f}' for r in paired)}")
    print(drift_note([p.seconds for p in passes["DataTrove"]]))


DRIFT = 0.10  # DataTrove's own passes further apart than this: the machine's speed moved during the run


def drift_note(seconds: list[float]) -> str:
    """What DataTrove's own passes say of the machine: the same command on the same WARC, so a spread
    between them is the machine's drift (on 2026-12-07/08 one hour's passes took 21 s, the next hour's 14 s,
    and the drift slowed ours half again as much as DataTrove)."""
    if len(seconds) < 2:
        return "drift: one pass a side, the machine's drift unseen (--repeats 2 or more shows it)"
    spread = max(seconds) / min(seconds) - 1
    if spread > DRIFT:
        return (f"drift: DataTrove's own passes {min(seconds):.1f}-{max(seconds):.1f} s ({spread:.0%} apart): "
                "the machine's speed moved during the run; read the paired passes, and run again")
    return f"drift: DataTrove's own passes {min(seconds):.1f}-{max(seconds):.1f} s ({spread:.0%} apart)"


if __name__ == "__main__":
    main()
