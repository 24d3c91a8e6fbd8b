"""All stages in one process, as one DAG run does them: the ``warc2corpus run`` command."""

from __future__ import annotations

import logging
import os
import socket
import time
from collections import Counter
from datetime import datetime, timezone
from functools import partial
from pathlib import Path
from typing import Callable

from warc2corpus.records import FileStatus
from warc2corpus.stages import derived, per_file, per_run
from warc2corpus.stages.crawljobs import shown, unusable
from warc2corpus.store import db, ledger
from warc2corpus.store.staging import Staging, process_start

log = logging.getLogger(__name__)


def cli_run_id() -> str:
    """The id of a `warc2corpus run`: its time, host, pid and the process's start (so that another run
    can tell when it is over)."""
    me = os.getpid()
    return (f"cli-{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S%f')}"
            f"@{socket.gethostname()}:{me}:{process_start(me)}")


def cli_run_over(run_id: str) -> bool:
    """A `warc2corpus run` of this host whose process has ended (never true of another host's run,
    nor of an Airflow run: their claims end with the run or lapse)."""
    if not run_id.startswith("cli-") or "@" not in run_id:
        return False
    host, _, process = run_id.rpartition("@")[2].partition(":")
    pid, _, started = process.partition(":")
    return host == socket.gethostname() and pid.isdigit() and process_start(int(pid)) != started


def _load(manifest: dict, allow_list: dict, staging: Staging) -> dict:
    """A file's filter, deduplicate and load (one transaction), as the DAG's mapped tasks do them."""
    return per_file.load(per_file.deduplicate(per_file.filter(manifest, allow_list, staging=staging),
                                              staging=staging), staging=staging)


def _call(step: Callable[[], object]) -> object:
    return step()


def _in_workers(function, items: list, workers: int, on_done: Callable[[object, object], None] | None = None) -> list:
    """``function`` over the items (files, or the derived steps), in this process or in ``workers``
    processes (as Airflow runs mapped and independent tasks on its workers: each item alone, its own
    database connections), the results in the items' order; ``on_done(item, result)`` as each ends."""
    if workers <= 1 or len(items) <= 1:
        results = []
        for item in items:
            results.append(function(item))
            if on_done:
                on_done(item, results[-1])
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    from warc2corpus.stages.pages import freeze_long_lived_objects
    from warc2corpus.text import naturalness

    # The workers are forked once the models are loaded here: they start at once and share the models'
    # memory (copy on write; frozen out of the garbage collector's sight, which would touch them). This
    # process holds no connection, thread or lock at this point.
    naturalness.seed_model()
    freeze_long_lived_objects()
    with ProcessPoolExecutor(max_workers=min(workers, len(items)), mp_context=multiprocessing.get_context("fork")) \
            as pool:
        futures = {pool.submit(function, item): index for index, item in enumerate(items)}
        results: list = [None] * len(items)
        for future in as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            if on_done:
                on_done(items[index], results[index])
    return results


def run_files(paths: list[Path], crawl_job: str, *, staging: Staging | None = None, workers: int = 1,
              on_progress: Callable[[str, Counter, int | None], None] | None = None) -> list[dict]:
    """Process the given WARC files end to end, as one DAG run would, without the scheduler.

    A path that cannot be taken is reported with status ``skipped`` and its reason, and the others
    are processed. The staging of runs that died before is cleaned up first. ``workers`` > 1: the
    files are extracted, and then loaded, in that many processes at once (a file is never split: its
    texts are the same whatever else runs), and the derived steps after them run side by side;
    progress is then reported per file when it ends."""
    staging = staging or Staging()
    staging.clean()
    run_id = cli_run_id()
    run_prefix = staging.key(crawl_job, run_id)
    files, skipped = [], []
    with db.connect() as conn:
        for path in map(Path, paths):
            reason = unusable(path)
            if reason is None:
                try:
                    files.append(ledger.register(conn, crawl_job, path)["path"])
                    continue
                except OSError as exc:  # gone or unreadable since the look
                    reason = exc.strerror or str(exc)
            log.info("skipped %s: %s", shown(path), reason)  # the caller reports it (result status "skipped")
            skipped.append({"warc_file": shown(path), "crawl_job": crawl_job, "status": FileStatus.SKIPPED,
                            "error": reason})
        files, held = ledger.claim(conn, files, run_id)
        over = {other for other in held.values() if cli_run_over(other)}
        if over:  # a `warc2corpus run` on this host that died (killed) without releasing its claims
            taken, held = ledger.claim(conn, list(held), run_id, over=over)
            files += taken
        for path, other in held.items():
            log.info("skipped %s: run %s is processing it", path, other)
            skipped.append({"warc_file": path, "crawl_job": crawl_job, "status": FileStatus.SKIPPED,
                            "error": f"run {other} is processing it"})
        conn.commit()
    staging.claim(run_prefix)
    clock = time.monotonic()
    try:
        if workers <= 1:
            extracted = [per_file.extract(f, crawl_job, run_id, staging=staging,
                                          on_progress=partial(on_progress, f) if on_progress else None)
                         for f in files]
        else:
            def done(f, manifest):
                staging.heartbeat(run_prefix)
                if on_progress:
                    on_progress(f, Counter(manifest.get("counts") or {}), os.stat(f).st_size)

            extracted = _in_workers(partial(per_file.extract, crawl_job=crawl_job, run_id=run_id, staging=staging),
                                    files, workers, done)
        log.info("extract: %d files in %.1f s", len(files), time.monotonic() - clock)
        clock = time.monotonic()
        per_run.autocat(extracted, staging=staging)
        allow_list = per_run.refresh_allow_list(crawl_job, run_id, staging=staging)
        log.info("autocat and allow-list in %.1f s", time.monotonic() - clock)
        clock = time.monotonic()
        staging.heartbeat(run_prefix)  # loading only reads the staging: each file's end shows the run is alive
        results = _in_workers(partial(_load, allow_list=allow_list, staging=staging), extracted, workers,
                              lambda *_: staging.heartbeat(run_prefix))
        log.info("filter, deduplicate, load: %d files in %.1f s", len(files), time.monotonic() - clock)
    finally:  # a run that stops half-way is not resumed: what it staged is of no further use
        staging.remove(run_prefix)
        per_run.release_claims(run_id)
    clock = time.monotonic()
    # Independent of each other, as in the derived DAG: side by side when there are workers.
    _in_workers(_call, [derived.train_naturalness, derived.find_near_duplicates, derived.index_research], workers)
    log.info("naturalness, near-duplicates, research index in %.1f s", time.monotonic() - clock)
    return skipped + results
