"""Corpora: built from a filter, saved (citable, stable across later loads), or made from a list of
document ids / WARC-Record-IDs (CSV or Excel)."""

from __future__ import annotations

import re
import secrets
from datetime import date, datetime

import numpy as np

from warc2corpus import tables
from warc2corpus.research import matching, store
from warc2corpus.research.query import (BadRequest, CorpusFilter, FullText, IndexCondition, Not, NotFound, Pattern,
                                        parse_query, plain_text)

MAX_IDS = 100_000
MAX_NAME = 500  # characters of a saved corpus's name
ID_COLUMNS = ("doc_id", "record_id", "id")
_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789"
_RECORD_ID = re.compile(r"^<?(urn:[^<>\s]+)>?$", re.IGNORECASE)


def jsonable(row: dict) -> dict:
    return {k: v.isoformat() if isinstance(v, (date, datetime)) else v for k, v in row.items()}


def _text(conn, flt: CorpusFilter):
    """The filter's full-text condition (``query.IndexCondition``, or several under And / Or / Not)."""
    return _condition(conn, parse_query(flt.text, "text")) if flt.text else None


def _condition(conn, tree):
    """The index answers for words and prefixes; for a phrase in every document but those whose index lacks
    positions, where it is read word for word; a pattern with punctuation is read in every document the
    index finds it may be in (``query.FullText``)."""
    text = FullText.of(tree)
    if not text.phrases:
        return IndexCondition(text.tsquery)
    if text.exact:
        return IndexCondition(text.tsquery, whole_only=True, ids=_read(conn, tree, store.long_documents(conn, text.relaxed)))
    if isinstance(tree, Pattern):
        return IndexCondition(ids=_read(conn, tree, store.stream_seqs(conn, None, text)))
    if isinstance(tree, Not):
        return Not(_condition(conn, tree.part))
    return type(tree)(tuple(_condition(conn, part) for part in tree.parts))


def _read(conn, tree, rows) -> list[int]:
    """The documents of ``rows`` (doc_id, seq, ...: a store cursor) whose text holds the query."""
    holds = matching.holds(conn, tree, "text")
    with rows as found:
        return [doc_id for doc_id, seq, *_ in found if holds(np.frombuffer(seq, dtype="<i4"))]


def build_corpus(conn, flt: CorpusFilter) -> list[dict]:
    """Metadata rows of the documents the filter selects (at most flt.limit, in flt.order)."""
    return [jsonable(r) for r in store.corpus_rows(conn, flt, _text(conn, flt))]


def count_corpus(conn, flt: CorpusFilter) -> int:
    """How many documents the filter selects, whatever its limit."""
    return store.corpus_count(conn, flt, _text(conn, flt))


def _new_id() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(10))


def _saved(record: dict, documents: int) -> dict:
    return jsonable({"id": record["id"], "name": record["name"], "definition": record["definition"],
                     "documents": documents, "collection_version": record["collection_version"],
                     "created_at": record["created_at"]})


def _name(name) -> str | None:
    """A saved corpus's name as given (none for an empty one)."""
    if name is None or name == "":
        return None
    if not isinstance(name, str):
        raise BadRequest("name", "a text is expected")
    if len(name) > MAX_NAME:
        raise BadRequest("name", f"longer than {MAX_NAME} characters")
    return plain_text(name, "name")


def save_corpus(conn, flt: CorpusFilter, *, name=None) -> dict:
    """Resolve the filter now and keep its definition, the ids and the collection version."""
    name = _name(name)
    ids = store.corpus_ids(conn, flt, _text(conn, flt))
    record = store.insert_corpus(conn, _new_id(), name, {"filter": flt.to_dict()}, ids, [])
    return {**_saved(record, len(ids)), "unknown_ids": []}


def corpus_from_ids(conn, ids, *, name=None) -> dict:
    """A saved corpus of the given document ids or WARC-Record-IDs (``<urn:uuid:…>``, brackets
    optional), in their order, duplicates once; ids that name no document are reported."""
    if not isinstance(ids, (list, tuple)) or not ids:
        raise BadRequest("ids", "a non-empty list of document ids or WARC-Record-IDs is expected")
    if len(ids) > MAX_IDS:
        raise BadRequest("ids", f"more than {MAX_IDS} ids")
    name = _name(name)
    cleaned = [plain_text(str(i).strip(), "ids") for i in ids if str(i).strip()]
    doc_ids, record_ids = [], []
    for value in cleaned:
        if re.fullmatch(r"-?\d{1,19}", value):
            doc_ids.append(int(value))
        elif _RECORD_ID.match(value):
            m = _RECORD_ID.match(value).group(1)
            record_ids.extend([f"<{m}>", m])
    known, records = store.find_ids(conn, doc_ids, record_ids)
    resolved, unknown, seen = [], [], set()
    for value in cleaned:
        doc = None
        if re.fullmatch(r"-?\d{1,19}", value):
            doc = known.get(int(value))
        elif _RECORD_ID.match(value):
            m = _RECORD_ID.match(value).group(1)
            doc = records.get(f"<{m}>", records.get(m))
        if doc is None:
            unknown.append(value)
        elif doc not in seen:
            seen.add(doc)
            resolved.append(doc)
    record = store.insert_corpus(conn, _new_id(), name, {"ids": len(cleaned)}, resolved, unknown)
    live = store.corpus_record(conn, record["id"])["documents"]
    return {**_saved(record, live), "unknown_ids": unknown}


def read_id_file(data: bytes, filename: str) -> list[str]:
    """The ids of an uploaded CSV or Excel file (``tables.read_rows``): the column named
    doc_id, record_id or id when there is a header, else the first column."""
    try:
        rows = tables.read_rows(data, filename)
    except tables.TableError as exc:
        raise BadRequest("file", str(exc)) from None
    if not rows:
        raise BadRequest("file", "the file holds no ids")
    header = [c.strip().lower() for c in rows[0]]
    column = next((header.index(c) for c in ID_COLUMNS if c in header), None)
    if column is not None:
        rows = rows[1:]
    else:
        column = 0
        first = rows[0][0].strip() if rows[0] else ""
        if not (re.fullmatch(r"-?\d+(\.0)?", first) or _RECORD_ID.match(first)):
            rows = rows[1:]   # a header naming the column otherwise
    ids = [r[column].strip() for r in rows if len(r) > column and r[column].strip()]
    ids = [i[:-2] if re.fullmatch(r"-?\d+\.0", i) else i for i in ids]   # Excel's numbers as floats
    if not ids:
        raise BadRequest("file", "the file holds no ids")
    return ids


def get_corpus(conn, corpus_id: str) -> dict:
    record = store.corpus_record(conn, corpus_id) if isinstance(corpus_id, str) else None
    if record is None:
        raise NotFound(f"corpus {corpus_id!r}")
    return {**_saved(record, record["documents"]), "unknown_ids": record["unknown_ids"]}


def corpus_documents(conn, corpus_id: str, *, limit: int = 1000, offset: int = 0) -> list[dict]:
    """The saved corpus's documents, in saved order, withdrawn ones left out."""
    record = store.corpus_record(conn, corpus_id) if isinstance(corpus_id, str) else None
    if record is None:
        raise NotFound(f"corpus {corpus_id!r}")
    if not isinstance(limit, int) or not 1 <= limit <= MAX_IDS:
        raise BadRequest("limit", f"must lie between 1 and {MAX_IDS}")
    if not isinstance(offset, int) or offset < 0:
        raise BadRequest("offset", "must be at least 0")
    return [jsonable(r) for r in store.rows_for_ids(conn, record["doc_ids"], limit=limit, offset=offset)]


def scope_ids(conn, corpus, *, param: str = "corpus") -> list[int] | None:
    """The documents an analysis reads: None for the whole collection, else the ids of a saved
    corpus (by id) or of a CorpusFilter resolved now."""
    if corpus is None:
        return None
    if isinstance(corpus, CorpusFilter):
        return store.corpus_ids(conn, corpus, _text(conn, corpus))
    if isinstance(corpus, str):
        record = store.corpus_record(conn, corpus)
        if record is not None:
            return record["doc_ids"]
        raise NotFound(f"corpus {corpus!r}")
    raise BadRequest(param, "a saved corpus id is expected")
