"""Capacity plan: what one worker does per hour, and what a collection of a given size needs.

What it measures
    On the benchmark WARC of ``bench/bench_peer.py`` (every real page of ``../shared/samples``,
    repeated ``--copies`` times under distinct paths; or ``--warc FILE``), one ``warc2corpus run``
    on one core (``taskset -c 0``, the embedded PostgreSQL server pinned there too) on a fresh corpus
    database whose register holds every host, then ``warc2corpus run`` on a one-page WARC for the fixed
    start-up each task process pays. From the database it made: the documents, their words, and the
    bytes on disk per document (the whole database less an empty migrated one), split into the corpus
    itself (documents, paragraphs with tokens, captures, rejections, ledger) and what is derived from it
    (research index, near-duplicate signatures).

What it prints
    documents per hour per worker (one core: the whole command, and without the start-up), peak RSS,
    bytes and words per document, and the plan for 1.6 M and 30 M documents: worker-hours, the hours
    with 2, 8 and 32 workers (at the ≥ 0.9 of linear speed-up per worker that `bench/scale_out.py`
    checks), and the database size. The figures are as good as the machine is quiet: the load average
    is printed with them.

Run: ``.venv/bin/python bench/capacity.py [--warc FILE] [--copies N]``
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import psutil
import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_peer  # noqa: E402  (the benchmark WARC, fresh databases, one-core timing)

TARGETS = (1_600_000, 30_000_000)
WORKERS = (2, 8, 32)
SPEED_UP_PER_WORKER = 0.9  # the floor issue 10 sets for added cores
CORPUS_TABLES = ("documents", "paragraphs", "captures", "rejections", "warc_files", "autocat_pages", "hosts",
                 "host_scores")


def database_bytes(url: str) -> tuple[int, dict[str, int]]:
    with psycopg.connect(url) as conn:
        total = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
        tables = dict(conn.execute(
            "SELECT relname, pg_total_relation_size(oid) FROM pg_class"
            " WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace").fetchall())
    return total, tables


def words_and_documents(url: str) -> tuple[int, int]:
    with psycopg.connect(url) as conn:
        documents = conn.execute("SELECT count(*) FROM documents").fetchone()[0]
        words = conn.execute("SELECT coalesce(sum(cardinality(tokens)), 0) FROM paragraphs").fetchone()[0]
    return words, documents


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--warc", type=Path, help="measure on this WARC instead of one built from the samples")
    parser.add_argument("--copies", type=int, default=7, help="times the sample pages are repeated (default 7)")
    args = parser.parse_args()
    if args.copies < 1:
        parser.error("--copies must be at least 1")
    if args.warc is not None and not args.warc.is_file():
        parser.error(f"no such file: {args.warc}")

    with tempfile.TemporaryDirectory(prefix="w2c-capacity-") as tmp:
        workdir = Path(tmp)
        if args.warc is not None:
            warc = args.warc.resolve()
        else:
            warc = workdir / "CAPACITY-20250101000000-00000-samples.warc.gz"
            bench_peer.write_warc(warc, bench_peer.load_pages(bench_peer.samples_dir()), args.copies)
        n_pages, hosts = bench_peer.survey(warc)
        warc_mb = warc.stat().st_size / 2**20
        if n_pages == 0:
            bench_peer.fail(f"{warc} holds no HTML response record")
        one_page = workdir / "CAPACITY-20250101000000-00001-one-page.warc.gz"
        bench_peer.first_page_warc(warc, one_page)

        corpus = bench_peer.Corpus(workdir)
        postmaster = bench_peer.postmaster_pid()
        affinity = psutil.Process(postmaster).cpu_affinity() if postmaster else None
        try:
            if postmaster:
                bench_peer.set_affinity(postmaster, bench_peer.CORE)
            empty = corpus.fresh([])
            subprocess.run([str(bench_peer.OURS), "stats"], env=empty, check=True, stdout=subprocess.DEVNULL)
            empty_bytes, _ = database_bytes(empty[bench_peer.DATABASE_VARIABLE])

            env = corpus.fresh(hosts)
            full = bench_peer.timed([str(bench_peer.OURS), "run", str(warc), "--crawl-job", "capacity"], env,
                                    workdir / "run.log")
            startup = bench_peer.timed([str(bench_peer.OURS), "run", str(one_page), "--crawl-job", "capacity"],
                                       corpus.fresh(hosts), workdir / "one-page.log")
            url = env[bench_peer.DATABASE_VARIABLE]
            words, documents = words_and_documents(url)
            total_bytes, tables = database_bytes(url)
        finally:
            if postmaster and affinity is not None and psutil.pid_exists(postmaster):
                bench_peer.set_affinity(postmaster, ",".join(map(str, affinity)))
            corpus.drop_all()

    if documents == 0:
        bench_peer.fail("the run loaded no documents")
    load = os.getloadavg()
    per_hour = documents / full.seconds * 3600
    per_hour_steady = documents / max(full.seconds - startup.seconds, 1e-9) * 3600
    grown = total_bytes - empty_bytes
    corpus_bytes = sum(size for name, size in tables.items() if name in CORPUS_TABLES)
    derived_bytes = sum(size for name, size in tables.items() if name.startswith(("research_", "near_duplicate")))
    print(f"WARC: {n_pages} HTML pages of {len(hosts)} hosts, {warc_mb:.1f} MB; "
          f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} cores")
    print(f"one worker (one core): {documents} documents in {full.seconds:.1f} s = {per_hour:,.0f} documents/hour "
          f"({per_hour_steady:,.0f} without the {startup.seconds:.1f} s start-up); peak RSS {full.max_rss_mb:.0f} MB")
    print(f"per document: {words / documents:.0f} words; {grown / documents / 1024:.1f} KiB on disk "
          f"(corpus tables {corpus_bytes / documents / 1024:.1f} KiB, research index and near-duplicates "
          f"{derived_bytes / documents / 1024:.1f} KiB)")
    print()
    print("| documents | worker-hours | " + " | ".join(f"hours with {n} workers" for n in WORKERS)
          + " | database |")
    print("|---|---|" + "---|" * len(WORKERS) + "---|")
    for target in TARGETS:
        hours = target / per_hour_steady
        spans = [hours / (1 + (n - 1) * SPEED_UP_PER_WORKER) for n in WORKERS]
        print(f"| {target / 1e6:g} M | {hours:,.0f} | " + " | ".join(f"{h:,.1f}" for h in spans)
              + f" | {grown / documents * target / 2**30:,.0f} GiB |")


if __name__ == "__main__":
    main()
