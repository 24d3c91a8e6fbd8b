"""The stages that run once per WARC file (mapped tasks in the DAG): extract -> filter -> deduplicate
-> load. Each takes the file's manifest and returns it, its staged keys and counts brought up to date."""

from __future__ import annotations

import logging
import time
from collections import Counter
from contextlib import ExitStack
from datetime import datetime, timezone
from typing import Callable, Iterator

import msgspec
import psycopg

from warc2corpus.reading.limits import Limits
from warc2corpus.records import Capture, FileStatus, Head, HostStatus, Revisit, Stage
from warc2corpus.stages.manifests import AllowList, FileManifest, warc_key, warc_prefix
from warc2corpus.stages.rejections import RejectionWriter
from warc2corpus.store import db, ledger
from warc2corpus.store.staging import Staging
from warc2corpus.text import dedup

log = logging.getLogger(__name__)


def extract(warc_file: str, crawl_job: str, run_id: str, *, staging: Staging | None = None,
            limits: Limits | None = None,
            on_progress: Callable[[Counter, int | None], None] | None = None) -> FileManifest:
    """Read one WARC, extract every HTML page of a host not held back (``pages.PagePipeline``), score the
    pages autoCat reads; stage the results.

    However broken the file, this returns: a file read up to a fault is ``partial`` (what came
    before is staged), one with nothing readable is ``quarantined``.
    """
    from warc2corpus.reading import notices, warcs
    from warc2corpus.stages import pages
    from warc2corpus.store import naturalness_models, publications
    from warc2corpus.text.extract import PageExtractor

    staging = staging or Staging()
    limits = limits or Limits.from_environment()
    started = datetime.now(timezone.utc)
    clock = time.monotonic()
    counts: Counter = Counter()
    warned: Counter = Counter()  # the libraries' warnings, by library (logged with file and offset)
    latest_capture = None
    reader = warcs.WarcReader(warc_file, limits)
    with db.connect() as conn:  # the model this file's paragraphs are judged by (the same on every run)
        naturalness_model, naturalness = naturalness_models.for_file(conn, warc_file)
        held_back = publications.held_back_hosts(conn)  # their pages are not extracted
    extractor = PageExtractor(naturalness)
    pages.freeze_long_lived_objects()

    def records(revisits) -> Iterator[pages.Page]:
        """The file's records as pages; revisits go straight to staging (resolved at load)."""
        nonlocal latest_capture
        for record in notices.per_record(reader.records(), warned):
            counts["records"] += 1
            if on_progress:  # bytes of the file read so far, where offsets are the file's own
                on_progress(counts, record.offset + record.length
                            if reader.outcome.layout in ("warc", "arc", "gzip-per-record") else None)
            counts[f"type:{record.record_type}"] += 1
            if record.harvest_time and (latest_capture is None or record.harvest_time > latest_capture):
                latest_capture = record.harvest_time
            if record.record_type == "revisit":
                counts["revisits"] += 1
                revisits.write(Revisit(**record.provenance(), refers_to=record.refers_to,
                                       refers_to_url=record.refers_to_url, payload_digest=record.payload_digest,
                                       profile=record.profile, refers_to_date=record.refers_to_date).to_dict())
                continue
            yield pages.Page(record)

    def documents(pipeline, revisits, heads):
        for line, document in enumerate(pipeline.run(records(revisits))):
            counts["documents"] += 1
            counts["digest_mismatch"] += document.digest_ok is False
            counts["truncated_captures"] += document.truncated is not None
            heads.write(Head(**{key: getattr(document, key) for key in Capture.keys()}, host=document.host,
                             n_tokens=document.n_tokens, line=line).to_dict())
            yield document.to_dict()

    keys = {name: warc_key(staging, crawl_job, run_id, warc_file, f"{name}.jsonl.gz")
            for name in ("extracted", "heads", "autocat_pages", "read_rejections", "revisits")}
    manifest = {"warc_file": warc_file, "crawl_job": crawl_job, "run_id": run_id}
    # Rejections, revisits and the pages autoCat scored go straight to staging: however many records
    # and hosts a file holds, memory keeps only counts.
    with ExitStack() as outputs:
        rejections = RejectionWriter(outputs.enter_context(staging.writer(keys["read_rejections"])))
        revisits = outputs.enter_context(staging.writer(keys["revisits"]))
        heads = outputs.enter_context(staging.writer(keys["heads"]))
        autocat_pages = outputs.enter_context(staging.writer(keys["autocat_pages"]))
        steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), pages.ScoreAutocat(autocat_pages.write),
                 pages.SkipHeldBackHost(held_back, extractor),
                 pages.Bounded([pages.Extract(extractor), pages.Build(crawl_job)],
                               limits.extraction_seconds, warc_file)]
        pipeline = pages.PagePipeline(steps, rejections)
        staging.write_jsonl(keys["extracted"], documents(pipeline, revisits, heads))
    outcome = reader.outcome
    elapsed = time.monotonic() - clock
    skipped = dict(rejections.by_reason)
    summary = {**counts, "skipped": skipped, "autocat_pages": autocat_pages.count,
               "seconds": round(elapsed, 3), "layout": outcome.layout, "read": outcome.status,
               "warnings": dict(warned)}
    fault = {"error": outcome.error, "error_class": outcome.error_class,
             "last_good_offset": outcome.last_good_offset if outcome.status != "complete" else None}
    if outcome.status == "unreadable" or outcome.transient:  # broken bytes, or a passing fault: nothing loaded
        with db.connect() as conn:
            status = ledger.mark_fault(conn, warc_file, transient=outcome.transient, counts=summary,
                                       started_at=started, layout=outcome.layout, **fault)
            conn.commit()
        log.error("%s %s: %s", warc_file, status, outcome.error)
        staging.remove(warc_prefix(staging, crawl_job, run_id, warc_file))
        return {**manifest, "status": status, "error": outcome.error, "counts": summary}
    with db.connect() as conn:
        ledger.mark(conn, warc_file, FileStatus.EXTRACTED, counts=summary, capture_end=latest_capture,
                    started_at=started, layout=outcome.layout, naturalness_model=naturalness_model, **fault)
        conn.commit()
    if outcome.status == "partial":
        log.error("%s is partial (%d records read, the last ending at byte %d): %s", warc_file, outcome.records,
                  outcome.last_good_offset, outcome.error)
    log.info("%s: %d records read, %d documents extracted (%.1f docs/s), %d revisits, skipped %s",
             warc_file, counts["records"], counts["documents"], counts["documents"] / max(elapsed, 1e-9),
             counts["revisits"], skipped)
    log.debug("%s: per step %s", warc_file, pipeline.stats())
    return {
        **manifest,
        "status": FileStatus.EXTRACTED,
        "read": {"status": outcome.status, **fault},
        "capture_end": latest_capture,
        "naturalness_model": naturalness_model,
        "staged": {"documents": keys["extracted"], "heads": keys["heads"], "autocat_pages": keys["autocat_pages"],
                   "revisits": keys["revisits"], "rejections": [keys["read_rejections"]]},
        "counts": summary,
    }


def filter(manifest: FileManifest, allow_list: AllowList, *, staging: Staging | None = None) -> FileManifest:
    """Keep documents of allow-listed hosts; the others are rejected with the host's status. Reads
    and writes the documents' heads (``records.Head``), never a document."""
    if manifest["status"] != FileStatus.EXTRACTED:
        return manifest
    staging = staging or Staging()
    statuses = staging.read_json(allow_list["allow_list"])
    warc_file, job, run = manifest["warc_file"], manifest["crawl_job"], manifest["run_id"]
    kept_key = warc_key(staging, job, run, warc_file, "filtered_heads.jsonl.gz")
    rejected_key = warc_key(staging, job, run, warc_file, "filter_rejections.jsonl.gz")
    with staging.writer(kept_key) as kept, staging.writer(rejected_key) as out:
        rejected = RejectionWriter(out)
        for line in staging.read_lines(_heads(manifest)):
            head = _decode(line)
            status = statuses.get(head["host"], HostStatus.UNASSESSED)
            if status == HostStatus.ACCEPTED:
                kept.write_line(line)
            else:
                rejected.reject(head, Stage.FILTER, f"host_{status}")
    n_kept = kept.count
    reasons = dict(rejected.by_reason)
    log.info("%s: %d documents of allow-listed hosts kept, filtered out %s", warc_file, n_kept, reasons)
    return {
        **manifest,
        "staged": {**manifest["staged"], "heads": kept_key,
                   "rejections": [*manifest["staged"]["rejections"], rejected_key]},
        "counts": {**manifest["counts"], "kept_by_allow_list": n_kept, "filtered": reasons},
    }


def deduplicate(manifest: FileManifest, *, staging: Staging | None = None) -> FileManifest:
    """Drop empty texts; keep the earliest capture per document within the file (the load step
    settles earliest-wins against the corpus). Two passes over the documents' heads (``records.Head``),
    never a document: memory holds one small tuple per document."""
    if manifest["status"] != FileStatus.EXTRACTED:
        return manifest
    staging = staging or Staging()
    source = _heads(manifest)

    def heads() -> Iterator[tuple[bytes, dict]]:
        for line in staging.read_lines(source):
            yield line, _decode(line)

    earliest = dedup.earliest_captures(head for _, head in heads())
    warc_file, job, run = manifest["warc_file"], manifest["crawl_job"], manifest["run_id"]
    keys = {name: warc_key(staging, job, run, warc_file, f"{name}.jsonl.gz")
            for name in ("unique_heads", "later_captures", "dedup_rejections")}
    with staging.writer(keys["unique_heads"]) as unique, staging.writer(keys["later_captures"]) as later, \
            staging.writer(keys["dedup_rejections"]) as out:
        empty = RejectionWriter(out)
        for line, head in heads():
            kind = dedup.capture_kind(head, earliest)
            if kind == "earliest":
                unique.write_line(line)
            elif kind == "later":
                later.write({k: head[k] for k in Capture.keys()})
            else:
                empty.reject(head, Stage.DEDUPLICATE, "empty_text")
    n_empty = empty.by_reason["empty_text"]
    log.info("%s: %d distinct documents, %d later captures of them, %d empty texts dropped",
             warc_file, unique.count, later.count, n_empty)
    return {
        **manifest,
        "staged": {**manifest["staged"], "heads": keys["unique_heads"], "later_captures": keys["later_captures"],
                   "rejections": [*manifest["staged"]["rejections"], keys["dedup_rejections"]]},
        "counts": {**manifest["counts"], "distinct_in_file": unique.count,
                   "later_captures_in_file": later.count, "empty_text": n_empty},
    }


def _heads(manifest: FileManifest) -> str:
    """The staging key of the file's documents' heads; a manifest staged before there were heads (a
    run under way when warc2corpus was upgraded) says how to stage it again, rather than fail on a key."""
    heads = manifest["staged"].get("heads")
    if heads is None:
        raise ValueError(f"{manifest['warc_file']} was staged by an earlier warc2corpus, without the documents' "
                         "heads: clear this file's extract task (or run the file again) to stage it anew")
    return heads


# Heads and documents are read as staged, not checked against ``records``' types: a record without a date
# or an id still has its document loaded.
_decode = msgspec.json.Decoder().decode


def _documents_left_in(staging: Staging, staged: dict) -> Callable[[], Iterator[dict]]:
    """The staged documents whose heads are still in (``staged["heads"]``), in the order staged: each
    call reads them afresh, decoding only those."""
    lines = {head["line"] for head in map(_decode, staging.read_lines(staged["heads"]))}

    def documents() -> Iterator[dict]:
        for line, document in enumerate(staging.read_lines(staged["documents"])):
            if line in lines:
                yield _decode(document)
    return documents


def load(manifest: FileManifest, *, staging: Staging | None = None) -> FileManifest:
    """Load one WARC's results in one transaction with its ledger row (``store.load.load_warc``); then
    clear its staging."""
    from warc2corpus.store import load as store_load

    if manifest["status"] != FileStatus.EXTRACTED:
        return manifest
    staging = staging or Staging()
    staged = manifest["staged"]
    final_status = FileStatus.PARTIAL if manifest["read"]["status"] == "partial" else FileStatus.LOADED
    with db.connect() as conn:
        try:
            outcome = store_load.load_warc(
                conn, manifest["warc_file"],
                documents=_documents_left_in(staging, staged),
                later_captures=lambda: staging.read_jsonl(staged["later_captures"]),
                rejections=(r for key in staged["rejections"] for r in staging.read_jsonl(key)),
                revisits=staging.read_jsonl(staged["revisits"]),
                status=final_status, counts=manifest["counts"], capture_end=manifest.get("capture_end"),
                fault=manifest["read"],
            )
        except psycopg.OperationalError as exc:  # the server went away: the transaction did not commit
            what, reason, advice = db.operational_failure(exc)
            raise db.DatabaseError(
                f"{what} while loading {manifest['warc_file']} ({reason}): nothing of the file was loaded (its "
                f"transaction was rolled back; the ledger does not mark it loaded); {advice}") from exc
    staging.remove(warc_prefix(staging, manifest["crawl_job"], manifest["run_id"], manifest["warc_file"]))
    log.info("%s %s: %s", manifest["warc_file"], final_status, outcome)
    return {**{k: v for k, v in manifest.items() if k != "staged"}, "status": final_status,
            "counts": {**manifest["counts"], "load": outcome}}
