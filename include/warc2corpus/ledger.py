"""The ledger of WARC files: what discovery found, and what became of each file."""

from __future__ import annotations

import json
import logging
from datetime import datetime, timezone
from pathlib import Path

import psycopg

from warc2corpus import warcs
from warc2corpus.crawljobs import CrawlJob

log = logging.getLogger(__name__)

# A file in one of these states has been dealt with; it is processed again only on request,
# when it changed on disk, or when it is flagged for readmission.
DONE = ("loaded", "partial", "quarantined")


def _mtime(path: Path) -> datetime:
    return datetime.fromtimestamp(path.stat().st_mtime, tz=timezone.utc)


def register(conn: psycopg.Connection, job: CrawlJob | str, path: Path) -> dict:
    """Record a file in the ledger (or refresh its size and date when it changed); return its row."""
    job_name = job if isinstance(job, str) else job.name
    path = path.resolve()
    size, mtime = path.stat().st_size, _mtime(path)
    row = conn.execute(
        "SELECT path, size_bytes, mtime, capture_start, status, readmit FROM warc_files WHERE path = %s",
        (str(path),),
    ).fetchone()
    if row and row[1] == size and row[2] == mtime:
        return {"path": row[0], "capture_start": row[3], "status": row[4], "readmit": row[5]}
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
        (str(path), job_name, size, mtime, capture_start),
    )
    if row and row[4] in DONE:  # the file changed since it was processed: process it again
        conn.execute("UPDATE warc_files SET readmit = true WHERE path = %s", (str(path),))
        return {"path": str(path), "capture_start": capture_start, "status": row[4], "readmit": True}
    return {"path": str(path), "capture_start": capture_start, "status": row[4] if row else "discovered",
            "readmit": False}


def mark(conn: psycopg.Connection, path: str, status: str, *, counts: dict | None = None,
         error: str | None = None, error_class: str | None = None, last_good_offset: int | None = None,
         layout: str | None = None, capture_end: str | None = None,
         started_at: datetime | None = None, naturalness_model: int | None = None) -> None:
    """Set a file's status (with counts, fault and times); the caller owns the transaction."""
    done = status in DONE
    conn.execute(
        """UPDATE warc_files SET status = %(status)s,
               counts = coalesce(%(counts)s::jsonb, counts),
               error = %(error)s, error_class = %(error_class)s, last_good_offset = %(last_good_offset)s,
               layout = coalesce(%(layout)s, layout),
               readmit = CASE WHEN %(done)s THEN false ELSE readmit END,
               capture_end = coalesce(%(capture_end)s::timestamptz, capture_end),
               started_at = coalesce(%(started_at)s, started_at),
               -- the naturalness model that judged the file's paragraphs (NULL: the seed model)
               naturalness_model = CASE WHEN %(status)s = 'extracted' THEN %(naturalness_model)s
                                        ELSE naturalness_model END,
               finished_at = CASE WHEN %(done)s THEN now() ELSE finished_at END
           WHERE path = %(path)s""",
        {"status": status, "counts": _json(counts), "error": error, "error_class": error_class,
         "last_good_offset": last_good_offset, "layout": layout, "done": done, "capture_end": capture_end,
         "started_at": started_at, "naturalness_model": naturalness_model, "path": path},
    )


def _json(value) -> str | None:
    return None if value is None else json.dumps(value)


def in_interval(capture_start: datetime | None, interval: tuple[datetime, datetime] | None) -> bool:
    if interval is None:
        return True
    if capture_start is None:
        return False
    start, end = interval
    return start <= capture_start < end
