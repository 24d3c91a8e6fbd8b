"""`warc2corpus run --workers N`: the speed-up from one process to two on this machine's cores, and the
peak memory of a worker on a file and on the same pages four times over (bounded memory).

What it does
    1. Builds ``--files`` WARCs from every real page of ``../shared/samples`` (``bench_peer.py``'s
       reader and writer), ``--copies`` times each under distinct paths, split round-robin, and one
       WARC of the pages once and one of them four times over.
    2. Alternates ``warc2corpus run FILES --workers 1`` and ``--workers 2``, ``--repeats`` times each,
       each on a fresh corpus database whose register holds every host (every page is loaded).
    3. Runs ``--workers 1`` on the single WARC and on the one four times longer.
    4. Prints per pass the seconds and the peak RSS of the largest process (sampled every 0.1 s:
       the workers are separate processes), the speed-up per pair of passes (one worker's seconds over
       two workers') and its efficiency (speed-up / 2), and the peak RSS on the short and the long file.

Run: ``.venv/bin/python bench/workers.py [--files 4] [--copies 2] [--repeats 2]`` on an otherwise
idle machine (a few minutes).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import psutil

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from bench_peer import OURS, Corpus, load_pages, phases, samples_dir, write_warc  # noqa: E402


def timed(command: list[str], env: dict[str, str]) -> tuple[float, float, str]:
    """Seconds of the whole command, the peak RSS (MB) of its largest process, and its phases' seconds
    as its log (``-v``) gives them ("extract 26.9 s, ...")."""
    peak = [0]
    stop = threading.Event()
    clock = time.perf_counter()
    child = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def sample() -> None:
        process = psutil.Process(child.pid)
        while not stop.wait(0.1):
            try:
                for member in [process] + process.children(recursive=True):
                    try:
                        peak[0] = max(peak[0], member.memory_info().rss)
                    except psutil.Error:
                        pass
            except psutil.Error:
                return

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = child.communicate()
    seconds = time.perf_counter() - clock
    stop.set()
    sampler.join()
    if child.returncode != 0:
        raise SystemExit(f"{' '.join(command)} exited {child.returncode}:\n{err[-3000:]}")
    return seconds, peak[0] / 2**20, phases(err)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=4, help="WARC files the pages are split over (default 4)")
    parser.add_argument("--copies", type=int, default=2, help="times every page is repeated (default 2)")
    parser.add_argument("--repeats", type=int, default=2, help="passes with 1 and with 2 workers (default 2)")
    args = parser.parse_args()
    pages = load_pages(samples_dir())
    hosts = sorted({page.url.split("/")[2] for page in pages})
    workdir = Path(tempfile.mkdtemp(prefix="w2c-workers-"))
    warcs = []
    for index in range(args.files):
        part = pages[index::args.files]
        warcs.append(workdir / f"WORKERS-2025010{index % 10}000000-{index:05d}-bench.warc.gz")
        write_warc(warcs[-1], part, args.copies)
    short, long_ = workdir / "SHORT-20250101000000-00000-x1.warc.gz", workdir / "LONG-20250101000000-00000-x4.warc.gz"
    write_warc(short, pages, 1)
    write_warc(long_, pages, 4)
    n_pages = len(pages) * args.copies
    print(f"{args.files} WARCs, {n_pages} HTML pages of {len(hosts)} hosts; {psutil.cpu_count()} cores; "
          f"load average {psutil.getloadavg()[0]:.1f}")
    corpus = Corpus(workdir)
    seconds: dict[int, list[float]] = {1: [], 2: []}
    try:
        print(f"\n{'pass':>4}  {'workers':>7}  {'seconds':>8}  {'docs/s':>7}  {'peak RSS MB':>11}  phases (the rest: start-up)")
        for repeat in range(1, args.repeats + 1):
            for workers in (1, 2):
                env = corpus.fresh(hosts)
                took, rss, by_phase = timed([str(OURS), "-v", "run", *map(str, warcs), "--crawl-job", "workers",
                                           "--workers", str(workers)], env)
                seconds[workers].append(took)
                print(f"{repeat:>4}  {workers:>7}  {took:>8.1f}  {n_pages / took:>7.1f}  {rss:>11.0f}  {by_phase}")
        memory = {}
        for name, warc in (("short", short), ("4x longer", long_)):
            env = corpus.fresh(hosts)
            memory[name] = timed([str(OURS), "run", str(warc), "--crawl-job", "workers"], env)[:2]
    finally:
        corpus.drop_all()
    pairs = [one / two for one, two in zip(seconds[1], seconds[2])]
    print(f"\nspeed-up 1 -> 2 workers per pair: {', '.join(f'{p:.2f}' for p in pairs)}; median "
          f"{statistics.median(pairs):.2f} = {statistics.median(pairs) / 2:.2f} of linear")
    print(f"peak RSS, one worker: {memory['short'][1]:.0f} MB on {len(pages)} pages, {memory['4x longer'][1]:.0f} MB "
          f"on {4 * len(pages)} pages ({memory['short'][0]:.0f} s, {memory['4x longer'][0]:.0f} s); "
          f"load average {psutil.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
