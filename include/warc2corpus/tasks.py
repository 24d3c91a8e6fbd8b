"""The pipeline's stages as plain functions. The DAG's tasks and ``warc2corpus run`` call these.

Each stage takes and returns a small manifest (paths in the staging area, ids and counts, never
document texts). Per crawl job: discover -> extract (per WARC) -> autocat -> refresh allow-list ->
filter -> deduplicate -> load (each per WARC) -> train the naturalness model (when the corpus has grown)
and find near-duplicates (of the documents not signed yet).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import stat
import time
import unicodedata
from collections import Counter
from contextlib import ExitStack
from datetime import datetime, timezone
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

import psycopg

from warc2corpus import autocat, db, dedup, ledger, publications
from warc2corpus.crawljobs import CrawlJob
from warc2corpus.limits import Limits, TimeLimitExceeded, time_limit
from warc2corpus.staging import Staging

log = logging.getLogger(__name__)

# Records of these types are part of every crawl and never candidate documents: counted, not rejected.
NOT_DOCUMENT_REASONS = {"not_a_response"}


def _warc_prefix(staging: Staging, crawl_job: str, run_id: str, warc_file: str) -> str:
    """Where one WARC's staged files live within a run."""
    file_id = Path(warc_file).name + "-" + hashlib.sha1(warc_file.encode()).hexdigest()[:8]
    return staging.key(crawl_job, run_id, file_id)


def _warc_key(staging: Staging, crawl_job: str, run_id: str, warc_file: str, name: str) -> str:
    return _warc_prefix(staging, crawl_job, run_id, warc_file) + "/" + staging.key(name)


# ---------------------------------------------------------------------------------------------
# discover
# ---------------------------------------------------------------------------------------------

def _describe_interval(interval: tuple[datetime, datetime] | None) -> str:
    """"captured 2019-03-05" for a one-day interval, ISO times otherwise: never a Python repr in a log."""
    if interval is None:
        return "every file not loaded yet"
    start, end = (datetime.fromtimestamp(t.timestamp(), timezone.utc) for t in interval)
    if start.time() == end.time() == datetime.min.time() and (end - start).days == 1:
        return f"captured {start:%Y-%m-%d}"
    return f"captured from {start.isoformat()} to {end.isoformat()}"


def discover(job: CrawlJob, *, interval: tuple[datetime, datetime] | None = None,
             reprocess: bool = False) -> list[dict]:
    """Register the job's WARC files in the ledger; return those this run should process.

    With an interval (scheduled and backfill runs) only files whose capture start falls in it;
    without one, every file. Files already loaded are left out unless ``reprocess``; files flagged
    for readmission (see :func:`publications.flag_readmissions`) or re-queued, and ``retry`` files
    whose next attempt has come, are always taken. Files that may still be being written (changed
    between two looks, or modified within the settle time) wait for a later run; a file that cannot
    be looked at is logged and skipped.
    """
    selected, seen, waiting = [], 0, 0
    settle = ledger.settle_seconds()
    first_looks = {}
    for path in job.warc_files():
        try:
            first_looks[path] = path.stat()
        except OSError as exc:
            log.warning("crawl job %s: skipped %s: %s", job.name, path, exc.strerror or exc)
    with db.connect() as conn:
        for path, first_look in first_looks.items():
            seen += 1
            try:
                unsettled = ledger.unsettled(path, first_look, settle)
                if unsettled:
                    log.info("crawl job %s: %s left for a later run: %s", job.name, path, unsettled)
                    waiting += 1
                    continue
                row = ledger.register(conn, job, path)
            except OSError as exc:
                log.warning("crawl job %s: skipped %s: %s", job.name, path, exc.strerror or exc)
                continue
            if row["readmit"] or ledger.retry_due(row):
                selected.append({"warc_file": row["path"], "crawl_job": job.name})
                continue
            if (row["status"] in ledger.DONE or row["status"] == "retry") and not reprocess:
                continue
            if ledger.in_interval(row["capture_start"], interval):
                selected.append({"warc_file": row["path"], "crawl_job": job.name})
        conn.commit()
    log.info("crawl job %s: %d WARC files found in %s, %d to process (%s, reprocess %s)",
             job.name, seen, job.directory, len(selected), _describe_interval(interval), reprocess)
    if waiting:
        log.info("crawl job %s: %d files may still be being written, left for a later run", job.name, waiting)
    return selected


# ---------------------------------------------------------------------------------------------
# extract
# ---------------------------------------------------------------------------------------------

def build_document(record, extracted, crawl_job: str) -> dict:
    """The staged form of one extracted page: provenance, metadata, paragraphs with tokens."""
    from warc2corpus import language, tokens

    paragraphs = [unicodedata.normalize("NFC", p) for p in extracted.paragraphs]
    tokenised = [tokens.tokenize(p) for p in paragraphs]
    host, path = dedup.host_and_path(record.url)
    sha1 = dedup.text_sha1(paragraphs)
    languages = language.of_paragraphs(paragraphs, [len(t) for t, _ in tokenised])
    dropped = extracted.dropped
    quality = {
        "page_type": extracted.page_type,
        "mixed_language": languages.mixed,
        "language_shares": json.dumps(languages.shares),
        "dropped": json.dumps(dropped, sort_keys=True),
        "text_source": extracted.source,
        # Every paragraph dropped: the document is rejected, with the reason most paragraphs went for.
        "rejected": (f"all_paragraphs_dropped_{max(sorted(dropped), key=dropped.get)}"
                     if not paragraphs and dropped else None),
    }
    return {
        **record.provenance(),
        "crawl_job": crawl_job,
        "doc_id": dedup.document_id(sha1, host, path),
        "text_sha1": sha1,
        "host": host,
        "url_path": path,
        "title": extracted.title,
        "author": extracted.author,
        "published": extracted.published,
        "language": languages.language,
        "n_paragraphs": len(paragraphs),
        "n_tokens": sum(len(t) for t, _ in tokenised),
        "paragraphs": [[p, t, s, lang] for p, (t, s), lang in zip(paragraphs, tokenised, languages.paragraphs)],
        **quality,
    }


def _rejection(record_or_doc: dict, stage: str, reason: str) -> dict:
    """A record that does not become a document: its back-pointer, host, stage and reason."""
    keys = ("warc_file", "record_offset", "record_id", "url", "harvest_time")
    url = record_or_doc.get("url")
    host = record_or_doc.get("host") or (dedup.host_and_path(url)[0] if url else None)
    return {**{k: record_or_doc.get(k) for k in keys}, "host": host, "stage": stage, "reason": reason}


def _wayback_skip(record) -> str | None:
    """Wayback's own redirect and not-found responses are not documents."""
    from warc2corpus import wayback

    if record.skip_reason != "http_status" or wayback.parse_url(record.url) is None:
        return None
    if record.http_status == 404:
        return "wayback_not_found"
    if record.http_status and 300 <= record.http_status < 400:
        return "wayback_redirect"
    return None


def _revisit(record) -> dict:
    return {**record.provenance(), "refers_to": record.refers_to, "refers_to_url": record.refers_to_url,
            "payload_digest": record.payload_digest, "profile": record.profile}


@lru_cache(maxsize=1)
def _freeze_long_lived_objects() -> None:
    """Once per process: load the language models, then move everything alive (modules, models) out
    of the cyclic garbage collector's sight, so that its full collections walk only what pages
    allocate (about 0.3 s in 20 on the bench's WARC)."""
    import gc

    from warc2corpus import language

    language.preload()
    gc.collect()
    gc.freeze()


def extract_warc(warc_file: str, crawl_job: str, run_id: str, *, staging: Staging | None = None,
                 limits: Limits | None = None,
                 on_progress: Callable[[Counter, int | None], None] | None = None) -> dict:
    """Read one WARC, extract every HTML page, score its front pages; stage the results.

    However broken the file, this returns: a file read up to a fault is ``partial`` (what came
    before is staged), one with nothing readable is ``quarantined``.
    """
    from warc2corpus import charsets, extract, notices, wayback, warcs

    staging = staging or Staging()
    limits = limits or Limits.from_environment()
    started = datetime.now(timezone.utc)
    clock = time.monotonic()
    counts: Counter = Counter()
    skipped: Counter = Counter()
    warned: Counter = Counter()  # the libraries' warnings, by library (logged with file and offset)
    # Rejections and revisits go straight to staging: however many records a file holds, memory
    # keeps only counts (and the bounded autoCat pages).
    outputs = ExitStack()
    scored_pages: list[dict] = []  # every page autoCat scored (front and supporting pages)
    autocat_pages: Counter = Counter()  # (host, kind, "read"/"stored") -> pages
    latest_capture = None
    reader = warcs.WarcReader(warc_file, limits)
    extractor = extract.PageExtractor(warc_file)  # one parse per page; this file's templates as they build
    _freeze_long_lived_objects()

    def skip(record, reason: str, stage: str = "read") -> None:
        skipped[reason] += 1
        if reason not in NOT_DOCUMENT_REASONS:
            rejections.write(_rejection(record.provenance(), stage, reason))

    def documents() -> Iterable[dict]:
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
                revisits.write(_revisit(record))
                continue
            if record.skip_reason:
                skip(record, _wayback_skip(record) or record.skip_reason)
                continue
            page = wayback.unwrap(charsets.decode_html(record.body, record.content_type), record.url,
                                  record.http_status)
            if page.kind != "page":
                skip(record, f"wayback_{page.kind}")
                continue
            html, record_url = page.html, None
            if page.capture:  # the document is the original page, captured when Wayback says
                record_url = record.url
                record = dataclasses.replace(record, url=page.url,
                                             harvest_time=warcs.iso_utc(page.capture.capture_time))
            host, _ = dedup.host_and_path(record.url)
            tree = extract.parse(html)  # once, for autoCat and the extraction
            if not autocat.host_is_skipped(host):
                # autoCat: every front page, and a few other pages per host and file ("om oss",
                # "kontakt", article footers) for hosts whose front page is silent (autocat.assess_host).
                kind = autocat.page_kind(record.url)
                stored, read = autocat_pages[host, kind, "stored"], autocat_pages[host, kind, "read"]
                if kind == "front" or (stored < autocat.SUPPORTING_PAGES_PER_HOST[kind]
                                       and read < 10 * autocat.SUPPORTING_PAGES_PER_HOST[kind]):
                    scored = autocat.score_page(html, record.url, kind=kind, tree=tree)
                    autocat_pages[host, kind, "read"] += 1
                    if kind == "front" or scored.evidence.get("items") or not stored:
                        autocat_pages[host, kind, "stored"] += 1
                        scored_pages.append({**record.provenance(), "host": host, "kind": kind,
                                            "score": scored.score, "evidence": scored.evidence})
            try:
                with time_limit(limits.extraction_seconds):
                    document = build_document(record, extractor(html, record.url, tree=tree), crawl_job)
            except TimeLimitExceeded:
                log.warning("extraction of %s at %s:%d took longer than %g s: skipped", record.url, warc_file,
                            record.offset, limits.extraction_seconds)
                skip(record, "timeout", "extract")
                continue
            except Exception as exc:  # one bad page never stops the file
                log.warning("extraction failed for %s at %s:%d: %r", record.url, warc_file, record.offset, exc)
                skip(record, "extraction_error", "extract")
                continue
            if document.get("rejected"):  # every paragraph was dropped: rejected with the main reason
                skip(record, document["rejected"], "extract")
                continue
            document.update(record_url=record_url, payload_digest=record.payload_digest,
                            digest_ok=record.digest_ok)
            counts["documents"] += 1
            counts["digest_mismatch"] += record.digest_ok is False
            yield document

    keys = {name: _warc_key(staging, crawl_job, run_id, warc_file, f"{name}.jsonl.gz")
            for name in ("extracted", "autocat_pages", "read_rejections", "revisits")}
    manifest = {"warc_file": warc_file, "crawl_job": crawl_job, "run_id": run_id}
    with outputs:
        rejections = outputs.enter_context(staging.writer(keys["read_rejections"]))
        revisits = outputs.enter_context(staging.writer(keys["revisits"]))
        staging.write_jsonl(keys["extracted"], documents())
    outcome = reader.outcome
    elapsed = time.monotonic() - clock
    summary = {**counts, "skipped": dict(skipped), "autocat_pages": len(scored_pages), "seconds": round(elapsed, 3),
               "layout": outcome.layout, "read": outcome.status, "warnings": dict(warned)}
    fault = {"error": outcome.error, "error_class": outcome.error_class,
             "last_good_offset": outcome.last_good_offset if outcome.status != "complete" else None}
    if outcome.status == "unreadable" or outcome.transient:  # broken bytes, or a passing fault: nothing loaded
        with db.connect() as conn:
            status = ledger.mark_fault(conn, warc_file, transient=outcome.transient, counts=summary,
                                       started_at=started, layout=outcome.layout, **fault)
            conn.commit()
        log.error("%s %s: %s", warc_file, status, outcome.error)
        staging.remove(_warc_prefix(staging, crawl_job, run_id, warc_file))
        return {**manifest, "status": status, "error": outcome.error, "counts": summary}
    staging.write_jsonl(keys["autocat_pages"], scored_pages)
    with db.connect() as conn:
        ledger.mark(conn, warc_file, "extracted", counts=summary, capture_end=latest_capture, started_at=started,
                    layout=outcome.layout, naturalness_model=extractor.naturalness_model, **fault)
        conn.commit()
    if outcome.status == "partial":
        log.error("%s is partial: read %d records up to byte %d, then %s", warc_file, outcome.records,
                  outcome.last_good_offset, outcome.error)
    log.info("%s: %d records read, %d documents extracted (%.1f docs/s), %d revisits, skipped %s",
             warc_file, counts["records"], counts["documents"], counts["documents"] / max(elapsed, 1e-9),
             counts["revisits"], dict(skipped))
    return {
        **manifest,
        "status": "extracted",
        "read": {"status": outcome.status, **fault},
        "capture_end": latest_capture,
        "naturalness_model": extractor.naturalness_model,
        "staged": {"documents": keys["extracted"], "autocat_pages": keys["autocat_pages"],
                   "revisits": keys["revisits"], "rejections": [keys["read_rejections"]]},
        "counts": summary,
    }


# ---------------------------------------------------------------------------------------------
# autoCat and the allow-list
# ---------------------------------------------------------------------------------------------

def run_autocat(manifests: list[dict], *, staging: Staging | None = None) -> dict:
    """Store the pages autoCat scored in the run's WARCs (front pages, and the few other pages per
    host it reads when a front page is silent) and recompute the verdict of their hosts over all
    their pages ever seen; documents of hosts now rejected are withdrawn."""
    staging = staging or Staging()
    pages = [page for m in manifests if m["status"] == "extracted"
             for page in staging.read_jsonl(m["staged"]["autocat_pages"])]
    with db.connect() as conn:
        publications.lock_allow_list(conn)
        hosts = publications.store_pages(conn, pages)
        statuses = publications.refresh_hosts(conn, hosts)
        readmit = publications.flag_readmissions(conn)
        conn.commit()
    fronts = sum(1 for p in pages if p.get("kind", "front") == "front")
    log.info("autoCat: %d front pages and %d other pages of %d hosts; hosts now %s; %d WARC files flagged to "
             "load again for newly accepted hosts", fronts, len(pages) - fronts, len(hosts), dict(statuses), readmit)
    return {"front_pages": fronts, "other_pages": len(pages) - fronts, "hosts": len(hosts),
            "statuses": dict(statuses), "readmit": readmit}


def refresh_allowlist(crawl_job: str, run_id: str, *, staging: Staging | None = None) -> dict:
    """Freeze the allow-list for this run's filter tasks: every known host with its status in force
    (a person's decision, else the register's, else autoCat's; view host_status)."""
    staging = staging or Staging()
    with db.connect() as conn:
        statuses = publications.host_statuses(conn)
    key = staging.key(crawl_job, run_id, "allow_list.json.gz")
    staging.write_json(key, statuses)
    accepted = sum(1 for s in statuses.values() if s == "accepted")
    log.info("allow-list: %d accepted of %d known hosts", accepted, len(statuses))
    return {"allow_list": key, "accepted": accepted, "hosts": len(statuses)}


# ---------------------------------------------------------------------------------------------
# filter, deduplicate, load (per WARC)
# ---------------------------------------------------------------------------------------------

def filter_warc(manifest: dict, allow_list: dict, *, staging: Staging | None = None) -> dict:
    """Keep documents of allow-listed hosts; the others are rejected with the host's status."""
    if manifest["status"] != "extracted":
        return manifest
    staging = staging or Staging()
    statuses = staging.read_json(allow_list["allow_list"])
    reasons: Counter = Counter()
    warc_file, job, run = manifest["warc_file"], manifest["crawl_job"], manifest["run_id"]
    kept_key = _warc_key(staging, job, run, warc_file, "filtered.jsonl.gz")
    rejected_key = _warc_key(staging, job, run, warc_file, "filter_rejections.jsonl.gz")
    with staging.writer(kept_key) as kept, staging.writer(rejected_key) as rejected:
        for doc in staging.read_jsonl(manifest["staged"]["documents"]):
            status = statuses.get(doc["host"], "unassessed")
            if status == "accepted":
                kept.write(doc)
            else:
                reasons[f"host_{status}"] += 1
                rejected.write(_rejection(doc, "filter", f"host_{status}"))
    n_kept = kept.count
    log.info("%s: %d documents of allow-listed hosts kept, filtered out %s", warc_file, n_kept, dict(reasons))
    return {
        **manifest,
        "staged": {**manifest["staged"], "documents": kept_key,
                   "rejections": [*manifest["staged"]["rejections"], rejected_key]},
        "counts": {**manifest["counts"], "kept_by_allow_list": n_kept, "filtered": dict(reasons)},
    }


CAPTURE_KEYS = ("warc_file", "record_offset", "record_length", "record_id", "url", "harvest_time", "doc_id",
                "record_url", "payload_digest", "digest_ok")


def dedup_warc(manifest: dict, *, staging: Staging | None = None) -> dict:
    """Drop empty texts; keep the earliest capture per document within the file (the load step
    settles earliest-wins against the corpus). Two passes over the staged file: memory holds
    one small tuple per document, not the documents."""
    if manifest["status"] != "extracted":
        return manifest
    staging = staging or Staging()
    source = manifest["staged"]["documents"]
    earliest = dedup.earliest_captures(staging.read_jsonl(source))
    warc_file, job, run = manifest["warc_file"], manifest["crawl_job"], manifest["run_id"]
    keys = {name: _warc_key(staging, job, run, warc_file, f"{name}.jsonl.gz")
            for name in ("unique", "later_captures", "dedup_rejections")}
    with staging.writer(keys["unique"]) as unique, staging.writer(keys["later_captures"]) as later, \
            staging.writer(keys["dedup_rejections"]) as empty:
        for doc in staging.read_jsonl(source):
            kind = dedup.classify(doc, earliest)
            if kind == "earliest":
                unique.write(doc)
            elif kind == "later":
                later.write({k: doc.get(k) for k in CAPTURE_KEYS})
            else:
                empty.write(_rejection(doc, "dedup", "empty_text"))
    log.info("%s: %d distinct documents, %d later captures of them, %d empty texts dropped",
             warc_file, unique.count, later.count, empty.count)
    return {
        **manifest,
        "staged": {**manifest["staged"], "documents": keys["unique"], "later_captures": keys["later_captures"],
                   "rejections": [*manifest["staged"]["rejections"], keys["dedup_rejections"]]},
        "counts": {**manifest["counts"], "distinct_in_file": unique.count,
                   "later_captures_in_file": later.count, "empty_text": empty.count},
    }


def load_warc_results(manifest: dict, *, staging: Staging | None = None) -> dict:
    """Load one WARC's results in one transaction with its ledger row; then clear its staging."""
    from warc2corpus import load

    if manifest["status"] != "extracted":
        return manifest
    staging = staging or Staging()
    staged = manifest["staged"]
    final_status = "partial" if manifest["read"]["status"] == "partial" else "loaded"
    with db.connect() as conn:
        try:
            outcome = load.load_warc(
                conn, manifest["warc_file"],
                documents=lambda: staging.read_jsonl(staged["documents"]),
                later_captures=lambda: staging.read_jsonl(staged["later_captures"]),
                rejections=(r for key in staged["rejections"] for r in staging.read_jsonl(key)),
                revisits=staging.read_jsonl(staged["revisits"]),
                status=final_status, counts=manifest["counts"], capture_end=manifest.get("capture_end"),
                fault=manifest["read"],
            )
        except psycopg.OperationalError as exc:  # the server went away: the transaction did not commit
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise db.DatabaseError(
                f"lost the corpus database while loading {manifest['warc_file']} ({reason}): nothing of the file "
                "was loaded (its transaction was rolled back; the ledger does not mark it loaded); run again "
                "once the database is back") from exc
    staging.remove(_warc_prefix(staging, manifest["crawl_job"], manifest["run_id"], manifest["warc_file"]))
    log.info("%s %s: %s", manifest["warc_file"], final_status, outcome)
    return {**{k: v for k, v in manifest.items() if k != "staged"}, "status": final_status,
            "counts": {**manifest["counts"], "load": outcome}}


def summarise_loads(results: Iterable[dict]) -> dict:
    """What a run did to the corpus, from its files' final manifests: files by status, documents new
    and extracted, and every record that did not become a new document, by reason (the corpus
    asset's event carries this, so the run's counts show in Airflow's UI)."""
    files, new, records, extracted = Counter(), 0, 0, 0
    not_new: Counter = Counter()
    for result in results:
        files[result["status"]] += 1
        counts = result.get("counts", {})
        load = counts.get("load", {})
        new += load.get("new_documents", 0)
        records += counts.get("records", 0)
        extracted += counts.get("documents", 0)
        for group in ("skipped", "filtered"):
            not_new.update(counts.get(group, {}))
        not_new["empty_text"] += counts.get("empty_text", 0)
        # a capture of a document already in the corpus is a duplicate whether it is later or earlier (an older
        # file loaded after a newer one): the count must not depend on the order the files load in
        not_new["duplicate"] += (counts.get("later_captures_in_file", 0)
                                 + load.get("later_capture_of_corpus_document", 0)
                                 + load.get("earlier_capture_of_corpus_document", 0))
    return {"files": dict(files), "records": records, "documents_extracted": extracted, "new_documents": new,
            "not_new_by_reason": {k: v for k, v in sorted(not_new.items()) if v}}


def train_naturalness(*, force: bool = False) -> dict:
    """After loading: a new naturalness model from the corpus when it has grown enough since the
    last one (``naturalness.refresh``); later extractions use it."""
    from warc2corpus import naturalness

    with db.connect() as conn:
        outcome = naturalness.refresh(conn, force=force)
    log.info("naturalness model: %s", outcome)
    return outcome


def find_near_duplicates() -> dict:
    """After loading: sign the new documents and update the near-duplicate clusters
    (``near_duplicates.refresh``)."""
    from warc2corpus import near_duplicates

    with db.connect() as conn:
        return near_duplicates.refresh(conn)


def index_research() -> dict:
    """After loading: the research index takes in the new documents and drops the removed ones
    (``research.refresh_index``)."""
    from warc2corpus import research

    with db.connect() as conn:
        outcome = research.refresh_index(conn)
    log.info("research index: %s", outcome)
    return outcome


# ---------------------------------------------------------------------------------------------
# All stages in one process (the `warc2corpus run` command)
# ---------------------------------------------------------------------------------------------

def unusable(path: Path) -> str | None:
    """Why a path given to a run cannot be taken (a symlink loop, no such file, not a regular file
    such as a directory or a FIFO, which would block the reading), or None."""
    try:
        status = os.stat(path)
    except OSError as exc:
        return exc.strerror or str(exc)
    return None if stat.S_ISREG(status.st_mode) else "not a regular file"


def run_files(paths: list[Path], crawl_job: str, *, staging: Staging | None = None,
              on_progress: Callable[[str, Counter, int | None], None] | None = None) -> list[dict]:
    """Process the given WARC files end to end, as one DAG run would, without the scheduler.

    A path that cannot be taken is reported with status ``skipped`` and its reason, and the others
    are processed. The staging of runs that died before is cleaned up first."""
    staging = staging or Staging()
    staging.clean()
    run_id = "cli-" + datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%f")
    run_prefix = staging.key(crawl_job, run_id)
    files, skipped = [], []
    with db.connect() as conn:
        for path in map(Path, paths):
            reason = unusable(path)
            if reason is None:
                try:
                    files.append(ledger.register(conn, crawl_job, path)["path"])
                    continue
                except OSError as exc:  # gone or unreadable since the look
                    reason = exc.strerror or str(exc)
            log.info("skipped %s: %s", path, reason)  # the caller reports it (result status "skipped")
            skipped.append({"warc_file": str(path), "crawl_job": crawl_job, "status": "skipped", "error": reason})
        conn.commit()
    staging.claim(run_prefix)
    try:
        extracted = [
            extract_warc(f, crawl_job, run_id, staging=staging,
                         on_progress=(lambda counts, at, f=f: on_progress(f, counts, at)) if on_progress else None)
            for f in files
        ]
        run_autocat(extracted, staging=staging)
        allow_list = refresh_allowlist(crawl_job, run_id, staging=staging)
        results = []
        for manifest in extracted:
            staging.heartbeat(run_prefix)  # loading only reads the staging: show the run is alive
            results.append(load_warc_results(dedup_warc(filter_warc(manifest, allow_list, staging=staging),
                                                        staging=staging), staging=staging))
    finally:  # a run that stops half-way is not resumed: what it staged is of no further use
        staging.remove(run_prefix)
    train_naturalness()
    find_near_duplicates()
    index_research()
    return skipped + results
