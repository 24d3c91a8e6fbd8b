"""Benchmark: the page pipeline of two revisions of this repository on the same WARC, alternating.

What it measures
    The extract stage's work on every page of one WARC, as ``stages.per_file.extract`` runs it but
    without the database (every host taken as not rejected): screen, decode, restore, host, autoCat,
    extract (the seed naturalness model) and build, each page's document kept in memory. Each revision's library is exported from
    git (``git archive``) into a temporary directory and run from there by this venv's Python, so the
    same installed libraries serve both; a pass is one process, which first reads one page (the
    imports and the models loaded up front are not timed; what loads at its first need, the spelling
    dictionaries and dateparser's locales, is, as in a run) and then times the WARC's pages.

Why
    A change meant to make a step cheaper shows as a few per cent of the whole, less than the
    machine's own drift over minutes: the revisions alternate on one core, A before B in odd pairs and
    after it in even ones (a steady drift favours neither side over two pairs), and each pair's two
    passes are compared. Every pass also prints a digest of the
    documents it made, so that a change meant to keep the output as it was is seen to keep it.

Run: ``.venv/bin/python bench/compare_revisions.py BASE [REVISION] [--warc FILE] [--pairs N]``
(REVISION defaults to HEAD; without ``--warc`` the WARC is built as ``bench_peer.py`` builds it, from
the pages of ``../shared/samples`` or ``$WARC2CORPUS_SAMPLES``, each page once).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CORE = "0"

# Run in the child, with the revision's library first on the path.
PASS = r"""
import hashlib, json, sys, time
from collections import Counter
from warc2corpus.reading import warcs
from warc2corpus.reading.limits import Limits
from warc2corpus.stages import pages
from warc2corpus.stages.rejections import RejectionWriter
from warc2corpus.text.extract import PageExtractor


class Nowhere:
    def write(self, *_):
        pass


# the step that names the host; revisions before d0aba2c parsed the page there too, and called it Parse
HOST = getattr(pages, "Host", None) or pages.Parse


def run(path):
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), HOST(), pages.ScoreAutocat(),
             pages.Bounded([pages.Extract(PageExtractor()), pages.Build("compare")], 60.0, path)]
    pipeline = pages.PagePipeline(steps, RejectionWriter(Nowhere()))
    records = (pages.Page(r) for r in warcs.WarcReader(path, Limits.from_environment()).records()
               if r.record_type != "revisit")
    return list(pipeline.run(records))


warm, path = sys.argv[1], sys.argv[2]
pages.freeze_long_lived_objects()
run(warm)
start = time.perf_counter()
documents = run(path)
seconds = time.perf_counter() - start
digest = hashlib.sha256()
for d in documents:
    digest.update(json.dumps([d.url, d.title, d.author, d.published, d.language, d.page_type,
                              [p.text for p in d.paragraphs], [p.language for p in d.paragraphs]]).encode())
print(json.dumps({"seconds": seconds, "documents": len(documents), "digest": digest.hexdigest()[:16]}))
"""


def export(revision: str, into: Path) -> Path:
    """The revision's tree (its ``include/`` and ``config/``) under ``into``."""
    into.mkdir(parents=True)
    archive = into.with_suffix(".tar")
    subprocess.run(["git", "-C", str(REPO), "archive", "--format=tar", "-o", str(archive), revision,
                    "include", "config", "pyproject.toml"], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def one_pass(tree: Path, warm: Path, warc: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree / "include"), "WARC2CORPUS_HOME": str(tree),
           "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    out = subprocess.run(["taskset", "-c", CORE, sys.executable, "-c", PASS, str(warm), str(warc)], env=env,
                         cwd=tree, check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", help="the revision compared against (A)")
    parser.add_argument("revision", nargs="?", default="HEAD", help="the revision measured (B; default HEAD)")
    parser.add_argument("--warc", type=Path, help="this WARC instead of one built from the samples")
    parser.add_argument("--pairs", type=int, default=3, help="passes of each revision, alternating (default 3)")
    args = parser.parse_args()
    if args.pairs < 1:
        parser.error("--pairs must be at least 1")
    if args.warc is not None and not args.warc.is_file():
        parser.error(f"no such file: {args.warc}")
    sys.path.insert(0, str(REPO / "bench"))
    import bench_peer

    with tempfile.TemporaryDirectory(prefix="w2c-compare-") as tmp:
        work = Path(tmp)
        if args.warc is None:
            warc = work / "COMPARE-20250101000000-00000-samples.warc.gz"
            bench_peer.write_warc(warc, bench_peer.load_pages(bench_peer.samples_dir()), 1)
        else:
            warc = args.warc.resolve()
        warm = work / "COMPARE-20250101000000-00001-one-page.warc.gz"
        bench_peer.first_page_warc(warc, warm)
        n_pages, _ = bench_peer.survey(warc)
        trees = {label: export(revision, work / label) for label, revision in (("A", args.base), ("B", args.revision))}
        print(f"WARC: {n_pages} HTML pages ({warc.name}); A = {args.base}, B = {args.revision}; core {CORE}, one thread")
        print(f"\n{'pair':>4}  {'A s':>7} {'A ms/page':>9}  {'B s':>7} {'B ms/page':>9}  {'B/A time':>8}  documents (digest)")
        ratios, digests = [], set()
        for n in range(1, args.pairs + 1):
            if n % 2:   # A then B, then B then A: a drift of the machine's speed favours neither
                a = one_pass(trees["A"], warm, warc)
                b = one_pass(trees["B"], warm, warc)
            else:
                b = one_pass(trees["B"], warm, warc)
                a = one_pass(trees["A"], warm, warc)
            ratios.append(b["seconds"] / a["seconds"])
            digests.add((a["digest"], b["digest"]))
            print(f"{n:>4}  {a['seconds']:7.2f} {1000 * a['seconds'] / n_pages:9.2f}  {b['seconds']:7.2f} "
                  f"{1000 * b['seconds'] / n_pages:9.2f}  {ratios[-1]:8.3f}  A {a['documents']} ({a['digest']}), "
                  f"B {b['documents']} ({b['digest']})")
        same = all(x == y for x, y in digests) and len(digests) == 1
        print(f"\nB's time over A's, pair by pair: median {statistics.median(ratios):.3f} "
              f"(from {min(ratios):.3f} to {max(ratios):.3f}); "
              f"the same documents: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
