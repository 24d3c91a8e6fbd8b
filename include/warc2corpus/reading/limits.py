"""Limits that keep one bad record from costing a whole run: size, decoded size, header size,
extraction time.

Defaults suit news pages; each can be set by an environment variable.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass

from warc2corpus import settings


class TimeLimitExceeded(BaseException):
    """Raised inside a block that ran longer than its limit. A BaseException, as asyncio's CancelledError
    is: the libraries a page goes through catch ``Exception`` broadly (trafilatura's JSON-LD reader
    among them), and one that caught the limit would let the rest of the page run without it."""


def _limit(variable: str, default: float) -> float:
    return settings.number(variable, default, above_zero=True)


@dataclass(frozen=True)
class Limits:
    max_record_bytes: int = 20 * 2**20      # WARC block of an HTML response; larger ones are skipped unread
    max_decoded_bytes: int = 40 * 2**20     # the page after gzip/br decoding (a bound against bombs)
    extraction_seconds: float = 30.0        # per document
    max_header_line_bytes: int = 64 * 2**10  # one line of a record's WARC (ARC) or HTTP headers
    max_header_bytes: int = 256 * 2**10     # a record's WARC headers, and its HTTP headers, each

    @classmethod
    def from_environment(cls) -> "Limits":
        return cls(
            max_record_bytes=int(_limit("WARC2CORPUS_MAX_RECORD_MB", 20) * 2**20),
            max_decoded_bytes=int(_limit("WARC2CORPUS_MAX_DECODED_MB", 40) * 2**20),
            extraction_seconds=_limit("WARC2CORPUS_EXTRACTION_SECONDS", 30.0),
            max_header_line_bytes=int(_limit("WARC2CORPUS_MAX_HEADER_LINE_KB", 64) * 2**10),
            max_header_bytes=int(_limit("WARC2CORPUS_MAX_HEADER_KB", 256) * 2**10),
        )


@contextmanager
def time_limit(seconds: float):
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` (wall clock).

    Uses SIGALRM, so it only acts in the main thread of a POSIX process (Airflow task processes
    and the CLI); elsewhere the block runs unlimited.
    """
    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum, frame):
        raise TimeLimitExceeded(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
