"""Benchmark: what finding near-duplicates costs per document, against the pipeline's own time.

What it measures, in one run on one machine
    (a) the pipeline per document: ``run.run_files`` (extract, autoCat, allow-list, filter,
        deduplicate, load, naturalness) without its last step;
    (b) that last step, ``near_duplicates.refresh``: reading the new documents' tokens, MinHash
        signatures, band keys, the candidate lookup in PostgreSQL, the pairs and the clusters.

How
    Two WARCs of the ~110 real pages in ``../shared/samples`` (``bench_extract``'s builder), every
    host accepted, loaded one after the other into a throwaway database: the first holds each page
    once, the second each page again under another URL (so every one of its documents finds its
    twin among the signed ones and joins a cluster: the incremental case). Both runs are timed; the
    goal is near-duplicates <= 10 % of the pipeline's time per document.

Run: ``.venv/bin/python bench/bench_near_duplicates.py``
"""

from __future__ import annotations

import logging
import platform
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_extract import load_pages, samples_dir, throwaway_database, write_warc  # noqa: E402

from warc2corpus.stages import derived, run  # noqa: E402
from warc2corpus.store import db, publications  # noqa: E402
from warc2corpus.text import dedup  # noqa: E402
from warc2corpus.store.staging import Staging  # noqa: E402


def _edition(url: str) -> str:
    """The same page on a regional edition: another path, so another document with the same text."""
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path="/edition-2" + (parts.path or "/")))


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    clock = time.perf_counter()
    import warc2corpus.store.near_duplicates  # noqa: F401  (once per process: numpy)
    imported = time.perf_counter() - clock
    pages = load_pages(samples_dir())
    timed: list[tuple[float, dict]] = []
    refresh = derived.find_near_duplicates

    def timed_refresh() -> dict:
        clock = time.perf_counter()
        outcome = refresh()
        timed.append((time.perf_counter() - clock, outcome))
        return outcome

    derived.find_near_duplicates = timed_refresh  # run_files calls it last: timed apart
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}, {len(pages)} pages; "
          f"importing near_duplicates took {imported:.2f} s (once per task process, not counted below)")
    with tempfile.TemporaryDirectory() as tmp, throwaway_database():
        staging = Staging(Path(tmp) / "staging")
        first = Path(tmp) / "BENCH-20250101000000-00001.warc.gz"
        second = Path(tmp) / "BENCH-20250102000000-00002.warc.gz"
        write_warc(first, pages)
        write_warc(second, [(_edition(url), html) for url, html in pages])
        with db.connect() as conn:
            for host in sorted({dedup.host_and_path(url)[0] for url, _ in pages}):
                publications.decide(conn, host, "accepted", by="bench")
            conn.commit()
        for name, warc in (("first WARC (all new)", first), ("second WARC (every page again)", second)):
            clock = time.perf_counter()
            [result] = run.run_files([warc], "bench", staging=staging)
            total = time.perf_counter() - clock
            seconds, outcome = timed[-1]
            documents = outcome["signed"]
            pipeline = total - seconds
            print(f"{name}: {documents} documents ({result['counts']['load']['new_documents']} new); "
                  f"pipeline {1000 * pipeline / documents:.1f} ms/doc, near-duplicates "
                  f"{1000 * seconds / documents:.2f} ms/doc = {seconds / pipeline:.1%} of the pipeline; {outcome}")


if __name__ == "__main__":
    main()
