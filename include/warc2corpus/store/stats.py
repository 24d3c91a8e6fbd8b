"""Summaries of the corpus for people: what is in it, and what became of the WARC files."""

from __future__ import annotations

import psycopg

from warc2corpus.records import HELD_BACK_STATUSES


def corpus_summary(conn: psycopg.Connection) -> dict:
    def pairs(sql: str) -> dict:
        return {str(k): v for k, v in conn.execute(sql).fetchall()}

    # The corpus is the documents not withdrawn (documents of hosts rejected after they were loaded
    # stay in `documents`, flagged; see publications.sync_withdrawals).
    corpus = "(SELECT * FROM documents WHERE NOT withdrawn) d"
    return {
        "documents": conn.execute(f"SELECT count(*) FROM {corpus}").fetchone()[0],
        "tokens": conn.execute(f"SELECT coalesce(sum(n_tokens), 0) FROM {corpus}").fetchone()[0],
        "captures": conn.execute(
            "SELECT count(*) FROM captures c JOIN documents d USING (doc_id) WHERE NOT d.withdrawn").fetchone()[0],
        "withdrawn_documents": conn.execute("SELECT count(*) FROM documents WHERE withdrawn").fetchone()[0],
        "by_language": pairs(f"SELECT language, count(*) FROM {corpus} GROUP BY 1 ORDER BY 2 DESC, 1"),
        "by_publication": pairs(f"SELECT host, count(*) FROM {corpus} GROUP BY 1 ORDER BY 2 DESC, 1"),
        "by_harvest_year": pairs(
            f"SELECT extract(year FROM harvest_time AT TIME ZONE 'UTC')::int, count(*) FROM {corpus} GROUP BY 1 ORDER BY 1"
        ),
        "warc_files_by_status": pairs("SELECT status, count(*) FROM warc_files GROUP BY 1 ORDER BY 1"),
        "publications_by_status": pairs("SELECT status, count(*) FROM host_status GROUP BY 1 ORDER BY 1"),
        "withdrawn_by_publication": pairs(
            "SELECT host, count(*) FROM documents WHERE withdrawn GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
        # Page types (0004): the article / front-or-section / other ratio the collection's authors ask about.
        "by_page_type": pairs("SELECT coalesce(page_type, 'unknown'), count(*) FROM documents GROUP BY 1 ORDER BY 2 DESC, 1"),
        "page_type_ratio": {str(k): float(v) for k, v in conn.execute(
            "SELECT coalesce(page_type, 'unknown'), round(count(*)::numeric / sum(count(*)) OVER (), 4)"
            " FROM documents GROUP BY 1 ORDER BY 1").fetchall()},
        "mixed_language_documents": conn.execute(
            "SELECT count(*) FROM documents WHERE mixed_language").fetchone()[0],
        "dropped_paragraphs_by_reason": {str(k): int(v) for k, v in conn.execute(
            "SELECT r.key, sum(r.value::int) FROM documents, jsonb_each_text(coalesce(dropped, '{}')) r"
            " GROUP BY 1 ORDER BY 2 DESC, 1").fetchall()},
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
        "truncated_captures": pairs(
            "SELECT truncated, count(*) FROM captures WHERE record_type = 'response' AND truncated IS NOT NULL"
            " GROUP BY 1 ORDER BY 2 DESC, 1"
        ),
        "naturalness_models": naturalness_models(conn),
    }


def naturalness_models(conn: psycopg.Connection) -> list[dict]:
    """The stored naturalness models, newest first (extraction uses the newest), without their counts."""
    rows = conn.execute(
        "SELECT id, trained_at, corpus_paragraphs, learnt_paragraphs, tokens FROM naturalness_models"
        " ORDER BY id DESC").fetchall()
    return [{"id": i, "trained_at": t.isoformat(), "corpus_paragraphs": c, "learnt_paragraphs": n, "tokens": tokens}
            for i, t, c, n, tokens in rows]


# Columns that are times of processing (when a row was written), not facts of the input. The ledger's
# `counts` also holds facts of the last processing, left out the same way: its duration ("seconds"), what
# its load found in the corpus at that moment ("load"; "skipped"/"revisit_unresolved": revisits whose
# original was not loaded yet, which the order of loads changes, while the revisits table resolves them
# whatever the order), and where the pages of held-back hosts (rejected, uncertain, declaring an editor
# but no news) were turned away — by the extraction when the host was held back before the file's
# extraction began, else by the filter ("skipped" and "filtered", "host_<status>" in each; so also how
# many pages were extracted, "documents", and the digest mismatches and truncated captures counted among
# them): every such page
# is a row of `rejections` either way, compared there (a page the extraction itself would have turned
# away keeps that reason only when it is extracted).
_HELD_BACK_COUNTS = "".join(f" #- '{{{kind},host_{status}}}'" for kind in ("skipped", "filtered")
                            for status in HELD_BACK_STATUSES)
PROCESSING_TIMES = {
    "documents": {"loaded_at"},
    "warc_files": {"discovered_at", "started_at", "finished_at"},
    "publications": {"assessed_at"},
    "publication_register": {"updated_at"},
    "naturalness_models": {"trained_at"},
    "near_duplicate_signatures": {"signed_at"},
    "saved_corpora": {"created_at"},
    "api_tokens": {"created_at", "revoked_at"},
}
# Tables that record the processing itself, not the input: the research index numbers words in the
# order it first meets them and counts a collection version per refresh (both rebuilt from
# `paragraphs` by research.refresh_index, whose text is compared); the near-duplicate queue is
# work in progress.
PROCESSING_TABLES = {"research_lexicon", "research_docs", "collection_versions", "near_duplicate_queue"}


def corpus_checksums(conn: psycopg.Connection) -> dict[str, str]:
    """Per table of the corpus: its number of rows and the md5 of its rows (as JSON, the times of
    processing in :data:`PROCESSING_TIMES` left out) ordered by primary key. Two corpora made from
    the same input compare equal, however and wherever they were made."""
    sums = {}
    tables = [row[0] for row in conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'"
        " AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations' ORDER BY 1")]
    for table in (t for t in tables if t not in PROCESSING_TABLES):
        key = [row[0] for row in conn.execute(
            """SELECT a.attname FROM pg_index i
                 JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = ANY (i.indkey)
                WHERE i.indrelid = %s::regclass AND i.indisprimary ORDER BY array_position(i.indkey, a.attnum)""",
            (table,))]
        if not key:
            raise ValueError(f"{table} has no primary key: its rows have no order to compare")
        row = "to_jsonb(t) - %s::text[]" + (
            " || jsonb_build_object('counts', t.counts - 'seconds' - 'load' - 'documents' - 'digest_mismatch'"
            " - 'truncated_captures'"
            " #- '{skipped,revisit_unresolved}'" + _HELD_BACK_COUNTS + ")"
            if table == "warc_files" else "")
        order = ", ".join(f't."{column}"' for column in key)
        digest, rows = conn.execute(
            f"SELECT md5(coalesce(string_agg(({row})::text, E'\\n' ORDER BY {order}), '')), count(*) FROM \"{table}\" t",
            (sorted(PROCESSING_TIMES.get(table, ())),)).fetchone()
        sums[table] = f"{rows} rows {digest}"
    return sums
