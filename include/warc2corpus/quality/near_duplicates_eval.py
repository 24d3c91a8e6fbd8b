"""How well near-duplicates are found: a labelled set of pairs built from real pages.

Positives, the same article twice:

* ``capture``: two real renderings of one page: the Wayback Machine's rewritten view against its
  original bytes (``wayback_edgi``), Mozilla Readability's source page against its reader output,
  and each news page's text as our extraction gives it against the text a person marked as its
  body (``news_fundus`` ground truth, the article-extraction benchmark's ``articleBody``);
* edits as newsrooms make them, applied to the extracted text of each real news article:
  ``updated_paragraph`` (one paragraph in the middle replaced, a line "Saken er oppdatert" added),
  ``new_lead`` (the headline and the lead rewritten), ``wire_local_intro`` (a wire story with a
  local paper's intro paragraph and dateline, its last paragraph cut), ``developing`` (two new
  paragraphs at the end), ``cut_from_bottom`` (the last quarter cut, as papers shorten wire copy).
  Replacement paragraphs are real paragraphs of another article of the set.

Negatives, different articles: ``same_template`` (two articles of one publisher, extracted from
their real pages, so whatever of the template the extraction keeps is shared) and ``different``
(every other pair of distinct articles).

A pair is predicted a near-duplicate exactly as ``store.near_duplicates.refresh`` decides it (``minhash.is_pair``): a
shared LSH band key and an estimated Jaccard similarity of at least ``THRESHOLD``.
"""

from __future__ import annotations

import gzip
import itertools
import json
from dataclasses import dataclass
from pathlib import Path

import lxml.html

from warc2corpus.reading import wayback
from warc2corpus.text import minhash
from warc2corpus.text import extract, tokens
from warc2corpus.reading.charsets import read_html_file


@dataclass
class Pair:
    kind: str
    label: bool            # True: the same article
    a: str
    b: str
    text_a: list[str]
    text_b: list[str]


def _extracted(path: Path, url: str | None) -> list[str]:
    source = wayback.unwrap(read_html_file(str(path)), url)
    return extract.extract(source.html, source.url).paragraphs


def _reader_text(path: Path) -> list[str]:
    tree = lxml.html.fromstring(gzip.decompress(path.read_bytes()).decode("utf-8"))
    return [" ".join(node.text_content().split()) for node in tree.iter("p", "h2", "h3", "li", "blockquote")
            if node.text_content().strip()]


def _page_text(path: Path) -> list[str]:
    """Every visible line of a page, navigation, footer and all."""
    tree = extract.parse(read_html_file(str(path)))
    for node in tree.iter("script", "style", "noscript", "template"):
        node.drop_tree() if node.getparent() is not None else None
    return [line for line in (" ".join(t.split()) for t in tree.itertext()) if line]


def articles(samples: Path) -> dict[str, dict]:
    """The real news articles: name -> publisher, the extracted paragraphs, the marked body."""
    out = {}
    for line in (samples / "news_fundus" / "ground_truth_flat.jsonl").read_text().splitlines():
        row = json.loads(line)
        paragraphs = _extracted(samples / "news_fundus" / row["file"], row["url"])
        if len(paragraphs) >= 4:
            out[Path(row["file"]).name] = {"publisher": row["publisher"], "paragraphs": paragraphs,
                                           "marked": row["body_paragraphs"],
                                           "page": _page_text(samples / "news_fundus" / row["file"])}
    return out


def labelled_pairs(samples: Path) -> list[Pair]:
    found = articles(samples)
    names = sorted(found)
    pairs = []
    for i, name in enumerate(names):
        text = found[name]["paragraphs"]
        other = found[names[(i + 7) % len(names)]]["paragraphs"]  # real paragraphs of another article
        further = found[names[(i + 13) % len(names)]]["paragraphs"]
        middle, quarter = len(text) // 2, max(1, len(text) // 4)
        edits = {
            "updated_paragraph": text[:middle] + [other[1]] + text[middle + 1:] + ["Saken er oppdatert."],
            "new_lead": [other[0]] + text[1:],
            "wire_local_intro": [further[0], "(NTB): " + text[0]] + text[1:-1],
            "developing": text + other[-2:],
            "cut_from_bottom": text[:-quarter],
        }
        for kind, edited in edits.items():
            pairs.append(Pair(kind, True, name, f"{name} ({kind})", text, edited))
        # A follow-up story: another article that reuses two background paragraphs of this one.
        pairs.append(Pair("follow_up", False, name, f"{names[(i + 7) % len(names)]} + background", text,
                          other + text[middle:middle + 2]))
        if found[name]["marked"]:
            pairs.append(Pair("capture", True, name, f"{name} (marked body)", text, found[name]["marked"]))
    for a, b in itertools.combinations(names, 2):
        if found[a]["publisher"] == found[b]["publisher"]:
            pairs.append(Pair("same_template", False, a, b, found[a]["paragraphs"], found[b]["paragraphs"]))
            # As if the extraction had kept the whole template: every visible text of both pages.
            pairs.append(Pair("same_template_whole_page", False, a, b, found[a]["page"], found[b]["page"]))
        else:
            pairs.append(Pair("different", False, a, b, found[a]["paragraphs"], found[b]["paragraphs"]))

    edgi = samples / "wayback_edgi"
    view, original = edgi / "fws.gov_birds_20171124151315_view.html", edgi / "fws.gov_birds_20171124151315_id_.html"
    pairs.append(Pair("capture", True, view.name, original.name, _extracted(view, None),
                      _extracted(original, "https://www.fws.gov/birds/")))
    readability = samples / "extraction_readability_testpages"
    for page in sorted(p for p in readability.iterdir() if (p / "source.html.gz").exists()):
        pairs.append(Pair("capture", True, f"{page.name} source", f"{page.name} reader",
                          _extracted(page / "source.html.gz", None), _reader_text(page / "expected.html.gz")))
    aeb = samples / "extraction_scrapinghub_aeb"
    truth = json.loads((aeb / "ground-truth.json").read_text())
    for key, value in sorted(truth.items()):
        page = aeb / "html" / f"{key}.html.gz"
        if page.exists() and value.get("articleBody"):
            pairs.append(Pair("capture", True, f"{key[:12]} page", f"{key[:12]} articleBody",
                              _extracted(page, value.get("url")), value["articleBody"].split("\n")))
    return [p for p in pairs if p.text_a and p.text_b]


def signature_of(paragraphs: list[str]):
    found = minhash.shingles(minhash.words(tokens.tokenize(p)[0] for p in paragraphs))
    return minhash.signature(found), len(found)


def evaluate(pairs: list[Pair]) -> dict:
    """Precision and recall at ``THRESHOLD``, per kind of pair what was found."""
    cache: dict[tuple, tuple] = {}

    def sig(paragraphs):
        key = tuple(paragraphs)
        if key not in cache:
            cache[key] = signature_of(paragraphs)
        return cache[key]

    tp = fp = fn = tn = 0
    kinds: dict[str, dict] = {}
    missed, false = [], []
    for pair in pairs:
        (a, na), (b, nb) = sig(pair.text_a), sig(pair.text_b)
        comparable = min(na, nb) >= minhash.MIN_SHINGLES
        found, estimate = minhash.is_pair(a, b)
        found = found and comparable
        row = kinds.setdefault(pair.kind, {"pairs": 0, "found": 0, "label": pair.label})
        row["pairs"] += 1
        row["found"] += found
        if pair.label:
            tp += found
            fn += not found
            if not found:
                missed.append((pair.kind, pair.a, pair.b, round(estimate, 3)))
        else:
            fp += found
            tn += not found
            if found:
                false.append((pair.kind, pair.a, pair.b, round(estimate, 3)))
    return {"threshold": minhash.THRESHOLD, "shingle_words": minhash.SHINGLE_WORDS,
            "bands": minhash.BANDS, "rows": minhash.ROWS,
            "tp": tp, "fp": fp, "fn": fn, "tn": tn,
            "precision": tp / (tp + fp) if tp + fp else 1.0, "recall": tp / (tp + fn) if tp + fn else 1.0,
            "kinds": kinds, "missed": missed, "false_positives": false}
