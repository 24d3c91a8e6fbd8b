"""How well autoCat decides, page by page, with the evidence: ``warc2corpus autocat-eval``.

Three sets:

* the shared real pages (``news_fundus/test_data``): Norwegian pages are positives, every other page
  a negative; each is read as a front page would be (the whole page) and as an article page of
  the host is (only what lies outside the article). ``nordic_editor_annotations.json`` says which
  editors the Nordic pages name; the names autoCat extracts are checked against it.
* the hosts of ``nordic_dev_pages.warc.gz``: article pages only, no front page, so each host's
  verdict comes from its other pages (see :func:`autocat.assess_host`).
* the front pages built in ``tests/fixtures/autocat/front_pages.yaml``: every variant of a
  declaration and the look-alikes, each with the verdict a person gives it.

TP: a positive accepted. FP: a negative accepted (a false accept). FN: a positive rejected (a miss).
A page decided "uncertain" is counted apart, as a page left to a person.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from warc2corpus import autocat, settings

@dataclass
class Row:
    set: str
    id: str
    expect: str
    got: str
    score: float
    baseline: str
    explanation: str
    editors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def positive(self) -> bool:
        return self.expect == "accepted"


# ---------------------------------------------------------------------------------------------
# Building the fixture pages
# ---------------------------------------------------------------------------------------------

TEMPLATE = """<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="{charset}">
<title>Avisa – nyheter fra bygda</title>
{head}
</head>
<body>
<header><a class="logo" href="/">Avisa</a><nav><ul><li><a href="/nyheter/">Nyheter</a></li>
<li><a href="/sport/">Sport</a></li></ul></nav></header>
<main>
{body}
</main>
<footer>
{footer}
</footer>
</body>
</html>
"""
DEFAULT_BODY = ('<h2>Siste nytt</h2><ul><li><a href="/nyheter/2024/02/ferja">Fergen innstilt etter kraftig uvær</a>'
                '</li><li><a href="/sport/2024/02/skirenn">Rekordmange trosset motvinden</a></li></ul>'
                "<p>Lokalavisa for bygda og omegn. Har du tips? Send oss en melding.</p>")


def load_cases(path: Path | None = None) -> list[dict]:
    import yaml

    data = yaml.safe_load((path or settings.autocat_fixtures_file()).read_text(encoding="utf-8"))
    return list(data["cases"])


def render_case(case: dict) -> str | bytes:
    """The page of one fixture case, as text or as the bytes a crawler would have stored."""
    if "html" in case:
        return case["html"]
    how = case.get("bytes")
    charset = "windows-1252" if how in ("cp1252", "utf-8-declared-cp1252") else "utf-8"
    page = TEMPLATE.format(lang=case.get("lang", "nb"), charset=charset, head=case.get("head", ""),
                           body=case.get("body", DEFAULT_BODY), footer=case.get("footer", ""))
    if how == "cp1252":
        return page.encode("cp1252")
    if how in ("utf-8", "utf-8-declared-cp1252"):
        return page.encode("utf-8")
    return page


def evaluate_cases(cases: list[dict]) -> list[Row]:
    rows = []
    for case in cases:
        page = render_case(case)
        result = autocat.score_page(page, kind=case.get("kind", "front"))
        baseline = autocat.score_page_autocat2(page if isinstance(page, str) else autocat.decode(page))
        row = _row("fixtures", case["id"], case["expect"], result, baseline)
        expected_editors = case.get("editors")
        if expected_editors is not None and sorted(expected_editors) != sorted(row.editors):
            row.problems.append(f"editors {row.editors} != {expected_editors}")
        if case.get("foreign") and case["foreign"] not in row.foreign:
            row.problems.append(f"no {case['foreign']} editor line recorded")
        if row.got != row.expect:
            row.problems.append(f"expected {row.expect}")
        rows.append(row)
    return rows


def _row(set_name: str, name: str, expect: str, result: autocat.PageScore, baseline: autocat.PageScore) -> Row:
    evidence = result.evidence
    return Row(
        set=set_name, id=name, expect=expect, got=result.status, score=result.score,
        baseline=autocat.status_for(baseline.score),
        explanation=evidence.get("explanation") or "; ".join(evidence.get("notes", [])) or "nothing found",
        editors=list(evidence.get("editors", [])),
        foreign=sorted({f["language"] for f in evidence.get("foreign", [])}),
    )


# ---------------------------------------------------------------------------------------------
# The shared pages
# ---------------------------------------------------------------------------------------------

def evaluate_shared(samples: Path) -> dict[str, list[Row]]:
    """Every page of news_fundus/test_data read as a front page and as an article page."""
    folder = samples / "news_fundus"
    annotations = {}
    annotation_file = folder / "nordic_editor_annotations.json"
    if annotation_file.is_file():
        annotations = {a["file"]: a for a in json.loads(annotation_file.read_text(encoding="utf-8"))["pages"]}
    sets: dict[str, list[Row]] = {"shared pages as front pages": [], "shared pages as article pages": []}
    for path in sorted((folder / "test_data").glob("*/*.html.gz")):
        relative = str(path.relative_to(folder))
        raw = gzip.decompress(path.read_bytes())
        expect = "accepted" if path.parent.name == "no" else "rejected"
        baseline = autocat.score_page_autocat2(autocat.decode(raw))
        for set_name, kind in (("shared pages as front pages", "front"), ("shared pages as article pages", "article")):
            row = _row(set_name, relative.removeprefix("test_data/"), expect, autocat.score_page(raw, kind=kind),
                       baseline)
            note = annotations.get(relative)
            if note:
                if path.parent.name == "no" and sorted(note["editor_names"]) != sorted(row.editors):
                    row.problems.append(f"editors {row.editors} != annotated {note['editor_names']}")
                if path.parent.name != "no" and not row.foreign:
                    row.problems.append(f"annotated {note['editor_label']!r} not recorded as a foreign line")
            sets[set_name].append(row)
    return sets


def evaluate_warc_hosts(warc: Path) -> list[Row]:
    """Host verdicts from a WARC's pages (front and other pages, as the pipeline collects them)."""
    from warcio.archiveiterator import ArchiveIterator

    pages: dict[str, list[dict]] = {}
    with open(warc, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type != "response" or not record.http_headers:
                continue
            if record.http_headers.get_statuscode() != "200":
                continue
            url = record.rec_headers.get_header("WARC-Target-URI")
            host = (urlsplit(url).hostname or "").lower()
            kind = autocat.page_kind(url)
            result = autocat.score_page(record.content_stream().read(), url, kind=kind)
            pages.setdefault(host, []).append({"kind": kind, "url": url, "score": result.score,
                                               "evidence": result.evidence,
                                               "harvest_time": record.rec_headers.get_header("WARC-Date")})
    rows = []
    for host, host_pages in sorted(pages.items()):
        verdict = autocat.assess_host(host_pages, host)
        expect = "accepted" if host.endswith(".no") else "rejected"
        row = Row(set="hosts of " + warc.name, id=host, expect=expect, got=verdict.status, score=verdict.score,
                  baseline="unassessed", explanation=verdict.reason, editors=verdict.editors,
                  foreign=sorted({f["language"] for f in verdict.foreign}))
        if row.got != row.expect:
            row.problems.append(f"expected {row.expect}")
        rows.append(row)
    return rows


# ---------------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------------

def figures(rows: list[Row], attribute: str = "got") -> dict:
    counts: Counter = Counter()
    for row in rows:
        got = getattr(row, attribute)
        if row.positive:
            counts["TP" if got == "accepted" else "FN" if got in ("rejected", "unassessed") else "uncertain"] += 1
        else:
            counts["FP" if got == "accepted" else "TN" if got in ("rejected", "unassessed") else "uncertain"] += 1
        if row.positive and got == "uncertain":
            counts["uncertain_positives"] += 1
    return {
        "pages": len(rows),
        "positives": sum(r.positive for r in rows),
        "negatives": sum(not r.positive for r in rows),
        "TP": counts["TP"], "FP": counts["FP"], "FN": counts["FN"], "TN": counts["TN"],
        "uncertain": counts["uncertain"], "uncertain_positives": counts["uncertain_positives"],
        "as_expected": sum(getattr(r, attribute) == r.expect for r in rows),
    }


def run(samples: Path | None = None, fixtures: Path | None = None) -> dict:
    """Every set there is: {set name: {"rows": [...], "figures": {...}, "baseline": {...}}}."""
    samples = samples or settings.samples_dir()
    sets: dict[str, list[Row]] = {}
    if (samples / "news_fundus" / "test_data").is_dir():
        sets.update(evaluate_shared(samples))
        warc = samples / "news_fundus" / "nordic_dev_pages.warc.gz"
        if warc.is_file():
            sets["hosts of " + warc.name] = evaluate_warc_hosts(warc)
    fixture_file = fixtures or settings.autocat_fixtures_file()
    if fixture_file.is_file():
        sets["built front pages"] = evaluate_cases(load_cases(fixture_file))
    return {
        name: {"rows": rows, "figures": figures(rows),
               "baseline": figures(rows, "baseline") if not name.startswith("hosts") else None}
        for name, rows in sets.items()
    }


def requirements_met(report: dict) -> list[str]:
    """What fails the bar: a false accept anywhere; a miss, an uncertain page or a wrong editor on
    the shared Norwegian pages; a fixture decided otherwise than a person would."""
    failures = []
    for name, result in report.items():
        f = result["figures"]
        if f["FP"]:
            failures.append(f"{name}: {f['FP']} false accept(s)")
        if name.startswith("shared") or name.startswith("hosts"):
            if f["FN"] or f["uncertain_positives"]:
                failures.append(f"{name}: {f['FN']} miss(es), {f['uncertain_positives']} Norwegian page(s) uncertain")
        for row in result["rows"]:
            if row.problems and (row.positive or name == "built front pages" or row.set.startswith("hosts")):
                failures.append(f"{name}: {row.id}: " + "; ".join(row.problems))
    return failures


def format_report(report: dict, *, verbose: bool = True) -> str:
    lines = []
    for name, result in report.items():
        f = result["figures"]
        lines.append(f"== {name}: {f['pages']} ({f['positives']} positive, {f['negatives']} negative)")
        lines.append(f"   autoCat:  TP {f['TP']}  FP {f['FP']}  FN {f['FN']}  TN {f['TN']}  uncertain {f['uncertain']}"
                     f"  (of the positives {f['uncertain_positives']})  as expected {f['as_expected']}/{f['pages']}")
        if result["baseline"]:
            b = result["baseline"]
            lines.append(f"   autoCat2: TP {b['TP']}  FP {b['FP']}  FN {b['FN']}  TN {b['TN']}  uncertain {b['uncertain']}"
                         f"  (of the positives {b['uncertain_positives']})  as expected {b['as_expected']}/{b['pages']}")
        if verbose:
            for row in result["rows"]:
                mark = "ok " if row.got == row.expect and not row.problems else "!! "
                extra = ""
                if row.editors:
                    extra += f"  editors: {', '.join(row.editors)}"
                if row.foreign:
                    extra += f"  foreign: {', '.join(row.foreign)}"
                if row.problems:
                    extra += "  PROBLEM: " + "; ".join(row.problems)
                lines.append(f"   {mark}{row.id:<52} expect {row.expect:<9} got {row.got:<9} {row.score:<5g}"
                             f" (autoCat2 {row.baseline}){extra}")
                lines.append(f"        {row.explanation[:400]}")
        lines.append("")
    return "\n".join(lines)


def to_json(report: dict) -> dict:
    return {name: {"figures": r["figures"], "baseline": r["baseline"],
                   "rows": [row.__dict__ | {"positive": row.positive} for row in r["rows"]]}
            for name, r in report.items()}
