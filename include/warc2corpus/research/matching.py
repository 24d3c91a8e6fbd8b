"""Where a query's words, prefixes and phrases stand in a document's token-id sequence (``seq``, see
``research.index``), read word for word with numpy: the analyses' hits, and the full-text filter of the
documents whose index positions cannot find a phrase (:func:`holds`)."""

from __future__ import annotations

from typing import Callable

import numpy as np

from warc2corpus.research import store
from warc2corpus.research.query import And, BadRequest, Not, Or, Pattern

MAX_PREFIX_WORDS = 5000


def item_sets(conn, pattern: Pattern, param: str) -> list[np.ndarray] | None:
    """The token codes each item of the pattern matches in ``seq`` (a word's id; a punctuation token's
    ``-(id + 2)``); None when an item matches no token."""
    sets = []
    for item in pattern.items:
        if item.punct:
            ids = [-(i + 2) for i in store.punctuation_ids(conn, [item.text]).values()]
        elif item.prefix:
            ids = store.prefix_ids(conn, item.text, MAX_PREFIX_WORDS + 1)
            if len(ids) > MAX_PREFIX_WORDS:
                raise BadRequest(param, f"the prefix {item.text}* matches more than {MAX_PREFIX_WORDS} words")
        else:
            ids = list(store.word_ids(conn, [item.text]).values())
        if not ids:
            return None
        sets.append(np.asarray(sorted(ids), dtype=np.int32))
    return sets


def match(arr: np.ndarray, sets: list[np.ndarray]) -> np.ndarray:
    """Start positions in arr where the items match consecutive tokens."""
    k = len(sets)
    n = len(arr) - k + 1
    if n <= 0:
        return np.empty(0, dtype=np.int64)
    mask = np.ones(n, dtype=bool)
    for j, ids in enumerate(sets):
        part = arr[j:j + n]
        mask &= (part == ids[0]) if len(ids) == 1 else np.isin(part, ids)
    return np.flatnonzero(mask)


def holds(conn, tree, param: str) -> Callable[[np.ndarray], bool]:
    """The full-text query (a tree of Pattern / And / Or / Not) as a test of a document's ``seq``:
    whether its text holds the query, phrases within a paragraph, as the index's positions answer it
    where they are whole."""
    if isinstance(tree, Pattern):
        sets = item_sets(conn, tree, param)
        if sets is None:
            return lambda arr: False
        return lambda arr: len(match(arr, sets)) > 0
    if isinstance(tree, Not):
        part = holds(conn, tree.part, param)
        return lambda arr: not part(arr)
    parts = [holds(conn, p, param) for p in tree.parts]
    if isinstance(tree, And):
        return lambda arr: all(p(arr) for p in parts)
    assert isinstance(tree, Or)
    return lambda arr: any(p(arr) for p in parts)
