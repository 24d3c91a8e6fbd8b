"""The one way a record is turned away: every rejection, whatever the stage, goes through
:class:`RejectionWriter` with its stage and reason, is counted by reason and staged for the load
(table ``rejections``), so nothing is lost without a reason."""

from __future__ import annotations

from collections import Counter

from warc2corpus.records import Rejection
from warc2corpus.text import dedup

# Records of these types are part of every crawl and never candidate documents: counted, not rejected.
NOT_DOCUMENT_REASONS = {"not_a_response"}


def rejection(source: dict, stage: str, reason: str) -> Rejection:
    """A record or document that does not become a document: its back-pointer, host, stage and reason."""
    url = source.get("url")
    host = source.get("host") or _host(url)
    return Rejection(warc_file=source.get("warc_file"), record_offset=source.get("record_offset"),
                     record_id=source.get("record_id"), url=url, host=host,
                     harvest_time=source.get("harvest_time"), stage=stage, reason=reason)


def _host(url: str | None) -> str | None:
    """The URL's host; none where there is no URL, or none can be read from it (``bad_url``)."""
    try:
        return dedup.host_and_path(url)[0] if url else None
    except ValueError:
        return None


class RejectionWriter:
    """Rejections of one stage of one WARC, into a staging writer (``Staging.writer``)."""

    def __init__(self, out):
        self.out = out
        self.by_reason: Counter = Counter()

    def reject(self, source: dict, stage: str, reason: str) -> None:
        """``source``: the record's provenance or the staged document."""
        self.by_reason[reason] += 1
        if reason not in NOT_DOCUMENT_REASONS:
            self.out.write(rejection(source, stage, reason).to_dict())
