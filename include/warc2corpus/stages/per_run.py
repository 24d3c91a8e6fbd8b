"""The stages that run once per run and crawl job: discover (before the files' extract) and autocat,
refresh_allow_list (between extract and filter); and corpus_updated, once per run after every load."""

from __future__ import annotations

import logging
from collections import Counter
from datetime import datetime, timezone
from typing import Iterable

from warc2corpus.records import FileStatus, HostStatus
from warc2corpus.stages.crawljobs import CrawlJob
from warc2corpus.stages.manifests import AllowList, FileManifest, WarcToProcess
from warc2corpus.store import db, ledger, publications
from warc2corpus.store.staging import Staging

log = logging.getLogger(__name__)


def _describe_interval(interval: tuple[datetime, datetime] | None) -> str:
    """"captured 2019-03-05" for a one-day interval, ISO times otherwise: never a Python repr in a log."""
    if interval is None:
        return "every file not loaded yet"
    start, end = (datetime.fromtimestamp(t.timestamp(), timezone.utc) for t in interval)
    if start.time() == end.time() == datetime.min.time() and (end - start).days == 1:
        return f"captured {start:%Y-%m-%d}"
    return f"captured from {start.isoformat()} to {end.isoformat()}"


def harvest(job: CrawlJob, interval: tuple[datetime, datetime] | None = None) -> dict:
    """Crawl jobs of kind ``wayback``: harvest into the job's directory the captures of its data
    interval (``to`` is the second before the interval's end), or, for a run without one (a manual
    run), those of the job's own ``from``/``to`` (everything when it sets none). The harvest's ledger
    makes every run fetch only what no run fetched before. Returns the counts; raises
    :class:`harvest.HarvestIncomplete` after the whole harvest when something failed."""
    from warc2corpus.harvest import DEFAULT_RATE, HarvestIncomplete, harvest as harvest_captures

    source = job.wayback
    if source is None:
        raise ValueError(f"crawl job {job.name} is not of kind wayback")
    if interval is not None:
        start, end = interval
        from_ = start.astimezone(timezone.utc).strftime("%Y%m%d%H%M%S")
        to = datetime.fromtimestamp(end.timestamp() - 1, timezone.utc).strftime("%Y%m%d%H%M%S")
    else:
        from_, to = source.from_, source.to
    result = harvest_captures(source.cdx, source.urls, job.directory, replay=source.replay, match=source.match,
                              from_=from_, to=to, filters=source.filters, collapse=source.collapse,
                              rate=source.rate or DEFAULT_RATE)
    log.info("crawl job %s: harvested from %s (%s to %s): %s", job.name, source.cdx, from_ or "the first capture",
             to or "the last", dict(result.counts))
    if not result.complete:
        raise HarvestIncomplete(f"crawl job {job.name}: not everything was harvested; the next attempt "
                                f"fetches only what is missing: " + "; ".join(result.messages[:20]))
    return {"crawl_job": job.name, "counts": dict(result.counts), "files": result.files}


def discover(job: CrawlJob, *, interval: tuple[datetime, datetime] | None = None,
             reprocess: bool = False, run_id: str | None = None) -> list[WarcToProcess]:
    """Register the job's WARC files in the ledger; return those this run should process.

    With an interval (scheduled and backfill runs) only files whose capture start falls in it;
    without one, every file. Files already loaded are left out unless ``reprocess``; files flagged
    for readmission (see :func:`publications.flag_readmissions`) or re-queued, and ``retry`` files
    whose next attempt has come, are always taken. Files that may still be being written (changed
    between two looks, or modified within the settle time) wait for a later run; a file that cannot
    be looked at is logged and skipped. With a ``run_id`` the run claims the files it takes, and
    leaves out those another run is processing (see :func:`ledger.claim`).
    """
    selected, seen, waiting = [], 0, 0
    # A harvest writes NAME.open and renames it when complete: its *.warc.gz files need no settle time.
    settle = 0 if job.wayback else ledger.settle_seconds()
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
                row = ledger.register(conn, job.name, path)
            except OSError as exc:
                log.warning("crawl job %s: skipped %s: %s", job.name, path, exc.strerror or exc)
                continue
            if row["readmit"] or ledger.retry_due(row):
                selected.append({"warc_file": row["path"], "crawl_job": job.name})
                continue
            if (row["status"] in ledger.DONE or row["status"] == FileStatus.RETRY) and not reprocess:
                continue
            if ledger.in_interval(row["capture_start"], interval):
                selected.append({"warc_file": row["path"], "crawl_job": job.name})
        if run_id:
            claimed, held = ledger.claim(conn, [f["warc_file"] for f in selected], run_id)
            for path, other in held.items():
                log.info("crawl job %s: %s left out: run %s is processing it", job.name, path, other)
            selected = [f for f in selected if f["warc_file"] in set(claimed)]
        conn.commit()
    log.info("crawl job %s: %d WARC files found in %s, %d to process (%s, reprocess %s)",
             job.name, seen, job.directory, len(selected), _describe_interval(interval), reprocess)
    if waiting:
        log.info("crawl job %s: %d files may still be being written, left for a later run", job.name, waiting)
    return selected


def release_claims(run_id: str) -> int:
    """End the run's claims on files (it is over, however it ended)."""
    with db.connect() as conn:
        released = ledger.release(conn, run_id)
        conn.commit()
    if released:
        log.info("run %s: released its claim on %d files", run_id, released)
    return released


def autocat(manifests: list[FileManifest], *, staging: Staging | None = None) -> dict:
    """Store the pages autoCat scored in the run's WARCs (front pages, and the few other pages per
    host it reads when a front page is silent) and recompute the verdict of their hosts over all
    their pages ever seen; documents of hosts now rejected are withdrawn."""
    staging = staging or Staging()
    pages = [page for m in manifests if m["status"] == FileStatus.EXTRACTED
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


def refresh_allow_list(crawl_job: str, run_id: str, *, staging: Staging | None = None) -> AllowList:
    """Freeze the allow-list for this run's filter tasks: every known host with its status in force
    (a person's decision, else the register's, else autoCat's; view host_status)."""
    staging = staging or Staging()
    with db.connect() as conn:
        statuses = publications.host_statuses(conn)
    key = staging.key(crawl_job, run_id, "allow_list.json.gz")
    staging.write_json(key, statuses)
    accepted = sum(1 for s in statuses.values() if s == HostStatus.ACCEPTED)
    log.info("allow-list: %d accepted of %d known hosts", accepted, len(statuses))
    return {"allow_list": key, "accepted": accepted, "hosts": len(statuses)}


def corpus_updated(results: Iterable[FileManifest]) -> dict:
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
