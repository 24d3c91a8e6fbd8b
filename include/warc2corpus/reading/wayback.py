"""Wayback Machine captures: recognise them, restore the original page, and know their own pages.

What the Wayback Machine serves in its normal view is not the original page: it inserts its
scripts and toolbar (from the first archive script up to ``<!-- End Wayback Rewrite JS Include -->``,
and between ``BEGIN/END WAYBACK TOOLBAR INSERT``), appends a ``FILE ARCHIVED ON`` comment and a
playback-timings comment, and rewrites every link to ``http://web.archive.org/web/<timestamp><mod>/<url>``
or ``/web/<timestamp><mod>/<url>``. Restoring removes the inserts and un-rewrites the links; the
markup is not byte-identical to the original (the rewriter also normalises it), but the text is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timezone

_WAYBACK_URL = re.compile(
    r"^(?:https?://(?:web\.)?archive\.org)?/web/(?P<timestamp>\d{14})(?P<modifier>[a-z]{2}_)?/(?P<original>.+)$",
    re.IGNORECASE,
)
_REWRITTEN_LINK = re.compile(
    r"(?:(?:https?:)?//(?:web\.)?archive\.org)?/web/\d{14}(?:[a-z]{2}_)?/(?=[a-z][a-z0-9+.-]*:|//|[a-z0-9.-]+\.[a-z]{2,})",
    re.IGNORECASE,
)
_HEAD_INSERT = re.compile(
    r"<script[^>]*(?:archive\.org|/_static/|__wm|wombat)[^>]*>.*?<!--\s*End Wayback Rewrite JS Include\s*-->\s*",
    re.IGNORECASE | re.DOTALL,
)
_TOOLBAR = re.compile(r"<!--\s*BEGIN WAYBACK TOOLBAR INSERT\s*-->.*?<!--\s*END WAYBACK TOOLBAR INSERT\s*-->",
                      re.IGNORECASE | re.DOTALL)
_ARCHIVED_COMMENT = re.compile(r"<!--\s*FILE ARCHIVED ON.*?-->", re.IGNORECASE | re.DOTALL)
_TIMINGS_COMMENT = re.compile(r"<!--\s*playback timings.*?-->", re.IGNORECASE | re.DOTALL)
_INTERSTITIAL = re.compile(r"Got an HTTP 3\d\d response at crawl time", re.IGNORECASE)
_NOT_ARCHIVED = re.compile(
    r"The Wayback Machine has not archived that URL|Hrm\.\s*</?\w*[^>]*>?\s*The Wayback Machine"
    r"|This page is not available on the web|Wayback Machine doesn't have that page archived",
    re.IGNORECASE,
)
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_NOT_FOUND_TITLE = re.compile(r"\b404\b|not found|ikke funnet|finnes ikke", re.IGNORECASE)


@dataclass(frozen=True)
class WaybackUrl:
    timestamp: str
    modifier: str          # "" for the rewritten view, "id_" for the original bytes, ...
    original_url: str

    @property
    def capture_time(self) -> datetime:
        return datetime.strptime(self.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)


def parse_url(url: str | None) -> WaybackUrl | None:
    """The parts of a Wayback Machine URL, or None for any other URL."""
    if not url:
        return None
    match = _WAYBACK_URL.match(url.strip())
    if not match:
        return None
    original = match.group("original")
    original = re.sub(r"^(https?):/+", r"\1://", original)  # "http:/example.no" as some clients collapse it
    if not re.match(r"^[a-z][a-z0-9+.-]*://", original, re.IGNORECASE):
        original = "http://" + original
    try:
        datetime.strptime(match.group("timestamp"), "%Y%m%d%H%M%S")
    except ValueError:
        return None
    return WaybackUrl(match.group("timestamp"), (match.group("modifier") or "").lower(), original)


MARKERS = ("End Wayback Rewrite JS Include", "BEGIN WAYBACK TOOLBAR INSERT", "FILE ARCHIVED ON")
INTERSTITIAL_MARKER = "response at crawl time"


def has_markers(html: str) -> bool:
    """Does the page carry what the Wayback Machine inserts into its rewritten view? (Plain
    substring tests: this runs on every page, and Wayback writes the markers exactly so.)"""
    return any(marker in html for marker in MARKERS)


def page_kind(html: str, http_status: int | None = None) -> str:
    """'page', 'redirect' (Wayback's crawl-time redirect interstitial) or 'not_found'
    (Wayback's own not-archived page, or an archived error page)."""
    if _INTERSTITIAL.search(html):
        return "redirect"
    if http_status == 404 or _NOT_ARCHIVED.search(html):
        return "not_found"
    title = _TITLE.search(html)
    if title and _NOT_FOUND_TITLE.search(title.group(1)) and has_markers(html):
        return "not_found"
    return "page"


def restore(html: str) -> str:
    """The rewritten view without Wayback's inserts and with the original links."""
    html = _HEAD_INSERT.sub("", html, count=1)
    html = _TOOLBAR.sub("", html)
    html = _ARCHIVED_COMMENT.sub("", html)
    html = _TIMINGS_COMMENT.sub("", html)
    return _REWRITTEN_LINK.sub("", html)


@dataclass(frozen=True)
class Page:
    """A page as the corpus should see it: restored when it came through the Wayback Machine."""

    html: str
    url: str | None
    kind: str                       # 'page', 'redirect' or 'not_found'
    capture: WaybackUrl | None      # set when the URL was a Wayback URL


def unwrap(html: str, url: str | None, http_status: int | None = None) -> Page:
    """Restore a Wayback capture (by its URL or its inserted markers) and name the original URL;
    any other page comes back as it is."""
    capture = parse_url(url)
    if capture is None and not has_markers(html) and INTERSTITIAL_MARKER not in html:
        return Page(html, url, "page", None)
    kind = page_kind(html, http_status)
    restored = restore(html) if kind == "page" else html
    return Page(restored, capture.original_url if capture else url, kind, capture)
