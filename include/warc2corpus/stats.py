"""Summaries of the corpus for people: what is in it, and what became of the WARC files."""

from __future__ import annotations

import psycopg


def corpus_summary(conn: psycopg.Connection) -> dict:
    def pairs(sql: str) -> dict:
        return {str(k): v for k, v in conn.execute(sql).fetchall()}

    return {
        "documents": conn.execute("SELECT count(*) FROM documents").fetchone()[0],
        "tokens": conn.execute("SELECT coalesce(sum(n_tokens), 0) FROM documents").fetchone()[0],
        "captures": conn.execute("SELECT count(*) FROM captures").fetchone()[0],
        "by_language": pairs("SELECT language, count(*) FROM documents GROUP BY 1 ORDER BY 2 DESC, 1"),
        "by_publication": pairs("SELECT host, count(*) FROM documents GROUP BY 1 ORDER BY 2 DESC, 1"),
        "by_harvest_year": pairs(
            "SELECT extract(year FROM harvest_time AT TIME ZONE 'UTC')::int, count(*) FROM documents GROUP BY 1 ORDER BY 1"
        ),
        "warc_files_by_status": pairs("SELECT status, count(*) FROM warc_files GROUP BY 1 ORDER BY 1"),
        "publications_by_status": pairs(
            "SELECT coalesce(manual_status, status), count(*) FROM publications GROUP BY 1 ORDER BY 1"
        ),
        "rejections_by_reason": pairs(
            "SELECT stage || ':' || reason, count(*) FROM rejections GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
    }
