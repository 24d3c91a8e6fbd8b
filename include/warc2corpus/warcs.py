"""Reading WARC (and ARC) files: which records are candidate documents, with full provenance.

Every record the reader meets is reported, either as an HTML capture to extract or as a skip with
its reason, so a file's counts always add up to the records read.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Iterator

from warcio.archiveiterator import ArchiveIterator

HTML_TYPES = ("text/html", "application/xhtml+xml")

# IIPC / Heritrix names: PREFIX-YYYYMMDDhhmmss[mmm]-SERIAL-... (the timestamp is the file's start)
_NAME_TIMESTAMP = re.compile(r"(?:^|[-_])(\d{14})(?:\d{1,3})?(?=[-_.])")


class WarcReadError(RuntimeError):
    """A WARC file cannot be read on from some point; ``offset`` is where the last good record ended."""

    def __init__(self, path: str, offset: int, cause: Exception):
        super().__init__(f"{path}: unreadable after byte {offset}: {type(cause).__name__}: {cause}")
        self.offset = offset
        self.cause = cause


@dataclass
class Record:
    """One WARC record as the pipeline sees it. ``body`` is set only for candidate HTML captures."""

    warc_file: str
    offset: int
    length: int
    record_type: str
    record_id: str | None
    url: str | None
    harvest_time: str | None  # WARC-Date, ISO 8601 UTC
    http_status: int | None = None
    content_type: str | None = None
    body: bytes | None = None
    skip_reason: str | None = None
    headers: dict = field(default_factory=dict)

    def provenance(self) -> dict:
        return {
            "warc_file": self.warc_file,
            "record_offset": self.offset,
            "record_length": self.length,
            "record_id": self.record_id,
            "url": self.url,
            "harvest_time": self.harvest_time,
        }


def capture_time_from_name(path: str | Path) -> datetime | None:
    """The start timestamp in an IIPC/Heritrix-style file name, or None."""
    for match in _NAME_TIMESTAMP.finditer(Path(path).name):
        try:
            return datetime.strptime(match.group(1), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


def parse_warc_date(value: str | None) -> datetime | None:
    if not value:
        return None
    text = value.strip()
    if re.fullmatch(r"\d{14}", text):  # ARC dates
        return datetime.strptime(text, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def first_record_date(path: str | Path) -> datetime | None:
    """The WARC-Date of the first record that has one (reads only the start of the file)."""
    with open(path, "rb") as stream:
        for record in ArchiveIterator(stream, arc2warc=True):
            date = parse_warc_date(record.rec_headers.get_header("WARC-Date"))
            if date:
                return date
    return None


def file_capture_start(path: str | Path) -> datetime | None:
    return capture_time_from_name(path) or first_record_date(path)


def _is_html(content_type: str | None) -> bool:
    return bool(content_type) and content_type.split(";")[0].strip().lower() in HTML_TYPES


def read_records(path: str | Path) -> Iterator[Record]:
    """Yield every record of a WARC/ARC file; HTML responses with status 200 carry their body.

    The HTTP transfer and content encodings are undone by warcio; the body is still bytes.
    Raises :class:`WarcReadError` when the file cannot be read on.
    """
    warc_file = str(path)
    good_until = 0
    with open(path, "rb") as stream:
        try:
            for item in _records(warc_file, ArchiveIterator(stream, arc2warc=True)):
                good_until = item.offset + item.length
                yield item
        except Exception as exc:
            raise WarcReadError(warc_file, good_until, exc) from exc


def _records(warc_file: str, iterator: ArchiveIterator) -> Iterator[Record]:
    for record in iterator:
        headers = record.rec_headers
        item = Record(
            warc_file=warc_file,
            offset=0,  # known once the record has been read (warcio reads to its end for it)
            length=0,
            record_type=record.rec_type,
            record_id=headers.get_header("WARC-Record-ID"),
            url=headers.get_header("WARC-Target-URI"),
            harvest_time=_iso(parse_warc_date(headers.get_header("WARC-Date"))),
        )
        if record.rec_type == "response" and record.http_headers is not None:
            try:
                item.http_status = int(record.http_headers.get_statuscode())
            except (TypeError, ValueError):
                item.http_status = None
            item.content_type = record.http_headers.get_header("Content-Type")
            item.headers = dict(record.http_headers.headers)
            if item.http_status != 200:
                item.skip_reason = "http_status"
            elif not _is_html(item.content_type):
                item.skip_reason = "not_html"
            elif item.harvest_time is None:
                item.skip_reason = "no_warc_date"  # a document's harvest time is never guessed
            else:
                item.body = record.content_stream().read()
        elif record.rec_type == "revisit":
            item.skip_reason = "revisit"
        elif record.rec_type == "response":
            item.skip_reason = "no_http_headers"
        else:
            item.skip_reason = "not_a_response"
        item.offset = iterator.get_record_offset()
        item.length = iterator.get_record_length()
        yield item


def _iso(value: datetime | None) -> str | None:
    """UTC, fixed width (always microseconds), so that comparing the strings compares the times."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ") if value else None
