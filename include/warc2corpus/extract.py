"""Turning a page's HTML into a clean document: text as paragraphs, title, author, publication date.

trafilatura does the extraction; with metadata it runs htmldate itself, so its date *is* the
htmldate publication date and no second date pass over the same page is made.
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass, field

log = logging.getLogger(__name__)

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)


@dataclass
class Extracted:
    title: str | None = None
    author: str | None = None
    published: str | None = None  # YYYY-MM-DD
    paragraphs: list[str] = field(default_factory=list)


def _codec(name: str | None) -> str | None:
    if not name:
        return None
    try:
        return codecs.lookup(name.strip().strip("\"'")).name
    except LookupError:
        return None


def decode_html(body: bytes, content_type: str | None = None) -> str:
    """Decode a page: the HTTP header's charset, else the page's meta charset, else UTF-8, else cp1252."""
    declared = None
    if content_type:
        match = _HEADER_CHARSET.search(content_type)
        declared = _codec(match.group(1)) if match else None
    if declared is None:
        match = _META_CHARSET.search(body[:4096])
        declared = _codec(match.group(1).decode("ascii", "replace")) if match else None
    for encoding in filter(None, (declared, "utf-8")):
        try:
            return body.decode(encoding)
        except UnicodeDecodeError:
            continue
    return body.decode("cp1252", errors="replace")


def split_paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    return [" ".join(line.split()) for line in text.split("\n") if line.strip()]


def extract(html: str, url: str | None = None) -> Extracted:
    """The main text and metadata of a page; an empty result when the page has no main text."""
    import trafilatura

    document = trafilatura.bare_extraction(
        html, url=url, with_metadata=True, include_comments=False, include_images=False
    )
    if document is None:
        return Extracted()
    return Extracted(
        title=document.title or None,
        author=document.author or None,
        published=document.date or None,
        paragraphs=split_paragraphs(document.text),
    )
