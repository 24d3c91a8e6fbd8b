"""The records the stages hand on, and the status values: one definition each.

A record's fields, in order, are its staged JSON keys (``store.staging``) and the columns ``store.load``
copies into its table, so neither restates them. Slotted dataclasses, not msgspec Structs:
``bench/records.py`` measured both on documents of 12 paragraphs (2026-12-03, a loaded 2-core machine;
µs a document, build / to JSON / from JSON): dict 2.9 / 92 / 102, dataclass 6.5 / 68 / 66, msgspec
1.1 / 5.7 / 36. Building the record costs microseconds where a page costs tens of milliseconds, so the
record type does not matter; msgspec's JSON does, where staged records are decoded again: so the
staging's codec is msgspec's JSON (``store.staging``) and the records stay dataclasses, staged as the
dicts they were. A staged document is decoded by the load alone: the filter and deduplication read
its :class:`Head`.

Status values are ``StrEnum`` members: they are strings, so XCom's JSON, the staged files and the
database see the same text ("loaded", not "FileStatus.LOADED").
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, NamedTuple


class FileStatus(StrEnum):
    """A WARC file's status: in the ledger (``warc_files.status``) and in the manifests of its run."""

    DISCOVERED = "discovered"    # in the ledger, not processed yet
    EXTRACTED = "extracted"      # read and staged; filter, deduplicate and load follow
    LOADED = "loaded"
    PARTIAL = "partial"          # loaded up to a fault in the file, recorded for good
    RETRY = "retry"              # a passing fault: taken again when its next attempt comes
    QUARANTINED = "quarantined"  # nothing readable
    SKIPPED = "skipped"          # `warc2corpus run`: a path that could not be taken (never in the ledger)


class HostStatus(StrEnum):
    """A host's status in force (view ``host_status``): what the allow-list says of its documents."""

    ACCEPTED = "accepted"
    NOT_NEWS = "declares_editor_not_news"  # declares an editor, but may not be edited news: a person decides
    UNCERTAIN = "uncertain"
    REJECTED = "rejected"
    UNASSESSED = "unassessed"


# Statuses that keep a host's documents out of the corpus until the status changes (a host unassessed is
# often accepted by the run that first assesses it): their pages are not extracted (``stages.pages``).
HELD_BACK_STATUSES = (HostStatus.REJECTED, HostStatus.UNCERTAIN, HostStatus.NOT_NEWS)


class Stage(StrEnum):
    """Where a record was turned away (``rejections.stage``)."""

    READ = "read"
    EXTRACT = "extract"
    FILTER = "filter"
    DEDUPLICATE = "dedup"  # the value stored since the first migration


class Paragraph(NamedTuple):
    """A paragraph of a document; staged as a JSON list in this order."""

    text: str
    tokens: list[str]
    token_starts: list[int]
    language: str


class _Record:
    """Field order as the one definition of a record's keys and columns."""

    __slots__ = ()

    @classmethod
    def keys(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))

    def to_dict(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.keys()}


@dataclass(slots=True)
class Rejection(_Record):
    """A record that did not become a document: its back-pointer, host, stage and reason."""

    warc_file: str
    record_offset: int | None
    record_id: str | None
    url: str | None
    host: str | None
    harvest_time: str | None
    stage: str
    reason: str


@dataclass(slots=True)
class Provenance(_Record):
    """Where a capture is: the back-pointer every document, capture and revisit starts with
    (``reading.warcs.Record.provenance``)."""

    warc_file: str
    record_offset: int
    record_length: int
    record_id: str
    url: str
    harvest_time: str


@dataclass(slots=True)
class Capture(Provenance):
    """A capture of a document that is not the document's own (a later one, deduplicated)."""

    doc_id: int
    record_url: str | None
    payload_digest: str | None
    digest_ok: bool | None
    truncated: str | None  # WARC-Truncated: the crawler cut the body (length, time ...); None: whole


@dataclass(slots=True)
class Head(Capture):
    """A staged document's capture, host and size, and its line in its file's staged documents: what
    the filter and deduplication decide by, staged beside the documents by extract, so that neither
    reads or writes a document (the load reads the lines the heads left in)."""

    host: str
    n_tokens: int
    line: int


@dataclass(slots=True)
class Revisit(Provenance):
    """A revisit record, resolved to the document of its original at load."""

    refers_to: str | None
    refers_to_url: str | None
    payload_digest: str | None
    profile: str | None
    refers_to_date: str | None  # WARC-Refers-To-Date: the original's WARC-Date


@dataclass(slots=True)
class Document(Provenance):
    """One extracted page: provenance, metadata, quality, paragraphs with tokens (the staged document)."""

    crawl_job: str
    doc_id: int
    text_sha1: str
    host: str
    url_path: str
    title: str | None
    author: str | None
    published: str | None
    language: str
    n_paragraphs: int
    n_tokens: int
    paragraphs: list[Paragraph]
    page_type: str | None
    mixed_language: bool
    language_shares: str  # JSON
    dropped: str          # JSON
    text_source: str | None
    rejected: str | None  # every paragraph dropped: the reason most went for (the page is rejected)
    record_url: str | None = None   # the Wayback URL of a restored capture
    payload_digest: str | None = None
    digest_ok: bool | None = None
    truncated: str | None = None    # WARC-Truncated of its capture: the text may end early


# The columns of `documents` a staged document fills (its paragraphs go to `paragraphs`).
DOCUMENT_COLUMNS = tuple(k for k in Document.keys() if k not in ("paragraphs", "rejected"))
