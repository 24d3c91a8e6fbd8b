"""A page's title, author and publication date, read from its parsed tree.

They are read as trafilatura's ``extract_metadata`` reads them (its ``<meta>`` and JSON-LD readers,
then its title and author XPaths, then htmldate's ``find_date`` on the page's URL in
``original_date`` mode with trafilatura's default parameters), so the values are the ones
``bare_extraction(with_metadata=True)`` gives; but without what the corpus does not keep — site name,
categories, tags, licence — whose XPaths over the whole page cost about a fifth of trafilatura's time
on news pages. The functions come from trafilatura's ``metadata`` module, which is not its public
API: the version is pinned in requirements.txt, and ``tests/test_extract.py`` compares the two on
real pages.

One of trafilatura's readers is replaced for the call (:func:`json_authors`): it reads the same authors
without searching a long text from its start again for each.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Metadata:
    title: str | None = None
    author: str | None = None
    published: str | None = None  # YYYY-MM-DD


def of_page(tree, url: str | None) -> Metadata:
    """The page's title, author and publication date (``tree`` is left as it was)."""
    from htmldate import find_date
    from trafilatura import metadata as traf
    from trafilatura.settings import set_date_params

    found = traf.examine_meta(tree)
    if found.author and " " not in found.author:
        found.author = None
    try:
        with _json_authors_replaced():
            found = traf.extract_meta_json(tree, found)
    except Exception:  # as trafilatura does: a fault in its JSON-LD reader leaves the <meta> values
        pass
    if not found.title:
        found.title = traf.extract_title(tree)
    if not found.author:
        found.author = traf.extract_author(tree)
    if not found.url:
        found.url = traf.extract_url(tree, url)
    found.date = find_date(tree, **{**set_date_params(True), "url": found.url})
    found.clean_and_trim()
    return Metadata(found.title or None, found.author or None, found.date or None)


def json_authors(text: str, pattern) -> str | None:
    """trafilatura's ``extract_json_author``: the authors a regular expression finds in JSON-LD that
    trafilatura could not parse (its unescaping breaks a text holding an escaped quote), without
    searching the whole text again for each one.

    trafilatura takes the first match, removes it from the text (a substitution searching from the
    text's start) and searches again from the start: on a live blog's JSON-LD of 840 KB with 1,720
    author entries, 1.2 s for the page's JSON-LD. Here the match is cut out of the text and the search
    resumes where the next match can start (0.46 s, most of it copying the text at each cut). A match
    that begins before the one removed, and was not there before, must run across the cut; what it
    reads before the cut is the pattern's opening (``"author"`` or ``"Person"`` and what follows up to
    ``"name"``: had it got further, the removed match's own text would have completed it), and that
    opening never holds a ``}`` (nor, in the first pattern, a ``[``). So the search resumes after the
    last of these before the cut: the same matches in the same order, the same authors."""
    from trafilatura.json_metadata import normalize_authors

    stops = _OPENING_STOPS[pattern]
    authors = None
    match = pattern.search(text)
    while match:
        name = next(filter(None, match.groups()), None)
        if not name or " " not in name:
            break
        authors = normalize_authors(authors, name)
        start = match.start()
        text = text[:start] + text[match.end():]
        match = pattern.search(text, max(text.rfind(stop, 0, start) for stop in stops) + 1)
    return authors or None


# What the opening of each of trafilatura's author patterns cannot hold (see json_authors).
_OPENING_STOPS: dict = {}


@contextmanager
def _json_authors_replaced():
    """trafilatura's JSON-LD author reader replaced by :func:`json_authors` for the call."""
    from trafilatura import json_metadata

    if not _OPENING_STOPS:
        _OPENING_STOPS.update({json_metadata.JSON_AUTHOR_1: "}[", json_metadata.JSON_AUTHOR_2: "}"})
    saved = json_metadata.extract_json_author
    json_metadata.extract_json_author = json_authors
    try:
        yield
    finally:
        json_metadata.extract_json_author = saved
