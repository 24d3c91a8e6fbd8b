"""Decoding a page's bytes to text: its byte order mark, then the HTTP header's charset, then the
page's own declaration (a single-byte one only where the bytes are not UTF-8), then detection. Legacy
labels are read as browsers read them (WHATWG): iso-8859-1 as windows-1252, gb2312 as gb18030, big5 as
big5hkscs, so pages labelled with the narrower set still decode."""

from __future__ import annotations

import codecs
import gzip
import re
from functools import lru_cache
from pathlib import Path

_META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", re.IGNORECASE)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([A-Za-z0-9._:-]+)", re.IGNORECASE)
_BROWSER_READS_AS = {"latin-1": "cp1252", "iso8859-1": "cp1252", "ascii": "cp1252",
                     "gb2312": "gb18030", "gbk": "gb18030", "big5": "big5hkscs", "euc_kr": "cp949"}
_TAGS = re.compile(r"<script.*?</script>|<style.*?</style>|<[^>]*>", re.IGNORECASE | re.DOTALL)
_TYPOGRAPHY = set("«»–—‘’‚“”„•…€£©®™°±·×÷§¶†‡‰′″¼½¾\ufffd")  # and bytes cp1252 leaves undefined
_ASCII = bytes(range(128))
UTF8_BROKEN_SHARE = 0.5  # of a page's non-ASCII sequences, at most this share broken: UTF-8 with stray bytes
SNIFF_BYTES = 4096
DETECT_BYTES = 64 * 1024


def codec_for(label: str | None) -> str | None:
    """Python's codec for a charset label (None when unknown), widened as browsers widen it."""
    if not label:
        return None
    try:
        name = codecs.lookup(label.strip().strip("\"'")).name
    except LookupError:
        return None
    return _BROWSER_READS_AS.get(name, name)


# A byte order mark outweighs every label, the HTTP header's included, as browsers read a page (the
# WHATWG's encoding sniffing): a UTF-8 page saved with one and served as iso-8859-1 by a server's
# default shows right in a browser, and was read here as windows-1252 ("TÃ¥rene" for "Tårene").
_BYTE_ORDER_MARKS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


@lru_cache(maxsize=None)
def _single_byte(codec: str) -> bool:
    """Does the codec read every byte as one character (windows-1252, the ISO-8859 family, KOI8 ...)?"""
    try:  # pairs of high bytes that UTF-8, UTF-16, the CJK and the other multi-byte charsets read as one
        return all(len(pair.decode(codec, errors="replace")) == 2 for pair in _HIGH_PAIRS)
    except LookupError:
        return False


_HIGH_PAIRS = (b"\xc3\xa5", b"\xe2\x80", b"\xa4\xa4", b"\x82\xa0", b"\x8e\xa1")


def reads_as_utf16(data: bytes) -> bool:
    """Do these bytes (from a character's start) read as UTF-16 text, mark or none: a page's markup puts
    a zero byte beside every ASCII character, so that one byte in two — the even or the odd ones — is
    zero for two in five characters or more. Bytes of another charset that happen to begin with a UTF-16
    mark's two ("ÿþ" in windows-1252) do not; nor does binary data with a stray NUL."""
    units = len(data) // 2
    return units > 0 and max(data[0::2].count(0), data[1::2].count(0)) >= 0.4 * units


def declared_charset(body: bytes, content_type: str | None = None) -> str | None:
    """The page's charset as a browser takes it: its byte order mark, then the HTTP header's label, then
    the page's own (in its first SNIFF_BYTES); None when nothing declares one."""
    for mark, codec in _BYTE_ORDER_MARKS:
        if body.startswith(mark) and (codec != "utf-16" or reads_as_utf16(body[2:SNIFF_BYTES])):
            return codec
    if content_type:
        match = _HEADER_CHARSET.search(content_type)
        if match and codec_for(match.group(1)):
            return codec_for(match.group(1))
    match = _META_CHARSET.search(body[:SNIFF_BYTES])
    return codec_for(match.group(1).decode("ascii", "replace")) if match else None


def detect_charset(body: bytes) -> str | None:
    """charset-normalizer's best guess over the start of the page."""
    from charset_normalizer import from_bytes

    best = from_bytes(body[:DETECT_BYTES]).best()
    return codec_for(best.encoding) if best else None


def looks_like_western_text(text: str) -> bool:
    """How a Norwegian (or other Western) page reads in windows-1252: mostly ASCII letters, and its
    other characters are Latin letters (æ, ø, å, é ...) or typography. Cyrillic, CJK or Big5 bytes
    read that way give mostly high letters, or symbols such as ¤ ¡ ¦ ³."""
    visible = _TAGS.sub(" ", text)
    letters = [ch for ch in visible if ch.isalpha()]
    high = [ch for ch in visible if ord(ch) > 127 and not ch.isspace()]
    if not high:
        return True
    high_letters = [ch for ch in high if ch.isalpha()]
    odd = [ch for ch in high if not ch.isalpha() and ch not in _TYPOGRAPHY]
    return (len(high_letters) <= 0.5 * max(len(letters), 1) and len(odd) <= 0.2 * len(high)
            and all(ord(ch) < 0x250 for ch in high_letters))


def _stray_bytes(error: UnicodeDecodeError) -> tuple[str, int]:
    """The bytes a UTF-8 decoder cannot read, read as windows-1252 (U+FFFD for the five it leaves undefined):
    a page written in UTF-8 that holds a few bytes of another charset — a footer included from a file still
    in ISO-8859-1 ("Ansvarlig redakt\\xf8r"), a quote pasted from a Windows editor ("\\x92") — reads as its
    writer meant it, where each such byte was a U+FFFD ("redakt\ufffdr": autoCat missed the declaration)."""
    return error.object[error.start:error.end].decode("cp1252", errors="replace"), error.end


STRAY_BYTES = "warc2corpus-stray-bytes"
codecs.register_error(STRAY_BYTES, _stray_bytes)


def mostly_utf8(body: bytes) -> bool:
    """Are at least half of the non-ASCII sequences valid UTF-8? A page in windows-1252 or another
    single-byte charset has next to none (its letters are single high bytes, each followed by a letter
    where UTF-8 needs a continuation byte); one in a CJK charset a fifth at most, by accident. A page
    written in UTF-8 with a footer or a quote in another charset has most (its stray bytes are read as
    windows-1252: :func:`_stray_bytes`; a Western page misjudged so reads the same but for its byte pairs
    that are valid UTF-8, which are next to always mojibake)."""
    text = body.decode("utf-8", errors="replace")
    ascii_bytes = len(body) - len(body.translate(None, _ASCII))
    invalid = text.count("\ufffd") - body.count("\ufffd".encode())  # one U+FFFD per broken sequence
    non_ascii = len(text) - ascii_bytes  # the characters decoded from high bytes, broken ones included
    return non_ascii > 0 and invalid <= UTF8_BROKEN_SHARE * non_ascii


def read_html_file(path: str | Path) -> str:
    """A saved page as text: gunzipped when it is gzip (by name or magic bytes), then decoded.
    Raises OSError, EOFError or gzip.BadGzipFile for a file that cannot be read (a ``.gz`` file
    that is not gzip among them)."""
    raw = Path(path).read_bytes()
    if str(path).endswith(".gz") or raw[:2] == b"\x1f\x8b":
        raw = gzip.decompress(raw)
    return decode_html(raw)


def decode_html(body: bytes, content_type: str | None = None) -> str:
    """Text of a page. A declaration the bytes contradict (undecodable) is not trusted, and a single-byte
    one yields to UTF-8: UTF-8 is tried (a mostly UTF-8 page's stray bytes read as windows-1252), then
    windows-1252 when the result reads as Western text, then detection; the last resort replaces what
    cannot be decoded."""
    declared = declared_charset(body, content_type)
    # A single-byte label yields to UTF-8: a server's default ("AddDefaultCharset ISO-8859-1") or a stale
    # <meta> on a page written in UTF-8 stored "Blåbær" as "BlÃ¥bÃ¦r", and text in a single-byte charset is
    # next to never valid UTF-8 (Norwegian's æ ø å are single high bytes, each followed by a letter where
    # UTF-8 needs a continuation byte), nor mostly so (:func:`mostly_utf8`).
    yields = bool(declared) and _single_byte(declared) and not body.isascii()
    if declared and not yields:
        try:
            return body.decode(declared)
        except UnicodeDecodeError:
            pass
    try:
        return body.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    if mostly_utf8(body):  # a few stray bytes in a UTF-8 page: read as windows-1252, the rest kept right
        return body.decode("utf-8-sig", errors=STRAY_BYTES)
    if yields:
        try:
            return body.decode(declared)
        except UnicodeDecodeError:
            pass
    western = body.decode("cp1252", errors="replace")
    if looks_like_western_text(western[:DETECT_BYTES]):
        return western
    detected = detect_charset(body)
    if detected:
        try:
            return body.decode(detected)
        except UnicodeDecodeError:
            return body.decode(detected, errors="replace")
    return western
