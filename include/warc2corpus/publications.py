"""Publications in the database: autoCat's front-page scores, host verdicts, and the allow-list."""

from __future__ import annotations

import json
from collections import Counter

import psycopg

from warc2corpus import autocat

# Taken by every transaction that changes host verdicts or loads filter rejections, so that a
# host accepted while a file that filtered it out is being loaded is never missed (see readmit).
ALLOW_LIST_LOCK_ID = 0x616C6C6F  # "allo"


def store_front_pages(conn: psycopg.Connection, pages: list[dict]) -> set[str]:
    """Record scored front pages (a page seen again keeps one row); return the hosts touched."""
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO front_pages (warc_file, record_offset, host, url, harvest_time, score, evidence)
               VALUES (%s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (warc_file, record_offset) DO UPDATE
               SET score = EXCLUDED.score, evidence = EXCLUDED.evidence""",
            [
                (p["warc_file"], p["record_offset"], p["host"], p["url"], p["harvest_time"], p["score"],
                 json.dumps(p["evidence"], ensure_ascii=False))
                for p in pages
            ],
        )
    return {p["host"] for p in pages}


def refresh_hosts(conn: psycopg.Connection, hosts: set[str]) -> Counter:
    """Recompute the classifier's verdict for these hosts from all their front pages.

    Only the classifier's columns change: a person's decision (manual_*) is never overwritten.
    Returns the hosts counted by the classifier's status.
    """
    statuses: Counter = Counter()
    for host in sorted(hosts):
        rows = conn.execute(
            "SELECT score, evidence, url, harvest_time FROM front_pages WHERE host = %s ORDER BY harvest_time",
            (host,),
        ).fetchall()
        if not rows:
            continue
        score, status = autocat.host_verdict([r[0] for r in rows])
        evidence = [{"url": r[2], "harvest_time": r[3].isoformat(), "score": r[0], **r[1]} for r in rows]
        conn.execute(
            """INSERT INTO publications (host, score, status, front_pages, evidence, assessed_at)
               VALUES (%s, %s, %s, %s, %s, now())
               ON CONFLICT (host) DO UPDATE SET score = EXCLUDED.score, status = EXCLUDED.status,
                   front_pages = EXCLUDED.front_pages, evidence = EXCLUDED.evidence,
                   assessed_at = EXCLUDED.assessed_at""",
            (host, score, status, len(rows), json.dumps(evidence, ensure_ascii=False)),
        )
        statuses[status] += 1
    return statuses


def host_statuses(conn: psycopg.Connection) -> dict[str, str]:
    """Every known host with its effective status (a person's decision first, else the classifier's)."""
    return dict(conn.execute("SELECT host, coalesce(manual_status, status) FROM publications").fetchall())


def decide(conn: psycopg.Connection, host: str, status: str, *, by: str, note: str = "") -> None:
    """Record a person's decision on a host; it survives every refresh."""
    if status not in ("accepted", "rejected"):
        raise ValueError("a decision is 'accepted' or 'rejected'")
    conn.execute(
        """INSERT INTO publications (host, manual_status, manual_note, manual_by, manual_at)
           VALUES (%s, %s, %s, %s, now())
           ON CONFLICT (host) DO UPDATE SET manual_status = EXCLUDED.manual_status,
               manual_note = EXCLUDED.manual_note, manual_by = EXCLUDED.manual_by, manual_at = now()""",
        (host, status, note, by),
    )


def lock_allow_list(conn: psycopg.Connection) -> None:
    """Serialise with other verdict changes and loads until the current transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (ALLOW_LIST_LOCK_ID,))


def flag_readmissions(conn: psycopg.Connection) -> int:
    """Flag the WARC files that filtered out documents of hosts now on the allow-list.

    Which host is accepted can depend on a front page in another WARC, processed later (backfills
    run days in parallel): the flagged files are processed again by the next run, so the corpus
    does not depend on the order WARCs are processed in. Call under :func:`lock_allow_list`.
    """
    cursor = conn.execute(
        """UPDATE warc_files w SET readmit = true
           WHERE NOT w.readmit AND EXISTS (
               SELECT 1 FROM rejections r JOIN allow_list a ON a.host = r.host
               WHERE r.warc_file = w.path AND r.stage = 'filter')"""
    )
    return cursor.rowcount
