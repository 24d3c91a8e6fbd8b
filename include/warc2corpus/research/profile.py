"""What a corpus (or the whole collection) holds, counted for plots: documents per publication, language
and county, and per month of publication and of harvest, by language."""

from __future__ import annotations

from warc2corpus.research import store
from warc2corpus.research.corpora import scope_ids

DIMENSIONS = ("publication", "language", "county", "published", "harvested")
_collection_cache: dict[tuple, dict] = {}


def profile(conn, corpus=None) -> dict:
    """Counts of the documents of a saved corpus (by id), or of the whole collection (None).

    ``publications``, ``languages``, ``counties``: rows {value, documents}, most documents first (county
    None: the register names none); ``published``, ``harvested``: rows {month "YYYY-MM", language,
    documents} in month order (documents without a publication date are counted in ``undated``). The whole
    collection's is kept per process until the collection version or a withdrawal changes it."""
    if corpus is None:
        key = store.collection_state(conn)
        if key not in _collection_cache:
            _collection_cache.clear()
            _collection_cache[key] = _profile(conn, None)
        return _collection_cache[key]
    return _profile(conn, corpus)


def _profile(conn, corpus) -> dict:
    groups: dict[str, list[dict]] = {d: [] for d in DIMENSIONS}
    undated = 0
    for dimension, key, language, documents in store.profile_counts(conn, scope_ids(conn, corpus)):
        if dimension in ("published", "harvested"):
            if key is None:
                undated += documents if dimension == "published" else 0
                continue
            groups[dimension].append({"month": key, "language": language, "documents": documents})
        else:
            value = language if dimension == "language" else (key or None)
            groups[dimension].append({"value": value, "documents": documents})
    for dimension in ("publication", "language", "county"):
        groups[dimension].sort(key=lambda r: (-r["documents"], r["value"] or ""))
    for dimension in ("published", "harvested"):
        groups[dimension].sort(key=lambda r: (r["month"], r["language"] or ""))
    return {"documents": sum(r["documents"] for r in groups["language"]),
            "publications": groups["publication"], "languages": groups["language"], "counties": groups["county"],
            "published": groups["published"], "harvested": groups["harvested"], "undated": undated}


def profile_rows(found: dict) -> list[dict]:
    """A profile as one table (for export): dimension, value or month, language, documents."""
    rows = []
    for dimension, key in (("publication", "publications"), ("language", "languages"), ("county", "counties")):
        rows += [{"dimension": dimension, "value": r["value"], "language": None, "documents": r["documents"]}
                 for r in found[key]]
    for dimension in ("published", "harvested"):
        rows += [{"dimension": dimension, "value": r["month"], "language": r["language"],
                  "documents": r["documents"]} for r in found[dimension]]
    return rows
