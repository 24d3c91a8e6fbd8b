"""The ledger of WARC files: what discovery found, and what became of each file.

A file that could not be read for a passing reason (the operating system failed a read, or the
file changed while it was read) is ``retry``: taken again once ``next_attempt_at`` has come, the
delay doubling with each attempt, and quarantined after the last one. Broken bytes are quarantined
at once. :func:`requeue` clears a fault so that the next run takes the file again.
"""

from __future__ import annotations

import json
import logging
import os
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Iterable

import psycopg

from warc2corpus import settings
from warc2corpus.reading import warcs

log = logging.getLogger(__name__)

# A file in one of these states has been dealt with; it is processed again only on request,
# when it changed on disk, or when it is flagged for readmission.
DONE = ("loaded", "partial", "quarantined")
# Statuses an operator may re-queue in bulk (`warc2corpus requeue --status ...`).
REQUEUEABLE = ("quarantined", "retry", "partial")

RETRY_ATTEMPTS_VARIABLE = "WARC2CORPUS_RETRY_ATTEMPTS"        # attempts before a passing fault quarantines
RETRY_DELAY_VARIABLE = "WARC2CORPUS_RETRY_DELAY_SECONDS"      # delay after the first; doubles each time
SETTLE_VARIABLE = "WARC2CORPUS_SETTLE_SECONDS"                # discovery: files modified more recently wait
CLAIM_HOURS_VARIABLE = "WARC2CORPUS_CLAIM_HOURS"              # a claim not renewed for this long has lapsed



def retry_attempts() -> int:
    return max(1, int(settings.number(RETRY_ATTEMPTS_VARIABLE, 5)))


def retry_delay(attempt: int) -> timedelta:
    """How long after its ``attempt``-th passing fault a file waits: 5 min, 10, 20, 40 ... by default."""
    return timedelta(seconds=settings.number(RETRY_DELAY_VARIABLE, 300) * 2 ** (attempt - 1))


def settle_seconds() -> float:
    return settings.number(SETTLE_VARIABLE, 60)


def claim_hours() -> float:
    return settings.number(CLAIM_HOURS_VARIABLE, 24)


def claim(conn: psycopg.Connection, paths: list[str], run_id: str, *,
          over: Iterable[str] = ()) -> tuple[list[str], dict[str, str]]:
    """Claim the files for the run: returns (the paths it now holds, {path: run id} of those another
    run holds). A claim held by the same run or by a run in ``over`` (known to be over), or not renewed
    for :func:`claim_hours`, is taken over. The caller owns the transaction; two runs claiming at once
    wait for each other's commit."""
    if not paths:
        return [], {}
    claimed = {row[0] for row in conn.execute(
        """UPDATE warc_files SET claimed_by = %(run)s, claimed_at = now()
            WHERE path = ANY(%(paths)s)
              AND (claimed_by IS NULL OR claimed_by = %(run)s OR claimed_by = ANY(%(over)s)
                   OR claimed_at < now() - %(hold)s)
        RETURNING path""",
        {"run": run_id, "paths": list(paths), "over": list(over), "hold": timedelta(hours=claim_hours())})}
    held = dict(conn.execute("SELECT path, claimed_by FROM warc_files WHERE path = ANY(%s) AND claimed_by <> %s",
                             ([p for p in paths if p not in claimed], run_id)).fetchall())
    return [p for p in paths if p in claimed], held


def release(conn: psycopg.Connection, run_id: str) -> int:
    """End every claim of the run (it is over, however it ended); returns how many there were."""
    return conn.execute("UPDATE warc_files SET claimed_by = NULL, claimed_at = NULL WHERE claimed_by = %s",
                        (run_id,)).rowcount


def unsettled(path: Path, first_look: os.stat_result, settle: float) -> str | None:
    """Why discovery should leave a file for a later run (it may still be being written), or None:
    its size or time changed since ``first_look``, or it was modified less than ``settle`` seconds
    ago. Raises OSError when the file cannot be looked at."""
    second = path.stat()
    if (second.st_size, second.st_mtime_ns) != (first_look.st_size, first_look.st_mtime_ns):
        return f"still being written ({first_look.st_size} bytes, then {second.st_size})"
    age = time.time() - second.st_mtime
    if age < settle:
        return f"modified {max(age, 0):.0f} s ago, less than the settle time of {settle:g} s"
    return None


def register(conn: psycopg.Connection, crawl_job: str, path: Path) -> dict:
    """Record a file of a crawl job in the ledger (or refresh its size and date when it changed);
    return its row. Raises OSError when the file cannot be looked at."""
    status = os.stat(path)  # first: a symlink loop or a missing file is an OSError here
    path = Path(os.path.realpath(path))
    size, mtime = status.st_size, datetime.fromtimestamp(status.st_mtime, tz=timezone.utc)
    row = conn.execute(
        "SELECT path, size_bytes, mtime, capture_start, status, readmit, next_attempt_at FROM warc_files"
        " WHERE path = %s",
        (str(path),),
    ).fetchone()
    if row and row[1] == size and row[2] == mtime:
        return {"path": row[0], "capture_start": row[3], "status": row[4], "readmit": row[5],
                "next_attempt_at": row[6]}
    try:
        capture_start = warcs.file_capture_start(path)
    except Exception as exc:  # an unreadable start is the extract stage's business to report
        log.warning("cannot read a WARC-Date from %s: %s", path, exc)
        capture_start = None
    conn.execute(
        """INSERT INTO warc_files (path, crawl_job, size_bytes, mtime, capture_start)
           VALUES (%s, %s, %s, %s, %s)
           ON CONFLICT (path) DO UPDATE SET size_bytes = EXCLUDED.size_bytes, mtime = EXCLUDED.mtime,
               capture_start = EXCLUDED.capture_start, crawl_job = EXCLUDED.crawl_job""",
        (str(path), crawl_job, size, mtime, capture_start),
    )
    if row and row[4] in DONE + ("retry",):  # the file changed since it was processed: process it again
        conn.execute("UPDATE warc_files SET readmit = true WHERE path = %s", (str(path),))
        return {"path": str(path), "capture_start": capture_start, "status": row[4], "readmit": True,
                "next_attempt_at": row[6]}
    return {"path": str(path), "capture_start": capture_start, "status": row[4] if row else "discovered",
            "readmit": False, "next_attempt_at": None}


def retry_due(row: dict, now: datetime | None = None) -> bool:
    """A ``retry`` file whose next attempt has come."""
    return row["status"] == "retry" and (row["next_attempt_at"] is None
                                         or row["next_attempt_at"] <= (now or datetime.now(timezone.utc)))


def mark(conn: psycopg.Connection, path: str, status: str, *, counts: dict | None = None,
         error: str | None = None, error_class: str | None = None, last_good_offset: int | None = None,
         layout: str | None = None, capture_end: str | None = None,
         started_at: datetime | None = None, naturalness_model: int | None = None) -> None:
    """Set a file's status (with counts, fault and times); the caller owns the transaction."""
    done = status in DONE
    conn.execute(
        """UPDATE warc_files SET status = %(status)s,
               -- a success ends the count of passing faults; quarantine keeps it as it was
               attempts = CASE WHEN %(status)s IN ('loaded', 'partial') THEN 0 ELSE attempts END,
               next_attempt_at = NULL,
               counts = coalesce(%(counts)s::jsonb, counts),
               error = %(error)s, error_class = %(error_class)s, last_good_offset = %(last_good_offset)s,
               layout = coalesce(%(layout)s, layout),
               readmit = CASE WHEN %(done)s OR %(status)s = 'retry' THEN false ELSE readmit END,
               capture_end = coalesce(%(capture_end)s::timestamptz, capture_end),
               started_at = coalesce(%(started_at)s, started_at),
               -- the naturalness model that judged the file's paragraphs (NULL: the seed model)
               naturalness_model = CASE WHEN %(status)s = 'extracted' THEN %(naturalness_model)s
                                        ELSE naturalness_model END,
               finished_at = CASE WHEN %(done)s THEN now() ELSE finished_at END,
               -- an outcome ends the run's claim on the file; progress renews it
               claimed_by = CASE WHEN %(done)s OR %(status)s = 'retry' THEN NULL ELSE claimed_by END,
               claimed_at = CASE WHEN %(done)s OR %(status)s = 'retry' OR claimed_by IS NULL THEN NULL ELSE now() END
           WHERE path = %(path)s""",
        {"status": status, "counts": _json(counts), "error": error, "error_class": error_class,
         "last_good_offset": last_good_offset, "layout": layout, "done": done, "capture_end": capture_end,
         "started_at": started_at, "naturalness_model": naturalness_model, "path": path},
    )


def mark_fault(conn: psycopg.Connection, path: str, *, transient: bool, error: str | None,
               error_class: str | None, **details) -> str:
    """A file nothing of which is loaded because of a fault: ``retry`` for a passing fault until
    the last attempt, else ``quarantined``. Returns the status set; the caller owns the transaction."""
    status = "quarantined"
    if transient:
        attempts = conn.execute("UPDATE warc_files SET attempts = attempts + 1 WHERE path = %s RETURNING attempts",
                                (path,)).fetchone()[0]
        if attempts < retry_attempts():
            status = "retry"
        else:
            error = f"gave up after {attempts} attempts: {error}"
    mark(conn, path, status, error=error, error_class=error_class, **details)
    if status == "retry":
        conn.execute("UPDATE warc_files SET next_attempt_at = now() + %s WHERE path = %s",
                     (retry_delay(attempts), path))
    return status


class UnknownFiles(LookupError):
    """Paths that are not in the ledger."""


def requeue(conn: psycopg.Connection, paths: list[str] | None = None, *, status: str | None = None,
            crawl_job: str | None = None) -> list[tuple[str, str]]:
    """Clear the fault of the given files (or of every file with ``status``, optionally of one crawl
    job) so that the next run takes them, whatever its interval. Returns (path, former status) of
    each; raises :class:`UnknownFiles` (and changes nothing) when a path is not in the ledger."""
    if paths:
        wanted = [os.path.realpath(p) for p in paths]
        rows = conn.execute("SELECT path, status FROM warc_files WHERE path = ANY(%s)", (wanted,)).fetchall()
        unknown = sorted(set(wanted) - {r[0] for r in rows})
        if unknown:
            raise UnknownFiles("not in the ledger: " + ", ".join(unknown))
    else:
        rows = conn.execute("SELECT path, status FROM warc_files WHERE status = %s"
                            " AND (%s::text IS NULL OR crawl_job = %s) ORDER BY path",
                            (status, crawl_job, crawl_job)).fetchall()
    conn.execute(
        """UPDATE warc_files SET status = 'discovered', readmit = true, attempts = 0, next_attempt_at = NULL,
               error = NULL, error_class = NULL, last_good_offset = NULL, claimed_by = NULL, claimed_at = NULL
           WHERE path = ANY(%s)""",
        ([r[0] for r in rows],),
    )
    return [(r[0], r[1]) for r in rows]


def _json(value) -> str | None:
    return None if value is None else json.dumps(value)


def in_interval(capture_start: datetime | None, interval: tuple[datetime, datetime] | None) -> bool:
    if interval is None:
        return True
    if capture_start is None:
        return False
    start, end = interval
    return start <= capture_start < end
