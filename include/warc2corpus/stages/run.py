"""All stages in one process, as one DAG run does them: the ``warc2corpus run`` command."""

from __future__ import annotations

import logging
import os
import stat
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from warc2corpus.records import FileStatus
from warc2corpus.stages import derived, per_file, per_run
from warc2corpus.store import db, ledger
from warc2corpus.store.staging import Staging

log = logging.getLogger(__name__)


def unusable(path: Path) -> str | None:
    """Why a path given to a run cannot be taken (a symlink loop, no such file, not a regular file
    such as a directory or a FIFO, which would block the reading), or None."""
    try:
        status = os.stat(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None if stat.S_ISREG(status.st_mode) else "not a regular file"


def run_files(paths: list[Path], crawl_job: str, *, staging: Staging | None = None,
              on_progress: Callable[[str, Counter, int | None], None] | None = None) -> list[dict]:
    """Process the given WARC files end to end, as one DAG run would, without the scheduler.

    A path that cannot be taken is reported with status ``skipped`` and its reason, and the others
    are processed. The staging of runs that died before is cleaned up first."""
    staging = staging or Staging()
    staging.clean()
    run_id = "cli-" + datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
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
            log.info("skipped %s: %s", path, reason)  # the caller reports it (result status "skipped")
            skipped.append({"warc_file": str(path), "crawl_job": crawl_job, "status": FileStatus.SKIPPED,
                            "error": reason})
        conn.commit()
    staging.claim(run_prefix)
    try:
        extracted = [
            per_file.extract(f, crawl_job, run_id, staging=staging,
                             on_progress=(lambda counts, at, f=f: on_progress(f, counts, at)) if on_progress else None)
            for f in files
        ]
        per_run.autocat(extracted, staging=staging)
        allow_list = per_run.refresh_allow_list(crawl_job, run_id, staging=staging)
        results = []
        for manifest in extracted:
            staging.heartbeat(run_prefix)  # loading only reads the staging: show the run is alive
            results.append(per_file.load(per_file.deduplicate(per_file.filter(manifest, allow_list, staging=staging),
                                                              staging=staging), staging=staging))
    finally:  # a run that stops half-way is not resumed: what it staged is of no further use
        staging.remove(run_prefix)
    derived.train_naturalness()
    derived.find_near_duplicates()
    derived.index_research()
    return skipped + results
