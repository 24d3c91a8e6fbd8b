"""What a URL is to autoCat: a front page, an "om oss"/"kontakt" page or an article; hosts it ignores.
"""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

from warc2corpus.autocat.vocabulary import ABOUT_SEGMENTS, SKIPPED_HOST_LABELS
from warc2corpus.text import dedup


# Supporting pages: how many of a host's non-front pages each WARC file contributes (see stages.pages.ScoreAutocat).
SUPPORTING_PAGES_PER_HOST = {"about": 5, "article": 3}


def is_front_page(url: str | None) -> bool:
    return bool(url) and urlsplit(url).path in ("", "/")


def page_kind(url: str | None) -> str:
    """'front' (path empty or /), 'about' (om oss, kontakt, redaksjonen …) or 'article' (anything else)."""
    if is_front_page(url):
        return "front"
    try:
        path = urlsplit(url or "").path
    except ValueError:
        return "article"
    segments = [s for s in unquote(path).lower().split("/") if s]
    if segments:
        last = re.sub(r"\.(?:html?|php|aspx?|jsp)$", "", segments[-1])
        if len(segments) <= 3 and ABOUT_SEGMENTS.fullmatch(last):
            return "about"
    return "article"


def host_is_skipped(host: str) -> bool:
    return host.split(".", 1)[0] in SKIPPED_HOST_LABELS


def host_domain(host: str) -> str:
    """The publication domain of a host (named as :func:`dedup.normalise_host` names it): www., m., mobil.
    and amp. in front are not part of it."""
    host = dedup.normalise_host(host)
    return re.sub(r"^(?:www\d?|m|mobil|mobile|amp)\.(?=[^.]+\.[^.]+)", "", host)
