"""Loading one WARC file's results into the corpus: one transaction, bulk COPY, idempotent.

The transaction holds the file's documents, captures, revisits, rejections and its ledger row,
so a crash or a retry leaves all of the file or none of it. Loading a file again first removes
what it loaded before, so a rerun or a reprocess never duplicates anything. Of all captures of
one document the earliest is the document's capture, whatever order the files are loaded in; a
revisit record becomes a capture of the document its original belongs to, whichever of the two
files is loaded first. The derived steps read the paragraphs' tokens back here
(:func:`paragraph_tokens`).
"""

from __future__ import annotations

import marshal
import tempfile
from itertools import chain
from typing import BinaryIO, Callable, Iterable, Iterator

import psycopg

from warc2corpus.records import DOCUMENT_COLUMNS, Capture, Paragraph, Rejection, Revisit
from warc2corpus.store import ledger, publications
from warc2corpus.store.values import storable

# The columns of each table come from its record (warc2corpus.records): one definition.
CAPTURE_COLUMNS = Capture.keys()
REJECTION_COLUMNS = Rejection.keys()
REVISIT_COLUMNS = Revisit.keys()
PARAGRAPH_COLUMNS = ("doc_id", "seq", *Paragraph._fields)

# (harvest_time, warc_file, record_offset) orders captures; the smallest is the document's capture.
_EARLIER = ("(n.harvest_time, n.warc_file, n.record_offset) < "
            "(d.harvest_time, d.warc_file, d.record_offset)")

# A capture that is the original a revisit names by its URL and WARC-Date (WARC-Refers-To-Target-URI and
# -Date: a server-not-modified revisit has no payload digest), to the second.
_NAMED_BY_TARGET_AND_DATE = """(r.refers_to_date IS NOT NULL
      AND c.harvest_time >= date_trunc('second', r.refers_to_date)
      AND c.harvest_time < date_trunc('second', r.refers_to_date) + interval '1 second'
      AND c.url = coalesce(r.refers_to_url, r.url))"""
# The original of a revisit: the capture with its WARC-Refers-To record id, else the one of its URL and date,
# else one with the same payload digest (preferring the same URL, then the earliest).
_ORIGINAL_OF_REVISIT = f"""(
    SELECT c.doc_id FROM captures c
    WHERE c.record_type = 'response'
      AND (c.record_id = r.refers_to OR (r.payload_digest IS NOT NULL AND c.payload_digest = r.payload_digest)
           OR {_NAMED_BY_TARGET_AND_DATE})
    ORDER BY (c.record_id IS NOT DISTINCT FROM r.refers_to) DESC, {_NAMED_BY_TARGET_AND_DATE} DESC,
             (c.url = coalesce(r.refers_to_url, r.url)) DESC, c.harvest_time
    LIMIT 1)"""
_CAPTURES_OF_RESOLVED = """
    INSERT INTO captures (warc_file, record_offset, record_length, record_id, url, harvest_time, doc_id,
                          payload_digest, record_type)
    SELECT warc_file, record_offset, record_length, coalesce(record_id, ''), coalesce(url, ''),
           harvest_time, doc_id, payload_digest, 'revisit'
    FROM resolved WHERE doc_id IS NOT NULL AND harvest_time IS NOT NULL
    ON CONFLICT DO NOTHING"""


def text_array(values: list[str]) -> str:
    """A text[] in PostgreSQL's array syntax, every element quoted (COPY reads it with the column's
    type): made here in two joins, where psycopg's array dumper costs a Python call per token."""
    if not values:
        return "{}"
    joined = "".join(values)
    if '"' in joined or "\\" in joined:
        values = [v.replace("\\", "\\\\").replace('"', '\\"') for v in values]
    return '{"' + '","'.join(values) + '"}'


def int_array(values: list[int]) -> str:
    """An integer[] in PostgreSQL's array syntax (for COPY, as :func:`text_array`)."""
    return "{" + ",".join(map(str, values)) + "}"


def _copy(cur: psycopg.Cursor, table: str, columns: Iterable[str], rows: Iterable[tuple]) -> None:
    with cur.copy(f"COPY {table} ({', '.join(columns)}) FROM STDIN") as copy:
        for row in rows:
            copy.write_row(tuple(storable(value) for value in row))


def paragraph_tokens(conn: psycopg.Connection, doc_ids: list[int]) -> list[tuple[int, list[str]]]:
    """(doc_id, tokens) of every paragraph of the documents, in document and paragraph order (the research
    index's and the near-duplicates' input). In binary: the arrays come without quoting to undo (0.93 ->
    0.80 s for the held-out pages x 7's 3,934 documents)."""
    with conn.cursor(binary=True) as cur:
        return cur.execute("SELECT doc_id, tokens FROM paragraphs WHERE doc_id = ANY(%s::bigint[])"
                           " ORDER BY doc_id, seq", (doc_ids,)).fetchall()


# Rows held for a later COPY stay in memory up to this size, then go to a temporary file (TMPDIR).
SPOOL_BYTES = 64 << 20


def _spooled(spool: BinaryIO) -> Iterator[tuple]:
    """The rows written to ``spool`` with ``marshal.dump``, in order."""
    spool.seek(0)
    while True:
        try:
            yield marshal.load(spool)
        except EOFError:
            return


def load_warc(conn: psycopg.Connection, warc_file: str, *, documents: Callable[[], Iterable[dict]],
              later_captures: Callable[[], Iterable[dict]], rejections: Iterable[dict],
              revisits: Iterable[dict], status: str, counts: dict, capture_end: str | None,
              fault: dict) -> dict:
    """Load one WARC's results in one transaction; return what happened to its documents.

    ``documents`` and ``later_captures`` (callables returning iterators) are read once: a document's
    paragraph and capture rows are held in a spool (memory up to ``SPOOL_BYTES``, then a temporary file)
    while its own row goes to COPY, so a file's documents never all sit in memory and are decoded once
    (read three times, their decoding was a third of the load's time).
    """
    with conn.transaction(), conn.cursor() as cur, \
            tempfile.SpooledTemporaryFile(SPOOL_BYTES) as paragraph_rows, \
            tempfile.SpooledTemporaryFile(SPOOL_BYTES) as capture_rows:
        cur.execute("SELECT 1 FROM warc_files WHERE path = %s FOR UPDATE", (warc_file,))
        # Whatever an earlier load of this file left is replaced.
        cur.execute("DELETE FROM captures WHERE warc_file = %s RETURNING doc_id", (warc_file,))
        touched = list({row[0] for row in cur.fetchall()})
        cur.execute("DELETE FROM rejections WHERE warc_file = %s", (warc_file,))
        cur.execute("DELETE FROM revisits WHERE warc_file = %s", (warc_file,))

        cur.execute(
            "CREATE TEMP TABLE new_documents (LIKE documents INCLUDING DEFAULTS) ON COMMIT DROP;"
            "CREATE TEMP TABLE new_paragraphs (LIKE paragraphs) ON COMMIT DROP;"
            "CREATE TEMP TABLE new_captures (LIKE captures INCLUDING DEFAULTS) ON COMMIT DROP;"
        )

        def document_rows() -> Iterator[tuple]:
            for d in documents():
                for seq, (text, tokens, starts, *language) in enumerate(d["paragraphs"]):
                    marshal.dump((d["doc_id"], seq, text, text_array(tokens), int_array(starts),
                                  language[0] if language else None), paragraph_rows)
                marshal.dump(tuple(d.get(k) for k in CAPTURE_COLUMNS), capture_rows)
                yield tuple(d.get(c) for c in DOCUMENT_COLUMNS)

        _copy(cur, "new_documents", DOCUMENT_COLUMNS, document_rows())
        _copy(cur, "new_paragraphs", PARAGRAPH_COLUMNS, _spooled(paragraph_rows))
        _copy(cur, "new_captures", CAPTURE_COLUMNS,
              chain(_spooled(capture_rows), (tuple(c.get(k) for k in CAPTURE_COLUMNS) for c in later_captures())))

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
        cur.execute("INSERT INTO captures SELECT * FROM new_captures ON CONFLICT DO NOTHING")

        # Documents that only this file held before, and no longer holds, go; documents whose
        # capture was in this file and is now elsewhere point at their earliest remaining capture.
        if touched:
            cur.execute(
                "DELETE FROM documents d WHERE d.doc_id = ANY(%s) AND NOT EXISTS"
                " (SELECT 1 FROM captures c WHERE c.doc_id = d.doc_id AND c.record_type = 'response')",
                (touched,),
            )
            cur.execute(
                """UPDATE documents d SET warc_file = c.warc_file, record_offset = c.record_offset,
                       record_length = c.record_length, record_id = c.record_id, url = c.url,
                       harvest_time = c.harvest_time, record_url = c.record_url,
                       payload_digest = c.payload_digest, digest_ok = c.digest_ok, truncated = c.truncated
                   FROM (SELECT DISTINCT ON (doc_id) * FROM captures
                         WHERE doc_id = ANY(%s) AND record_type = 'response'
                         ORDER BY doc_id, harvest_time, warc_file, record_offset) c
                   WHERE d.doc_id = c.doc_id AND (d.warc_file, d.record_offset) <> (c.warc_file, c.record_offset)""",
                (touched,),
            )

        revisit_outcome = _load_revisits(cur, warc_file, revisits)
        _copy(cur, "rejections", REJECTION_COLUMNS, (tuple(r.get(k) for k in REJECTION_COLUMNS) for r in rejections))
        cur.execute("SELECT count(*) FROM rejections WHERE warc_file = %s", (warc_file,))
        rejected = cur.fetchone()[0]
        cur.execute("SELECT count(*) FROM captures WHERE warc_file = %s AND record_type = 'response'", (warc_file,))
        captures = cur.fetchone()[0]

        outcome = {
            "new_documents": new,
            "reloaded_documents": reloaded,
            "earlier_capture_of_corpus_document": earlier_than_corpus,
            "later_capture_of_corpus_document": already_in_corpus,
            "captures": captures,
            "rejections": rejected,
            **revisit_outcome,
        }
        skipped = dict(counts.get("skipped", {}))
        if revisit_outcome["revisits_unresolved"]:
            skipped["revisit_unresolved"] = revisit_outcome["revisits_unresolved"]
        ledger.mark(conn, warc_file, status, counts={**counts, "skipped": skipped, "load": outcome},
                    capture_end=capture_end, layout=counts.get("layout"), error=fault.get("error"),
                    error_class=fault.get("error_class"), last_good_offset=fault.get("last_good_offset"))
        publications.lock_allow_list(conn)
        outcome["readmit"] = bool(publications.flag_readmissions(conn))
    return outcome


def _load_revisits(cur: psycopg.Cursor, warc_file: str, revisits: Iterable[dict]) -> dict:
    """Store this file's revisits and resolve what can be resolved now, in either direction."""
    _copy(cur, "revisits", REVISIT_COLUMNS, (tuple(r.get(k) for k in REVISIT_COLUMNS) for r in revisits))
    # This file's revisits, against every capture loaded so far (this file's included); every
    # revisit resolved becomes a capture of its document.
    cur.execute(
        f"""WITH resolved AS (
                UPDATE revisits r SET doc_id = {_ORIGINAL_OF_REVISIT}
                WHERE r.warc_file = %s AND r.doc_id IS NULL RETURNING r.*)
            {_CAPTURES_OF_RESOLVED}""",
        (warc_file,),
    )
    # Other files' revisits whose original this file has just brought.
    cur.execute(
        f"""WITH resolved AS (
                UPDATE revisits r SET doc_id = {_ORIGINAL_OF_REVISIT}
                WHERE r.doc_id IS NULL AND r.warc_file <> %s AND EXISTS (
                    SELECT 1 FROM captures c WHERE c.warc_file = %s AND c.record_type = 'response'
                      AND (c.record_id = r.refers_to OR c.payload_digest = r.payload_digest
                           OR {_NAMED_BY_TARGET_AND_DATE}))
                RETURNING r.*)
            {_CAPTURES_OF_RESOLVED}""",
        (warc_file, warc_file),
    )
    cur.execute("SELECT count(*) FILTER (WHERE doc_id IS NOT NULL), count(*) FILTER (WHERE doc_id IS NULL)"
                " FROM revisits WHERE warc_file = %s", (warc_file,))
    resolved, unresolved = cur.fetchone()
    return {"revisits_resolved": resolved, "revisits_unresolved": unresolved}
