"""The quality gate (``warc2corpus eval``): our pipeline against ground truth, beside the libraries alone.

Measured on the third-party pages in ``../shared/samples`` (or ``$WARC2CORPUS_SAMPLES``):

body text     per page precision / recall / F1 over whitespace-token multisets of our text against the
              ground truth, averaged over pages (an empty result scores 0): the 20 pages of
              ``extraction_scrapinghub_aeb`` (``articleBody``) and the 50 of ``news_fundus``
              (``body_paragraphs``); for fundus also the worst Norwegian page. Where the samples hold
              trafilatura's evaluation pages (``extraction_trafilatura_eval``, see eval/gather_wider.py):
              the snippets its author wrote per page, as its own evaluation counts them (a "with"
              snippet found is a true positive, missed a false negative; a "without" snippet found a
              false positive), precision, recall and F1 over all snippets; not pinned. Where they hold
              L3S-GN1's news pages (``extraction_l3s_gn1``), Utomo and Leu's (``extraction_big9``,
              ``extraction_chaos``), Dragnet's (``extraction_dragnet``), Readability's test pages
              (``extraction_readability``) or CleanPortalEval's (``extraction_cleanportaleval``), the
              same token measures as on
              the benchmark's, every text scored in the characters its truth was written in
              (``TRUTH_CHARACTERS``: Big9's and Chaos' in ASCII, L3S-GN1's in ISO-8859-1, the others as
              they are). Beside each set's F1, the 95 % bootstrap
              interval of its mean over the pages, and of the mean per-page difference from trafilatura
              alone (how far either could move on as many other pages like these).
dates         exact-day accuracy on ``dates_htmldate_eval`` and ``news_fundus``.
language      accuracy on ``langid/lingua`` word pairs (forced choice) and on the ``langid/udhr``
              declarations; errors among Bokmål, Nynorsk and Danish on 10-20-token segments of the
              declarations, with the confusion matrix; errors among Bokmål, Nynorsk, Danish and
              Swedish on 10-40-token sentences of the fundus pages of Norway, Denmark and Sweden, of
              the UD treebank (``langid/ud/ud_sentences.tsv``, with North Sámi accuracy) and of lingua
              (``langid/lingua/sentences``) and of NordicDSL (``langid/nordicdsl``) when the samples
              hold them, and of held-out sentence files
              (``--heldout``); each language's error rate with its 95 % Wilson interval; the share of
              10-40-token sentences of lingua's other languages (``langid/lingua/other_languages``)
              read as Bokmål, Nynorsk, Sámi or Kven. Figures of sets the samples may lack are printed,
              not pinned.
page type     the share of fundus pages typed as expected: ``article``, or ``live_blog`` where the page
              declares itself a ``LiveBlogPosting``.

Beside ours: trafilatura alone (``bare_extraction`` with its defaults) and htmldate alone
(``find_date`` with its defaults) on the same pages. The figures are compared with floors (and, for
error rates, ceilings) pinned in ``eval/baseline.json``; any figure worse than its pin fails the gate.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from warc2corpus import settings

TOLERANCE = 1e-9
SCANDINAVIAN_LABELS = ("nob", "nno", "dan")
SHORT_RANGE = (10, 20)  # tokens per segment in the short-text language measure
SCANDINAVIAN_TARGET = 0.02  # the target for Bokmål/Nynorsk/Danish/Swedish errors on such text
NEWS_LABELS = ("nob", "nno", "dan", "swe")
NEWS_RANGE = (10, 40)  # tokens per sentence in the sentence sets (whole sentences, none cut)
LINGUA_CODES = {"nb": "nob", "nn": "nno", "da": "dan", "sv": "swe", "fi": "fin", "is": "isl", "en": "eng",
                "de": "deu"}


# ---------------------------------------------------------------------------------------------
# Measures
# ---------------------------------------------------------------------------------------------

def token_prf(ours: str, reference: str) -> tuple[float, float, float]:
    """Precision, recall and F1 of our whitespace tokens against the reference's (multisets)."""
    a, b = Counter(ours.split()), Counter(reference.split())
    common = sum((a & b).values())
    if not common:
        return 0.0, 0.0, 0.0
    precision, recall = common / sum(a.values()), common / sum(b.values())
    return precision, recall, 2 * precision * recall / (precision + recall)


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


RESAMPLES = 2000  # bootstrap resamples of a set's pages (fixed seed: the same pages give the same interval)


def bootstrap_interval(values: list[float], *, resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """The 95 % percentile bootstrap interval of the mean of ``values`` (a set's per-page scores, or per-page
    differences between two extractors): how far the mean could move on another draw of as many pages
    like these. Fewer than two values: (mean, mean)."""
    import numpy as np

    if len(values) < 2:
        return mean(values), mean(values)
    draws = np.random.default_rng(seed).integers(0, len(values), size=(resamples, len(values)))
    means = np.asarray(values, dtype=float)[draws].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)


def wilson_interval(errors: int, total: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of an error rate of ``errors`` in ``total``."""
    if not total:
        return 0.0, 0.0
    z, rate = 1.959964, errors / total
    centre = (rate + z * z / (2 * total)) / (1 + z * z / total)
    half = z / (1 + z * z / total) * (rate * (1 - rate) / total + z * z / (4 * total * total)) ** 0.5
    return max(0.0, centre - half), min(1.0, centre + half)


def segments(paragraphs: Iterable[str], low: int = SHORT_RANGE[0], high: int = SHORT_RANGE[1]) -> list[str]:
    """Sentences of ``low``..``high`` tokens (nb-tokenizer); longer sentences cut into such pieces."""
    from warc2corpus.text import tokens

    out = []
    for paragraph in paragraphs:
        for sentence in re.split(r"(?<=[.!?;:])\s+", paragraph):
            words = sentence.split()
            n = len(tokens.tokenize(sentence)[0])
            if low <= n <= high:
                out.append(sentence)
            elif n > high:
                for start in range(0, len(words), high * 2 // 3):
                    piece = " ".join(words[start:start + high * 2 // 3])
                    if low <= len(tokens.tokenize(piece)[0]) <= high:
                        out.append(piece)
    return out


# ---------------------------------------------------------------------------------------------
# The sample sets
# ---------------------------------------------------------------------------------------------

@dataclass
class Page:
    name: str
    url: str | None
    html: str
    body: str | None = None      # the ground-truth text
    date: str | None = None      # YYYY-MM-DD
    norwegian: bool = False


def _html(path: Path) -> str:
    from warc2corpus.reading.charsets import read_html_file

    return read_html_file(path)


# Sets of pages with their article text as ground truth (``ground-truth.json``: id -> articleBody, url;
# ``html/<id>.html.gz``), by label: the article-extraction benchmark's, and L3S-GN1's, Utomo and Leu's
# (Big9, Chaos) and Dragnet's news pages and Mozilla Readability's test pages, which ``eval/gather_wider.py``
# writes in the same layout.
ARTICLE_SETS = (("scrapinghub", "extraction_scrapinghub_aeb"), ("l3s_gn1", "extraction_l3s_gn1"),
                ("big9", "extraction_big9"), ("chaos", "extraction_chaos"), ("dragnet", "extraction_dragnet"),
                ("readability", "extraction_readability"), ("cleanportaleval", "extraction_cleanportaleval"))
# Sets whose ground truth lost characters, each with what every text (ours, trafilatura's alone, the
# truth) is scored as, so that no extractor is charged for the truth's loss: Big9's and Chaos' truths kept
# only ASCII characters ("soon—or" written "soonor"): their ASCII characters alone; L3S-GN1's assessors'
# pages were saved in ISO-8859-1, where every other character became "?" (the page's "Armenia&#8217;s" is
# "Armenia?s" in its annotated file): every text as ISO-8859-1 writes it.
_NOT_ASCII = re.compile(r"[^\x00-\x7f]+")


def ascii_only(text: str) -> str:
    return _NOT_ASCII.sub("", text)


def as_latin1(text: str) -> str:
    return text.encode("latin-1", errors="replace").decode("latin-1")


TRUTH_CHARACTERS: dict[str, Callable[[str], str]] = {"big9": ascii_only, "chaos": ascii_only, "l3s_gn1": as_latin1}


def article_pages(samples: Path, folder_name: str = "extraction_scrapinghub_aeb") -> list[Page]:
    """The pages of one of ARTICLE_SETS (by default the article-extraction benchmark's)."""
    folder = samples / folder_name
    truth = json.loads((folder / "ground-truth.json").read_text(encoding="utf-8"))
    return [Page(page_id, row.get("url"), _html(folder / "html" / f"{page_id}.html.gz"), body=row["articleBody"])
            for page_id, row in sorted(truth.items())]


def fundus_pages(samples: Path) -> list[Page]:
    folder = samples / "news_fundus"
    pages = []
    for line in (folder / "ground_truth_flat.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        pages.append(Page(row["file"], row["url"], _html(folder / row["file"]), body="\n".join(row["body_paragraphs"]),
                          date=(row.get("publishing_date") or "")[:10] or None, norwegian=row["country"] == "no"))
    return pages


# Date sets: (label, folder, truth file, pages folder). The shared samples hold the first; the
# second (news pages of Media Cloud, 2020) comes with the wider set of ``eval/gather_wider.py``.
DATE_SETS = (("htmldate", "dates_htmldate_eval", "eval_default.json", "html_bbaw"),
             ("mediacloud", "dates_mediacloud", "eval.json", "html"))


def expected_page_type(page: Page) -> str:
    """fundus' pages are all news articles, but a live blog is a page type of its own: a page that
    declares itself ``LiveBlogPosting`` (its publisher's word, not ours) is expected as ``live_blog``."""
    from warc2corpus.text import extract, pagetype

    tree = extract.parse(page.html)
    return "live_blog" if tree is not None and "LiveBlogPosting" in pagetype.declared_types(tree) else "article"


@dataclass
class SnippetPage:
    page: Page
    with_: list[str]       # text the main text must hold
    without: list[str]     # ... and must not


def trafilatura_eval_pages(samples: Path) -> list[SnippetPage]:
    """trafilatura's evaluation pages and their snippets (``extraction_trafilatura_eval/evaldata.json``,
    keyed by URL; a few keys are names, not URLs)."""
    folder = samples / "extraction_trafilatura_eval"
    entries = json.loads((folder / "evaldata.json").read_text(encoding="utf-8"))
    return [SnippetPage(Page(row["file"], url if url.startswith(("http://", "https://")) else None,
                             _html(folder / "html" / row["file"])), row["with"], row["without"])
            for url, row in sorted(entries.items())]


def snippet_scores(texts: list[str], pages: list[SnippetPage]) -> tuple[float, float, float]:
    """(precision, recall, F1) of the snippets over all pages, matched in whitespace-normalised text as
    trafilatura's evaluation matches them."""
    def flat(text: str) -> str:
        return " ".join(text.split())

    tp = fp = fn = 0
    for text, page in zip(texts, pages):
        found = flat(text)
        hits = sum(flat(snippet) in found for snippet in page.with_)
        tp, fn = tp + hits, fn + len(page.with_) - hits
        fp += sum(flat(snippet) in found for snippet in page.without)
    precision = tp / (tp + fp) if tp + fp else 0.0
    recall = tp / (tp + fn) if tp + fn else 0.0
    return precision, recall, 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else 0.0


def htmldate_pages(samples: Path, folder: str = "dates_htmldate_eval", truth_file: str = "eval_default.json",
                   pages_folder: str = "html_bbaw") -> list[Page]:
    folder = samples / folder
    truth = json.loads((folder / truth_file).read_text(encoding="utf-8"))
    pages = []
    for url, row in sorted(truth.items(), key=lambda item: item[1]["file"]):
        path = folder / pages_folder / (row["file"] + ".gz")
        if not path.exists():
            path = folder / pages_folder / row["file"]
        # A truth without a date (Media Cloud writes NaN) cannot be scored for the exact day.
        date = row["date"] if isinstance(row["date"], str) and row["date"] else None
        pages.append(Page(row["file"], url, _html(path), date=date))
    return pages


def udhr_texts(samples: Path) -> list[tuple[str, str, list[str]]]:
    """(name, ISO 639-3 code, paragraphs) of each declaration."""
    from lxml import html as lxml_html

    folder = samples / "langid" / "udhr"
    if not (folder / "index.json").is_file():
        return []
    out = []
    for entry in json.loads((folder / "index.json").read_text(encoding="utf-8")):
        path = folder / f"{entry['code']}.html"
        if not path.exists():
            continue
        tree = lxml_html.fromstring(path.read_text(encoding="utf-8"))
        paragraphs = [" ".join(p.text_content().split()) for p in tree.iter("p", "h1", "h2", "li")]
        out.append((entry["code"], entry["iso6393"], [p for p in paragraphs if p]))
    return out


def lingua_items(samples: Path, kind: str = "word-pairs") -> list[tuple[str, str]]:
    return _sentence_files(samples / "langid" / "lingua" / kind)


def other_language_sentences(samples: Path) -> list[tuple[str, str]]:
    """(lingua's code, sentence) of ``langid/lingua/other_languages/*.txt`` (lingua's sentences of its
    languages besides Bokmål, Nynorsk, Danish and Swedish: see eval/gather_wider.py), when present."""
    return _sentence_files(samples / "langid" / "lingua" / "other_languages", codes=None)


def nordicdsl_sentences(samples: Path) -> list[tuple[str, str]]:
    """(ISO 639-3 code, sentence) of ``langid/nordicdsl/*.txt`` (NordicDSL's Wikipedia test sentences,
    lower case, without punctuation: see eval/gather_wider.py), when present."""
    return _sentence_files(samples / "langid" / "nordicdsl")


def _sentence_files(folder: Path, codes: dict[str, str] | None = LINGUA_CODES) -> list[tuple[str, str]]:
    """(ISO 639-3 code, line) of the folder's ``<code>.txt`` files (nb, nn, da, sv …: ``codes``; every
    file under its own name when ``codes`` is None)."""
    items = []
    for path in sorted(folder.glob("*.txt")):
        code = path.stem if codes is None else codes.get(path.stem)
        if code:
            items += [(code, line.strip()) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return items


UD_CODES = {"nb": "nob", "nn": "nno", "da": "dan", "sv": "swe", "se": "sme"}
DOCUMENT_SENTENCES = 20  # the treebank's sentences read as documents of this many paragraphs
# Figures of sets a samples folder may lack (eval/gather_wider.py's): never pinned, so the gate means the
# same everywhere.
UNPINNED = ("lang.ud_short.", "lang.lingua_sentences_short.", "lang.heldout_short.", "lang.fundus_news.",
            "lang.nordicdsl_short.", "lang.ndt_news_short.", "lang.ud_documents.", "lang.ndt_news_documents.",
            "lang.fundus_documents.", "lang.other_languages_short.", "body.trafilatura_eval.", "body.l3s_gn1.",
            "body.big9.", "body.chaos.", "body.dragnet.", "body.readability.", "body.cleanportaleval.")
OTHER_LANGUAGE_SENTENCES = 200  # of each other language (lang.other_languages_short)


def ud_sentences(samples: Path) -> list[tuple[str, str]]:
    """(ISO 639-3 code, sentence) of ``langid/ud/ud_sentences.tsv`` (Universal Dependencies treebanks:
    Bokmål, Nynorsk, Danish, Swedish, North Sámi; columns lang and text among others), when present."""
    return _labelled_sentences(samples / "langid" / "ud" / "ud_sentences.tsv", UD_CODES)


def ndt_news_sentences(samples: Path) -> list[tuple[str, str]]:
    """(ISO 639-3 code, sentence) of ``langid/ndt_news/sentences.tsv`` (the Norwegian Dependency
    Treebank's newspaper sentences outside UD's dev and test files: Bokmål and Nynorsk), when present."""
    return _labelled_sentences(samples / "langid" / "ndt_news" / "sentences.tsv", {"nob": "nob", "nno": "nno"})


def ndt_news_documents(samples: Path) -> list[tuple[str, list[str]]]:
    """The same sentences as :func:`ndt_news_sentences`, as documents (:func:`_sentence_documents`)."""
    return _sentence_documents(samples / "langid" / "ndt_news" / "sentences.tsv", "file", {"nob": "nob", "nno": "nno"})


def ud_documents(samples: Path) -> list[tuple[str, list[str]]]:
    """The Bokmål, Nynorsk, Danish and Swedish sentences of :func:`ud_sentences`, as documents
    (:func:`_sentence_documents`; a treebank file holds one language, its sentences in their order)."""
    return _sentence_documents(samples / "langid" / "ud" / "ud_sentences.tsv", "treebank_file",
                               {code: lang for code, lang in UD_CODES.items() if lang in NEWS_LABELS})


def _sentence_documents(path: Path, file_column: str, codes: dict[str, str]) -> list[tuple[str, list[str]]]:
    """(code, its sentences in order) per file of a sentence table, cut into documents of
    DOCUMENT_SENTENCES sentences (a news article's length); none when the table is absent."""
    if not path.is_file():
        return []
    files: dict[tuple[str, str], list[str]] = {}
    with open(path, encoding="utf-8") as table:
        header = next(table).rstrip("\n").split("\t")
        lang, name, text = header.index("lang"), header.index(file_column), header.index("text")
        for line in table:
            cells = line.rstrip("\n").split("\t")
            if len(cells) > max(lang, name, text) and cells[lang] in codes and cells[text].strip():
                files.setdefault((codes[cells[lang]], cells[name]), []).append(cells[text].strip())
    return [(code, sentences[start:start + DOCUMENT_SENTENCES]) for (code, _), sentences in files.items()
            for start in range(0, len(sentences), DOCUMENT_SENTENCES)]


def _labelled_sentences(path: Path, codes: dict[str, str]) -> list[tuple[str, str]]:
    """(code, sentence) of a table with columns ``lang`` and ``text`` (among others), the labels read
    through ``codes`` (rows of other labels left out); none when the file is absent."""
    if not path.is_file():
        return []
    rows = []
    with open(path, encoding="utf-8") as table:
        header = next(table).rstrip("\n").split("\t")
        lang, text = header.index("lang"), header.index("text")
        for line in table:
            cells = line.rstrip("\n").split("\t")
            if len(cells) > max(lang, text) and cells[lang] in codes and cells[text].strip():
                rows.append((codes[cells[lang]], cells[text].strip()))
    return rows


# ---------------------------------------------------------------------------------------------
# The three contenders
# ---------------------------------------------------------------------------------------------

@dataclass
class Result:
    text: str
    date: str | None
    page_type: str | None = None
    dropped: list[tuple[str, str]] = field(default_factory=list)  # (reason, paragraph) our cleaning dropped


def ours(page: Page) -> Result:
    """Our extraction, judged by the seed naturalness model (none trained from a corpus on this machine),
    so that the gate measures the same everywhere; a Wayback capture restored first, as the pipeline's
    restore step does (``stages.pages.Restore``: Big9's older pages are captures, toolbar and all)."""
    from warc2corpus.reading import wayback
    from warc2corpus.text import extract, naturalness

    restored = wayback.unwrap(page.html, page.url)
    html, url = (restored.html, restored.url) if restored.kind == "page" else (page.html, page.url)
    document = extract.extract(html, url, naturalness=naturalness.seed_model())
    return Result("\n".join(document.paragraphs), document.published, document.page_type,
                  document.dropped_paragraphs)


def trafilatura_alone(page: Page) -> Result:
    import trafilatura

    document = trafilatura.bare_extraction(page.html, url=page.url, with_metadata=True)
    if document is None:
        return Result("", None)
    return Result(document.text or "", document.date or None)


def htmldate_alone(page: Page) -> str | None:
    import htmldate

    return htmldate.find_date(page.html, url=page.url)


# ---------------------------------------------------------------------------------------------
# The report
# ---------------------------------------------------------------------------------------------

@dataclass
class Figure:
    name: str
    ours: float
    trafilatura: float | None = None
    htmldate: float | None = None
    lower_is_better: bool = False
    note: str = ""


@dataclass
class Report:
    figures: list[Figure] = field(default_factory=list)
    details: dict = field(default_factory=dict)
    seconds: float = 0.0

    def add(self, *args, **kwargs) -> None:
        self.figures.append(Figure(*args, **kwargs))

    def values(self) -> dict[str, float]:
        return {f.name: round(f.ours, 4) for f in self.figures}


def _body(report: Report, label: str, pages: list[Page], results: list[Result], alone: list[Result]) -> None:
    scored = TRUTH_CHARACTERS.get(label, str)
    ours_prf = [token_prf(scored(r.text), scored(p.body)) for p, r in zip(pages, results)]
    alone_prf = [token_prf(scored(r.text), scored(p.body)) for p, r in zip(pages, alone)]
    for i, measure in enumerate(("precision", "recall")):
        report.add(f"body.{label}.{measure}", mean(s[i] for s in ours_prf), mean(s[i] for s in alone_prf))
    f1 = [s[2] for s in ours_prf]
    low, high = bootstrap_interval(f1)
    gain = [s[2] - a[2] for s, a in zip(ours_prf, alone_prf)]
    gain_low, gain_high = bootstrap_interval(gain)
    report.add(f"body.{label}.f1", mean(f1), mean(a[2] for a in alone_prf),
               note=f"95 % interval {low:.4f}-{high:.4f}; ours - alone {mean(gain):+.4f} "
                    f"({gain_low:+.4f} to {gain_high:+.4f}); {len(pages)} pages")
    report.details[f"body.{label}.pages"] = {p.name: round(s[2], 4) for p, s in zip(pages, ours_prf)}
    report.details[f"dropped.{label}"] = dropped_words([scored(p.body) for p in pages], results, scored)
    norwegian = [(p, s, a) for p, s, a in zip(pages, ours_prf, alone_prf) if p.norwegian]
    if norwegian:
        report.add(f"body.{label}.norwegian_min_f1", min(s[2] for _, s, _ in norwegian),
                   min(a[2] for _, _, a in norwegian))


def dropped_words(truths: list[str], results: list[Result], scored: Callable[[str], str] = str) -> dict:
    """What each cleaning rule cost and saved on a set: per reason, the paragraphs it dropped, the words
    of them the truth holds (``truth_words``: recall lost) and the others (``other_words``: precision
    won). A dropped paragraph's words count as the truth's only up to what the truth holds beyond our
    kept text (a line the truth has once and we keep once is no loss when its copy is dropped); words
    are the whitespace tokens the token measures count, ``scored`` as the set scores them."""
    rules: dict[str, Counter] = {}
    for truth, result in zip(truths, results):
        available = Counter(truth.split()) - Counter(scored(result.text).split())
        for reason, paragraph in result.dropped:
            words = Counter(scored(paragraph).split())
            found = words & available
            available -= found
            tally = rules.setdefault(reason, Counter())
            tally["paragraphs"] += 1
            tally["truth_words"] += sum(found.values())
            tally["other_words"] += sum(words.values()) - sum(found.values())
    return {reason: dict(tally) for reason, tally in sorted(rules.items())}


def _dates(report: Report, label: str, pages: list[Page], results: list[Result], alone: list[Result]) -> list:
    """Exact-day accuracy on the pages whose truth gives a date (a page without one cannot be scored: it
    is counted in the note). Returns each scored page's (ours, trafilatura alone, htmldate alone) hits,
    for the figure pooled over every date set."""
    scored = [(p, r, a) for p, r, a in zip(pages, results, alone) if p.date]
    hits = [(r.date == p.date, a.date == p.date, htmldate_alone(p) == p.date) for p, r, a in scored]
    left_out = len(pages) - len(scored)
    report.add(f"date.{label}.accuracy", *_hit_rates(hits),
               note=f"{len(scored)} pages with a known date" + (f", {left_out} without one left out" if left_out else ""))
    return hits


def _hit_rates(hits: list) -> tuple[float, float, float]:
    """(ours, trafilatura alone, htmldate alone) accuracy of a list of their hits."""
    return tuple(mean(float(h[i]) for h in hits) for i in range(3))


def confusion(pairs: Iterable[tuple[str, str]], labels: tuple[str, ...] = SCANDINAVIAN_LABELS) -> dict:
    """{truth: {predicted: count}} with every prediction outside ``labels`` counted as "other"."""
    matrix = {t: Counter() for t in labels}
    for truth, predicted in pairs:
        if truth in matrix:
            matrix[truth][predicted if predicted in labels else "other"] += 1
    return {t: dict(c) for t, c in matrix.items()}


def error_rate(matrix: dict) -> float:
    total = sum(sum(row.values()) for row in matrix.values())
    right = sum(row.get(t, 0) for t, row in matrix.items())
    return (total - right) / total if total else 0.0


def _language(report: Report, samples: Path, heldout: Path | None) -> None:
    from warc2corpus.text import language

    def gielladetect(text: str) -> str:
        return language.rank(text[:language.MAX_CHARS])[0]

    pairs = lingua_items(samples, "word-pairs")
    if pairs:
        report.add("lang.lingua_word_pairs.accuracy", mean(float(language.of_text(t) == c) for c, t in pairs),
                   note=f"gielladetect alone {mean(float(gielladetect(t) == c) for c, t in pairs):.4f}")

    declarations = udhr_texts(samples)
    if declarations:
        report.add("lang.udhr.accuracy",
                   mean(float(language.of_paragraphs(ps).language == code) for _, code, ps in declarations),
                   note=f"gielladetect alone {mean(float(gielladetect(chr(10).join(ps)) == code) for _, code, ps in declarations):.4f}")
        short = [(code, s) for _, code, ps in declarations if code in SCANDINAVIAN_LABELS for s in segments(ps)]
        ours_matrix = confusion((c, language.of_text(s)) for c, s in short)
        base_matrix = confusion((c, gielladetect(s)) for c, s in short)
        report.add("lang.udhr_short.scandinavian_errors", error_rate(ours_matrix), lower_is_better=True,
                   note=f"gielladetect alone {error_rate(base_matrix):.4f}; {len(short)} segments of 10-20 tokens")
        report.details["confusion.udhr_short"] = {"ours": ours_matrix, "gielladetect": base_matrix}

    if (samples / "news_fundus").is_dir():
        fundus_no = [p for p in fundus_truth(samples) if p["country"] == "no"]
        sentences = segments(q for p in fundus_no for q in p["body_paragraphs"])
        ours_no = confusion(("nob", language.of_text(s)) for s in sentences)
        base_no = confusion(("nob", gielladetect(s)) for s in sentences)
        report.add("lang.fundus_nob_short.errors", error_rate(ours_no), lower_is_better=True,
                   note=f"gielladetect alone {error_rate(base_no):.4f}; {len(sentences)} news sentences")
        report.details["confusion.fundus_nob_short"] = {"ours": ours_no, "gielladetect": base_no}
        by_country = {"no": "nob", "dk": "dan", "se": "swe"}
        _sentences(report, "fundus_news", [(by_country[p["country"]], s) for p in fundus_truth(samples)
                                           if p["country"] in by_country
                                           for q in p["body_paragraphs"] for s in re.split(r"(?<=[.!?])\s+", q)],
                   gielladetect, "news sentences of fundus' Norwegian, Danish and Swedish pages")

        _documents(report, "fundus_documents", [(by_country[p["country"]], p["body_paragraphs"])
                                                for p in fundus_truth(samples) if p["country"] in by_country],
                   "paragraphs of fundus' Norwegian, Danish and Swedish pages")

    # Sentence sets the samples may hold (langid/README.md describes them): measured when present.
    _sentences(report, "ud_short", ud_sentences(samples), gielladetect, "UD treebank sentences")
    _sentences(report, "lingua_sentences_short", lingua_items(samples, "sentences"), gielladetect,
               "lingua sentences")
    _sentences(report, "ndt_news_short", ndt_news_sentences(samples), gielladetect,
               "newspaper sentences of the Norwegian Dependency Treebank")
    _documents(report, "ud_documents", ud_documents(samples),
               f"UD treebank sentences as paragraphs of documents of {DOCUMENT_SENTENCES}")
    _documents(report, "ndt_news_documents", ndt_news_documents(samples),
               f"newspaper sentences of the Norwegian Dependency Treebank as paragraphs of documents of "
               f"{DOCUMENT_SENTENCES}")
    _sentences(report, "nordicdsl_short", nordicdsl_sentences(samples), gielladetect,
               "NordicDSL Wikipedia sentences (lower case, unpunctuated)")
    _other_languages(report, other_language_sentences(samples), gielladetect)
    if heldout is not None:
        items = [(LINGUA_CODES[path.stem], line.strip()) for path in sorted(heldout.glob("*.txt"))
                 if path.stem in LINGUA_CODES for line in path.read_text(encoding="utf-8").splitlines()]
        _sentences(report, "heldout_short", items, gielladetect, "held-out sentences")


def _sentences(report: Report, label: str, items: list[tuple[str, str]], gielladetect, what: str) -> None:
    """Errors among Bokmål, Nynorsk, Danish and Swedish on the labelled sentences of 10-40 tokens (with
    the confusion matrix, and each language's own error rate), and North Sámi accuracy where there is any."""
    from warc2corpus.text import language, tokens

    def in_range(sentence: str) -> bool:
        return NEWS_RANGE[0] <= len(tokens.tokenize(sentence)[0]) <= NEWS_RANGE[1]

    if not items:
        return
    short = [(c, s) for c, s in items if c in NEWS_LABELS and in_range(s)]
    ours_matrix = confusion(((c, language.of_text(s)) for c, s in short), NEWS_LABELS)
    base_matrix = confusion(((c, gielladetect(s)) for c, s in short), NEWS_LABELS)
    per_language = ", ".join(f"{c} {error_rate({c: row}):.4f} ({_wilson_text(row, c)})"
                             for c, row in ours_matrix.items() if row)
    # The pipeline labels a paragraph of fewer than MIN_WORDS words ``und``: how many of these sentences.
    undetermined = mean(float(not language.enough_words(s)) for _, s in short) if short else 0.0
    report.add(f"lang.{label}.scandinavian_errors", error_rate(ours_matrix), lower_is_better=True,
               note=f"gielladetect alone {error_rate(base_matrix):.4f}; {len(short)} {what} ({per_language});"
                    f" target < {SCANDINAVIAN_TARGET} each; und as a paragraph {undetermined:.4f}")
    report.details[f"confusion.{label}"] = {"ours": ours_matrix, "gielladetect": base_matrix}
    sami = [s for c, s in items if c == "sme" and in_range(s)]
    if sami:
        report.add(f"lang.{label}.sme_accuracy", mean(float(language.of_text(s) == "sme") for s in sami),
                   note=f"gielladetect alone {mean(float(gielladetect(s) == 'sme') for s in sami):.4f}; "
                        f"{len(sami)} North Sámi {what}")


def _other_languages(report: Report, items: list[tuple[str, str]], gielladetect) -> None:
    """How many sentences of 10-40 tokens in languages besides the Scandinavian standards (the first
    OTHER_LANGUAGE_SENTENCES of each) come out one of the archive's languages (Bokmål, Nynorsk, Sámi,
    Kven), and the languages it happens to most."""
    from warc2corpus.text import language, tokens

    if not items:
        return
    taken: Counter = Counter()
    short = []
    for code, sentence in items:
        if taken[code] < OTHER_LANGUAGE_SENTENCES \
                and NEWS_RANGE[0] <= len(tokens.tokenize(sentence)[0]) <= NEWS_RANGE[1]:
            taken[code] += 1
            short.append((code, sentence))
    ours = Counter(code for code, sentence in short if language.of_text(sentence) in language.ARCHIVE_LANGUAGES)
    alone = sum(gielladetect(sentence) in language.ARCHIVE_LANGUAGES for _, sentence in short)
    most = ", ".join(f"{code} {n}" for code, n in ours.most_common(5)) or "none"
    report.add("lang.other_languages_short.read_as_archive", sum(ours.values()) / len(short), lower_is_better=True,
               note=f"gielladetect alone {alone / len(short):.4f}; {len(short)} lingua sentences of {len(taken)} "
                    f"other languages read as Bokmål, Nynorsk, Sámi or Kven (most: {most})")


def _wilson_text(row: dict, label: str) -> str:
    """A confusion row's error rate's 95 % interval, as text."""
    total = sum(row.values())
    low, high = wilson_interval(total - row.get(label, 0), total)
    return f"{low:.4f}-{high:.4f}"


def _documents(report: Report, label: str, documents: list[tuple[str, list[str]]], what: str) -> None:
    """Errors among Bokmål, Nynorsk, Danish and Swedish on the paragraphs the pipeline labels (those of
    MIN_WORDS words or more) in labelled documents: each paragraph read within its document, as the
    extract stage reads it (a paragraph the standards tie on takes the document's), beside each read
    alone."""
    from warc2corpus.text import language, tokens

    if not documents:
        return
    pairs: dict[bool, list[tuple[str, str]]] = {True: [], False: []}
    for code, paragraphs in documents:
        counts = [len(tokens.tokenize(p)[0]) for p in paragraphs]
        for in_context in (True, False):
            labels = language.of_paragraphs(paragraphs, counts, in_context=in_context).paragraphs
            pairs[in_context] += [(code, label) for label in labels if label != language.UNDETERMINED]
    ours, alone = confusion(pairs[True], NEWS_LABELS), confusion(pairs[False], NEWS_LABELS)
    per_language = ", ".join(f"{c} {error_rate({c: row}):.4f} (alone {error_rate({c: alone[c]}):.4f})"
                             for c, row in ours.items() if row)
    report.add(f"lang.{label}.scandinavian_errors", error_rate(ours), lower_is_better=True,
               note=f"each paragraph alone {error_rate(alone):.4f}; {len(pairs[True])} {what} ({per_language})")
    report.details[f"confusion.{label}"] = {"ours": ours, "each paragraph alone": alone}


def fundus_truth(samples: Path) -> list[dict]:
    lines = (samples / "news_fundus" / "ground_truth_flat.jsonl").read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def run(samples: Path | None = None, *, heldout: Path | None = None,
        progress: Callable[[str], None] | None = None) -> Report:
    """Every measure of the gate on the sets the samples folder holds (a set it lacks is not measured,
    so its pins fail the gate: ``compare``); the folder must exist."""
    samples = samples or settings.samples_dir()
    report = Report()
    started = time.monotonic()
    say = progress or (lambda message: None)
    date_hits: list = []  # (ours, trafilatura alone, htmldate alone) hits on every date set's pages

    for label, folder in ARTICLE_SETS:
        if (samples / folder).is_dir():
            say(f"body text: {label}")
            pages = article_pages(samples, folder)
            _body(report, label, pages, [ours(p) for p in pages], [trafilatura_alone(p) for p in pages])

    if (samples / "extraction_trafilatura_eval").is_dir():
        say("body text: trafilatura's evaluation pages")
        snippet_pages = trafilatura_eval_pages(samples)
        ours_scores = snippet_scores([ours(s.page).text for s in snippet_pages], snippet_pages)
        alone_scores = snippet_scores([trafilatura_alone(s.page).text for s in snippet_pages], snippet_pages)
        n_snippets = sum(len(s.with_) + len(s.without) for s in snippet_pages)
        for i, measure in enumerate(("snippet_precision", "snippet_recall", "snippet_f1")):
            report.add(f"body.trafilatura_eval.{measure}", ours_scores[i], alone_scores[i],
                       note=f"{len(snippet_pages)} pages, {n_snippets} snippets" if i == 0 else "")

    if (samples / "news_fundus").is_dir():
        say("body text, dates, page types: fundus")
        pages = fundus_pages(samples)
        results, alone = [ours(p) for p in pages], [trafilatura_alone(p) for p in pages]
        _body(report, "fundus", pages, results, alone)
        date_hits += _dates(report, "fundus", pages, results, alone)
        expected = [expected_page_type(p) for p in pages]
        report.add("pagetype.fundus.accuracy", mean(float(r.page_type == e) for r, e in zip(results, expected)),
                   note=f"{expected.count('live_blog')} declared live blogs, the rest articles")
        report.details["pagetype.fundus"] = dict(Counter(r.page_type for r in results))

    for label, folder, truth_file, pages_folder in DATE_SETS:
        if (samples / folder).is_dir():
            say(f"dates: {label} pages")
            pages = htmldate_pages(samples, folder, truth_file, pages_folder)
            date_hits += _dates(report, label, pages, [ours(p) for p in pages],
                                [trafilatura_alone(p) for p in pages])
    if sum(f.name.startswith("date.") for f in report.figures) > 1:
        # Every date set's pages as one broad set.
        report.add("date.all.accuracy", *_hit_rates(date_hits), note=f"{len(date_hits)} pages of every date set above")

    if (samples / "langid").is_dir() or (samples / "news_fundus").is_dir():
        say("language")
        _language(report, samples, heldout)
    report.seconds = time.monotonic() - started
    return report


# ---------------------------------------------------------------------------------------------
# Baseline and printing
# ---------------------------------------------------------------------------------------------

def load_baseline(path: Path | None = None) -> dict[str, float]:
    path = path or settings.eval_baseline_file()
    return json.loads(path.read_text(encoding="utf-8"))["pins"]


def compare(report: Report, pins: dict[str, float]) -> list[str]:
    """What got worse than its pin (a floor, or a ceiling for error rates); pins without a figure too."""
    figures = {f.name: f for f in report.figures}
    failures = []
    for name, pin in sorted(pins.items()):
        figure = figures.get(name)
        if figure is None:
            failures.append(f"{name}: no longer measured (pinned {pin})")
        elif figure.lower_is_better and figure.ours > pin + TOLERANCE:
            failures.append(f"{name}: {figure.ours:.4f} is above its ceiling {pin:.4f}")
        elif not figure.lower_is_better and figure.ours < pin - TOLERANCE:
            failures.append(f"{name}: {figure.ours:.4f} is below its floor {pin:.4f}")
    return failures


PAGE_CHANGE = 0.001  # a page's F1 moved by more than this is better or worse


def earlier_report(path: Path) -> dict:
    """The figures and details of an earlier ``warc2corpus eval --json`` run: its output's last line that
    is a JSON object (the output may hold the printed report before it)."""
    for line in reversed(path.read_text(encoding="utf-8").splitlines()):
        if line.startswith("{"):
            return json.loads(line)
    raise ValueError(f"{path} holds no JSON line: save the output of `warc2corpus eval --json`")


def page_changes(report: Report, earlier: dict) -> list[str]:
    """Per main-text set both runs measured: the mean F1 then and now, how many pages are better and
    worse (by more than PAGE_CHANGE), and each worse page: what an "n better, none worse" rests on."""
    lines = []
    for key, now in report.details.items():
        then = earlier.get("details", {}).get(key)
        if not (key.startswith("body.") and key.endswith(".pages")) or then is None:
            continue
        common, only_one = sorted(set(now) & set(then)), set(now) ^ set(then)
        better = [name for name in common if now[name] > then[name] + PAGE_CHANGE]
        worse = [name for name in common if now[name] < then[name] - PAGE_CHANGE]
        label = key.removeprefix("body.").removesuffix(".pages")
        lines.append(f"{label}: F1 {mean(then[n] for n in common):.4f} -> {mean(now[n] for n in common):.4f} "
                     f"on {len(common)} pages: {len(better)} better, {len(worse)} worse"
                     + (f" ({len(only_one)} pages in one run only)" if only_one else ""))
        lines.extend(f"    worse: {name} {then[name]:.4f} -> {now[name]:.4f}" for name in worse)
    return lines


def write_baseline(report: Report, path: Path | None = None) -> None:
    pins = {f.name: round(f.ours, 4) for f in report.figures if not f.name.startswith(UNPINNED)}
    # Rounding must never make the pin stricter than the measured figure.
    for f in report.figures:
        if f.name in pins:
            pins[f.name] = (min if f.lower_is_better else max)(pins[f.name], round(f.ours, 4))
            if f.lower_is_better and pins[f.name] < f.ours:
                pins[f.name] = round(f.ours + 5e-5, 4)
            if not f.lower_is_better and pins[f.name] > f.ours:
                pins[f.name] = round(f.ours - 5e-5, 4)
    path = path or settings.eval_baseline_file()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"about": "Pins of `warc2corpus eval`: floors, and ceilings for error rates "
                                         "(lower_is_better). Raise them when the pipeline improves; never lower "
                                         "them to make a change pass.", "pins": pins}, indent=2) + "\n",
                    encoding="utf-8")


def format_report(report: Report, pins: dict[str, float] | None = None) -> str:
    from warc2corpus.formatting import format_table

    def cell(value):
        return "-" if value is None else f"{value:.4f}"

    rows = []
    for f in report.figures:
        pin = (pins or {}).get(f.name)
        rows.append((f.name, cell(f.ours), cell(f.trafilatura), cell(f.htmldate),
                     "-" if pin is None else ("<= " if f.lower_is_better else ">= ") + f"{pin:.4f}", f.note))
    lines = [format_table(("measure", "ours", "trafilatura alone", "htmldate alone", "pin", "note"), rows)]
    for key in sorted(k for k in report.details if k.startswith("confusion.")):
        lines.append("")
        lines.append(f"{key[len('confusion.'):]}: confusion matrix (rows: truth, columns: predicted)")
        for who, matrix in report.details[key].items():
            columns = [*matrix, "other"]  # the matrix's own labels (confusion), in its order
            table = [(truth, *[row.get(c, 0) for c in columns]) for truth, row in matrix.items() if row]
            lines.append(f"  {who}:")
            lines.extend("    " + line for line in format_table(("truth", *columns), table).splitlines())
    dropped = {key[len("dropped."):]: rules for key, rules in report.details.items()
               if key.startswith("dropped.") and rules}
    if dropped:
        lines.append("")
        lines.append("what the cleaning dropped, per set and reason: paragraphs, and their words the truth holds "
                     "(recall lost) / does not hold (precision won)")
        reasons = sorted({reason for rules in dropped.values() for reason in rules})
        table = [(label, *[f"{rules[r]['paragraphs']}: {rules[r]['truth_words']} / {rules[r]['other_words']}"
                           if r in rules else "-" for r in reasons]) for label, rules in dropped.items()]
        lines.extend("  " + line for line in format_table(("set", *reasons), table).splitlines())
    pagetypes = report.details.get("pagetype.fundus")
    if pagetypes:
        lines.append("")
        lines.append("page types of the fundus pages: " + ", ".join(f"{k}: {v}" for k, v in sorted(
            pagetypes.items(), key=lambda item: str(item[0]))))
    lines.append("")
    lines.append(f"measured in {report.seconds:.1f} s")
    return "\n".join(lines)
