"""What the libraries say while one record is read and extracted, kept with the record.

warcio, trafilatura, htmldate, courlan and justext warn through Python's ``warnings``, their
``logging`` loggers or (warcio) straight to stderr, never naming the WARC file; what libxml2 reports
that changes a page's text (its depth limit, ``text.extract.parse``) is logged as ``lxml``'s. :func:`captured`
collects those messages during one record's reading or extraction instead of letting them reach
the terminal; :func:`per_record` logs them once per record as ``<file>:<offset>: <library>:
<message>`` and counts them by library.
"""

from __future__ import annotations

import io
import logging
import sys
import warnings
from collections import Counter
from contextlib import contextmanager, nullcontext, redirect_stderr
from dataclasses import dataclass
from typing import Iterable, Iterator

log = logging.getLogger(__name__)

LIBRARY_LOGGERS = ("warcio", "trafilatura", "htmldate", "courlan", "justext", "charset_normalizer", "lxml")
MESSAGE_CHARACTERS = 300


@dataclass(frozen=True)
class Notice:
    library: str
    level: int  # a logging level
    message: str


class _Collector(logging.Handler):
    """Keeps INFO and above; DEBUG records go on to the root logger's handlers as before."""

    def __init__(self, into: list[Notice]):
        super().__init__(logging.NOTSET)
        self.into = into

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno < logging.INFO:
            logging.getLogger().handle(record)
        else:
            self.into.append(Notice(record.name.split(".")[0], record.levelno, _one_line(record.getMessage())))


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MESSAGE_CHARACTERS else line[:MESSAGE_CHARACTERS] + "…"


def _warning_keeper(into: list[Notice]):
    """A ``warnings.showwarning`` that keeps the warning, named after the module that issued it (the
    frame that called warnings.warn, whatever the stacklevel says)."""

    def keep(message, category, filename, lineno, file=None, line=None):
        frame = sys._getframe(1)
        while frame is not None and frame.f_globals.get("__name__", "").startswith("warnings"):
            frame = frame.f_back
        library = frame.f_globals.get("__name__", "").split(".")[0] if frame is not None else ""
        into.append(Notice(library or category.__module__, logging.WARNING,
                           _one_line(f"{category.__name__}: {message}")))
    return keep


@contextmanager
def captured(into: list[Notice], *, stderr_library: str | None = None) -> Iterator[list[Notice]]:
    """Collect the libraries' log records and Python warnings raised in the block into ``into``
    (they do not reach other handlers meanwhile). With ``stderr_library``, what the block writes to
    sys.stderr is collected too, as that library's (warcio writes its warnings there)."""
    loggers = [logging.getLogger(name) for name in LIBRARY_LOGGERS]
    propagate = [logger.propagate for logger in loggers]
    collector = _Collector(into)
    for logger in loggers:
        logger.addHandler(collector)
        logger.propagate = False
    stderr = io.StringIO() if stderr_library else None
    try:
        with warnings.catch_warnings(), (redirect_stderr(stderr) if stderr is not None else nullcontext()):
            warnings.showwarning = _warning_keeper(into)
            yield into
    finally:
        for logger, flag in zip(loggers, propagate):
            logger.removeHandler(collector)
            logger.propagate = flag
        if stderr is not None and stderr.getvalue().strip():
            into.append(Notice(stderr_library, logging.WARNING, _one_line(stderr.getvalue())))


def report(warc_file: str, offset: int, notices: Iterable[Notice], counts: Counter) -> None:
    """Log each distinct notice of one record once, with its file and offset (warnings and errors
    at WARNING, the rest at INFO); count the warnings and errors by library."""
    seen: Counter = Counter((n.library, n.level, n.message) for n in notices)
    for (library, level, message), times in seen.items():
        warning = level >= logging.WARNING
        if warning:
            counts[library] += times
        log.log(logging.WARNING if warning else logging.INFO, "%s:%d: %s: %s%s",
                warc_file, offset, library, message, f" ({times} times)" if times > 1 else "")


def per_record(records: Iterable, counts: Counter) -> Iterator:
    """The records, each handled by the caller's loop body while that body's notices are collected;
    a record's notices (those of its reading, then of its handling) are reported when the caller
    asks for the next record."""
    for record in records:
        notices = list(record.notices)
        try:
            with captured(notices):
                yield record
        finally:
            report(record.warc_file, record.offset, notices, counts)
