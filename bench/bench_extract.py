"""Benchmark: the library's per-WARC extraction against a bare loop over the same records.

What it measures
    (a) ``warc2corpus.stages.per_file.extract`` on one WARC: reading the records, charset decoding,
        trafilatura extraction (with metadata, hence htmldate), autoCat scoring of front pages,
        language identification, tokenisation with offsets, hashing and document ids, writing the
        staged gzipped JSON lines and the ledger updates in the corpus database;
    (b) a bare loop over the same WARC doing only the third-party work: warcio, trafilatura,
        htmldate, gielladetect and nb-tokenizer, with nothing staged or recorded.

Why
    The pipeline should cost little more than the libraries it calls: the goal is a
    library/bare throughput ratio of at least 0.8. The ratio shows how much the pipeline's own
    bookkeeping (provenance, normalisation, staging, ledger) adds on top of the extraction itself.

How
    The WARC is built in a temporary directory from the real pages in ``../shared/samples``
    (or ``$WARC2CORPUS_SAMPLES``): one HTTP 200 ``text/html; charset=utf-8`` response record per
    page, gzipped per record, repeated ``--copies`` times under distinct URLs. The library side runs
    against a throwaway database created on the embedded PostgreSQL server and dropped afterwards.
    Both sides are warmed up on a one-page WARC first, so imports and model loading are not timed;
    then they alternate (bare, library, bare, library, ...) and the best pass of each is reported,
    since the machine is small and shared, and beside it each library pass against the bare pass
    just before it (paired ratios and their median).

Run: ``.venv/bin/python bench/bench_extract.py [--copies N] [--repeats N]`` (or ``make bench``).
"""

from __future__ import annotations

import argparse
import io
import json
import logging
import os
import platform
import secrets
import sys
import tempfile
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import htmldate
import nb_tokenizer
import psycopg
import trafilatura
from gielladetect.text_cat import Classifier
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from warc2corpus import settings
from warc2corpus.reading import charsets
from warc2corpus.stages import per_file
from warc2corpus.store import db, ledger
from warc2corpus.text import language
from warc2corpus.store.staging import Staging

REPO = Path(__file__).resolve().parents[1]
CRAWL_JOB = "bench"
CAPTURE_START = datetime(2025, 1, 1, tzinfo=timezone.utc)


# ---------------------------------------------------------------------------------------------
# The sample pages and the WARC built from them
# ---------------------------------------------------------------------------------------------

def samples_dir() -> Path:
    configured = os.environ.get("WARC2CORPUS_SAMPLES")
    path = Path(configured).expanduser() if configured else REPO.parent / "shared" / "samples"
    if not path.is_dir():
        sys.exit(f"bench_extract: sample pages not found at {path} "
                 "(check out ../shared/samples or set WARC2CORPUS_SAMPLES)")
    return path


def _read_page(path: Path) -> str:
    """A sample page as text, whether gzipped or not, in whatever charset it declares."""
    return charsets.read_html_file(path)


def _http_url(url: str | None, made_up: str) -> str:
    """The sample's URL when it is a usable http(s) one (one htmldate entry reads "xhttps://..."),
    else a made-up one: warcio parses HTTP headers only for http(s) targets."""
    return url if url and urlsplit(url).scheme in ("http", "https") else made_up


def load_pages(samples: Path) -> list[tuple[str, str]]:
    """(url, html) of every sample page: the real URL where the sample records it, else a made-up one."""
    pages: list[tuple[str, str]] = []

    fundus = samples / "news_fundus"
    truth = fundus / "ground_truth_flat.jsonl"
    if truth.is_file():
        urls = {}
        for line in truth.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                urls[row["file"]] = row.get("url")
        for path in sorted((fundus / "test_data").glob("**/*.html.gz")):
            relative = path.relative_to(fundus).as_posix()
            pages.append((_http_url(urls.get(relative), f"https://fundus.example/{relative}"), _read_page(path)))

    aeb = samples / "extraction_scrapinghub_aeb"
    if (aeb / "html").is_dir():
        truth = aeb / "ground-truth.json"
        urls = {k: v.get("url") for k, v in json.loads(truth.read_text("utf-8")).items()} if truth.is_file() else {}
        for path in sorted((aeb / "html").iterdir()):
            page_id = path.name.split(".")[0]
            pages.append((_http_url(urls.get(page_id), f"https://aeb.example/{page_id}.html"), _read_page(path)))

    readability = samples / "extraction_readability_testpages"
    for source in sorted(readability.glob("*/source.html*")):
        # Mozilla's test pages carry no URL of their own.
        pages.append((f"https://readability-testpages.example/{source.parent.name}/article.html",
                      _read_page(source)))

    dates = samples / "dates_htmldate_eval"
    if (dates / "html_bbaw").is_dir():
        truth = dates / "eval_default.json"
        urls = {v["file"]: url for url, v in json.loads(truth.read_text("utf-8")).items()} if truth.is_file() else {}
        for path in sorted((dates / "html_bbaw").iterdir()):
            name = path.name[:-3] if path.name.endswith(".gz") else path.name
            pages.append((_http_url(urls.get(name), f"https://htmldate-eval.example/{name}"), _read_page(path)))

    if not pages:
        sys.exit(f"bench_extract: no sample pages found under {samples}")
    return pages


def _copy_url(url: str, copy: int) -> str:
    """The page's URL for the given copy: the original first, then with a distinct query."""
    if copy == 0:
        return url
    parts = urlsplit(url)
    query = f"{parts.query}&w2c_copy={copy}" if parts.query else f"w2c_copy={copy}"
    return urlunsplit(parts._replace(query=query, fragment=""))


def write_warc(path: Path, pages: list[tuple[str, str]], copies: int = 1) -> int:
    """A per-record-gzipped WARC: a warcinfo record, then one HTTP 200 HTML response per page and copy."""
    n = 0
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "warc2corpus bench"}))
        for copy in range(copies):
            for url, html in pages:
                body = html.encode("utf-8")
                http_headers = StatusAndHeaders(
                    "200 OK",
                    [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))],
                    protocol="HTTP/1.1",
                )
                date = (CAPTURE_START + timedelta(seconds=n)).strftime("%Y-%m-%dT%H:%M:%SZ")
                record = writer.create_warc_record(_copy_url(url, copy), "response", payload=io.BytesIO(body),
                                                   http_headers=http_headers,
                                                   warc_headers_dict={"WARC-Date": date})
                writer.write_record(record)
                n += 1
    return n


# ---------------------------------------------------------------------------------------------
# A throwaway corpus database on the embedded server
# ---------------------------------------------------------------------------------------------

@contextmanager
def throwaway_database():
    """Create a database for the run, point the library at it, and drop it afterwards."""
    embedded = urlsplit(db.start_embedded())
    admin_url = urlunsplit(embedded._replace(path="/postgres"))
    name = f"w2c_bench_{secrets.token_hex(4)}"
    previous = os.environ.get(settings.DATABASE_URL_VARIABLE)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    os.environ[settings.DATABASE_URL_VARIABLE] = urlunsplit(embedded._replace(path=f"/{name}"))
    try:
        yield name
    finally:
        if previous is None:
            os.environ.pop(settings.DATABASE_URL_VARIABLE, None)
        else:
            os.environ[settings.DATABASE_URL_VARIABLE] = previous
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def register(*warcs: Path) -> None:
    with db.connect() as conn:
        for warc in warcs:
            ledger.register(conn, CRAWL_JOB, warc)
        conn.commit()


# ---------------------------------------------------------------------------------------------
# The two sides
# ---------------------------------------------------------------------------------------------

def run_library(warc: Path, staging: Staging, run_id: str) -> int:
    """The library's extract stage on one WARC; the number of documents it staged."""
    manifest = per_file.extract(str(warc.resolve()), CRAWL_JOB, run_id, staging=staging)
    if manifest["status"] != "extracted":
        raise RuntimeError(f"the extract stage failed: {manifest.get('error')}")
    return manifest["counts"]["documents"]


def run_bare(warc: Path, classifier: Classifier) -> int:
    """The same work done directly with the third-party libraries; the number of documents."""
    documents = 0
    with open(warc, "rb") as stream:
        for record in ArchiveIterator(stream, arc2warc=True):
            if record.rec_type != "response" or record.http_headers is None:
                continue
            if record.http_headers.get_statuscode() != "200":
                continue
            content_type = record.http_headers.get_header("Content-Type") or ""
            if content_type.split(";")[0].strip().lower() != "text/html":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            html = record.content_stream().read().decode("utf-8", errors="replace")
            try:
                # The same extraction options as warc2corpus.text.extract, so both sides extract the same text.
                document = trafilatura.bare_extraction(html, url=url, with_metadata=True,
                                                       include_comments=False, include_images=False)
                htmldate.find_date(html)
                text = (document.text if document is not None else None) or ""
                if text.strip():
                    classifier.classify(text)
                for paragraph in text.split("\n"):
                    nb_tokenizer.tokenize(paragraph)
            except Exception:  # as the library does: one bad page never stops the file
                continue
            documents += 1
    return documents


def sample_warcs(samples: Path) -> list[Path]:
    """The real, partly malformed WARC/ARC files of the shared samples (as profile.tsv lists them)."""
    folder = samples / "warc"
    with open(folder / "profile.tsv", encoding="utf-8") as table:
        next(table)
        return [folder / line.split("\t", 1)[0] for line in table if line.strip()]


def run_sample_warcs(files: list[Path], staging: Staging) -> dict:
    """The library's extract stage over every sample file, and whether bare warcio gets through each."""
    from collections import Counter

    register(*files)
    statuses: Counter = Counter()
    records = documents = bare_failures = 0
    clock = time.perf_counter()
    for path in files:
        manifest = per_file.extract(str(path.resolve()), CRAWL_JOB, "samples", staging=staging)
        statuses[manifest["counts"].get("read", manifest["status"])] += 1
        records += manifest["counts"].get("records", 0)
        documents += manifest["counts"].get("documents", 0)
    elapsed = time.perf_counter() - clock
    for path in files:
        try:
            with open(path, "rb") as stream:
                for record in ArchiveIterator(stream, arc2warc=True):
                    record.content_stream().read()
        except Exception:  # noqa: BLE001 - counting what a bare loop cannot get through
            bare_failures += 1
    return {"files": len(files), "records": records, "documents": documents, "seconds": elapsed,
            "statuses": dict(statuses), "bare_failures": bare_failures}


# ---------------------------------------------------------------------------------------------
# Main
# ---------------------------------------------------------------------------------------------

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--copies", type=int, default=2, help="times the sample set is repeated (default 2)")
    parser.add_argument("--repeats", type=int, default=3, help="timed passes of each side (default 3)")
    args = parser.parse_args()
    if args.copies < 1 or args.repeats < 1:
        parser.error("--copies and --repeats must be at least 1")

    # The library logs a line per file; extraction libraries warn about odd markup. Neither belongs here.
    logging.basicConfig(level=logging.ERROR)

    samples = samples_dir()
    pages = load_pages(samples)
    with tempfile.TemporaryDirectory(prefix="w2c-bench-") as tmp, throwaway_database():
        tmpdir = Path(tmp)
        warm_warc = tmpdir / "BENCH-20250101000000-00000-warmup.warc.gz"
        warc = tmpdir / "BENCH-20250101000000-00001-bench.warc.gz"
        write_warc(warm_warc, pages[:1])
        n_records = write_warc(warc, pages, args.copies)
        register(warm_warc, warc)
        staging = Staging(tmpdir / "staging")

        # Warm-up: imports, trafilatura/htmldate first calls and the language models, for both sides.
        classifier = Classifier(langs=list(language.LANGUAGES))
        language.classifier()
        run_bare(warm_warc, classifier)
        run_library(warm_warc, staging, "warmup")

        times: dict[str, list[float]] = {"library": [], "bare": []}
        docs: dict[str, int] = {}
        for i in range(args.repeats):
            for side in ("bare", "library"):
                clock = time.perf_counter()
                if side == "bare":
                    docs[side] = run_bare(warc, classifier)
                else:
                    docs[side] = run_library(warc, staging, f"run{i}")
                times[side].append(time.perf_counter() - clock)
        real_files = run_sample_warcs(sample_warcs(samples), staging)

    best = {side: min(t) for side, t in times.items()}
    rate = {side: docs[side] / best[side] for side in best}
    ratio = rate["library"] / rate["bare"]
    print(f"Python {platform.python_version()}, trafilatura {trafilatura.__version__}, "
          f"htmldate {htmldate.__version__}")
    print(f"{n_records} HTML response records ({len(pages)} sample pages x {args.copies} copies), "
          f"best of {args.repeats} passes per side")
    for side in ("library", "bare"):
        passes = ", ".join(f"{t:.2f}" for t in times[side])
        print(f"  {side:<8} {rate[side]:6.2f} docs/s  {docs[side]} documents  (passes: {passes} s)")
    verdict = "meets" if ratio >= 0.8 else "BELOW"
    print(f"ratio library/bare = {ratio:.2f} ({verdict} the goal of 0.80)"
          + ("" if docs["library"] == docs["bare"] else "  -- document counts differ!"))
    # Each library pass against the bare pass just before it: less at the mercy of one lucky pass.
    paired = sorted((docs["library"] / lib) / (docs["bare"] / bare) for bare, lib in zip(times["bare"], times["library"]))
    print("paired ratios " + ", ".join(f"{r:.2f}" for r in paired) + f"; median {paired[len(paired) // 2]:.2f}")
    print(f"shared sample WARCs: {real_files['files']} files, {real_files['records']} records, "
          f"{real_files['documents']} documents in {real_files['seconds']:.2f} s "
          f"({real_files['records'] / real_files['seconds']:.0f} records/s); read "
          + ", ".join(f"{k} {v}" for k, v in sorted(real_files["statuses"].items()))
          + f"; a bare warcio loop raises on {real_files['bare_failures']} of them")


if __name__ == "__main__":
    main()
