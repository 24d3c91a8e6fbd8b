"""The research index, derived from `paragraphs` (see migration 0008 for what each column holds).

A token is matched by its lowercase form; a word is a token holding a letter or a digit. In
``seq`` a word is its id (>= 0), another token (punctuation) is ``-(id + 2)``, and -1 stands
between paragraphs, so no phrase, window or bigram ever spans two paragraphs. Token positions in
``fts`` are positions in ``seq`` plus one: the separator keeps paragraphs apart for phrases too.
"""

from __future__ import annotations

import logging
from collections import Counter

import numpy as np

from warc2corpus.research import store
from warc2corpus.research.query import is_word

log = logging.getLogger(__name__)

BATCH = 1000
MAX_POSITION = 16383       # tsvector positions beyond are clamped by PostgreSQL
MAX_POSITIONS = 256        # positions kept per lexeme by tsvector
MAX_LEXEME_BYTES = 2000    # tsvector's limit is 2047 bytes
MAX_TSVECTOR_CHARS = 900_000


def _tsquote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def _document(paragraphs: list[list[str]], ids: dict[str, int]) -> tuple:
    seq: list[int] = []
    positions: dict[str, list[int]] = {}
    for n, tokens in enumerate(paragraphs):
        if n:
            seq.append(-1)
        for token in tokens:
            low = token.lower()
            wid = ids[low]
            if is_word(low):
                seq.append(wid)
                positions.setdefault(low, []).append(len(seq))
            else:
                seq.append(-(wid + 2))
    counts = Counter(w for w in seq if w >= 0)
    terms = sorted(counts)
    parts = []
    for word, pos in positions.items():
        if len(word.encode("utf-8")) > MAX_LEXEME_BYTES:
            continue
        parts.append(_tsquote(word) + ":" + ",".join(str(min(p, MAX_POSITION)) for p in pos[:MAX_POSITIONS]))
    fts = " ".join(parts)
    if len(fts) > MAX_TSVECTOR_CHARS:   # beyond tsvector's 1 MB: the words without positions
        fts = " ".join(_tsquote(w) for w in positions if len(w.encode("utf-8")) <= MAX_LEXEME_BYTES)
    return (sum(counts.values()), fts, terms, [counts[t] for t in terms],
            np.asarray(seq, dtype="<i4").tobytes())


def refresh_index(conn) -> dict:
    """Index the documents not indexed yet and drop the rows of documents that are gone; a new
    collection version when anything changed. Idempotent; concurrent calls wait for each other."""
    store.lock_refresh(conn)
    conn.commit()
    try:
        removed = store.drop_stale(conn)
        conn.commit()
        indexed = 0
        while True:
            doc_ids = store.pending_documents(conn, BATCH)
            if not doc_ids:
                break
            docs: dict[int, list[list[str]]] = {d: [] for d in doc_ids}
            for doc_id, tokens in store.paragraph_tokens(conn, doc_ids):
                docs[doc_id].append(tokens)
            vocabulary = sorted({t.lower() for paragraphs in docs.values() for tokens in paragraphs for t in tokens})
            ids = store.lexicon_ids(conn, vocabulary, [is_word(w) for w in vocabulary])
            rows, totals = [], Counter()
            for doc_id, paragraphs in docs.items():
                words, fts, terms, counts, seq = _document(paragraphs, ids)
                rows.append((doc_id, words, fts, terms, counts, seq))
                totals.update(dict(zip(terms, counts)))
            store.insert_documents(conn, rows)
            store.add_totals(conn, list(totals), list(totals.values()))
            conn.commit()
            indexed += len(rows)
            log.info("research index: %d documents indexed", indexed)
        version = store.add_version(conn) if indexed or removed else None
        conn.commit()
    finally:
        store.unlock_refresh(conn)
        conn.commit()
    return {"indexed": indexed, "removed": removed, "version": version}
