"""Deduplication as the National Library does it, made independent of processing order.

A document is identified by sha1(normalised text) + host + URL path. Of several captures with the
same identity the earliest (harvest time, then WARC file and offset as tie-breakers) is the
document; the others are recorded as further captures of it. Empty texts are dropped. The same
text on another path or host is another document.
"""

from __future__ import annotations

import hashlib
import unicodedata
from typing import Iterable
from urllib.parse import urlsplit


def normalise(paragraphs: list[str]) -> str:
    """NFC, whitespace collapsed within paragraphs, one newline between them."""
    cleaned = (" ".join(unicodedata.normalize("NFC", p).split()) for p in paragraphs)
    return "\n".join(p for p in cleaned if p)


def text_sha1(paragraphs: list[str]) -> str:
    return hashlib.sha1(normalise(paragraphs).encode("utf-8")).hexdigest()


def host_and_path(url: str) -> tuple[str, str]:
    """The URL's host (:func:`normalise_host`) and path; ValueError where no host can be read from it
    ("http://[www.example.no/a": an unclosed IPv6 bracket)."""
    parts = urlsplit(url)
    return normalise_host(parts.hostname or ""), parts.path or "/"


MAX_HOST_CHARS = 253  # DNS's limit: a longer "host" is a crawler's garbage


def normalise_host(host: str) -> str:
    """A host as the corpus names it, wherever it comes from (a WARC's URL, a register, a person): lower
    case, no final dot, an internationalised domain name in its Unicode form. Crawlers write such a name
    in its ASCII form ("www.xn--hlogalandsavis-lib.no"), registers and people as it reads
    ("www.hålogalandsavis.no"): one host had two names, and the register's never met the WARC's, so its
    pages were held back; a name typed or pasted decomposed ("a" and a combining ring for "å") is composed
    (NFC), as IDNA composes it. A label that is no valid IDNA stays as it is."""
    host = (host or "").lower().rstrip(".")
    if not host.isascii():
        host = unicodedata.normalize("NFC", host)
    if "xn--" not in host:
        return host
    labels = []
    for label in host.split("."):
        if label.startswith("xn--"):
            try:
                label = label.encode("ascii").decode("idna")
            except UnicodeError:
                pass
        labels.append(label)
    return ".".join(labels)


def document_id(sha1: str, host: str, path: str) -> int:
    """A stable positive 63-bit id from the document's identity."""
    digest = hashlib.sha1(f"{sha1}\x00{host}\x00{path}".encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def capture_order(doc: dict) -> tuple:
    return (doc["harvest_time"] or "", doc["warc_file"], doc["record_offset"])


def earliest_captures(docs: Iterable[dict]) -> dict[int, tuple]:
    """For each document with text, the order key of its earliest capture among ``docs``."""
    earliest: dict[int, tuple] = {}
    for doc in docs:
        if doc["n_tokens"]:
            order = capture_order(doc)
            if doc["doc_id"] not in earliest or order < earliest[doc["doc_id"]]:
                earliest[doc["doc_id"]] = order
    return earliest


def capture_kind(doc: dict, earliest: dict[int, tuple]) -> str:
    """'empty', 'earliest' or 'later' for a document, given :func:`earliest_captures`."""
    if not doc["n_tokens"]:
        return "empty"
    return "earliest" if capture_order(doc) == earliest[doc["doc_id"]] else "later"


def deduplicate(docs: list[dict]) -> tuple[list[dict], list[dict], list[dict]]:
    """Split documents into (earliest capture per identity, later captures, empty texts)."""
    earliest = earliest_captures(docs)
    split: dict[str, list[dict]] = {"earliest": [], "later": [], "empty": []}
    for doc in docs:
        split[capture_kind(doc, earliest)].append(doc)
    return split["earliest"], split["later"], split["empty"]
