"""Loading one WARC file's results into the corpus: one transaction, bulk COPY, idempotent.

The transaction holds the file's documents, captures, rejections and its ledger row, so a crash
or a retry leaves all of the file or none of it. Loading a file again first removes what it loaded
before, so a rerun or a reprocess never duplicates anything. Of all captures of one document the
earliest is the document's capture, whatever order the files are loaded in.
"""

from __future__ import annotations

from typing import Iterable

import psycopg

from warc2corpus import ledger, publications

DOCUMENT_COLUMNS = (
    "doc_id", "text_sha1", "host", "url_path", "url", "title", "author", "published", "harvest_time",
    "language", "n_paragraphs", "n_tokens", "warc_file", "record_offset", "record_length", "record_id",
    "crawl_job",
)
CAPTURE_COLUMNS = ("warc_file", "record_offset", "record_length", "record_id", "url", "harvest_time", "doc_id")
REJECTION_COLUMNS = ("warc_file", "record_offset", "record_id", "url", "host", "harvest_time", "stage", "reason")

# (harvest_time, warc_file, record_offset) orders captures; the smallest is the document's capture.
_EARLIER = ("(n.harvest_time, n.warc_file, n.record_offset) < "
            "(d.harvest_time, d.warc_file, d.record_offset)")


def _copy(cur: psycopg.Cursor, table: str, columns: Iterable[str], rows: Iterable[tuple]) -> None:
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(row)


def load_warc(conn: psycopg.Connection, warc_file: str, documents: list[dict], later_captures: list[dict],
              rejections: list[dict], counts: dict, capture_end: str | None) -> dict:
    """Load one WARC's results in one transaction; return what happened to its documents."""
    with conn.transaction(), conn.cursor() as cur:
        cur.execute("SELECT 1 FROM warc_files WHERE path = %s FOR UPDATE", (warc_file,))
        # Whatever an earlier load of this file left is replaced.
        cur.execute("DELETE FROM captures WHERE warc_file = %s RETURNING doc_id", (warc_file,))
        touched = {row[0] for row in cur.fetchall()}
        cur.execute("DELETE FROM rejections WHERE warc_file = %s", (warc_file,))

        cur.execute(
            "CREATE TEMP TABLE new_documents (LIKE documents INCLUDING DEFAULTS) ON COMMIT DROP;"
            "CREATE TEMP TABLE new_paragraphs (LIKE paragraphs) ON COMMIT DROP;"
        )
        _copy(cur, "new_documents", DOCUMENT_COLUMNS,
              (tuple(d[c] for c in DOCUMENT_COLUMNS) for d in documents))
        _copy(cur, "new_paragraphs", ("doc_id", "seq", "text", "tokens", "token_starts"),
              ((d["doc_id"], seq, text, tokens, starts)
               for d in documents for seq, (text, tokens, starts) in enumerate(d["paragraphs"])))

        cur.execute(
            f"""SELECT count(*) FILTER (WHERE d.doc_id IS NULL),
                       count(*) FILTER (WHERE d.warc_file = n.warc_file),
                       count(*) FILTER (WHERE d.warc_file <> n.warc_file AND {_EARLIER}),
                       count(*) FILTER (WHERE d.warc_file <> n.warc_file AND NOT {_EARLIER})
                FROM new_documents n LEFT JOIN documents d USING (doc_id)"""
        )
        new, reloaded, earlier_than_corpus, already_in_corpus = cur.fetchone()

        # Insert new documents; an existing one takes this capture when it is earlier, or when its
        # own capture came from this very file (a reload).
        cur.execute(
            f"""INSERT INTO documents AS d ({', '.join(DOCUMENT_COLUMNS)})
                SELECT {', '.join(DOCUMENT_COLUMNS)} FROM new_documents
                ON CONFLICT (doc_id) DO UPDATE SET
                    {', '.join(f'{c} = EXCLUDED.{c}' for c in DOCUMENT_COLUMNS if c != 'doc_id')},
                    loaded_at = now()
                WHERE {_EARLIER.replace('n.', 'EXCLUDED.')} OR d.warc_file = EXCLUDED.warc_file"""
        )
        cur.execute("INSERT INTO paragraphs SELECT * FROM new_paragraphs ON CONFLICT DO NOTHING")

        captures = (
            tuple(c[k] for k in CAPTURE_COLUMNS) for c in [*documents, *later_captures]
        )
        cur.execute("CREATE TEMP TABLE new_captures (LIKE captures) ON COMMIT DROP")
        _copy(cur, "new_captures", CAPTURE_COLUMNS, captures)
        cur.execute("INSERT INTO captures SELECT * FROM new_captures ON CONFLICT DO NOTHING")

        # Documents that only this file held before, and no longer holds, go; documents whose
        # capture was in this file and is now elsewhere point at their earliest remaining capture.
        if touched:
            cur.execute(
                "DELETE FROM documents d WHERE d.doc_id = ANY(%s)"
                " AND NOT EXISTS (SELECT 1 FROM captures c WHERE c.doc_id = d.doc_id)",
                (list(touched),),
            )
            cur.execute(
                """UPDATE documents d SET warc_file = c.warc_file, record_offset = c.record_offset,
                       record_length = c.record_length, record_id = c.record_id, url = c.url,
                       harvest_time = c.harvest_time
                   FROM (SELECT DISTINCT ON (doc_id) * FROM captures WHERE doc_id = ANY(%s)
                         ORDER BY doc_id, harvest_time, warc_file, record_offset) c
                   WHERE d.doc_id = c.doc_id AND (d.warc_file, d.record_offset) <> (c.warc_file, c.record_offset)""",
                (list(touched),),
            )

        _copy(cur, "rejections", REJECTION_COLUMNS, (tuple(r.get(k) for k in REJECTION_COLUMNS) for r in rejections))

        outcome = {
            "new_documents": new,
            "reloaded_documents": reloaded,
            "earlier_capture_of_corpus_document": earlier_than_corpus,
            "later_capture_of_corpus_document": already_in_corpus,
            "captures": len(documents) + len(later_captures),
            "rejections": len(rejections),
        }
        ledger.mark(conn, warc_file, "loaded", counts={**counts, "load": outcome}, capture_end=capture_end)
        publications.lock_allow_list(conn)
        outcome["readmit"] = bool(publications.flag_readmissions(conn))
    return outcome
