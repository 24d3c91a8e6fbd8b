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
        # Records skipped while reading, by reason, as the ledger counted them per file.
        "skipped_records_by_reason": pairs(
            "SELECT s.key, sum(s.value::bigint)::bigint FROM warc_files, jsonb_each_text(counts->'skipped') s"
            " GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
        "revisits": pairs(
            "SELECT CASE WHEN doc_id IS NULL THEN 'unresolved' ELSE 'resolved' END, count(*) FROM revisits"
            " GROUP BY 1 ORDER BY 1"
        ),
        "payload_digests": pairs(
            "SELECT CASE digest_ok WHEN true THEN 'verified' WHEN false THEN 'mismatch' ELSE 'absent' END,"
            " count(*) FROM captures WHERE record_type = 'response' GROUP BY 1 ORDER BY 1"
        ),
    }
