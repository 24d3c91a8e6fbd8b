"""What the stages hand each other (through XCom in the DAG): small typed manifests, never texts, and
where a WARC's staged files live. At run time they are plain dicts, JSON as XCom keeps them."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import NotRequired, TypedDict

from warc2corpus.store.staging import Staging


class WarcToProcess(TypedDict):
    """discover's answer, one per file: extract's input."""

    warc_file: str
    crawl_job: str


class Staged(TypedDict):
    """Staging keys of one WARC's results (gzipped JSON lines of warc2corpus.records)."""

    documents: str  # every document extract staged, never written again
    heads: str  # the heads (records.Head) of those still in: all after extract, then the allow-listed, the earliest
    autocat_pages: str
    revisits: str
    rejections: list[str]  # one file per stage that rejected records
    later_captures: NotRequired[str]


class FileManifest(TypedDict):
    """One WARC on its way through extract, filter, deduplicate and load."""

    warc_file: str
    crawl_job: str
    run_id: str
    status: str  # a records.FileStatus value
    read: NotRequired[dict]  # how far the file was read: status, error, error_class, last_good_offset
    error: NotRequired[str | None]
    capture_end: NotRequired[str | None]
    naturalness_model: NotRequired[int | None]
    staged: NotRequired[Staged]
    counts: dict


class AllowList(TypedDict):
    """refresh_allow_list's answer: the frozen allow-list's staging key and its size."""

    allow_list: str
    accepted: int
    hosts: int


def warc_prefix(staging: Staging, crawl_job: str, run_id: str, warc_file: str) -> str:
    """Where one WARC's staged files live within a run."""
    file_id = Path(warc_file).name + "-" + hashlib.sha1(warc_file.encode()).hexdigest()[:8]
    return staging.key(crawl_job, run_id, file_id)


def warc_key(staging: Staging, crawl_job: str, run_id: str, warc_file: str, name: str) -> str:
    return warc_prefix(staging, crawl_job, run_id, warc_file) + "/" + staging.key(name)
