"""Harvesting from a Wayback Machine or pywb: the captures a CDX query names, fetched in their ``id_``
form (the page as archived), checked against their CDX digest, written as standard WARC files that the
pipeline takes like any crawl.

    from warc2corpus.harvest import harvest
    result = harvest("https://web.archive.org/cdx/search/cdx", ["www.nrk.no/"], Path("warcs/nrk"),
                     match="prefix", from_="2019", to="2019", filters=("statuscode:200",))

Resumable: ``OUT_DIR/harvest-ledger.jsonl`` (see :mod:`.ledger`) records every capture dealt with, so a
harvest run again (after a kill, or with a wider query) fetches none of them again. Polite: see
:mod:`.fetch`. Nothing goes silently: every capture ends as written, a revisit, a digest mismatch
(written apart in ``OUT_DIR/mismatch/``) or a failure with its message, and every CDX query that got
no CDX answer is counted with its message; the harvest goes on past each.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import platform
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urljoin

from warc2corpus.harvest import cdx
from warc2corpus.harvest.cdx import Capture, CdxError
from warc2corpus.harvest.fetch import Answer, FetchError, PoliteSession
from warc2corpus.harvest.ledger import Ledger
from warc2corpus.harvest.writer import MAX_FILE_BYTES, FileNamer, WarcFile, recover, warc_date

log = logging.getLogger(__name__)

DEFAULT_RATE = 0.5  # requests per second: 30 a minute, half the Internet Archive's CDX limit (README)
DEFAULT_PREFIX = "WAYBACK"

# Headers a replay adds of its own, never the archived server's (pywb and the Internet Archive put the
# archived ones that clash under X-Archive-Orig-*). The body is stored de-chunked, so the archived
# Transfer-Encoding goes too and Content-Length is the stored body's.
_REPLAY_HEADERS = frozenset({
    "memento-datetime", "link", "content-location", "date", "server", "transfer-encoding", "connection",
    "keep-alive", "server-timing", "x-app-server", "x-ts", "x-tr", "x-location", "x-rl", "x-na",
    "x-page-cache", "x-nid", "permissions-policy", "referrer-policy", "preference-applied",
})
_ORIG = "x-archive-orig-"


@dataclass
class HarvestResult:
    counts: Counter = field(default_factory=Counter)
    messages: list[str] = field(default_factory=list)   # every fault, one line each
    files: list[str] = field(default_factory=list)      # WARC files written (mismatch files too)
    requests: int = 0

    @property
    def complete(self) -> bool:
        """Every query answered and every capture dealt with for good (mismatches are, recorded)."""
        return not self.counts["failed"] and not self.counts["cdx_failed"]


def replay_base(cdx_url: str) -> str:
    """Where a CDX server's captures are replayed: the Internet Archive's ``…/cdx/search/cdx`` replays
    under ``…/web/``, pywb's ``…/COLLECTION/cdx`` under ``…/COLLECTION/``."""
    base = cdx_url.split("?", 1)[0].rstrip("/")
    if base.endswith("/cdx/search/cdx"):
        return base[: -len("cdx/search/cdx")] + "web/"
    if base.endswith("/cdx"):
        return base[: -len("cdx")]
    raise ValueError(f"cannot tell the replay URL of {cdx_url!r}: give it (--replay)")


def payload_digest(body: bytes) -> str:
    return base64.b32encode(hashlib.sha1(body).digest()).decode("ascii")


def normalise_digest(value: str) -> str | None:
    """A CDX digest as base32 SHA-1 (servers give base32, a few ``sha1:`` or hex); None for ``-``."""
    value = value.strip()
    value = value[5:] if value.lower().startswith("sha1:") else value
    if re.fullmatch(r"[0-9a-fA-F]{40}", value):
        return base64.b32encode(bytes.fromhex(value)).decode("ascii")
    return value.upper() if re.fullmatch(r"[A-Za-z2-7]{32}", value) else None


def original_headers(headers: list[tuple[str, str]], body_length: int) -> list[tuple[str, str]]:
    """The archived server's headers from a replay's ``id_`` answer, in their order."""
    restored = []
    for name, value in headers:
        lower = name.lower()
        if lower.startswith(_ORIG):
            restored.append((name[len(_ORIG):], value))
        elif lower not in _REPLAY_HEADERS and not lower.startswith("x-archive-"):
            restored.append((name, value))
    restored = [(n, v) for n, v in restored if n.lower() not in ("transfer-encoding", "content-length")]
    restored.append(("Content-Length", str(body_length)))
    return restored


def _header(answer: Answer, name: str) -> str | None:
    return next((v for k, v in answer.headers if k.lower() == name), None)


def query(session: PoliteSession, cdx_url: str, url: str, **params) -> list[Capture]:
    """The captures of one CDX query. Raises :class:`CdxError` or :class:`FetchError`."""
    answer = session.get(cdx_url, params=cdx.query_params(url, **params))
    if answer.status != 200:
        raise CdxError(f"CDX query for {url!r} answered HTTP {answer.status} {answer.reason}: "
                       f"{answer.body[:200].decode('utf-8', 'replace')!r}")
    found = cdx.parse(answer.body.decode("utf-8", "replace"), f"CDX query for {url!r}")
    return cdx.collapse(found, params.get("collapse", ()))


def fetch_capture(session: PoliteSession, base: str, capture: Capture) -> tuple[str, Answer]:
    """The ``id_`` answer of a capture and the URL it came from. The replay's own redirects (to its
    canonical form of the URL; they carry no Memento-Datetime) are followed, a capture of a redirect
    is the capture."""
    url = f"{base}{capture.timestamp}id_/{capture.original}"
    for _ in range(4):
        answer = session.get(url)
        location = _header(answer, "location")
        if not (300 <= answer.status < 400 and location and _header(answer, "memento-datetime") is None):
            return url, answer
        url = urljoin(url, location)
        if not url.startswith(base):
            break
    raise FetchError("redirect", f"the replay keeps redirecting ({url})")


def harvest(cdx_url: str, urls: Iterable[str], out_dir: Path, *, replay: str | None = None,
            match: str = "exact", from_: str | None = None, to: str | None = None,
            filters: tuple[str, ...] = (), collapse: tuple[str, ...] = (), rate: float = DEFAULT_RATE,
            prefix: str = DEFAULT_PREFIX, max_file_bytes: int = MAX_FILE_BYTES,
            session: PoliteSession | None = None,
            on_progress: Callable[[Counter, int], None] | None = None) -> HarvestResult:
    """Harvest the captures that the CDX queries (one per URL pattern) name into WARC files in
    ``out_dir``. Bad arguments raise ValueError; faults of the server are counted and reported."""
    base = replay or replay_base(cdx_url)
    base = base if base.endswith("/") else base + "/"
    urls = list(urls)
    if not urls:
        raise ValueError("give at least one URL pattern")
    params = dict(match=match, from_=from_, to=to, filters=tuple(filters), collapse=tuple(collapse))
    for url in urls:
        cdx.query_params(url, **params)  # bad arguments fail before anything is fetched
    session = session or PoliteSession(rate=rate)
    out_dir.mkdir(parents=True, exist_ok=True)
    apart = out_dir / "mismatch"
    ledger = Ledger(out_dir)
    result = HarvestResult()
    for line in recover(out_dir, ledger.ends) + (
            recover(apart, lambda name: ledger.ends(f"mismatch/{name}")) if apart.is_dir() else []):
        log.warning("harvest: %s", line)
    requests_before = session.requests_made

    captures: dict[str, Capture] = {}
    for url in urls:
        result.counts["cdx_queries"] += 1
        try:
            found = query(session, cdx_url, url, **params)
        except (CdxError, FetchError) as exc:
            result.counts["cdx_failed"] += 1
            result.counts[f"cdx_{getattr(exc, 'kind', 'not_cdx')}"] += 1
            result.messages.append(f"CDX query for {url!r} at {cdx_url}: {exc}")
            log.error("harvest: %s", result.messages[-1])
            continue
        for capture in found:
            captures.setdefault(capture.key, capture)
    ordered = sorted(captures.values(), key=lambda c: (c.timestamp, c.original))
    result.counts["captures"] = len(ordered)

    info = {"software": "warc2corpus harvest", "format": "WARC File Format 1.1",
            "hostname": platform.node(), "source-cdx": cdx_url, "source-replay": base,
            "harvest-query": " ".join(f"{k}={v}" for k, v in [("url", u) for u in urls] + sorted(
                (k, v) for k, v in params.items() if v)),
            "harvest-started": warc_date(datetime.now(timezone.utc)),
            "description": "original captures fetched in their id_ form from a Wayback Machine"}
    files = {"main": None, "apart": None}
    namers = {"main": FileNamer(out_dir, prefix), "apart": None}

    def target(which: str, capture: Capture) -> WarcFile:
        current = files[which]
        if current is not None and (current.size() >= max_file_bytes
                                    or current.path.name.split("-")[1][:8] != capture.timestamp[:8]):
            current.close()
            files[which] = current = None
        if current is None:
            if which == "apart" and namers["apart"] is None:
                apart.mkdir(exist_ok=True)
                namers["apart"] = FileNamer(apart, prefix)
            current = files[which] = WarcFile(namers[which].next(capture.captured), info)
            result.files.append(str(current.path))
        return current

    try:
        for done, capture in enumerate(ordered, 1):
            _one(capture, base, session, ledger, result, target)
            result.requests = session.requests_made - requests_before
            if on_progress:
                on_progress(result.counts, done)
    finally:
        for current in files.values():
            if current is not None:
                current.close()
        result.requests = session.requests_made - requests_before
    return result


def _one(capture: Capture, base: str, session: PoliteSession, ledger: Ledger, result: HarvestResult,
         target: Callable[[str, Capture], WarcFile]) -> None:
    counts = result.counts
    if ledger.done(capture.key):
        counts["already_harvested"] += 1
        return
    expected = normalise_digest(capture.digest)
    entry = {"key": capture.key, "url": capture.original, "date": warc_date(capture.captured),
             "cdx_digest": capture.digest}
    original = ledger.originals.get(expected) if expected else None
    if original is not None:  # the payload is in a file already: a revisit, nothing to fetch
        source = f"{base}{capture.timestamp}id_/{capture.original}"
        warc = target("main", capture)
        record_id, end = warc.write_revisit(capture.original, capture.captured, expected, original, source)
        ledger.append({**entry, "status": "revisit", "digest": expected, "record_id": record_id,
                       "file": warc.path.name, "end": end})
        counts["revisits"] += 1
        return
    try:
        source, answer = fetch_capture(session, base, capture)
        if _header(answer, "memento-datetime") is None:  # the replay's own answer, not a capture
            raise FetchError(f"http_{answer.status}", f"the replay answered HTTP {answer.status} "
                             f"{answer.reason} with no capture")
    except FetchError as exc:
        counts["failed"] += 1
        counts[f"failed_{exc.kind}"] += 1
        message = f"{capture.timestamp} {capture.original}: {exc}"
        result.messages.append(message)
        log.error("harvest: %s", message)
        ledger.append({**entry, "status": "failed", "reason": exc.kind, "message": str(exc)})
        return
    digest = payload_digest(answer.body)
    headers = original_headers(answer.headers, len(answer.body))
    if expected is not None and digest != expected:
        warc = target("apart", capture)
        record_id, end = warc.write_capture(capture.original, capture.captured, answer.status, answer.reason,
                                            headers, answer.body, source, {"WARC-CDX-Digest": expected})
        message = (f"{capture.timestamp} {capture.original}: payload digest {digest} is not the CDX digest "
                   f"{expected}; written apart to mismatch/{warc.path.name}")
        result.messages.append(message)
        log.error("harvest: %s", message)
        ledger.append({**entry, "status": "mismatch", "digest": digest, "record_id": record_id,
                       "file": f"mismatch/{warc.path.name}", "end": end, "message": message})
        counts["mismatches"] += 1
        return
    if expected is None:
        counts["unverified"] += 1  # the CDX line had no digest to check against
    warc = target("main", capture)
    record_id, end = warc.write_capture(capture.original, capture.captured, answer.status, answer.reason,
                                        headers, answer.body, source)
    ledger.append({**entry, "status": "written", "digest": digest, "record_id": record_id,
                   "file": warc.path.name, "end": end})
    counts["written"] += 1


class HarvestIncomplete(Exception):
    """A crawl job's harvest left captures or queries for later; what was written is kept (the DAG's
    task fails so that Airflow retries it, and discovery goes on with what is there)."""
