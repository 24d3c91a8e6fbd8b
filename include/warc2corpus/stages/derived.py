"""What is derived from the corpus after its loads (DAG warc2corpus_derived, and the end of
``warc2corpus run``): each stage is named as the library function it calls."""

from __future__ import annotations

import logging

from warc2corpus.store import db

log = logging.getLogger(__name__)


def train_naturalness(*, force: bool = False) -> dict:
    """A new naturalness model from the corpus when it has grown enough since the last one
    (``store.naturalness_models.refresh``); later extractions use it."""
    from warc2corpus.store import naturalness_models

    with db.connect() as conn:
        outcome = naturalness_models.refresh(conn, force=force)
    log.info("naturalness model: %s", outcome)
    return outcome


def find_near_duplicates() -> dict:
    """Sign the new documents and update the near-duplicate clusters (``store.near_duplicates.refresh``)."""
    from warc2corpus.store import near_duplicates

    with db.connect() as conn:
        return near_duplicates.refresh(conn)


def index_research() -> dict:
    """The research index takes in the new documents and drops the removed ones
    (``research.refresh_index``)."""
    from warc2corpus import research

    with db.connect() as conn:
        outcome = research.refresh_index(conn)
    log.info("research index: %s", outcome)
    return outcome
