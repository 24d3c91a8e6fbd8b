"""The CDX server API of a Wayback Machine (the Internet Archive's ``/cdx/search/cdx``, pywb's
``/<collection>/cdx``): building a query and reading its answer.

The answer is asked for as JSON (``output=json``), which both servers give, each in its own form;
:func:`parse` reads either, and the text forms too. An answer whose lines are not such lines is refused whole (:class:`CdxError`): a web page, a login
wall or an error text served with status 200 is never taken for an empty or partial list.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime, timezone

FIELDS = ("urlkey", "timestamp", "original", "mimetype", "statuscode", "digest", "length")
MATCH_TYPES = ("exact", "prefix", "host", "domain")
_TIMESTAMP = re.compile(r"\d{14}")
_DIGEST = re.compile(r"(?:sha1:)?[A-Z2-7]{32}|(?:sha1:)?[0-9a-f]{40}|-", re.IGNORECASE)


class CdxError(Exception):
    """The CDX server did not answer with CDX lines; the message says what came instead."""


@dataclass(frozen=True)
class Capture:
    """One line of a CDX answer: a capture of ``original`` at ``timestamp`` (14 digits, UTC)."""

    urlkey: str
    timestamp: str
    original: str
    mimetype: str
    statuscode: str
    digest: str
    length: str

    @property
    def key(self) -> str:
        """What identifies the capture in the harvest ledger."""
        return f"{self.timestamp} {self.original}"

    @property
    def captured(self) -> datetime:
        return datetime.strptime(self.timestamp, "%Y%m%d%H%M%S").replace(tzinfo=timezone.utc)


def query_params(url: str, *, match: str = "exact", from_: str | None = None, to: str | None = None,
                 filters: tuple[str, ...] = (), collapse: tuple[str, ...] = ()) -> list[tuple[str, str]]:
    """The query string of a CDX request, as (name, value) pairs (``filter`` and ``collapse`` repeat).
    Filters name fields as the server does (both servers take ``statuscode`` and ``mimetype``)."""
    if match not in MATCH_TYPES:
        raise ValueError(f"match must be one of {', '.join(MATCH_TYPES)}, not {match!r}")
    params = [("url", url), ("matchType", match), ("output", "json")]
    for name, value in (("from", from_), ("to", to)):
        if value is not None:
            if not re.fullmatch(r"\d{1,14}", value):
                raise ValueError(f"{name} must be 1 to 14 digits (YYYY[MM[DD[hhmmss]]]), not {value!r}")
            params.append((name, value))
    for spec in filters:
        if not re.fullmatch(r"!?~?[a-z]+:.*", spec):
            raise ValueError(f"a filter is [!][~]FIELD:REGEX (e.g. statuscode:200), not {spec!r}")
        params.append(("filter", spec))
    for spec in collapse:
        _collapse_spec(spec)
        params.append(("collapse", spec))
    return params


def _collapse_spec(spec: str) -> tuple[str, int | None]:
    match = re.fullmatch(r"([a-z]+)(?::(\d+))?", spec)
    if not match or _ALIASES.get(match.group(1), match.group(1)) not in FIELDS:
        raise ValueError(f"collapse is FIELD[:N] with a field of {', '.join(FIELDS)}, not {spec!r}")
    return _ALIASES.get(match.group(1), match.group(1)), int(match.group(2)) if match.group(2) else None


def collapse(captures: list[Capture], specs: tuple[str, ...]) -> list[Capture]:
    """The CDX ``collapse`` applied to an answer (in the server's order): a line whose field (its first
    N characters) equals the previous kept line's is dropped. The Internet Archive collapses itself
    (doing it again changes nothing); pywb ignores the parameter, so the harvest does it."""
    for spec in specs:
        name, length = _collapse_spec(spec)
        kept, previous = [], None
        for capture in captures:
            value = getattr(capture, name)[:length]
            if value != previous:
                kept.append(capture)
            previous = value
        captures = kept
    return captures


# pywb's names for the fields, and the Internet Archive's
_ALIASES = {"url": "original", "mime": "mimetype", "status": "statuscode"}


def _capture(fields: dict, where: str) -> Capture:
    fields = {_ALIASES.get(k, k): str(v) for k, v in fields.items()}
    missing = [name for name in ("timestamp", "original") if not fields.get(name)]
    if missing:
        raise CdxError(f"{where}: no {' or '.join(missing)}")
    capture = Capture(**{name: fields.get(name, "-") or "-" for name in FIELDS})
    if not _TIMESTAMP.fullmatch(capture.timestamp) or not _DIGEST.fullmatch(capture.digest) \
            or "://" not in capture.original:
        raise CdxError(f"{where}: not a capture ({capture.timestamp!r}, {capture.original[:80]!r}, "
                       f"{capture.digest!r})")
    return capture


def parse(text: str, source: str = "the CDX server") -> list[Capture]:
    """The captures of a CDX answer, in any of the forms servers give: the Internet Archive's JSON (a
    list of rows, the first naming the fields), pywb's JSON lines, CDXJ (``urlkey timestamp {json}``)
    or the classic seven space-separated fields. Raises :class:`CdxError` naming the first line that
    is none of these (an empty answer is an empty list)."""
    text = text.strip()
    if not text:
        return []
    if text.startswith("["):
        try:
            rows = json.loads(text)
        except json.JSONDecodeError as exc:
            raise CdxError(f"{source} did not answer with CDX: JSON that does not parse ({exc})") from exc
        if not rows or not all(isinstance(r, list) for r in rows) or not all(isinstance(n, str) for n in rows[0]):
            raise CdxError(f"{source} did not answer with CDX: JSON that is not a list of rows")
        return [_capture(dict(zip(rows[0], row)), f"{source}, row {n}") for n, row in enumerate(rows[1:], 2)]
    captures = []
    for number, line in enumerate(text.splitlines(), 1):
        where = f"{source}, line {number}"
        if not line.strip():
            continue
        try:
            if line.startswith("{"):
                fields = json.loads(line)
            elif re.match(r"\S+ \d{14} \{", line):
                urlkey, timestamp, rest = line.split(" ", 2)
                fields = {"urlkey": urlkey, "timestamp": timestamp, **json.loads(rest)}
            elif len(line.split(" ")) == len(FIELDS):
                fields = dict(zip(FIELDS, line.split(" ")))
            else:
                raise CdxError(f"{source} did not answer with CDX (line {number}: {line[:120]!r})")
            if not isinstance(fields, dict):
                raise CdxError(f"{source} did not answer with CDX (line {number}: {line[:120]!r})")
        except json.JSONDecodeError as exc:
            raise CdxError(f"{source} did not answer with CDX (line {number}: {line[:120]!r})") from exc
        captures.append(_capture(fields, where))
    return captures
