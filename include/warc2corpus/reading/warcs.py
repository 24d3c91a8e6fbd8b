"""Reading WARC and ARC files as they come from real archives: which records are candidate
documents, with full provenance, and how far a file could be read.

Every record the reader meets is reported, either as an HTML capture to extract, a revisit to
resolve, or a skip with its reason, so a file's counts always add up to the records read. No file
makes the reader raise: a fault ends the reading and is described in :class:`ReadOutcome`
(``partial`` when records came before it, ``unreadable`` when none did). A fault in one record's
body (a corrupt content encoding, a bomb) or headers (over the size limits) is that record's skip
reason instead, wherever the file's framing lets the reading go on.

Layouts: plain WARC/ARC, gzip per record (offsets are those of the gzip members, as in CDX
indexes), whole-file gzip and lz4 frames (offsets count bytes of the decompressed stream).
A gzip file's members are checked as warcio inflates them: where one fails to inflate (warcio reads on
past a corrupt member, or reads one that is no gzip as raw bytes) or the last is left unfinished, the file is
scanned member by member and the reading stops at the first bad member, as if it had been known from the
start (:meth:`WarcReader._iterate`), then goes on at the next member that inflates whole and begins a
record (:func:`next_record_member`); a file that reads cleanly is inflated once.
"""

from __future__ import annotations

import base64
import binascii
import builtins
import gzip
import hashlib
import io
import logging
import os
import re
import zlib
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator

import brotli
import msgspec
import zstandard
from warcio.archiveiterator import ArchiveIterator
from warcio.bufferedreaders import ChunkedDataReader, DecompressingBufferedReader
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecordLoader
from warcio.statusandheaders import StatusAndHeaders
from zlib_ng import zlib_ng

from warc2corpus.reading import charsets, notices
from warc2corpus.reading.limits import Limits

log = logging.getLogger(__name__)

HTML_TYPES = ("text/html", "application/xhtml+xml")
GZIP_MAGIC = b"\x1f\x8b"
GZIP_PADDING = b"\r\n\t \x00"  # blank bytes some writers leave between gzip members
LZ4_MAGIC = b"\x04\x22\x4d\x18"
CONTENT_ENCODINGS = {"gzip": "gzip", "x-gzip": "gzip", "deflate": "deflate", "br": "br", "zstd": "zstd"}

# A gzip WARC's members (warcio's reading, and the member scan where it is needed), and a body's gzip or
# deflate content encoding, are inflated with zlib-ng's inflate where Python's zlib has zlib's: the same
# streams, errors and messages, in 0.58 of the time (the held-out pages x 7, 787 MB inflated member by
# member: 2.6-2.7 s -> 1.5 s). Its error is no zlib.error: both are caught.
INFLATE_ERRORS = (zlib.error, zlib_ng.error)


def gzip_decompressor():
    """A decompressor of one gzip member (zlib-ng's, as zlib's ``decompressobj(16 + MAX_WBITS)``)."""
    return zlib_ng.decompressobj(16 + zlib_ng.MAX_WBITS)


# IIPC / Heritrix names: PREFIX-YYYYMMDDhhmmss[mmm]-SERIAL-... (the timestamp is the file's start)
_NAME_TIMESTAMP = re.compile(r"(?:^|[-_])(\d{14})(?:\d{1,3})?(?=[-_.])")


# A WARC-Record-ID is a URI in angle brackets (47 characters from every crawler known here); a record without
# one, or with one longer than this, is named after its file and offset instead (``WarcReader._next``).
MAX_RECORD_ID_CHARS = 512


@dataclass
class Record:
    """One WARC record as the pipeline sees it. ``body`` (decoded HTTP entity) is set only for
    candidate HTML captures."""

    warc_file: str
    offset: int
    length: int
    record_type: str
    record_id: str | None
    url: str | None
    harvest_time: str | None  # WARC-Date, ISO 8601 UTC, fixed width
    http_status: int | None = None
    content_type: str | None = None
    body: bytes | None = None
    skip_reason: str | None = None
    payload_digest: str | None = None   # normalised "sha1:BASE32"
    digest_ok: bool | None = None       # None: no digest to check
    refers_to: str | None = None        # revisits
    refers_to_url: str | None = None
    refers_to_date: str | None = None   # WARC-Refers-To-Date: the original's WARC-Date, as harvest_time
    profile: str | None = None
    short: bool = False                 # the block ended before its Content-Length
    truncated: str | None = None        # WARC-Truncated: the crawler cut the body (length, time, disconnect ...)
    error: str | None = None            # why the record was skipped, when a fault says more than its reason
    headers: dict = field(default_factory=dict)
    notices: list = field(default_factory=list)  # what the libraries said while reading it

    def provenance(self) -> dict:
        return {
            "warc_file": self.warc_file,
            "record_offset": self.offset,
            "record_length": self.length,
            "record_id": self.record_id,
            "url": self.url,
            "harvest_time": self.harvest_time,
        }


# Faults of the moment rather than of the bytes: the file changed while it was read (still being
# copied or written), besides every operating-system error (see ReadOutcome.transient).
TRANSIENT_FAULTS = {"FileChanged"}


@dataclass
class ReadOutcome:
    """How far a file was read. ``status``: complete, partial or unreadable."""

    layout: str = "unknown"
    status: str = "complete"
    error_class: str | None = None
    error: str | None = None
    last_good_offset: int = 0
    records: int = 0

    def fault(self, error_class: str, error: str) -> None:
        self.status = "partial" if self.records else "unreadable"
        self.error_class, self.error = error_class, error

    @property
    def transient(self) -> bool:
        """A passing fault, worth another attempt: the operating system failed a read (an OSError
        such as PermissionError or EIO; not gzip.BadGzipFile, which is about the bytes) or the file
        changed while it was read. Broken bytes (corrupt gzip, not a WARC, empty) are permanent."""
        if self.error_class in TRANSIENT_FAULTS:
            return True
        error_type = getattr(builtins, self.error_class or "", None)
        return isinstance(error_type, type) and issubclass(error_type, OSError)


# ---------------------------------------------------------------------------------------------
# Dates and names
# ---------------------------------------------------------------------------------------------

def capture_time_from_name(path: str | Path) -> datetime | None:
    """The start timestamp in an IIPC/Heritrix-style file name, or None."""
    for match in _NAME_TIMESTAMP.finditer(Path(path).name):
        try:
            return datetime.strptime(match.group(1), "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
        except ValueError:
            continue
    return None


# A leap second's seconds (a crawl writing at 2016-12-31T23:59:60Z, the last one, wrote such dates).
_LEAP_SECOND = re.compile(r"(?<=T\d\d:\d\d:)60(?=(?:[.,]\d*)?(?:Z|[+-]\d\d:?\d\d)?$)")


def parse_warc_date(value: str | None) -> datetime | None:
    """A WARC-Date (W3C-DTF, any fraction of a second, an offset or Z in either case; a leap second
    as the last microsecond of the second before it) or an ARC date (14 digits), in UTC; None when
    it is none of these: a page without a harvest time is never given a guessed one."""
    if not value:
        return None
    text = value.strip()
    if re.fullmatch(r"\d{14}", text):  # ARC dates
        try:
            return datetime.strptime(text, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)
        except ValueError:
            return None
    text = text[:-1] + "Z" if text.endswith("z") else text
    leap = _LEAP_SECOND.search(text)
    if leap:  # 23:59:60, which datetime cannot hold: the last instant of the second before
        text = text[:leap.start()] + "59" + text[leap.end():]
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        return None
    if leap:
        parsed = parsed.replace(microsecond=999_999)
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=timezone.utc)


def iso_utc(value: datetime | None) -> str | None:
    """UTC, fixed width (always microseconds), so that comparing the strings compares the times."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ") if value else None


def first_record_date(path: str | Path) -> datetime | None:
    """The WARC-Date of the first record that has one (reads only the start of the file)."""
    for record in WarcReader(path, Limits(), scan=False).records():
        date = parse_warc_date(record.harvest_time)
        if date:
            return date
    return None


def file_capture_start(path: str | Path) -> datetime | None:
    return capture_time_from_name(path) or first_record_date(path)


# ---------------------------------------------------------------------------------------------
# Digests
# ---------------------------------------------------------------------------------------------

def normalise_digest(value: str | None) -> tuple[str, bytes] | None:
    """("sha1", raw digest) from "sha1:BASE32" or "sha1:<hex>" (other hashlib algorithms too)."""
    if not value or ":" not in value:
        return None
    algorithm, _, encoded = value.strip().partition(":")
    algorithm = algorithm.lower().replace("-", "")
    if algorithm not in hashlib.algorithms_available:
        return None
    encoded = encoded.strip()
    try:
        if re.fullmatch(r"[0-9a-fA-F]+", encoded) and len(encoded) == 2 * hashlib.new(algorithm).digest_size:
            return algorithm, bytes.fromhex(encoded)
        return algorithm, base64.b32decode(encoded.upper() + "=" * (-len(encoded) % 8))
    except (binascii.Error, ValueError):
        return None


def digest_label(parsed: tuple[str, bytes] | None) -> str | None:
    if parsed is None:
        return None
    algorithm, raw = parsed
    return f"{algorithm}:{base64.b32encode(raw).decode('ascii')}"


def check_payload_digest(parsed: tuple[str, bytes] | None, raw_payload: bytes, chunked: bool) -> bool | None:
    """Does the digest match the payload as stored, or (chunked) the de-chunked body? None: no digest."""
    if parsed is None:
        return None
    algorithm, expected = parsed
    if hashlib.new(algorithm, raw_payload).digest() == expected:
        return True
    if chunked:
        dechunked = _read_bounded(ChunkedDataReader(io.BytesIO(raw_payload)), len(raw_payload) + 1)
        return dechunked is not None and hashlib.new(algorithm, dechunked).digest() == expected
    return False


# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------

def _essence(content_type: str | None) -> str:
    """A Content-Type's type and subtype, lower case: of a header that lists several (joined by commas,
    as a server that sent two headers or a proxy writes them) the last, as browsers take it (Fetch's
    "extract a MIME type"); "" for none."""
    types = [part.split(";")[0].strip().lower() for part in (content_type or "").split(",")]
    return next((t for t in reversed(types) if "/" in t), types[-1] if types else "")


def _is_html(content_type: str | None) -> bool:
    return _essence(content_type) in HTML_TYPES


# A response without a Content-Type, or with one that says nothing, is what its bytes are, as a browser
# sniffs it (WHATWG MIME Sniffing, "identifying an unknown MIME type"): HTML when, after blank bytes, it
# opens with one of the tags the standard names. Such pages were skipped as not_html.
UNKNOWN_TYPES = frozenset(("", "unknown/unknown", "application/unknown", "*/*"))
_HTML_OPENING = re.compile(rb"(?:\xef\xbb\xbf)?[\t\n\x0c\r ]*(?:<!--|<(?:!doctype html|html|head|script|iframe|h1|div|"
                           rb"font|table|a|style|title|b|body|br|p)[ >])", re.IGNORECASE)


# A body labelled as a page that is none: a file format's signature (PDF, pictures, archives, fonts,
# media), or binary data — of its first 1,445 bytes (the WHATWG sniffing's window) a twentieth or more
# "binary data bytes" (the control bytes text never holds; a page with a stray NUL stays a page; UTF-16
# text apart) — or JSON (PHP answers text/html unless told otherwise, and a browser-based crawler
# records a page's API calls): each was stored as a document of garbled characters or escaped JSON.
_BINARY_BYTES = bytes([*range(0x00, 0x09), 0x0B, *range(0x0E, 0x1B), *range(0x1C, 0x20)])
SNIFF_WINDOW = 1445
BINARY_SHARE = 0.05
_SIGNATURES = (b"%PDF-", b"\x89PNG\r\n\x1a\n", b"GIF87a", b"GIF89a", b"\xff\xd8\xff", b"BM", b"PK\x03\x04",
               b"\x00\x00\x01\x00", b"wOFF", b"wOF2", b"OggS", b"ID3", b"%!PS-Adobe", b"\xd0\xcf\x11\xe0")


def _no_page(body: bytes) -> str | None:
    """Why a body labelled HTML is no page (a file format's, binary, JSON), or None."""
    start = body[:SNIFF_WINDOW]
    if start.startswith(_SIGNATURES) or start[8:12] == b"WEBP" or start[4:8] == b"ftyp" or (
            len(start) - len(start.translate(None, _BINARY_BYTES)) >= BINARY_SHARE * len(start)
            and not charsets.reads_as_utf16(start)):
        return "a binary body labelled as a page"
    opening = body[:64].lstrip(b"\xef\xbb\xbf\t\n\r ")[:1]
    if opening in (b"{", b"["):
        try:
            msgspec.json.decode(body)
        except (msgspec.DecodeError, UnicodeDecodeError):
            return None
        return "a JSON body labelled as a page"
    return None


def _gunzipped_text(body: bytes, limit: int) -> bytes | None:
    """A body gzipped with no Content-Encoding to say so (a server's or a crawler's slip), inflated when it
    inflates to text; else as it is."""
    try:
        inflated = _decompress(body, "gzip", limit)
    except INFLATE_ERRORS:
        return body
    return inflated if inflated is None or _reads_as_text(inflated) else body


def _type_unknown(content_type: str | None) -> bool:
    return _essence(content_type) in UNKNOWN_TYPES


def _sniffs_as_html(body: bytes) -> bool:
    return _HTML_OPENING.match(body) is not None


def _read_bounded(stream: BinaryIO, limit: int) -> bytes | None:
    """Up to ``limit`` bytes; None when the stream holds more (or cannot be decoded)."""
    try:
        data = stream.read(limit + 1)
    except (*INFLATE_ERRORS, OSError, ValueError, EOFError):
        return None
    return None if len(data) > limit else data


class DecodeError(ValueError):
    """A body that claims a content encoding and is corrupt in it."""


def decode_payload(raw: bytes, transfer_encoding: str | None, content_encoding: str | None,
                   limit: int) -> bytes | None:
    """Undo chunking and the content encodings (gzip, deflate, br, zstd; several, listed in the order
    they were applied, undone last first); None when the result would exceed ``limit`` bytes.

    A body that claims an encoding it does not have (the decoder refuses it and the bytes read as
    text) is passed on as it is, since servers often mislabel; a body in its encoding that breaks
    off early gives what came before the break. Raises :class:`DecodeError` for a corrupt one, and for
    one in an encoding not known here that does not read as text (it was stored as an empty page).
    """
    if transfer_encoding and "chunked" in transfer_encoding.lower():
        raw = ChunkedDataReader(io.BytesIO(raw)).read()  # never longer than the chunked body
    named = [name.strip().lower() for name in (content_encoding or "").split(",")]
    for name in reversed([name for name in named if name and name != "identity"]):
        encoding = CONTENT_ENCODINGS.get(name)
        if encoding is None:
            if _reads_as_text(raw):
                break
            raise DecodeError(f"a body in a content encoding not read here: {name}")
        try:
            decoded = _decompress(raw, encoding, limit)
        except (*INFLATE_ERRORS, brotli.error, zstandard.ZstdError) as exc:
            if _reads_as_text(raw):
                break
            raise DecodeError(f"corrupt {encoding} body: {exc}") from exc
        if decoded is None:
            return None
        raw = decoded
    return raw if len(raw) <= limit else None


def _decompress(raw: bytes, encoding: str, limit: int) -> bytes | None:
    """The decoded body, decoding no more than ``limit`` + 1 bytes (None past the limit)."""
    if encoding == "br":
        decompressor = brotli.Decompressor()
        parts = [decompressor.process(raw, output_buffer_limit=limit + 1)]
        size = len(parts[0])
        # The output limit is a floor on the buffer, not exact: take what is left in steps.
        while size <= limit and not decompressor.can_accept_more_data():
            part = decompressor.process(b"", output_buffer_limit=limit + 1 - size)
            if not part:
                break
            parts.append(part)
            size += len(part)
        return b"".join(parts) if size <= limit else None
    if encoding == "zstd":  # sent to browsers that ask for it (Chrome since 2024): browser-based crawlers' WARCs
        parts, size = [], 0
        with zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True) as reader:
            while size <= limit:
                part = reader.read(limit + 1 - size)
                if not part:
                    break
                parts.append(part)
                size += len(part)
        return b"".join(parts) if size <= limit else None
    if encoding == "gzip":
        decoded = gzip_decompressor().decompress(raw, limit + 1)
    else:  # deflate: zlib-wrapped as the standard says, or raw as some servers send it
        try:
            decoded = zlib_ng.decompressobj().decompress(raw, limit + 1)
        except zlib_ng.error:
            decoded = zlib_ng.decompressobj(-zlib_ng.MAX_WBITS).decompress(raw, limit + 1)
    return decoded if len(decoded) <= limit else None


_CONTROL_BYTES = bytes(set(range(32)) - set(b"\t\n\r\f\x1b"))


def _reads_as_text(raw: bytes) -> bool:
    """No control bytes in the first KiB: a page, not compressed data (which has ~10% of them)."""
    start = raw[:1024]
    return len(start.translate(None, _CONTROL_BYTES)) == len(start)


def scan_gzip_members(path: str | Path, start: int = 0) -> tuple[int | None, str | None, int]:
    """Check a gzip file member by member from byte ``start`` on, decompressing without keeping the output.

    Returns (offset of the first bad member or of trailing garbage, else None; the error; the
    number of good members before it). Blank padding between members is allowed.
    """
    members, offset, member_start = 0, start, start
    decompressor = None
    with open(path, "rb") as stream:
        stream.seek(start)
        data = b""
        while True:
            if not data:
                data = stream.read(1 << 20)
                if not data:
                    break
            if decompressor is None:  # at a member boundary
                stripped = data.lstrip(GZIP_PADDING)
                offset += len(data) - len(stripped)
                data, member_start = stripped, offset
                if not data:
                    continue
                if len(data) < 2:
                    data += stream.read(1 << 20)
                if data[:2] != GZIP_MAGIC:
                    return member_start, f"not gzip data at byte {member_start}", members
                decompressor = gzip_decompressor()
            try:
                decompressor.decompress(data, 1 << 20)
            except INFLATE_ERRORS as exc:
                return member_start, f"corrupt gzip member at byte {member_start}: {exc}", members
            if decompressor.eof:
                rest = decompressor.unused_data
                offset += len(data) - len(rest)
                data, decompressor = rest, None
                members += 1
            else:
                rest = decompressor.unconsumed_tail
                offset += len(data) - len(rest)
                data = rest
    if decompressor is not None:
        return member_start, f"truncated gzip member at byte {member_start}", members
    return None, None, members


RESYNC_PROBE_BYTES = 1 << 16  # compressed bytes inflated to see whether a member starts a record
# An ARC record's header line: URL (spaces are met in it), IP address, 14-digit date, content type, length.
_ARC_HEADER = re.compile(rb"[^\s][^\n]* \S+ \d{14} \S* ?\d+\r?\n")


def next_record_member(path: str | Path, after: int, *, arc: bool = False) -> int | None:
    """Where the first gzip member after byte ``after`` starts that inflates whole and begins a WARC record
    (an ARC record where ``arc``): past a bad member or garbage, the reading can go on there; None when
    there is none. Candidates are the places the gzip magic and deflate's method byte stand; bytes that
    merely look so (inside a member) would have to inflate to a record's first line and end with a
    matching CRC-32 and length."""
    magic = GZIP_MAGIC + b"\x08"
    with open(path, "rb") as stream:
        position, tail = after + 1, b""
        stream.seek(position)
        while True:
            block = stream.read(1 << 20)
            if not block:
                return None
            data = tail + block
            base = position - len(tail)
            at = data.find(magic)
            while at != -1:
                candidate = base + at
                if _starts_record(path, candidate, arc) and gzip_member_end(path, candidate) is not None:
                    return candidate
                at = data.find(magic, at + 1)
            tail = data[-(len(magic) - 1):]
            position += len(block)


def _starts_record(path: str | Path, at: int, arc: bool) -> bool:
    """Does the gzip member at byte ``at`` begin with a WARC record's first line (an ARC record's)?"""
    with open(path, "rb") as stream:
        stream.seek(at)
        data = stream.read(RESYNC_PROBE_BYTES)
    try:
        start = gzip_decompressor().decompress(data, 4096)
    except INFLATE_ERRORS:
        return False
    return _ARC_HEADER.match(start) is not None if arc else start.startswith(b"WARC/")


class HeaderTooLarge(Exception):
    """A header line or header block over its limit (:class:`Limits`)."""


class SharedGzipMember(ArchiveLoadFailed):
    """A gzip member of a per-record file holds more than its first record: a second record (warcio's
    "non-chunked gzip file detected, gzip block continues"), or bytes its record's Content-Length
    leaves out. warcio reads one record a member."""


def _read_line(readline, limit: int) -> bytes:
    """A line of at most ``limit`` bytes (shorter only at its end or the stream's): warcio's
    readline(n) can return part of a line before n bytes."""
    parts, size = [], 0
    while size < limit:
        part = readline(limit - size)
        parts.append(part)
        size += len(part)
        if not part or part.endswith(b"\n"):
            break
    return b"".join(parts)


class _BoundedLineReader(DecompressingBufferedReader):
    """warcio's stream of records, whose readline() without a length (WARC and ARC headers, the
    blank lines between records) would read a line of any length into memory: here a line over
    ``max_header_line_bytes``, or WARC headers over ``max_header_bytes``, raise HeaderTooLarge
    after reading at most that much (plus one decompressed buffer). Its gzip members are inflated by
    zlib-ng (:func:`gzip_decompressor`)."""

    DECOMPRESSORS = {**DecompressingBufferedReader.DECOMPRESSORS, "gzip": gzip_decompressor}

    def __init__(self, stream, limits: Limits, **kwargs):
        self.inflate_failed = False  # a gzip member failed to inflate (warcio reads on, see _NotedInflate)
        self.closed_unfinished = False  # warcio closed a gzip member's decompressor before the member ended
        self.padding_skipped = 0  # blank bytes passed over before the next gzip member (see read_next_member)
        super().__init__(stream, **kwargs)
        self.limits = limits
        self.header_bytes = 0  # of the record being parsed (set to 0 by _BoundedArchiveIterator)
        self.between_records = False  # reading where blank lines belong (set by _BoundedArchiveIterator)
        self.passed_over = 0  # bytes of overlong lines read past there

    def _init_decomp(self, decomp_type):
        super()._init_decomp(decomp_type)
        if self.decompressor is not None and self.decomp_type == "gzip":
            self.decompressor = _NotedInflate(self.decompressor, self)

    def read_next_member(self):
        """warcio's, past blank padding between gzip members (which the member scan allows too): warcio
        would try to inflate the padding, fail, and read every member after it as raw bytes, losing their
        records without a word. The padding's length is added to where the next record starts, so that
        its offset is its member's (``_BoundedArchiveIterator._next_record``).

        A member that still holds data after its record (a second record: warcio would read it from its
        buffer at an offset that is no member's, and every offset after it wrong) raises
        :class:`SharedGzipMember`."""
        if self.decompressor is not None and self.decomp_type == "gzip" and not self.empty():
            raise SharedGzipMember("the gzip member holds more than its first record")
        if not self.decompressor or not self.decompressor.unused_data:
            return False
        data = self.decompressor.unused_data
        rest = data.lstrip(GZIP_PADDING)
        skipped = len(data) - len(rest)
        while not rest:
            data = self.stream.read(self.block_size)
            if not data:  # padding to the end of the file
                return False
            rest = data.lstrip(GZIP_PADDING)
            skipped += len(data) - len(rest)
        self.padding_skipped += skipped
        self.starting_data = rest
        self._init_decomp(self.decomp_type)
        return True

    def member_unfinished(self) -> bool:
        """Has the reading stopped inside a gzip member (the file ends before the member does)?"""
        return self.closed_unfinished or (self.decompressor is not None and not self.decompressor.eof)

    def readline(self, length=None):
        if length is not None:  # callers that bound their lines (HTTP headers, chunk sizes)
            return super().readline(length)
        limit = self.limits.max_header_line_bytes
        line = _read_line(super().readline, limit + 1)
        if len(line) > limit and self.between_records:
            # Garbage after a record: warcio warns of such a line and reads on (or fails on the
            # next one); its start is enough for that, the rest is read past.
            rest = line
            while rest and not rest.endswith(b"\n"):
                rest = _read_line(super().readline, limit + 1)
                self.passed_over += len(rest)
            self.passed_over += len(line) - limit
            return line[:limit]
        if line.strip():  # blank lines (between records) are no headers
            self.header_bytes += len(line)
        if len(line) > limit:
            raise HeaderTooLarge(f"a line longer than {limit} bytes where WARC headers belong")
        if self.header_bytes > self.limits.max_header_bytes:
            raise HeaderTooLarge(f"WARC headers longer than {self.limits.max_header_bytes} bytes")
        return line


class _NotedInflate:
    """One gzip member's decompressor whose failures are noted on its reader before warcio sees them:
    warcio writes the error to stderr and reads on past a member that fails midway, and reads one that
    fails at once (no gzip) as raw bytes."""

    __slots__ = ("inflate", "reader")

    def __init__(self, inflate, reader: _BoundedLineReader):
        self.inflate, self.reader = inflate, reader

    def decompress(self, data, *args):
        try:
            return self.inflate.decompress(data, *args)
        except INFLATE_ERRORS:
            self.reader.inflate_failed = True
            raise

    def flush(self, *args):
        """warcio flushes a decompressor as it closes it, at the end of the reading."""
        self.reader.closed_unfinished = not self.inflate.eof
        return self.inflate.flush(*args)

    @property
    def eof(self) -> bool:
        return self.inflate.eof

    @property
    def unused_data(self) -> bytes:
        return self.inflate.unused_data

    @property
    def unconsumed_tail(self) -> bytes:
        return self.inflate.unconsumed_tail


class _BoundedHttpLines:
    """The stream a record's HTTP headers are parsed from, bounded like the WARC headers."""

    def __init__(self, stream, limits: Limits):
        self.stream, self.limits, self.read_bytes = stream, limits, 0

    def readline(self, length=None):
        line = _read_line(self.stream.readline, self.limits.max_header_line_bytes + 1)
        self.read_bytes += len(line)
        if len(line) > self.limits.max_header_line_bytes:
            raise HeaderTooLarge(f"an HTTP header line longer than {self.limits.max_header_line_bytes} bytes")
        if self.read_bytes > self.limits.max_header_bytes:
            raise HeaderTooLarge(f"HTTP headers longer than {self.limits.max_header_bytes} bytes")
        return line


class OversizedHttpHeaders(StatusAndHeaders):
    """Stands for HTTP headers over their limit; the record is skipped as ``header_too_large`` (its
    WARC headers frame it, so the reading goes on with the next record)."""

    def __init__(self, error: str):
        super().__init__("", [], protocol="")
        self.error = error


class _BoundedLoader(ArcWarcRecordLoader):
    def __init__(self, limits: Limits, *, arc2warc: bool):
        super().__init__(verify_http=False, arc2warc=arc2warc)
        self.limits = limits

    def load_http_headers(self, rec_type, uri, stream, length):
        # A record without WARC-Target-URI (a malformed one, or one cut in its header) has no HTTP headers to
        # read: warcio took None for a URI and failed on it, ending the file's reading there.
        uri = uri or ""
        try:
            return super().load_http_headers(rec_type, uri, _BoundedHttpLines(stream, self.limits), length)
        except HeaderTooLarge as exc:
            return OversizedHttpHeaders(str(exc))


class _BoundedArchiveIterator(ArchiveIterator):
    """warcio's ArchiveIterator with header lines and blocks bounded by ``limits``."""

    def __init__(self, stream: BinaryIO, limits: Limits, *, arc2warc: bool):
        super().__init__(stream, arc2warc=arc2warc)
        self.reader = _BoundedLineReader(self.fh, limits, block_size=self.reader.block_size)
        self.loader = _BoundedLoader(limits, arc2warc=arc2warc)
        self.refused_at: int | None = None  # where a record WarcReader refused (another format) began

    def _raise_invalid_gzip_err(self):
        try:
            super()._raise_invalid_gzip_err()
        except ArchiveLoadFailed as exc:
            raise SharedGzipMember(str(exc).strip()) from None

    def _next_record(self, next_line):
        self.reader.header_bytes = len(next_line or b"")
        self.offset += self.reader.padding_skipped  # the record starts where its gzip member does
        self.reader.padding_skipped = 0
        return super()._next_record(next_line)

    def _consume_blanklines(self):
        """warcio's, with overlong lines read past (their length still counts where the next
        record starts)."""
        self.reader.between_records, self.reader.passed_over = True, 0
        try:
            line, blank_bytes = super()._consume_blanklines()
        finally:
            self.reader.between_records = False
        return line, blank_bytes + self.reader.passed_over


def gzip_member_end(path: str | Path, start: int) -> int | None:
    """Where the gzip member that starts at byte ``start`` ends (None: it does not end well)."""
    decompressor = gzip_decompressor()
    consumed = start
    with open(path, "rb") as stream:
        stream.seek(start)
        while not decompressor.eof:
            data = stream.read(1 << 20)
            if not data:
                return None
            consumed += len(data)
            try:
                while data and not decompressor.eof:
                    decompressor.decompress(data, 1 << 20)  # the output is not kept
                    data = decompressor.unconsumed_tail
            except INFLATE_ERRORS:
                return None
    return consumed - len(decompressor.unused_data)


def _past_padding(stream: BinaryIO, at: int) -> int:
    """Where the next gzip member starts from byte ``at`` on: past blank padding (or the file's end)."""
    stream.seek(at)
    while True:
        data = stream.read(1 << 16)
        rest = data.lstrip(GZIP_PADDING)
        at += len(data) - len(rest)
        if rest or not data:
            return at


def _members_said(starts: list[int], what: str) -> str:
    """"2 gzip members (the first at byte 516) hold <what>"."""
    many = len(starts) > 1
    return (f"{len(starts)} gzip member{'s' if many else ''} (the first at byte {starts[0]}) "
            f"{'hold' if many else 'holds'} {what}")


class _InflatedToTheFault:
    """A corrupt gzip file's (first) member, or the member at byte ``start``, inflated as far as it inflates,
    to the byte: zlib gives nothing of a call that fails, so the chunk it fails in is inflated again a byte
    at a time (the gzip module lost up to 8 KB of compressed data before the fault: a small file's every
    record). At the fault ``read1`` raises it, once what came before is read."""

    CHUNK = 1 << 16

    def __init__(self, path: str, start: int = 0):
        self.file = open(path, "rb")
        self.file.seek(start)
        self.inflater = zlib.decompressobj(31)
        self.pending, self.fault = b"", None

    def __enter__(self):
        return self

    def __exit__(self, *_):
        self.file.close()

    def read1(self, size: int = -1) -> bytes:
        while not self.pending and self.fault is None and not self.inflater.eof:
            chunk = self.file.read(self.CHUNK)
            if not chunk:
                self.fault = EOFError("the compressed data ends before its gzip member does")
                break
            before = self.inflater.copy()
            try:
                self.pending = self.inflater.decompress(chunk)
            except zlib.error as exc:
                self.inflater, inflated = before, bytearray()
                for at in range(len(chunk)):
                    try:
                        inflated += self.inflater.decompress(chunk[at:at + 1])
                    except zlib.error:
                        break
                self.pending, self.fault = bytes(inflated), exc
        if not self.pending and self.fault is not None:
            raise self.fault
        size = len(self.pending) if size is None or size < 0 else size
        data, self.pending = self.pending[:size], self.pending[size:]
        return data


def _verified_only(records: Iterable[Record], tally: Counter) -> Iterator[Record]:
    """The records of a corrupt whole-file gzip, those whose payload digest does not verify (or that have
    none, or whose body was not read) turned into records skipped as ``unverified``: none of their
    bytes can be trusted. ``tally`` counts the records read and those verified."""
    for record in records:
        tally["records"] += 1
        if record.digest_ok is True:
            tally["verified"] += 1
        elif record.skip_reason != "truncated_record":
            record.skip_reason, record.body = "unverified", None
            record.error = "in a corrupt gzip file, and no payload digest verifies its bytes"
        yield record


def _gzip_fault(error: str) -> str:
    """The fault class of the member scan's error."""
    return "TruncatedGzip" if error.startswith("truncated") else "CorruptGzip"


class _DecompressedStream:
    """A whole-file gzip's or an lz4 file's decompressed stream that ends where the compressed data does
    (a cut, and for gzip also corrupt data or bytes after the last member that are no gzip), the error kept
    in ``error``, so that the records before are read: the decompressors' EOFError at a cut was taken by
    warcio for the end of the records (a cut file read as complete, with no record), and their other
    errors lost the record being read. Read by ``read1``: ``read`` gathers from several of the
    decompressor's outputs and drops what it gathered when the last fails."""

    def __init__(self, stream, ends: tuple[type[BaseException], ...]):
        self.stream, self.ends = stream, ends
        self.error: BaseException | None = None

    def read(self, size=-1):
        if self.error is not None:
            return b""
        try:
            return self.stream.read1(size)
        except self.ends as exc:
            self.error = exc
            return b""


class WarcReader:
    """Reads one file; iterate :meth:`records`, then look at :attr:`outcome`."""

    def __init__(self, path: str | Path, limits: Limits, *, scan: bool = True):
        """``scan=False`` skips the member-by-member check of a gzip file (a pass over all of it):
        for callers that read only the first records."""
        self.path = str(path)
        self.limits = limits
        self.scan = scan
        self.outcome = ReadOutcome()
        self.is_arc = False
        self._members: tuple[int | None, str | None, int] | None = None  # the member scan, once made
        self._region = 0  # where the member scan begins: where the reading began, or went on past damage

    def records(self) -> Iterator[Record]:
        try:
            before = os.stat(self.path)
            with open(self.path, "rb") as probe:
                magic = probe.read(4)
        except OSError as exc:
            self.outcome.fault(type(exc).__name__, str(exc))
            return
        size = before.st_size
        if size == 0:
            self.outcome.layout = "empty"
            self.outcome.fault("EmptyFile", "the file is empty (0 bytes)")
            return
        self.is_arc = _starts_like_arc(self.path, magic)
        if magic[:2] == GZIP_MAGIC:
            yield from self._gzip(size)
        elif magic == LZ4_MAGIC:
            yield from self._lz4()
        else:
            yield from self._plain(size)
        try:
            after = os.stat(self.path)
        except OSError as exc:
            self.outcome.fault(type(exc).__name__, str(exc))
            return
        if (after.st_size, after.st_mtime_ns) != (before.st_size, before.st_mtime_ns):
            # Still being copied or written: whatever the reading made of it, try again later.
            self.outcome.fault("FileChanged", f"the file changed while it was read ({before.st_size} bytes "
                                              f"when reading began, {after.st_size} at its end)")

    # -- layouts ---------------------------------------------------------------------------------

    def _gzip(self, size: int) -> Iterator[Record]:
        self.outcome.layout = "gzip-per-record"
        if _is_whole_file_gzip(self.path, self.limits):
            # One gzip member around many records: read the decompressed stream. One cut short gives the
            # records before the cut (what it inflates to is exact as far as it goes). A corrupt one gives
            # only the records whose payload digest verifies: its damage can garble what comes before the
            # error shows (zlib may tell only at the end, by the member's checksum, which may itself be
            # the damage), and the digest is the one witness of a record's bytes (:func:`_verified_only`).
            self.outcome.layout = "gzip-whole-file"
            bad_at, error, _ = self._scanned() if self.scan else (None, None, 1)
            corrupt = bad_at == 0 and not error.startswith("truncated")
            tally = Counter()
            with (_InflatedToTheFault(self.path) if corrupt else gzip.open(self.path, "rb")) as stream:
                stream = _DecompressedStream(stream, (EOFError, OSError, *INFLATE_ERRORS))  # BadGzipFile: OSError
                records = self._iterate_guarded(stream)
                yield from (_verified_only(records, tally) if corrupt else records)
            if corrupt:
                error += (f"; of its {tally['records']} records read, the {tally['verified']} whose payload digest "
                          "verifies were kept, the others passed over as unverified")
            if bad_at is not None:
                self.outcome.fault(_gzip_fault(error), error)
            elif stream.error is not None:
                self.outcome.fault(type(stream.error).__name__, _first_line(stream.error))
            return
        # Member by member: the reading stops at a bad member (or garbage) and goes on at the next member
        # that inflates whole and begins a record (next_record_member), to the file's end.
        damage: list[tuple[int, int | None, str]] = []  # (where, where the reading went on, the scan's error)
        salvage: Counter = Counter()  # the bad members' records (_salvaged)
        start, own_fault = 0, None  # own_fault: a fault that ended the last stretch read, not gzip damage
        while True:
            self._members, self._region = None, start
            before = after = None
            if self.scan and gzip_member_end(self.path, start) is None:
                self._scanned()  # the first member is bad: nothing to read before it
            else:
                before = (self.outcome.error_class, self.outcome.error)
                with open(self.path, "rb") as stream:
                    stream.seek(start)
                    yield from self._iterate_guarded(stream, check_members=self.scan)
                after = (self.outcome.error_class, self.outcome.error)
            bad_at, error, _ = self._members or (None, None, 0)
            if bad_at is None:
                own_fault = after if start and after != before else None
                break
            start = next_record_member(self.path, bad_at, arc=self.is_arc)
            damage.append((bad_at, start, error))
            yield from self._salvaged(bad_at, start if start is not None else size, _gzip_fault(error), salvage)
            if start is None:
                break
        if damage:  # the scan names the cause better than where warcio tripped over it
            bad_at, went_on, error = damage[0]
            if went_on is not None:
                passed = sum((on if on is not None else size) - at for at, on, _ in damage)
                error += f"; the reading went on at byte {went_on} (" + \
                    (f"{len(damage)} damaged stretches, " if len(damage) > 1 else "") + f"{passed} bytes passed over)"
                if len(damage) > 1:
                    error += f"; the last: {damage[-1][2]}"
                if own_fault is not None:
                    error += f"; then {own_fault[0]}: {own_fault[1]}"
            if salvage["records"] == 1:
                error += "; the record in the damaged member " + (
                    "kept: its payload digest verifies" if salvage["verified"] else
                    "kept: whole before the cut" if salvage["kept"] else
                    "skipped as " + ("unverified" if salvage["unverified"] else "truncated_record"))
            elif salvage["records"]:
                error += (f"; {salvage['kept']} of the {salvage['records']} records in the damaged members kept"
                          + (f" ({salvage['verified']} by their payload digest)" if salvage["verified"] else ""))
            self.outcome.fault(_gzip_fault(error), error)

    def _salvaged(self, at: int, end: int, fault: str, tally: Counter) -> Iterator[Record]:
        """The record of the bad gzip member at byte ``at`` of a per-record file (its extent: to ``end``,
        where the reading went on, or the file's end), inflated as far as it inflates. A member damaged
        only in its trailer — a checksum or length that does not match, the file cut inside the last 8
        bytes — holds its whole record, which the reading had passed over. Of a corrupt member the record
        is kept only when its payload digest verifies (:func:`_verified_only`: the damage can garble what
        comes before zlib notices); of a member cut short, as read (what inflates before a cut is exact),
        skipped as ``truncated_record`` when the cut took some of it. Only the member's first record (warcio
        reads one a member); nothing when it inflates to no record. ``tally``: the records, those kept, those
        verified, and those skipped by reason."""
        part = WarcReader(self.path, self.limits, scan=False)  # its outcome takes the member's own faults
        part.is_arc, part.outcome.layout = self.is_arc, "gzip-member"
        with _InflatedToTheFault(self.path, at) as inflated:
            records = part._iterate_guarded(_DecompressedStream(inflated, (EOFError, *INFLATE_ERRORS)))
            record = next(records, None)
            records.close()
        if record is None:
            return
        record.offset, record.length = at, end - at
        checked = Counter()
        if fault == "CorruptGzip":
            record = next(_verified_only([record], checked))
        tally["records"] += 1
        tally["verified"] += checked["verified"]
        lost = record.skip_reason in ("unverified", "truncated_record")
        if lost:
            tally[record.skip_reason] += 1
        else:
            tally["kept"] += 1
        log.warning("%s:%d: the record of a damaged gzip member: %s", self.path, at,
                    record.skip_reason if lost else "kept")
        yield self._count(record)

    def _scanned(self) -> tuple[int | None, str | None, int]:
        """The member scan (:func:`scan_gzip_members`) from where the reading began, made once."""
        if self._members is None:
            self._members = scan_gzip_members(self.path, self._region)
        return self._members

    def _lz4(self) -> Iterator[Record]:
        self.outcome.layout = "lz4"
        try:
            import lz4.frame
        except ImportError:
            self.outcome.fault("UnsupportedCompression", "lz4-compressed file and the lz4 package is not installed")
            return
        with lz4.frame.open(self.path, "rb") as stream:
            stream = _DecompressedStream(stream, (EOFError,))
            yield from self._iterate_guarded(stream)
        if stream.error is not None:
            self.outcome.fault("TruncatedLz4", f"the lz4 data ends before its frame does: {_first_line(stream.error)}")

    def _plain(self, size: int) -> Iterator[Record]:
        self.outcome.layout = "arc" if self.is_arc else "warc"
        with open(self.path, "rb") as stream:
            yield from self._iterate_guarded(stream)
            if self.outcome.status == "complete":
                # Where reading stopped against the file size: anything but blank padding left
                # over means the reader gave up early without saying so (or, before any record, that the
                # file is none: warcio reads a last line without its line end, "x" or "WARC/", as nothing).
                stream.seek(self.outcome.last_good_offset)
                rest = stream.read(1 << 16)
                if rest.strip(b"\r\n\t \x00"):
                    self.outcome.fault("UnreadBytes", f"{size - self.outcome.last_good_offset:,} byte(s) after byte "
                                       f"{self.outcome.last_good_offset} are not records")

    def _iterate_guarded(self, stream: BinaryIO, check_members: bool = False) -> Iterator[Record]:
        try:
            yield from self._iterate(stream, check_members)
        except Exception as exc:  # noqa: BLE001 - a file's fault is reported, never raised
            self.outcome.fault(type(exc).__name__, _first_line(exc))

    def _iterate(self, stream: BinaryIO, check_members: bool = False) -> Iterator[Record]:
        """Records one behind the reader (two where members are checked): a record that came up short
        of its Content-Length is truncated only if the file ends after it (some ARC writers miscount,
        and go on).

        ``check_members`` (a gzip-per-record file): once warcio's inflating has failed, or has left
        the last member unfinished, or the reading fails, the file is scanned member by member
        (:meth:`_scanned`) and the reading stops at the first bad member's record, as if the scan had
        been made first (:meth:`_gzip` goes on past it): the records read are the same, those two
        behind are still held when the failure shows (a member's damage shows at the latest while the
        record after it is read).

        Headers over their limit: in a gzip-per-record file the member is skipped as a
        ``header_too_large`` record and the reading goes on with the next member; elsewhere the
        record cannot be framed and the reading ends there. So with a gzip member that inflates well but
        holds no record (``not_a_record``). A gzip member of a per-record file that
        holds more than its first record (another record: warcio stops there, "non-chunked gzip file
        detected", or reads it at an offset no member has; or bytes the record's Content-Length leaves
        out) gives that record, whose extent is the member, and the reading goes on with the next
        member; the file is ``partial`` (``SharedGzipMember``: the other records cannot be told apart
        by an offset)."""
        held: list[Record] = []  # read and not given yet: the last one, or two where members are checked
        depth = 2 if check_members else 1
        fault: Exception | None = None
        stop_at: int | None = None  # where the first bad gzip member starts, once scanned
        shared: list[int] = []  # where gzip members holding more than one record start
        strays: list[int] = []  # where gzip members holding no record start

        def bad_member() -> int | None:
            return self._scanned()[0] if check_members else None

        def past(at: int | None) -> bool:  # a record read lies at or past the first bad member
            return at is not None and any(record.offset >= at for record in held)

        def member_end(start: int | None) -> int | None:
            """Where the gzip member at ``start`` ends, in a per-record file and before the first bad
            member; else (or when it does not end well) None: the reading cannot go on past it."""
            if start is None or self.outcome.layout != "gzip-per-record" \
                    or (stop_at is not None and start >= stop_at):
                return None
            return gzip_member_end(self.path, start)

        def skip_member(start: int, end: int, reason: str, error: str) -> Iterator[Record]:
            """The member as a record skipped for ``reason``; the reading goes on after it."""
            log.warning("%s:%d: %s: %s", self.path, start, reason, error)
            held.append(Record(self.path, start, end - start, "unknown", None, None, None,
                               skip_reason=reason, error=error))
            if len(held) > depth:
                yield self._count(held.pop(0))
            stream.seek(_past_padding(stream, end))

        while True:
            # ARC records are converted only in ARC files: warcio reads garbage in a WARC file as an
            # ARC record, which must end the reading instead.
            iterator = _BoundedArchiveIterator(stream, self.limits, arc2warc=self.is_arc)
            reader = iterator.reader
            try:
                while (record := self._next(iterator)) is not None:
                    if reader.inflate_failed:
                        stop_at = bad_member()
                    if past(stop_at) or (stop_at is not None and record.offset >= stop_at):
                        break
                    held.append(record)
                    if len(held) > depth:
                        yield self._count(held.pop(0))
                else:
                    if reader.inflate_failed or reader.member_unfinished():
                        stop_at = bad_member()
            except SharedGzipMember as exc:
                # The record before holds a member with more records in it: it keeps the member as its
                # extent (warcio's length for it is wrong) and the reading goes on with the next member.
                last = held[-1] if held else None
                end = member_end(last.offset if last else None)
                if end is None:
                    fault = exc
                    break
                log.warning("%s:%d: the gzip member holds more than its first record, which alone is read",
                            self.path, last.offset)
                last.length = end - last.offset
                shared.append(last.offset)
                stream.seek(_past_padding(stream, end))
                continue
            except HeaderTooLarge as exc:
                stop_at = bad_member()
                if past(stop_at):
                    break
                start = iterator.offset  # the record at fault (its gzip member in a per-record file)
                end = member_end(start)
                if end is not None:
                    yield from skip_member(start, end, "header_too_large", str(exc))
                    continue
                fault = HeaderTooLarge(f"{exc} in the record at byte {start}")
            except ArchiveLoadFailed as exc:
                # In a gzip-per-record file that has given a record, a member that inflates well but holds
                # no record is skipped as ``not_a_record`` and the reading goes on with the next member (the
                # file is partial); elsewhere, and in a gzip file that gave none (no WARC), it ends here.
                stop_at = bad_member()
                if past(stop_at):
                    break
                # the member's start: where the record being parsed began, or where the one _next refused did
                start = iterator.offset if iterator.refused_at is None else iterator.refused_at
                end = member_end(start) if held or self.outcome.records else None
                if end is None:
                    fault = exc
                    break
                yield from skip_member(start, end, "not_a_record", _first_line(exc))
                strays.append(start)
                continue
            except Exception as exc:  # noqa: BLE001 - the records before the fault still count
                stop_at = bad_member()
                if not past(stop_at):
                    fault = exc
            break
        if past(stop_at):  # read before the failure showed: the reading ends before it
            held = [record for record in held if record.offset < stop_at]
        for record in held[:-1]:
            yield self._count(record)
        if held:
            last = held[-1]
            truncated = last.short and fault is None
            if truncated:
                last.skip_reason, last.body = "truncated_record", None
            yield self._count(last)
            if truncated:
                self.outcome.fault("TruncatedRecord", f"the file ends inside the record at byte {last.offset}")
        if fault is not None:
            raise fault
        if strays:
            self.outcome.fault("StrayGzipMember", _members_said(strays, "no record, skipped as not_a_record"))
        if shared:
            many = len(shared) > 1
            self.outcome.fault("SharedGzipMember", _members_said(shared, (
                f"more than the record at {'their' if many else 'its'} start (another record, or bytes its "
                f"Content-Length leaves out): only that record is read (`warcio recompress` rewrites a file of "
                f"several records a member with a member for each)")))

    def _next(self, iterator: _BoundedArchiveIterator) -> Record | None:
        """The next record read whole, with what the libraries said meanwhile; None at the end."""
        said: list = []
        with notices.captured(said, stderr_library="warcio"):
            warc_record = next(iterator, None)
            if warc_record is None:
                return None
            if not self.is_arc and warc_record.format != "warc":
                iterator.refused_at = iterator.get_record_offset()
                raise ArchiveLoadFailed(f"not a WARC record at byte {iterator.refused_at}")
            record = self._record(warc_record)
            record.offset = iterator.get_record_offset()
            record.length = iterator.get_record_length()  # warcio has read the record to its end
            # Fewer bytes than its Content-Length, read or not (a skipped record's too: a PNG or a 404 cut in
            # its block). ARC writers miscount lengths, so WARC records only.
            record.short = record.short or (not self.is_arc and bool(getattr(warc_record.raw_stream, "limit", 0)))
        record.notices = said
        if not record.record_id or len(record.record_id) > MAX_RECORD_ID_CHARS:
            # Every record has one (the spec's), and the corpus keeps it as each document's and capture's name
            # (a database row that cannot be one's name made the file's whole load fail).
            given = record.record_id
            record.record_id = f"<urn:warc2corpus:{os.path.basename(self.path)}:{record.offset}>"
            log.warning("%s:%d: %s: named %s", self.path, record.offset, "a record without WARC-Record-ID"
                        if not given else f"a WARC-Record-ID of {len(given):,} characters", record.record_id)
        if record.refers_to and len(record.refers_to) > MAX_RECORD_ID_CHARS:
            record.refers_to = None  # no record's name: resolved by its digest (or not at all)
        if record.error:
            log.warning("%s:%d: %s: %s", self.path, record.offset, record.skip_reason, record.error)
        return record

    def _count(self, record: Record) -> Record:
        self.outcome.records += 1
        if record.skip_reason != "truncated_record":
            self.outcome.last_good_offset = record.offset + record.length
        return record

    # -- one record ------------------------------------------------------------------------------

    def _record(self, warc_record) -> Record:
        headers = warc_record.rec_headers
        record = Record(
            warc_file=self.path,
            offset=0,    # known once read: warcio reads a record to its end to tell
            length=0,
            record_type=warc_record.rec_type,
            record_id=headers.get_header("WARC-Record-ID"),
            url=headers.get_header("WARC-Target-URI"),
            harvest_time=iso_utc(parse_warc_date(headers.get_header("WARC-Date"))),
        )
        # Content-Length is every WARC record's: a record begun ("WARC/1.0") without it (or without its value)
        # had its header block cut before it ended (the file's last record then is truncated_record, as one
        # whose block ends before its Content-Length).
        record.short = not self.is_arc and bool(headers.protocol) \
            and not (headers.get_header("Content-Length") or "").strip().isdigit()
        digest = normalise_digest(headers.get_header("WARC-Payload-Digest"))
        record.payload_digest = digest_label(digest)
        if warc_record.rec_type == "revisit":
            record.skip_reason = "revisit"
            record.refers_to = headers.get_header("WARC-Refers-To")
            record.refers_to_url = headers.get_header("WARC-Refers-To-Target-URI")
            record.refers_to_date = iso_utc(parse_warc_date(headers.get_header("WARC-Refers-To-Date")))
            record.profile = headers.get_header("WARC-Profile")
            return record
        if warc_record.rec_type != "response":
            record.skip_reason = "not_a_response"
            return record
        record.truncated = (headers.get_header("WARC-Truncated") or "").strip().lower() or None
        http = warc_record.http_headers
        if isinstance(http, OversizedHttpHeaders):
            record.skip_reason, record.error = "header_too_large", http.error
            return record
        if http is None or not http.statusline:
            record.skip_reason = "no_http_headers"
            return record
        try:
            record.http_status = int(http.get_statuscode())
        except (TypeError, ValueError):
            record.http_status = None
        record.content_type = http.get_header("Content-Type")
        record.headers = dict(http.headers)
        if record.http_status != 200:
            record.skip_reason = "http_status"
        elif not _is_html(record.content_type) and not _type_unknown(record.content_type):
            record.skip_reason = "not_html"
        elif record.harvest_time is None:
            record.skip_reason = "no_warc_date"  # a document's harvest time is never guessed
        elif (warc_record.length or 0) > self.limits.max_record_bytes:
            record.skip_reason = "too_large"     # skipped without reading it into memory
        else:
            self._read_body(warc_record, record, digest)
            if record.body is not None and not _is_html(record.content_type) and not _sniffs_as_html(record.body):
                record.skip_reason, record.body = "not_html", None
        return record

    def _read_body(self, warc_record, record: Record, digest) -> None:
        stream = warc_record.raw_stream
        raw = stream.read(self.limits.max_record_bytes + 1)
        if len(raw) > self.limits.max_record_bytes:
            record.skip_reason = "too_large"
            return
        http = warc_record.http_headers
        transfer = http.get_header("Transfer-Encoding")
        try:
            record.digest_ok = check_payload_digest(digest, raw, bool(transfer and "chunked" in transfer.lower()))
            body = decode_payload(raw, transfer, http.get_header("Content-Encoding"), self.limits.max_decoded_bytes)
        except Exception as exc:  # noqa: BLE001 - one record's body never ends the file's reading
            record.skip_reason, record.error = "decode_error", _first_line(exc)
            return
        if body is not None and body[:2] == GZIP_MAGIC and not http.get_header("Content-Encoding"):
            body = _gunzipped_text(body, self.limits.max_decoded_bytes)
        if body is None:
            record.skip_reason = "too_large"
        elif not body.strip():
            record.skip_reason = "empty_body"
        elif (what := _no_page(body)) is not None:
            record.skip_reason, record.error = "not_html", what
        else:
            record.body = body


def _starts_like_arc(path: str, magic: bytes) -> bool:
    """ARC files begin with their filedesc:// header record."""
    try:
        if magic[:2] == GZIP_MAGIC:
            with gzip.open(path, "rb") as stream:
                start = stream.read(11)
        else:
            with open(path, "rb") as stream:
                start = stream.read(11)
    except (OSError, EOFError, zlib.error):
        return False
    return start == b"filedesc://"


def _is_whole_file_gzip(path: str, limits: Limits) -> bool:
    """warcio refuses a gzip member that goes on past its first record: try the first record.
    (What warcio says meanwhile is dropped: the reading proper reports it.) Where the first member does
    not inflate whole, warcio cannot tell (it reads a corrupt small file's bytes as they are): its
    inflated start is looked at instead (:func:`_first_member_holds_records`)."""
    with open(path, "rb") as stream, notices.captured([], stderr_library="warcio"):
        iterator = _BoundedArchiveIterator(stream, limits, arc2warc=True)
        try:
            next(iterator)
            next(iterator)
            return False
        except SharedGzipMember:
            return True
        except Exception:  # noqa: BLE001 - any other fault shows in the real reading
            pass
    return gzip_member_end(path, 0) is None and _first_member_holds_records(path, limits)


WHOLE_FILE_SNIFF_BYTES = 1 << 20  # of the first gzip member, inflated


def _first_member_holds_records(path: str, limits: Limits) -> bool:
    """Does the file's first gzip member hold a second record? Read from its inflated start, as far as it
    inflates (and WHOLE_FILE_SNIFF_BYTES at most), its checksum never reached: where a whole-file gzip is
    corrupt, the fault shows while warcio reads its first record if the file is small (its checksum is
    then read at once), and such a file was taken for one gzip member per record, unreadable from its
    first — every record lost, where its records whose payload digest verifies are kept."""
    inflated = bytearray()
    with _InflatedToTheFault(path) as stream:
        try:
            while len(inflated) < WHOLE_FILE_SNIFF_BYTES and (data := stream.read1(1 << 16)):
                inflated += data
        except (EOFError, *INFLATE_ERRORS):
            pass
    with notices.captured([], stderr_library="warcio"):
        iterator = _BoundedArchiveIterator(io.BytesIO(bytes(inflated)), limits, arc2warc=True)
        try:
            next(iterator)
        except Exception:  # noqa: BLE001 - not even a first record
            return False
        try:
            next(iterator)
        except StopIteration:
            return False
        except Exception:  # noqa: BLE001 - more than padding after the first record: a second one, cut
            return True
    return True


def _first_line(exc: Exception) -> str:
    """The first line of an error, with unprintable bytes escaped (errors quote file content)."""
    text = str(exc).strip() or type(exc).__name__
    line = text.splitlines()[0][:500]
    return "".join(ch if ch.isprintable() else f"\\x{ord(ch):02x}" for ch in line)


def read_records(path: str | Path, limits: Limits | None = None) -> Iterator[Record]:
    """Every record of a file, for callers that do not need the outcome."""
    yield from WarcReader(path, limits or Limits()).records()
