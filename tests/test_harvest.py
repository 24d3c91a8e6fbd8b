"""`warc2corpus harvest` against a real Wayback server on loopback: pywb (from PyPI, in its own venv
var/pywb-venv built from tests/pywb-requirements.txt, since its pins clash with Airflow's) serving real
WARCs of ../shared/samples, with a fault-injecting proxy in front of it where a test needs faults."""

from __future__ import annotations

import http.client
import io
import json
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import psycopg
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.warcwriter import WARCWriter

from conftest import ROOT, _with_database, run_cli
from warc2corpus import harvest as harvesting
from warc2corpus import settings
from warc2corpus.harvest import cdx
from warc2corpus.harvest.fetch import PoliteSession

PYWB_VENV = ROOT / "var" / "pywb-venv"
PYWB_REQUIREMENTS = ROOT / "tests" / "pywb-requirements.txt"
WARC2CORPUS = Path(sys.executable).with_name("warc2corpus")
NRK = "https://www.nrk.no/ol/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-_-sa-kom-sjokkvendingen-1.16990729"
DAGBLADET = "https://www.dagbladet.no/nyheter/nordmann-domt-til-livstid/81348547"
EXPRESSEN = "https://www.expressen.se/nyheter/sverige/elever-atalas-for-misshandel-pa-lundsberg/"
TAMPERED = "https://tampered.example.org/nyheter/elever/"
NEWS = ["nrk.no", "dagbladet.no", "expressen.se"]


def fast_session(**kwargs) -> PoliteSession:
    """The harvest's own session, with the waits of a test (the politeness defaults are the README's)."""
    return PoliteSession(**{"rate": 50, "backoff": 0.1, "retries": 2, "timeout": 10, **kwargs})


# ---------------------------------------------------------------------------------------------
# pywb
# ---------------------------------------------------------------------------------------------

def pywb_bin() -> Path:
    """The pywb venv's bin folder, built unless it was built from the same requirements file."""
    bin_dir = PYWB_VENV / "bin"
    stamp = PYWB_VENV / ".requirements"
    wanted = PYWB_REQUIREMENTS.read_text(encoding="utf-8")
    if (bin_dir / "wayback").exists() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return bin_dir
    subprocess.run([sys.executable, "-m", "venv", "--clear", str(PYWB_VENV)], check=True)
    install = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", "-r",
                              str(PYWB_REQUIREMENTS)], capture_output=True, text=True)
    if install.returncode != 0:
        pytest.skip(f"cannot install pywb into {PYWB_VENV} (no package index?): {install.stderr[-500:]}")
    stamp.write_text(wanted, encoding="utf-8")
    return bin_dir


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def tampered_warc(samples: Path, path: Path) -> None:
    """The Expressen capture under another URL with one word of its body changed and a WARC-Payload-Digest
    that is not its payload's (the Dagbladet page's): what pywb indexes as the digest is wrong."""
    with open(samples / "news_fundus" / "nordic_dev_pages.warc.gz", "rb") as stream:
        found = {r.rec_headers.get_header("WARC-Target-URI"): (r.http_headers, r.rec_headers, r.content_stream().read())
                 for r in ArchiveIterator(stream) if r.rec_type == "response"}
    headers, _, body = found[EXPRESSEN]
    digest = found[DAGBLADET][1].get_header("WARC-Payload-Digest")
    changed = body.replace(b"Lundsberg", b"Lundsborg", 1)
    assert changed != body
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(writer.create_warc_record(
            TAMPERED, "response", payload=io.BytesIO(changed), length=len(changed), http_headers=headers,
            warc_headers_dict={"WARC-Date": "2025-10-24T08:00:00Z", "WARC-Payload-Digest": digest}))


@pytest.fixture(scope="module")
def wayback(samples, tmp_path_factory):
    """pywb on 127.0.0.1 serving the NRK/Dagbladet/Expressen WARC (with a revisit), pywb's dupes.warc.gz
    (example.com captured again and again), its example.warc.gz (a 302 capture) and a tampered capture;
    yields its CDX URL."""
    bin_dir = pywb_bin()
    root = tmp_path_factory.mktemp("pywb")
    tampered = root / "tampered.warc.gz"
    tampered_warc(samples, tampered)
    subprocess.run([str(bin_dir / "wb-manager"), "init", "news"], cwd=root, check=True, capture_output=True)
    subprocess.run([str(bin_dir / "wb-manager"), "add", "news", str(samples / "news_fundus" / "nordic_dev_pages.warc.gz"),
                    str(samples / "warc" / "pywb" / "dupes.warc.gz"), str(samples / "warc" / "pywb" / "example.warc.gz"),
                    str(tampered)],
                   cwd=root, check=True, capture_output=True)
    port = free_port()
    log = open(root / "wayback.log", "wb")
    process = subprocess.Popen([str(bin_dir / "wayback"), "-p", str(port), "-b", "127.0.0.1"], cwd=root,
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}/news/cdx"
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()


# ---------------------------------------------------------------------------------------------
# A fault-injecting proxy
# ---------------------------------------------------------------------------------------------

class FaultProxy(ThreadingHTTPServer):
    """Forwards GETs to pywb, counts every request by path, and answers some of them itself:
    ``faults`` maps a substring of the request path to the faults to inject, one per request, in
    turn: ``429`` (with Retry-After: 1), ``503``, ``truncate`` (half the body, then the connection
    closes), ``not_cdx`` (an HTML page with status 200)."""

    daemon_threads = True

    def __init__(self, upstream_port: int):
        super().__init__(("127.0.0.1", 0), ProxyHandler)
        self.upstream_port = upstream_port
        self.requests: list[str] = []
        self.faults: dict[str, list[str]] = {}
        self.lock = threading.Lock()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def count(self, fragment: str) -> int:
        return sum(fragment in path for path in self.requests)


class ProxyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_GET(self):
        server: FaultProxy = self.server
        with server.lock:
            server.requests.append(self.path)
            fault = next((faults.pop(0) for fragment, faults in server.faults.items()
                          if fragment in self.path and faults), None)
        if fault in ("429", "503"):
            body = b"slow down" if fault == "429" else b"unavailable"
            self.send_response(int(fault))
            if fault == "429":
                self.send_header("Retry-After", "1")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        if fault == "not_cdx":
            body = b"<!doctype html><html><body>Please log in</body></html>"
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        upstream = http.client.HTTPConnection("127.0.0.1", server.upstream_port, timeout=30)
        upstream.request("GET", self.path, headers={"Host": self.headers["Host"]})
        response = upstream.getresponse()
        body = response.read()
        upstream.close()
        self.send_response(response.status, response.reason)
        for name, value in response.getheaders():
            if name.lower() not in ("transfer-encoding", "connection", "content-length", "date", "server"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if fault == "truncate":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        self.wfile.write(body)


@pytest.fixture
def proxy(wayback):
    server = FaultProxy(int(wayback.split(":")[2].split("/")[0]))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


def records(directory: Path) -> list[tuple]:
    """(type, target URI, WARC-Date, HTTP status) of every record of the WARC files in ``directory``,
    read with digests checked."""
    found = []
    for path in sorted(directory.glob("*.warc.gz")):
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream, check_digests="raise"):
                record.content_stream().read()
                found.append((record.rec_type, record.rec_headers.get_header("WARC-Target-URI"),
                              record.rec_headers.get_header("WARC-Date"),
                              record.http_headers.get_statuscode() if record.http_headers and
                              record.rec_type == "response" else None))
    return found


def ledger(directory: Path) -> list[dict]:
    return [json.loads(line) for line in (directory / "harvest-ledger.jsonl").read_text().splitlines()]


# ---------------------------------------------------------------------------------------------
# The CDX answer's forms (no server)
# ---------------------------------------------------------------------------------------------

def test_cdx_answers_in_every_form_and_what_is_not_cdx():
    line = ("com,example)/ 20140127171200 http://example.com/ text/html 200 "
            "B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A 1046")
    ia_json = json.dumps([list(cdx.FIELDS), line.split(" ")])
    pywb_json = json.dumps({"urlkey": "com,example)/", "timestamp": "20140127171200", "url": "http://example.com/",
                            "mime": "text/html", "status": "200", "digest": "B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A",
                            "length": "1046", "filename": "dupes.warc.gz"})
    cdxj = 'com,example)/ 20140127171200 {"url": "http://example.com/", "mime": "text/html", "status": "200", ' \
           '"digest": "B2LTWWPUOYAH7UIPQ7ZUPQ4VMBSVC36A", "length": "1046"}'
    parsed = {form: cdx.parse(text) for form, text in
              (("classic", line), ("ia_json", ia_json), ("pywb_json", pywb_json), ("cdxj", cdxj))}
    assert len({tuple(captures) for captures in parsed.values()}) == 1
    [capture] = parsed["classic"]
    assert (capture.original, capture.statuscode, capture.mimetype) == ("http://example.com/", "200", "text/html")
    assert cdx.parse("\n") == []
    for not_cdx in ("<!doctype html><html><body>Please log in</body></html>", '{"error": "rate limited"}',
                    "[1, 2, 3]", "com,example)/ 2014 http://example.com/ text/html 200 - 10"):
        with pytest.raises(cdx.CdxError, match="CDX"):
            cdx.parse(not_cdx)
    with pytest.raises(ValueError, match="match must be"):
        cdx.query_params("example.com", match="everything")
    with pytest.raises(ValueError, match="from must be"):
        cdx.query_params("example.com", from_="2019-01-01")
    assert harvesting.normalise_digest("sha1:" + "ab" * 20) == harvesting.normalise_digest(
        __import__("base64").b32encode(bytes.fromhex("ab" * 20)).decode())


def test_progress_line_shows_counts_and_time_left():
    from collections import Counter

    from warc2corpus.cli.harvest import HarvestProgress

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    stream = Terminal()
    progress = HarvestProgress(stream)
    progress.started -= 10  # ten seconds in: one capture fetched, one harvested before, two to go
    progress(Counter(captures=4, written=1, already_harvested=1), 2)
    line = stream.getvalue()
    assert "captures 2/4 (50%), 20 s left: 1 written" in line and "1 harvested before" in line


# ---------------------------------------------------------------------------------------------
# Against pywb
# ---------------------------------------------------------------------------------------------

def test_cdx_queries_with_match_from_to_filter_and_collapse(wayback):
    session = fast_session()

    def keys(url, **params):
        return [(c.timestamp, c.original) for c in harvesting.query(session, wayback, url, **params)]

    assert keys(NRK) == [("20240805150955", NRK), ("20240806090000", NRK)]  # the capture and its revisit
    assert keys("nrk.no", match="domain", filters=("statuscode:200",)) == [("20240805150955", NRK)]
    assert keys("www.dagbladet.no/nyheter/", match="prefix") == [("20240804102336", DAGBLADET)]
    assert keys("www.dagbladet.no/nyheter/", match="exact") == []
    assert keys("nrk.no", match="domain", from_="20240806") == [("20240806090000", NRK)]
    assert keys("nrk.no", match="domain", to="20240805235959") == [("20240805150955", NRK)]
    everything = harvesting.query(session, wayback, "example.com", match="host")
    collapsed = harvesting.query(session, wayback, "example.com", match="host", collapse=("digest",))
    assert len(everything) > len(collapsed) >= 1
    assert all(a.digest != b.digest for a, b in zip(collapsed, collapsed[1:]))


def test_harvest_writes_valid_warcs_with_original_headers_and_revisits(wayback, tmp_path):
    out = tmp_path / "out"
    result = harvesting.harvest(wayback, ["nrk.no", "example.com"], out, match="domain", session=fast_session())
    assert result.complete and not result.messages
    assert result.counts["mismatches"] == 0 and result.counts["written"] >= 2 and result.counts["revisits"] >= 2
    found = records(out)
    assert ("response", NRK, "2024-08-05T15:09:55Z", "200") in found
    assert ("revisit", NRK, "2024-08-06T09:00:00Z", None) in found  # same digest: no second fetch
    assert ("request", NRK, "2024-08-05T15:09:55Z", None) in found
    # IIPC names dated by their first capture; one UTC day per file; no file left open
    names = sorted(p.name for p in out.iterdir() if p.suffix == ".gz")
    assert "WAYBACK-20240805150955000-" in " ".join(names) and not list(out.glob("*.open"))
    with open(next(out.glob("WAYBACK-20240805*.warc.gz")), "rb") as stream:
        warcinfo, response = list(r for r, _ in zip(ArchiveIterator(stream), range(2)))
    with open(next(out.glob("WAYBACK-20240805*.warc.gz")), "rb") as stream:
        kinds = [(r.rec_type, r.rec_headers.get_header("WARC-Source-URI"), r.http_headers and r.http_headers.headers)
                 for r in ArchiveIterator(stream)]
    assert kinds[0][0] == "warcinfo"
    assert kinds[1][1] == wayback[: -len("cdx")] + f"20240805150955id_/{NRK}"
    assert kinds[1][2] == [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", "441732")]
    # pywb answers example.com's captures with X-Archive-Orig-Date etc.: the archived headers come back
    responses = []
    for path in sorted(out.glob("WAYBACK-2014*.warc.gz")):
        with open(path, "rb") as stream:
            responses += [dict(r.http_headers.headers) for r in ArchiveIterator(stream) if r.rec_type == "response"]
    headers = responses[0]
    assert " 2014 " in headers["Date"] and headers["Server"].startswith("ECS")
    assert not any(name.lower().startswith(("x-archive", "memento", "link")) for name in headers)
    # pywb's own redirect (http://example.com -> http://example.com/) was followed; each capture fetched once
    assert all(e["status"] in ("written", "revisit") for e in ledger(out))


def test_a_capture_of_a_redirect_keeps_its_body(wayback, tmp_path):
    """Regression: with requests, the body of a redirect it did not follow was read away (and decoded)
    before the harvest saw it, so this 302 capture came out empty and failed its digest check."""
    out = tmp_path / "out"
    result = harvesting.harvest(wayback, ["http://www.iana.org/domains/example"], out, session=fast_session())
    assert result.complete and result.counts["written"] == 1 and result.counts["mismatches"] == 0
    with open(next(out.glob("*.warc.gz")), "rb") as stream:
        response = next(r for r in ArchiveIterator(stream) if r.rec_type == "response")
        assert response.http_headers.get_statuscode() == "302"
        assert response.http_headers.get_header("Location") == "/domains/reserved"  # as archived, not rewritten
        assert b"The document has moved" in response.content_stream().read()


def test_a_tampered_capture_is_detected_and_kept_apart(wayback, tmp_path):
    out = tmp_path / "out"
    result = harvesting.harvest(wayback, [TAMPERED, EXPRESSEN], out, session=fast_session())
    assert result.counts["mismatches"] == 1 and result.counts["written"] == 1
    assert result.complete  # recorded for good, not a passing fault
    [message] = result.messages
    assert TAMPERED in message and "is not the CDX digest" in message
    assert [r[1] for r in records(out) if r[0] == "response"] == [EXPRESSEN]
    assert [r[1] for r in records(out / "mismatch") if r[0] == "response"] == [TAMPERED]
    [entry] = [e for e in ledger(out) if e["status"] == "mismatch"]
    assert entry["url"] == TAMPERED and entry["digest"] != entry["cdx_digest"]


def test_faults_are_retried_counted_and_the_harvest_goes_on(wayback, proxy, tmp_path, caplog):
    cdx_url = f"{proxy.url}/news/cdx"
    proxy.faults = {"/news/cdx?url=nrk.no": ["429"], "id_/https://www.dagbladet.no": ["503", "503"],
                    "id_/https://www.nrk.no": ["truncate"], "url=expressen.se": ["not_cdx"]}
    out = tmp_path / "out"
    started = time.monotonic()
    result = harvesting.harvest(cdx_url, NEWS, out, match="domain", session=fast_session())
    assert time.monotonic() - started >= 1.0  # the 429's Retry-After: 1 was waited for
    # the 429, both 503s and the truncated body were retried; the non-CDX answer is counted, the rest goes on
    assert result.counts["written"] == 2 and result.counts["revisits"] == 1
    assert result.counts["cdx_failed"] == 1 and result.counts["cdx_not_cdx"] == 1 and not result.complete
    assert any("expressen.se" in m and "did not answer with CDX" in m for m in result.messages)
    assert proxy.count("/news/cdx?url=nrk.no") == 2 and proxy.count("id_/https://www.dagbladet.no") == 3
    assert proxy.count("id_/https://www.nrk.no") == 2
    assert any("ended early" in r.getMessage() for r in caplog.records)

    # a body that stays truncated: counted as failed with its message, the others written
    out2 = tmp_path / "out2"
    proxy.faults = {"id_/https://www.nrk.no": ["truncate"] * 3}
    result = harvesting.harvest(cdx_url, ["nrk.no", "dagbladet.no"], out2, match="domain", session=fast_session())
    # (NRK's later capture, a revisit in the archive, is fetched whole: its original is not in a file)
    assert result.counts["failed_truncated"] == 1 and result.counts["written"] == 2 and not result.complete
    assert any(NRK in m and "ended early" in m for m in result.messages)
    # run again: nothing written is fetched again; the failed capture's payload is in a file by now
    # (the later capture's), so it becomes a revisit of that, with no fetch at all
    before = proxy.count("id_/")
    result = harvesting.harvest(cdx_url, ["nrk.no", "dagbladet.no"], out2, match="domain", session=fast_session())
    assert result.complete and result.counts["revisits"] == 1 and result.counts["already_harvested"] == 2
    assert proxy.count("id_/") == before

    # an unreachable server: a clear message and a count, no traceback
    closed = f"http://127.0.0.1:{free_port()}/news/cdx"
    result = harvesting.harvest(closed, ["nrk.no"], tmp_path / "out3", session=fast_session(retries=1))
    assert result.counts["cdx_unreachable"] == 1 and not result.complete
    assert "Connection refused" in result.messages[0]


def test_cli_exit_codes(wayback, tmp_path, capsys):
    code, out, err = run_cli(capsys, "harvest", "--cdx", wayback, "--url", "nrk.no", "--match", "domain",
                             "--filter", "statuscode:200", "mimetype:text/html", "--rate", "20", str(tmp_path / "a"))
    assert code == 0 and "written" in out and "WAYBACK-20240805150955000-00000" in out
    code, out, err = run_cli(capsys, "harvest", "--cdx", wayback, "--url", "nrk.no", "--from", "2024-08",
                             str(tmp_path / "b"))
    assert code == 2 and "from must be 1 to 14 digits" in err
    code, out, err = run_cli(capsys, "harvest", "--cdx", "http://127.0.0.1:1/nothing", "--url", "nrk.no",
                             str(tmp_path / "c"))
    assert code == 2 and "--replay" in err


def test_an_interrupted_harvest_resumes_without_fetching_anything_twice(wayback, proxy, tmp_path):
    out = tmp_path / "out"
    command = [str(WARC2CORPUS), "harvest", "--cdx", f"{proxy.url}/news/cdx", "--url", "nrk.no", "--url",
               "dagbladet.no", "--url", "expressen.se", "--url", "example.com", "--match", "domain",
               "--rate", "3", str(out)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        path = out / "harvest-ledger.jsonl"
        if path.exists() and len(path.read_text().splitlines()) >= 3:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert process.returncode == -signal.SIGKILL
    first = ledger(out)
    assert 3 <= len(first)
    completed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert completed.returncode == 0, completed.stderr
    final = ledger(out)
    assert len({e["key"] for e in final}) == len(final)  # no capture dealt with twice
    fetched = [p for p in proxy.requests if "id_/" in p]
    assert len(fetched) == len(set(fetched)), "a capture was fetched twice"
    assert not list(out.glob("*.open"))
    kinds = [r[0] for r in records(out)]  # every file (the one the kill left open too) reads cleanly
    assert kinds.count("response") + kinds.count("revisit") == len(final)


def _run_and_collect(server_url: str, warcs: list[Path], staging: Path, monkeypatch, capsys) -> list[tuple]:
    """A fresh corpus database, the three news hosts accepted, `warc2corpus run` over ``warcs``; the
    documents as (doc_id, url, harvest_time, text)."""
    from warc2corpus.store import db, publications

    name = "w2c_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    monkeypatch.setenv(settings.DATABASE_URL_VARIABLE, url)
    monkeypatch.setenv("WARC2CORPUS_STAGING", str(staging))
    try:
        with db.connect() as conn:
            for host in ("www.nrk.no", "www.dagbladet.no", "www.expressen.se"):
                publications.decide(conn, host, "accepted", by="test")
            conn.commit()
        code, out, err = run_cli(capsys, "run", *map(str, warcs), "--crawl-job", "wayback")
        assert code == 0, out + err
        with psycopg.connect(url) as conn:
            return conn.execute(
                "SELECT d.doc_id::text, d.url, d.harvest_time, string_agg(p.text, E'\\n' ORDER BY p.seq) "
                "FROM documents d JOIN paragraphs p USING (doc_id) GROUP BY 1, 2, 3 ORDER BY 1").fetchall()
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_harvested_warcs_give_the_same_documents_as_the_originals(wayback, samples, server_url, tmp_path,
                                                                   monkeypatch, capsys):
    out = tmp_path / "harvested"
    result = harvesting.harvest(wayback, NEWS, out, match="domain", session=fast_session())
    assert result.complete and result.counts["written"] == 3 and result.counts["revisits"] == 1
    original = _run_and_collect(server_url, [samples / "news_fundus" / "nordic_dev_pages.warc.gz"],
                                tmp_path / "staging1", monkeypatch, capsys)
    harvested = _run_and_collect(server_url, sorted(out.glob("*.warc.gz")), tmp_path / "staging2",
                                 monkeypatch, capsys)
    assert len(original) >= 2
    assert harvested == original


def test_a_wayback_crawl_job_harvests_its_data_interval_and_discovery_takes_it(wayback, tmp_path, corpus_db,
                                                                                monkeypatch):
    from datetime import datetime, timezone

    from warc2corpus.stages import per_run
    from warc2corpus.stages.crawljobs import load_crawl_jobs

    config = tmp_path / "config" / "crawl_jobs.yaml"
    config.parent.mkdir()
    config.write_text(f"crawl_jobs:\n  - {{name: news, kind: wayback, directory: {tmp_path / 'news'}, cdx: {wayback}, "
                      f"url: [nrk.no, dagbladet.no], match: domain, rate: 50}}\n")
    monkeypatch.setenv("WARC2CORPUS_SETTLE_SECONDS", "600")  # harvested files need no settle time
    [job] = load_crawl_jobs(config)
    day = (datetime(2024, 8, 5, tzinfo=timezone.utc), datetime(2024, 8, 6, tzinfo=timezone.utc))
    summary = per_run.harvest(job, interval=day)  # the day of the NRK capture only
    assert summary["counts"]["captures"] == 1 and summary["counts"]["written"] == 1
    [selected] = per_run.discover(job, interval=day)
    assert Path(selected["warc_file"]).name.startswith("WAYBACK-20240805150955000-")
    # a manual run (no interval, no from/to in the job) harvests everything not harvested yet
    summary = per_run.harvest(job)
    assert summary["counts"]["already_harvested"] == 1 and summary["counts"]["written"] == 1
    assert summary["counts"]["revisits"] == 1
    assert len(per_run.discover(job)) == 3
