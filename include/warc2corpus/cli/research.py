"""`warc2corpus research ...`: the research index and a few look-ups from the command line."""

from __future__ import annotations

import json
import sys

from warc2corpus.cli.common import fail


def add_commands(commands) -> None:
    research_parser = commands.add_parser("research", help="research access: the index, the collection, "
                                                           "concordances and frequency lists")
    sub = research_parser.add_subparsers(dest="research_command", required=True)
    index = sub.add_parser("index", help="bring the research index up to date (the DAG does it after every load)")
    index.set_defaults(handler=cmd_index)
    summary = sub.add_parser("summary", help="the collection: totals, version (JSON)")
    summary.set_defaults(handler=cmd_summary)
    conc = sub.add_parser("conc", help="concordance lines of a word, prefix* or phrase (tab-separated)")
    conc.add_argument("query")
    conc.add_argument("--corpus", help="a saved corpus id (default: the whole collection)")
    conc.add_argument("--before", type=int, default=10)
    conc.add_argument("--after", type=int, default=10)
    conc.add_argument("--limit", type=int, default=50)
    conc.add_argument("--offset", type=int, default=0)
    conc.add_argument("--seed", type=int, help="a random sample drawn by this seed")
    conc.set_defaults(handler=cmd_conc)
    freq = sub.add_parser("freq", help="frequency list (CSV)")
    freq.add_argument("words", nargs="*", help="these words only (default: the top --n)")
    freq.add_argument("--corpus", help="a saved corpus id (default: the whole collection)")
    freq.add_argument("--n", type=int, default=100)
    freq.add_argument("--ngram", type=int, default=1)
    freq.set_defaults(handler=cmd_freq)


def cmd_index(args) -> None:
    from warc2corpus import research
    from warc2corpus.store import db

    with db.connect() as conn:
        outcome = research.refresh_index(conn)
    print(f"indexed {outcome['indexed']} documents, removed {outcome['removed']}; "
          + (f"collection version {outcome['version']}" if outcome["version"] else "nothing changed"))


def cmd_summary(args) -> None:
    from warc2corpus import research

    with research.connect() as conn:
        print(json.dumps(research.collection_summary(conn), indent=2, ensure_ascii=False))


def cmd_conc(args) -> None:
    from warc2corpus import research

    with research.connect() as conn:
        try:
            result = research.concordance(conn, args.query, corpus=args.corpus, before=args.before,
                                          after=args.after, limit=args.limit, offset=args.offset, seed=args.seed)
        except (research.BadRequest, research.NotFound, research.QueryTimeout) as exc:
            fail(str(exc))
    print(f"{result['total']} hits", file=sys.stderr)
    for line in result["lines"]:
        print("\t".join(str(line[k] or "") for k in ("doc_id", "published", "publication", "left", "hit", "right")))


def cmd_freq(args) -> None:
    from warc2corpus import research

    with research.connect() as conn:
        try:
            rows = research.frequencies(conn, corpus=args.corpus, n=args.n, ngram=args.ngram,
                                        words=args.words or None)
        except (research.BadRequest, research.NotFound, research.QueryTimeout) as exc:
            fail(str(exc))
    sys.stdout.write(research.export(rows, "csv").decode("utf-8"))
