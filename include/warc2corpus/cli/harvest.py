"""The ``warc2corpus harvest`` command (added to the parser by :func:`add_commands`): original captures
from a Wayback Machine or pywb into WARC files (see :mod:`warc2corpus.harvest`)."""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path


class HarvestProgress:
    """One status line on a terminal, like ``run``'s: captures dealt with of those the CDX named, the
    counts so far, and the time left at the pace so far. Redrawn at most every 0.2 s."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty()
        self.started = time.monotonic()
        self.drawn = 0.0
        self.last: tuple | None = None

    def __call__(self, counts: Counter, done: int) -> None:
        if not self.enabled:
            return
        self.last = (counts, done)
        now = time.monotonic()
        if now - self.drawn >= 0.2 or done == counts["captures"]:
            self.drawn = now
            self._draw(counts, done, now)

    def _draw(self, counts: Counter, done: int, now: float) -> None:
        from warc2corpus.cli.common import duration

        total = counts["captures"]
        fetched = done - counts["already_harvested"]  # the pace is that of the captures actually fetched
        left = (now - self.started) * (total - done) / fetched if fetched else None
        self.stream.write(
            f"\rcaptures {done}/{total} ({100 * done / max(total, 1):.0f}%)"
            + (f", {duration(left)} left" if left is not None and done < total else "")
            + f": {counts['written']} written, {counts['revisits']} revisits, {counts['mismatches']} mismatched, "
            f"{counts['failed']} failed, {counts['already_harvested']} harvested before   ")
        self.stream.flush()

    def finish(self) -> None:
        if self.enabled and self.last:
            self._draw(*self.last, time.monotonic())
            self.stream.write("\n")


SUMMARY = (("cdx_queries", "CDX queries"), ("cdx_failed", "CDX queries without a CDX answer"),
           ("captures", "captures named"), ("already_harvested", "harvested before (not fetched)"),
           ("written", "written"), ("revisits", "revisits (digest written before; not fetched)"),
           ("unverified", "written without a CDX digest to check"),
           ("mismatches", "digest mismatches (written to mismatch/)"), ("failed", "failed (fetched again next time)"))


def cmd_harvest(args) -> None:
    from warc2corpus import harvest
    from warc2corpus.cli.common import EXIT_NOT_ALL_TAKEN, fail
    from warc2corpus.formatting import format_table

    progress = HarvestProgress()
    try:
        result = harvest.harvest(args.cdx, args.url, Path(args.out_dir), replay=args.replay, match=args.match,
                                 from_=args.from_, to=args.to, filters=tuple(args.filter or ()),
                                 collapse=tuple(args.collapse or ()), rate=args.rate, prefix=args.prefix,
                                 on_progress=progress)
    except ValueError as exc:
        fail(str(exc))
    progress.finish()
    counts = result.counts
    rows = [(label, counts[key]) for key, label in SUMMARY]
    rows += [(f"  {key[4:] if key.startswith('cdx_') else key[7:]}", n) for key, n in sorted(counts.items())
             if key.startswith("failed_") or key.startswith("cdx_") and key not in ("cdx_queries", "cdx_failed")]
    rows.append(("requests made", result.requests))
    print(format_table(("harvest", "count"), rows))
    for path in result.files:
        print(f"wrote {path}")
    for message in result.messages:
        print(f"warc2corpus harvest: {message}", file=sys.stderr)
    if not result.complete:
        print("warc2corpus harvest: not everything was harvested (see above); run the same command again "
              "later: what was harvested is not fetched again", file=sys.stderr)
        raise SystemExit(EXIT_NOT_ALL_TAKEN)


def add_commands(commands) -> None:
    from warc2corpus.harvest import DEFAULT_PREFIX, DEFAULT_RATE
    from warc2corpus.harvest.cdx import MATCH_TYPES

    harvest = commands.add_parser(
        "harvest", help="original captures from a Wayback Machine / pywb CDX server into WARC files")
    harvest.add_argument("out_dir", metavar="OUT_DIR", help="where the WARC files and the harvest ledger go")
    harvest.add_argument("--cdx", required=True, metavar="URL",
                         help="the CDX server: https://web.archive.org/cdx/search/cdx, or pywb's "
                              "http://HOST/COLLECTION/cdx")
    harvest.add_argument("--url", required=True, action="append", metavar="PATTERN",
                         help="the URL (pattern) to ask the CDX server for; repeat for more")
    harvest.add_argument("--match", choices=MATCH_TYPES, default="exact",
                         help="CDX matchType (default exact; host: the host's URLs, domain: and its subdomains)")
    harvest.add_argument("--from", dest="from_", metavar="YYYYMMDD", help="captures from then (1-14 digits)")
    harvest.add_argument("--to", metavar="YYYYMMDD", help="captures until then, inclusive (1-14 digits)")
    harvest.add_argument("--filter", nargs="+", action="extend", metavar="FIELD:REGEX",
                         help="CDX filters, e.g. statuscode:200 mimetype:text/html (! negates)")
    harvest.add_argument("--collapse", nargs="+", action="extend", metavar="FIELD[:N]",
                         help="CDX collapse, e.g. digest (one capture per run of identical payloads)")
    harvest.add_argument("--replay", metavar="URL",
                         help="where captures are replayed (default: from --cdx: …/web/ or …/COLLECTION/)")
    harvest.add_argument("--rate", type=float, default=DEFAULT_RATE,
                         help=f"requests per second at most (default {DEFAULT_RATE})")
    harvest.add_argument("--prefix", default=DEFAULT_PREFIX, help=f"WARC file name prefix (default {DEFAULT_PREFIX})")
    harvest.set_defaults(handler=cmd_harvest)
