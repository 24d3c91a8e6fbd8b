"""The ``warc2corpus publications …`` and ``warc2corpus autocat-eval`` commands (added to the parser
by :func:`add_commands`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path


def cmd_publications(args) -> None:
    from warc2corpus.store import db, publications
    from warc2corpus.cli.common import current_user, fail
    from warc2corpus.formatting import format_table
    from warc2corpus.text import dedup

    with db.connect() as conn:
        if args.action == "list":
            rows = publications.list_hosts(conn, args.status)
            if args.json:
                print(json.dumps(rows, ensure_ascii=False, indent=2, default=str))
                return
            table = [(r["host"], r["status"], r["decided_by"], f"{r['score']:.2f}", r["documents"], r["withdrawn"],
                      ", ".join(r["editors"] or []) or "-", r["title"] or "-") for r in rows]
            print(format_table(("host", "status", "decided by", "score", "documents", "withdrawn", "editors",
                                "publication"), table))
        elif args.action == "show":
            detail = publications.host_detail(conn, args.host)
            if detail is None:
                fail(f"unknown host: {args.host}")
            print(json.dumps(detail, ensure_ascii=False, indent=2, default=str))
        elif args.action == "review":
            if args.host is None:
                queue = publications.review_queue(conn)
                if args.json:
                    print(json.dumps(queue, ensure_ascii=False, indent=2, default=str))
                    return
                if not queue:
                    print("review queue is empty: no uncertain or not-news host waits for a person")
                for item in queue:
                    print(f"{item['host']}  score {item['score']:.2f}  {item['held_back']} documents held back  "
                          f"{item['pages']} pages read\n    {item['reason']}")
                return
            if args.decision is None:
                fail("say --accept, --reject or --clear")
            choice = {"accept": "accepted", "reject": "rejected", "clear": None}[args.decision]
            who = args.by or current_user()
            if dedup.normalise_host(args.host) not in publications.host_statuses(conn):
                # kept (a host may be decided on before its pages come), but said: a typo would go unseen
                print(f"warc2corpus: {args.host} is no host seen or registered yet: the decision waits for its "
                      "pages", file=sys.stderr)
            try:
                outcome = publications.decide(conn, args.host, choice, by=who, note=args.note or "")
            except ValueError as exc:
                fail(str(exc))
            conn.commit()
            print(f"{args.host}: {choice or 'decision withdrawn'} by {who}; documents withdrawn "
                  f"{outcome['withdrawn']}, restored {outcome['restored']}; WARC files to load again "
                  f"{outcome['readmit']}")
        elif args.action == "import":
            path = Path(args.file)
            if not path.is_file():
                fail(f"no such file: {path}")
            try:
                outcome = publications.import_register(conn, path)
            except ValueError as exc:
                fail(str(exc))
            conn.commit()
            print(f"imported {outcome['rows']} rows: {outcome['publications']} publications, {outcome['domains']} "
                  f"domains; documents withdrawn {outcome['withdrawn']}, restored {outcome['restored']}")
        elif args.action == "export":
            fmt = args.format or ("yaml" if args.file and args.file.endswith((".yaml", ".yml")) else "csv")
            text = publications.export_register(conn, fmt)
            if args.file and args.file != "-":
                Path(args.file).write_text(text, encoding="utf-8")
                print(f"wrote {args.file}")
            else:
                sys.stdout.write(text)


def cmd_autocat_eval(args) -> None:
    from warc2corpus.quality import autocat_eval
    from warc2corpus.cli.common import fail

    report = autocat_eval.run(Path(args.samples) if args.samples else None,
                              Path(args.fixtures) if args.fixtures else None)
    if not report:
        fail("nothing to evaluate: neither the shared samples nor the fixtures were found")
    failures = autocat_eval.requirements_met(report)
    if args.json:
        print(json.dumps({"sets": autocat_eval.to_json(report), "failures": failures}, ensure_ascii=False,
                         indent=2))
    else:
        print(autocat_eval.format_report(report, verbose=not args.quiet))
        print("requirements (0 false accepts; no miss and nothing uncertain on the shared Norwegian pages; "
              "built pages as a person decides):", "met" if not failures else "NOT met")
        for failure in failures:
            print("  " + failure)
    if failures:
        raise SystemExit(1)


def add_commands(commands) -> None:
    pubs = commands.add_parser("publications", help="hosts, verdicts, the review queue, the register")
    actions = pubs.add_subparsers(dest="action", required=True)
    listing = actions.add_parser("list", help="every known host: status in force, who decided, editors, documents")
    listing.add_argument("--status", choices=("accepted", "declares_editor_not_news", "uncertain", "rejected",
                                              "unassessed"))
    listing.add_argument("--json", action="store_true")
    show = actions.add_parser("show", help="one host: its scores day by day with the evidence, and decisions")
    show.add_argument("host")
    review = actions.add_parser("review", help="without HOST: the queue of uncertain hosts; with HOST: decide")
    review.add_argument("host", nargs="?")
    decision = review.add_mutually_exclusive_group()
    decision.add_argument("--accept", dest="decision", action="store_const", const="accept")
    decision.add_argument("--reject", dest="decision", action="store_const", const="reject")
    decision.add_argument("--clear", dest="decision", action="store_const", const="clear",
                          help="withdraw the person's decision: the register or autoCat decides again")
    review.add_argument("--note", help="why")
    review.add_argument("--by", help="who decides (default: $WARC2CORPUS_USER, else the login name)")
    review.add_argument("--json", action="store_true")
    importing = actions.add_parser("import", help="import a register: YAML or CSV with domain, title, "
                                                  "has_responsible_editor, place, county")
    importing.add_argument("file")
    exporting = actions.add_parser("export", help="export the register (and every host seen) as CSV or YAML")
    exporting.add_argument("file", nargs="?", help="default: standard output")
    exporting.add_argument("--format", choices=("csv", "yaml"))
    pubs.set_defaults(handler=cmd_publications)

    evaluation = commands.add_parser("autocat-eval", help="autoCat's TP/FP/FN/uncertain with the evidence per page "
                                                          "on the shared pages and the built front pages")
    evaluation.add_argument("--samples", help="the shared samples folder (default: $WARC2CORPUS_SAMPLES or "
                                              "../shared/samples)")
    evaluation.add_argument("--fixtures", help="the built front pages (default: "
                                               "tests/fixtures/autocat/front_pages.yaml)")
    evaluation.add_argument("--json", action="store_true")
    evaluation.add_argument("--quiet", action="store_true", help="figures only")
    evaluation.set_defaults(handler=cmd_autocat_eval)
