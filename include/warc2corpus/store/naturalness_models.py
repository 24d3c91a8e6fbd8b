"""The naturalness models in PostgreSQL (``naturalness_models``): training one from the corpus when it
has grown by ``naturalness.RETRAIN_GROWTH`` since the last (:func:`refresh`), and the model a WARC file's
paragraphs are judged by (:func:`for_file`): the one its ledger row records when it was extracted
before (``warc_files.naturalness_model``), so the same file always gives the same text; the newest
(:func:`latest`) for a file never extracted. The model itself: :mod:`warc2corpus.text.naturalness`.
"""

from __future__ import annotations

import json
from typing import Iterator

from warc2corpus.text import naturalness

_LOCK = "warc2corpus.naturalness"  # an advisory lock's key: kept when the module moved
_loaded: dict[int, naturalness.Model] = {}  # stored models already read by this process, by id


def training_paragraphs(conn, documents: int = naturalness.TRAINING_DOCUMENTS) -> Iterator[tuple[str, str]]:
    """The paragraphs of the corpus's most recent documents (not withdrawn), most recent first, each
    with its paragraph's language, else its document's."""
    yield from conn.execute(
        """SELECT p.text, coalesce(nullif(p.language, 'und'), d.language)
             FROM (SELECT doc_id, language, harvest_time FROM documents WHERE NOT withdrawn
                    ORDER BY harvest_time DESC, doc_id LIMIT %s) d
             JOIN paragraphs p USING (doc_id)
            ORDER BY d.harvest_time DESC, d.doc_id, p.seq""", (documents,))


def corpus_paragraphs(conn) -> int:
    return conn.execute("SELECT coalesce(sum(n_paragraphs), 0) FROM documents WHERE NOT withdrawn").fetchone()[0]


def refresh(conn, *, force: bool = False) -> dict:
    """Train and store a new model when the corpus has grown enough since the newest (or ``force``).
    Commits. Returns what it found and did; parallel callers train once (advisory lock)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_LOCK,))
    paragraphs = corpus_paragraphs(conn)
    newest = conn.execute(
        "SELECT id, corpus_paragraphs FROM naturalness_models ORDER BY id DESC LIMIT 1").fetchone()
    due = paragraphs >= naturalness.MIN_TRAINING_PARAGRAPHS and (
        newest is None or paragraphs >= newest[1] * (1 + naturalness.RETRAIN_GROWTH))
    if not (due or force and paragraphs):
        conn.commit()
        return {"trained": False, "model": newest[0] if newest else None, "corpus_paragraphs": paragraphs}
    model, learnt = naturalness.train(training_paragraphs(conn))
    tokens = {lang: n for lang, n in model.totals.items() if n}
    model_id = conn.execute(
        """INSERT INTO naturalness_models (corpus_paragraphs, learnt_paragraphs, tokens, model)
           VALUES (%s, %s, %s, %s) RETURNING id""",
        (paragraphs, learnt, json.dumps(tokens), model.to_bytes())).fetchone()[0]
    conn.commit()
    return {"trained": True, "model": model_id, "corpus_paragraphs": paragraphs, "learnt_paragraphs": learnt,
            "tokens": tokens}


# Ledger states of a file whose paragraphs a model has judged (a quarantined file had none).
EXTRACTED = ("extracted", "loaded", "partial")


def for_file(conn, warc_file: str | None) -> tuple[int | None, naturalness.Model]:
    """The model that judges a WARC file's paragraphs, and its id: the one its ledger row records when
    the file was extracted before (NULL: the seed model), so that processing it again (a rerun, crash
    recovery, ``reprocess``, readmission) cannot change its text; the newest for a file never extracted."""
    row = conn.execute("SELECT status, naturalness_model FROM warc_files WHERE path = %s",
                       (warc_file,)).fetchone() if warc_file else None
    if row and row[0] in EXTRACTED:
        return row[1], stored(conn, row[1])
    return latest(conn)


def latest(conn) -> tuple[int | None, naturalness.Model]:
    """The newest stored model and its id; the seed model (id None) when none is stored."""
    row = conn.execute("SELECT max(id) FROM naturalness_models").fetchone()
    model_id = row[0] if row else None
    return model_id, stored(conn, model_id)


def stored(conn, model_id: int | None) -> naturalness.Model:
    """The stored model of this id (the seed model for None), read once per process."""
    if model_id is None:
        return naturalness.seed_model()
    if model_id not in _loaded:
        blob = conn.execute("SELECT model FROM naturalness_models WHERE id = %s", (model_id,)).fetchone()[0]
        _loaded.clear()  # one stored model in memory at a time
        _loaded[model_id] = naturalness.Model.from_bytes(bytes(blob))
    return _loaded[model_id]
