"""The research index, derived from `paragraphs` (see migration 0008 for what each column holds).

A token is matched by its lowercase form; a word is a token holding a letter or a digit. In
``seq`` a word is its id (>= 0), another token (punctuation) is ``-(id + 2)``, and -1 stands
between paragraphs, so no phrase, window or bigram ever spans two paragraphs. Token positions in
``fts`` are positions in ``seq`` plus one: the separator keeps paragraphs apart for phrases too.
"""

from __future__ import annotations

import logging
from collections import Counter
from itertools import chain

import numpy as np

from warc2corpus.research import store
from warc2corpus.research.query import MAX_WORD_BYTES, is_word
from warc2corpus.store.load import paragraph_tokens

log = logging.getLogger(__name__)

BATCH = 1000
MAX_POSITION = 16383       # tsvector positions beyond are clamped by PostgreSQL
MAX_POSITIONS = 256        # positions kept per lexeme by tsvector
MAX_TSVECTOR_CHARS = 900_000


def _tsquote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def _document(paragraphs: list[list[str]], code: dict[str, int], lexeme: dict[int, str]) -> tuple:
    """(words, fts text, terms, counts, seq bytes, positions whole) of one document. code: token -> its
    id (words) or -(id + 2) (other tokens); lexeme: word id -> its quoted tsvector lexeme. Positions
    whole: the tsvector holds every word's every position (no word more than MAX_POSITIONS times, no
    token past MAX_POSITION), so that phrases can be found through it (migration 0018)."""
    seq: list[int] = []
    for n, tokens in enumerate(paragraphs):
        if n:
            seq.append(-1)
        seq.extend(map(code.__getitem__, tokens))
    arr = np.asarray(seq, dtype="<i4")
    positions = np.flatnonzero(arr >= 0)
    ids = arr[positions]
    order = np.argsort(ids, kind="stable")
    ids, positions = ids[order], np.minimum(positions[order] + 1, MAX_POSITION)
    terms, firsts, counts = np.unique(ids, return_index=True, return_counts=True)
    fts = _tsvector_text(ids, positions, terms, firsts, counts, lexeme)
    whole = len(arr) < MAX_POSITION and (not len(counts) or int(counts.max()) <= MAX_POSITIONS)
    if len(fts) > MAX_TSVECTOR_CHARS:   # beyond tsvector's 1 MB: the words without positions
        fts, whole = " ".join(lexeme[t] for t in terms.tolist()), False
    return len(ids), fts, terms.tolist(), counts.tolist(), arr.tobytes(), whole


_POSITION_TEXT = np.array([str(n) for n in range(MAX_POSITION + 1)], dtype=object)


def _tsvector_text(ids, positions, terms, firsts, counts, lexeme: dict[int, str]) -> str:
    """The tsvector's text, "'word':3,17 'other':5": each term's lexeme and its
    first MAX_POSITIONS positions. ids, positions: every word of the document, sorted by term (then
    position); terms, firsts, counts: ``np.unique`` of ids. Laid out as one list of pieces (the
    positions' texts taken from a table, "," between them, " 'word':" where a term starts) and joined
    once: a join per term took two thirds of a document's indexing."""
    if not len(ids):
        return ""
    within = np.arange(len(ids)) - np.repeat(firsts, counts)
    kept = within < MAX_POSITIONS
    kept_ids = ids[kept]
    pieces = np.full(2 * len(kept_ids), ",", dtype=object)
    pieces[1::2] = _POSITION_TEXT[positions[kept]]
    starts = np.flatnonzero(np.concatenate(([True], kept_ids[1:] != kept_ids[:-1])))
    pieces[2 * starts] = [" " + lexeme[t] + ":" for t in kept_ids[starts].tolist()]
    pieces[0] = pieces[0][1:]
    return "".join(pieces.tolist())


# Every token longer than the index keeps (a run of base64 or a hash in a paragraph: no word) is this one
# lexicon entry, no word: a run of several kilobytes broke the lexicon's unique index (btree rows end at
# 2,704 bytes), and the index refresh failed on every run after, no new document searchable.
UNINDEXED = ""


def _indexed_form(token: str) -> str:
    low = token.lower()
    return UNINDEXED if len(low.encode("utf-8")) > MAX_WORD_BYTES else low


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
            for doc_id, tokens in paragraph_tokens(conn, doc_ids):
                docs[doc_id].append(tokens)
            occurrences = Counter(chain.from_iterable(chain.from_iterable(docs.values())))
            lower = {t: _indexed_form(t) for t in occurrences}
            totals: Counter = Counter()
            for token, n in occurrences.items():
                totals[lower[token]] += n
            vocabulary = sorted(totals)
            word = {w: is_word(w) for w in vocabulary}
            # Punctuation is in the lexicon (its ids code ``seq``) but never counted in the totals.
            ids = store.add_to_lexicon(conn, vocabulary, [word[w] for w in vocabulary],
                                       [totals[w] if word[w] else 0 for w in vocabulary])
            code = {t: ids[low] if word[low] else -(ids[low] + 2) for t, low in lower.items()}
            lexeme = {ids[w]: _tsquote(w) for w in vocabulary if word[w]}
            rows = [(doc_id, *_document(paragraphs, code, lexeme)) for doc_id, paragraphs in docs.items()]
            store.insert_documents(conn, rows)
            conn.commit()
            indexed += len(rows)
            log.info("research index: %d documents indexed", indexed)
        if indexed:
            store.merge_pending(conn)
        version = store.add_version(conn) if indexed or removed else None
        conn.commit()
    finally:
        conn.rollback()             # after a failure the transaction is aborted; after success, a no-op
        store.unlock_refresh(conn)
        conn.commit()
    return {"indexed": indexed, "removed": removed, "version": version}
