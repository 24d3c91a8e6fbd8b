"""What kind of page a capture is: ``article``, ``live_blog``, ``gallery``, ``video``,
``front_or_section`` (a front page or a section's index) or ``other`` (tag and author listings, search
results, error pages, anything else).

The evidence, strongest first: the URL (the site root is a front page; tag, search and author paths are
listings), an error title, the page's own declaration (``og:type``, a schema.org ``*Article`` /
``BlogPosting`` type, ``article:published_time``), then the shape of the page: running text with few
links is an article, many headline links with little running text an index.

Live blogs, picture galleries and video pages are news too, but not articles: a live blog is a stream
of dated updates (declared ``LiveBlogPosting``, or a ``/live/``, ``/direkte/`` path); a gallery or a
video page is pictures or a player with a caption (declared ``ImageGallery``/``MediaGallery``,
``VideoObject`` or ``og:type`` ``video.*``, or a gallery/video path) and little running text (under
``MEDIA_WORDS`` words) — an article that embeds a gallery or a video stays an article.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

ARTICLE, LIVE_BLOG, GALLERY, VIDEO = "article", "live_blog", "gallery", "video"
FRONT_OR_SECTION, OTHER = "front_or_section", "other"
PAGE_TYPES = (ARTICLE, LIVE_BLOG, GALLERY, VIDEO, FRONT_OR_SECTION, OTHER)
MEDIA_WORDS = 300  # a gallery or video page has less running text than this

_LISTING_PATH = re.compile(
    r"/(tag|tags|tema|emne|emner|stikkord|search|sok|søk|sok\.html|author|authors|forfatter|journalist|"
    r"kategori|category|categories|arkiv|archive|page|side|topic|topics)(/|$|\?)",
    re.IGNORECASE)
_ERROR_TITLE = re.compile(
    r"\b(404|not found|page not found|finner ikke|fann ikkje|siden (finnes|eksisterer) ikke|"
    r"sida finst ikkje|feilside|error)\b", re.IGNORECASE)
_ARTICLE_TYPES = re.compile(r"(News|Reportage|Analysis|Opinion|Review|Scholarly|Tech|Satirical)?Article$|"
                            r"^BlogPosting$|^Report$", re.IGNORECASE)
_LIVE_PATH = re.compile(r"/(live|direkte|liveblogg|liveblog|live-blog|diretta|ticker)(/|$)|/direkte-", re.IGNORECASE)
_GALLERY_PATH = re.compile(r"/(galleri|gallery|galleries|bildeserie|bilder|fotoserie|fotos|photos)(/|$)", re.IGNORECASE)
_VIDEO_PATH = re.compile(r"/(video|videos|videoer|tv|player|clip|klipp)(/|$)", re.IGNORECASE)
_JSON_TYPE = re.compile(r'"@type"\s*:\s*(\[[^\]]*\]|"[^"]*")')
_DATE_IN_PATH = re.compile(r"/(19|20)\d\d[/-]\d\d?([/-]\d\d?)?/|/(19|20)\d\d\d\d\d\d/")
_ID_IN_PATH = re.compile(r"/[^/]*\d{4,}[^/]*/?$|/[a-z0-9]+(-[a-z0-9]+){3,}(\.html?)?/?$", re.IGNORECASE)


def declared_types(tree) -> set[str]:
    """schema.org @type values of the page's JSON-LD (top level and @graph) and its og:type."""
    types: set[str] = set()
    for script in tree.iterfind(".//script[@type='application/ld+json']"):
        text = script.text or ""
        for match in _JSON_TYPE.finditer(text[:200_000]):
            try:
                value = json.loads(match.group(1))
            except ValueError:
                continue
            types.update(v for v in (value if isinstance(value, list) else [value]) if isinstance(v, str))
    for meta in tree.iterfind(".//meta[@property='og:type']"):
        if meta.get("content"):
            types.add("og:" + meta.get("content").strip().lower())
    if tree.find(".//meta[@property='article:published_time']") is not None:
        types.add("article:published_time")
    return types


def _is_front_path(path: str) -> bool:
    return path in ("", "/") or bool(re.fullmatch(r"/(index|forside|default)\.(html?|php|aspx?)", path, re.IGNORECASE))


def is_listing(url: str | None) -> bool:
    """Does the URL alone say the page is a front page or a listing (tags, search, an author's page)?"""
    path = urlsplit(url or "").path or "/"
    return bool(url) and (_is_front_path(path) or bool(_LISTING_PATH.search(path)))


def of_page(tree, url: str | None, title: str | None, n_words: int, link_words: int,
             headline_links: int) -> str:
    """The page type from the parsed page, its URL and title, and the shape of its text.

    ``n_words``: words of the extracted main text; ``link_words``: words inside links on the whole
    page; ``headline_links``: links whose text reads like a headline (four words or more).
    """
    path = urlsplit(url or "").path or "/"
    if _is_front_path(path):
        return FRONT_OR_SECTION
    if title and _ERROR_TITLE.search(title) and n_words < 150:
        return OTHER
    declared = declared_types(tree) if tree is not None else set()
    article_typed = "og:article" in declared or any(_ARTICLE_TYPES.search(t) for t in declared)
    article_declared = article_typed or "article:published_time" in declared
    if "LiveBlogPosting" in declared or _LIVE_PATH.search(path):
        return LIVE_BLOG
    if n_words < MEDIA_WORDS and not article_typed:
        if declared & {"ImageGallery", "MediaGallery"} or _GALLERY_PATH.search(path):
            return GALLERY
        if "VideoObject" in declared or any(t.startswith("og:video") for t in declared) or _VIDEO_PATH.search(path):
            return VIDEO
    if article_declared and n_words >= 150:
        return ARTICLE
    if _LISTING_PATH.search(path):
        return OTHER
    index_declared = any(t in ("CollectionPage", "WebSite", "ItemList", "SearchResultsPage", "og:website")
                         for t in declared)
    if article_declared and n_words >= 40:
        return ARTICLE
    looks_like_article_url = bool(_DATE_IN_PATH.search(path) or _ID_IN_PATH.search(path))
    if n_words >= 150 and (looks_like_article_url or n_words >= 2 * max(link_words, 1) / 3):
        return ARTICLE
    if headline_links >= 15 and n_words < 400:
        depth = len([part for part in path.split("/") if part])
        return FRONT_OR_SECTION if depth <= 2 or index_declared else OTHER
    if looks_like_article_url and n_words >= 60:
        return ARTICLE
    return OTHER
