"""A page's title, author and publication date, read from its parsed tree.

They are read as trafilatura's ``extract_metadata`` reads them (its ``<meta>`` and JSON-LD readers,
then its title and author XPaths, then htmldate's ``find_date`` on the page's URL in
``original_date`` mode with trafilatura's default parameters), so the values are the ones
``bare_extraction(with_metadata=True)`` gives; but without what the corpus does not keep — site name,
categories, tags, licence — whose XPaths over the whole page cost about a fifth of trafilatura's time
on news pages. The functions come from trafilatura's ``metadata`` module, which is not its public
API: the version is pinned in requirements.txt, and ``tests/test_extract.py`` compares the two on
real pages.

Two of trafilatura's readers are replaced by exact faster ones: its JSON-LD author reader for the call
(:func:`json_authors`), which reads the same authors searching the text once, not once per author; and
its byline reader (:func:`author_of`), which reads the page as it is instead of a pruned copy of it.
htmldate's last resort, dateparser, is given the languages of :func:`date_languages` rather than all
of its 205 (:func:`date_parser`).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

from warc2corpus.text import xpaths


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
        found.author = author_of(tree)
    if not found.url:
        found.url = traf.extract_url(tree, url)
    with _date_parser_replaced():
        found.date = find_date(tree, **{**set_date_params(True), "url": found.url})
    found.clean_and_trim()
    return Metadata(found.title or None, found.author or None, found.date or None)


def author_of(tree) -> str | None:
    """trafilatura's ``extract_author``: the text (3 to 119 characters) of the first element its author
    XPaths find on a copy of the page pruned of comments, dates and figures (its discard XPaths).

    Those five XPaths test each element's name and attributes, four of them with EXSLT regular
    expressions that lxml calls back into Python for every element: 1.5-1.8 ms each on a news page.
    Here one walk over the elements tests them all (:func:`xpaths.author_walk`) and the page is not
    copied: an element is found on the pruned copy if and only if it is found here outside every
    removed element, and its text is read as the pruning leaves it (:func:`_text_outside`). Should
    trafilatura's version hold other XPaths than the walk was written for, or the page a ``<rel>``
    element (the one test of a child's text), the page is read trafilatura's way."""
    from trafilatura.metadata import extract_author, normalize_authors
    from trafilatura.utils import trim

    walked = xpaths.author_walk(tree) if xpaths.author_xpaths_unchanged() else None
    if walked is None:
        return extract_author(tree)
    found, removed = walked
    holding = None  # the elements that hold a removed one
    for candidates in found:
        for element in candidates:
            if element in removed or any(a in removed for a in element.iterancestors()):
                continue
            if holding is None:
                holding = {a for r in removed for a in r.iterancestors()}
            text = trim(" ".join(_text_outside(element, removed) if element in holding else element.itertext()))
            if text and 2 < len(text) < 120:
                return normalize_authors(None, text)
    return None


def _text_outside(element, removed: set) -> list[str]:
    """``element.itertext()`` as it reads once the ``removed`` elements below it are deleted as
    trafilatura deletes them (``delete_element``): each one's tail joined to the text before it (its
    previous sibling's tail, or its parent's text), not read as a text of its own. Pieces are joined
    with a space and spaces collapsed by the caller, so only where one piece ends and the next begins
    matters (empty pieces do not). Depth first with a stack of its own (a tree built in code may
    nest deeper than Python's recursion)."""
    from lxml import etree

    pieces: list[str] = []
    # Per open element: its remaining children, and the text read since its last piece ended.
    stack = [(iter(element), [element.text or ""])]
    while stack:
        children, before = stack[-1]
        child = next(children, None)
        if child is None:
            pieces.append(before[0])
            stack.pop()
            continue
        if child in removed:
            before[0] += child.tail or ""
            continue
        pieces.append(before[0])
        before[0] = child.tail or ""    # read once the child's own pieces are
        if isinstance(child.tag, str):
            stack.append((iter(child), [child.text or ""]))
        elif child.tag is etree.Entity:     # an entity reads as its text; comments and processing
            pieces.append(child.text or "")  # instructions only as their tails
    return pieces


def json_authors(text: str, pattern) -> str | None:
    """trafilatura's ``extract_json_author`` (``pattern``: its ``JSON_AUTHOR_1`` or ``JSON_AUTHOR_2``):
    the authors a regular expression finds in JSON-LD that trafilatura could not parse (its unescaping
    breaks a text holding an escaped quote), with the text searched once.

    trafilatura takes the first match, removes it from the text and searches the new text from its
    start, so its time grows with the square of the text: a live blog's JSON-LD of 840 KB with 1,720
    author entries took 1.1 s, made-up entries of 2 MB 3.9 s, four times that for each doubling (here
    8 MB take 0.14 s). Each search here starts where the last match ended, and the text is left as
    it is, unless a match could begin before the cut. Such a match must run across the cut; what it
    reads before the cut is the pattern's opening (``"author"`` or ``"Person"`` and what follows up
    to ``"name"``: had it got further, the removed match's own text would have completed it), which
    never holds a ``}`` (nor, in the first pattern, a ``[``) and begins with that word. So only when
    the word begins in the text kept since the last such character before the cut is the text joined
    at the cut and searched from there: the same matches in the same order, the same authors. (A
    match ends before a quote, a backslash or the text's end, so a word can straddle a cut only as
    ``"author`` + ``"``; the look-ahead past the cut and the kept ``tail`` are a margin.)

    Many distinct authors still cost what they cost trafilatura: ``normalize_authors`` compares each
    new name with all before it: 500 names 2 s, 1,000 about 15 s."""
    from trafilatura.json_metadata import normalize_authors

    stops, opening = _openings()[pattern]
    authors = None
    resume = 0     # where the text kept since the last cut begins
    tail = ""      # the end of the text kept before it since its last stop (no opening begins in it)
    match = pattern.search(text)
    while match:
        name = next(filter(None, match.groups()), None)
        if not name or " " not in name:
            break
        authors = normalize_authors(authors, name)
        start, end = match.span()
        kept = text[resume:start]
        stop = max(kept.rfind(character) for character in stops)
        since_stop = kept[stop + 1:] if stop >= 0 else tail + kept
        early = opening.search(since_stop + text[end:end + _OPENING_CHARS - 1])
        if early is not None and early.start() < len(since_stop):
            text, resume, tail = since_stop + text[end:], 0, ""
            match = pattern.search(text)
        else:
            resume, tail = end, since_stop[-(_OPENING_CHARS - 1):]
            match = pattern.search(text, end)
    return authors or None


_OPENING_CHARS = 8  # the length of both words a match begins with


@lru_cache(maxsize=1)
def _openings() -> dict:
    """Per author pattern of trafilatura's: what its opening cannot hold, and the word it begins with
    (see :func:`json_authors`)."""
    import re

    from trafilatura.json_metadata import JSON_AUTHOR_1, JSON_AUTHOR_2

    return {JSON_AUTHOR_1: ("}[", re.compile('"author"')), JSON_AUTHOR_2: ("}", re.compile('"[Pp]erson"'))}


# dateparser's 40 most used languages (its own order, which it tries them in) and the Nordic ones.
DATE_LANGUAGE_COUNT = 40
NORDIC_LANGUAGES = ("nb", "nn", "da", "sv", "se", "fi", "is", "fo")


def date_languages() -> list[str]:
    from dateparser.data.languages_info import language_order

    return list(dict.fromkeys([*language_order[:DATE_LANGUAGE_COUNT], *NORDIC_LANGUAGES]))


@lru_cache(maxsize=1)
def date_parser():
    """htmldate's dateparser (its ``get_external_parser``, the same settings) with the languages of
    :func:`date_languages` only. dateparser tries its languages in one fixed order and takes the first
    that reads the string, so a string that one of these languages reads gets the same date; but a
    string that none reads (most that reach it: 91 of the 108 on the dev and shared pages) was tried
    in every locale of all 205 languages, each compiling its patterns at first use: 1.1 s once per
    process and about 10 ms a string after. The 108 strings get the same dates, in 0.29 s instead of 2.2."""
    from dateparser import DateDataParser

    return DateDataParser(languages=date_languages(), settings=DATE_PARSER_SETTINGS)


# htmldate's (extractors.get_external_parser), restated: tests/test_extract.py compares the two.
DATE_PARSER_SETTINGS = {
    "NORMALIZE": True,
    "PARSERS": ["custom-formats", "absolute-time"],
    "PREFER_DATES_FROM": "past",
    "PREFER_LOCALE_DATE_ORDER": True,
    "RETURN_AS_TIMEZONE_AWARE": False,
    "STRICT_PARSING": True,
}


@contextmanager
def _date_parser_replaced():
    """htmldate's dateparser replaced by :func:`date_parser` for the call. htmldate keeps its answers
    per string (``try_date_expr``'s cache): emptied before and after, so that neither parser's answers
    are ever taken for the other's (the eval runs htmldate alone on the same pages). The cache is worth
    nothing across pages: 2.60-2.63 s with it emptied for every page, 2.65-2.67 s kept, on 900 dev pages."""
    from htmldate import extractors

    saved = extractors.get_external_parser
    extractors.try_date_expr.cache_clear()
    try:
        extractors.get_external_parser = date_parser
        yield
    finally:
        extractors.get_external_parser = saved
        extractors.try_date_expr.cache_clear()


@contextmanager
def _json_authors_replaced():
    """trafilatura's JSON-LD author reader replaced by :func:`json_authors` for the call."""
    from trafilatura import json_metadata

    saved = json_metadata.extract_json_author
    try:
        json_metadata.extract_json_author = json_authors
        yield
    finally:
        json_metadata.extract_json_author = saved
