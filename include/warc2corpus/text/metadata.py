"""A page's title, author and publication date, read from its parsed tree.

They are read as trafilatura's ``extract_metadata`` reads them (its ``<meta>`` and JSON-LD readers,
then its title and author XPaths, then htmldate's ``find_date`` on the page's URL in
``original_date`` mode with trafilatura's default parameters), so the values are the ones
``bare_extraction(with_metadata=True)`` gives; but without what the corpus does not keep — site name,
categories, tags, licence — whose XPaths over the whole page cost about a fifth of trafilatura's time
on news pages. The functions come from trafilatura's ``metadata`` module, which is not its public
API: the version is pinned in requirements.txt, and ``tests/test_extract.py`` compares the two on
real pages.
"""

from __future__ import annotations

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
