"""Polite HTTP for harvesting: one request at a time, at most ``rate`` requests a second, a timeout on
every request, and retries with exponential backoff on 429, 5xx and connection faults, honouring the
server's Retry-After (seconds or an HTTP date), never waiting longer than ``max_wait`` at once."""

from __future__ import annotations

import email.utils
import logging
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

from urllib.parse import urlencode

import urllib3

log = logging.getLogger(__name__)

RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})
USER_AGENT = "warc2corpus-harvest (research corpus building; one request at a time)"


class FetchError(Exception):
    """A request that did not succeed after every retry; ``kind`` names the fault for the counts:
    ``unreachable`` (no connection), ``timeout``, ``truncated`` (the body ended early), ``http_<status>``."""

    def __init__(self, kind: str, message: str):
        super().__init__(message)
        self.kind = kind


@dataclass
class Answer:
    """A complete HTTP answer: status, reason, headers as sent (in order), the body as sent (transfer
    encoding undone, content encoding kept)."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes


@dataclass
class PoliteSession:
    rate: float = 0.5              # requests per second, at most
    timeout: float = 60.0          # seconds to connect, and between two reads
    retries: int = 4               # further attempts after a 429, a 5xx or a connection fault
    backoff: float = 5.0           # seconds before the first retry, doubled each time
    max_wait: float = 600.0        # the longest single wait (a Retry-After beyond it is cut to it)
    user_agent: str = USER_AGENT
    requests_made: int = 0
    _last: float = field(default=0.0, repr=False)
    _pool: urllib3.PoolManager = field(default_factory=urllib3.PoolManager, repr=False)

    def __post_init__(self):
        if self.rate <= 0:
            raise ValueError("rate must be above 0 requests per second")

    def get(self, url: str, params=None) -> Answer:
        """The answer to GET ``url`` (redirects are not followed: a capture of a redirect is a capture).
        A 429 or 5xx is retried; after the last retry it is returned as it is."""
        attempt = 0
        while True:
            self._pace()
            try:
                answer = self._get(url, params)
            except FetchError as exc:
                if attempt >= self.retries:
                    raise
                wait = self._backoff(attempt)
                log.warning("%s: %s; retry %d of %d in %.0f s", url, exc, attempt + 1, self.retries, wait)
            else:
                if answer.status not in RETRY_STATUSES or attempt >= self.retries:
                    return answer
                wait = self._retry_after(answer) or self._backoff(attempt)
                log.warning("%s: HTTP %d; retry %d of %d in %.0f s", url, answer.status, attempt + 1,
                            self.retries, wait)
            attempt += 1
            time.sleep(wait)

    def _get(self, url: str, params) -> Answer:
        self.requests_made += 1
        if params:
            url = f"{url}{'&' if '?' in url else '?'}{urlencode(params)}"
        # urllib3 itself, not requests: requests reads (and decodes) the body of a redirect it does not
        # follow, and a capture of a redirect must keep its body as archived.
        try:
            response = self._pool.request("GET", url, headers={"User-Agent": self.user_agent}, redirect=False,
                                          retries=False, preload_content=False, decode_content=False,
                                          timeout=urllib3.Timeout(connect=self.timeout, read=self.timeout))
            try:
                # the body as the archive holds it (a gzip payload stays gzip); urllib3 checks its length
                # against Content-Length and raises when it falls short
                body = response.read(decode_content=False)
            finally:
                response.release_conn()
            return Answer(response.status, response.reason or "", list(response.headers.items()), body)
        except (urllib3.exceptions.NewConnectionError, urllib3.exceptions.NameResolutionError) as exc:
            raise FetchError("unreachable", f"cannot connect: {_reason(exc)}") from exc
        except urllib3.exceptions.ConnectTimeoutError as exc:  # (NewConnectionError is one too)
            raise FetchError("timeout", f"no connection within {self.timeout:.0f} s") from exc
        except urllib3.exceptions.ReadTimeoutError as exc:
            raise FetchError("timeout", f"no data for {self.timeout:.0f} s") from exc
        except (urllib3.exceptions.ProtocolError, urllib3.exceptions.IncompleteRead) as exc:
            raise FetchError("truncated", f"the body ended early ({_reason(exc)})") from exc

    def _pace(self) -> None:
        wait = self._last + 1 / self.rate - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        self._last = time.monotonic()

    def _backoff(self, attempt: int) -> float:
        return min(self.backoff * 2 ** attempt, self.max_wait)

    def _retry_after(self, answer: Answer) -> float | None:
        value = next((v for k, v in answer.headers if k.lower() == "retry-after"), None)
        if value is None:
            return None
        value = value.strip()
        if value.isdigit():
            return min(float(value), self.max_wait)
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return min(max((when - datetime.now(timezone.utc)).total_seconds(), 0.0), self.max_wait)


def _reason(exc: BaseException) -> str:
    """What went wrong, without urllib3's wrappers: the system's error when there is one."""
    text = str(exc)
    found = re.search(r"\[Errno -?\d+\] [^\"')]+|Name or service not known|timed out|IncompleteRead\([^)]*\)", text)
    if found:
        return found.group(0).strip()
    return text if len(text) < 300 else text[:300] + "…"
