"""Gather a wider set of real pages with ground truth, for figures that must hold on pages we did not tune on.

The shared samples (``../shared/samples``) hold 20 pages of the article-extraction benchmark, 50 of
fundus' test pages and 20 of htmldate's evaluation: the pages the cleaning was developed on. Their
source repositories hold many more of the same kinds. This script takes those repositories (a clone
or a bare mirror of each, at the commit named below or any other, which it records), leaves out every
page the shared samples already hold, and splits the rest by a hash of each page's name into two
halves with the layout of the shared samples, so that ``warc2corpus eval --samples DIR --no-pins``
measures them:

    OUT/dev/       to look at while working
    OUT/heldout/   not to be looked at until a change is finished and reported

    extraction_scrapinghub_aeb/  ground-truth.json + html/<id>.html.gz        (scrapinghub, MIT)
    news_fundus/                 ground_truth_flat.jsonl + test_data/<cc>/...  (flairNLP/fundus, MIT)
    dates_htmldate_eval/         eval_default.json + html_bbaw/...            (adbar/htmldate, Apache-2.0: BBAW pages)
    dates_mediacloud/            eval.json + html/...                         (adbar/htmldate: news pages, Media Cloud 2020)
    langid/lingua/sentences/     nb.txt, nn.txt, da.txt, sv.txt               (pemistahl/lingua-py, Apache-2.0:
                                                                              Leipzig corpora sentences, news and web)
    langid/lingua/other_languages/  <code>.txt of its 71 other languages      (the same: text that must not come
                                                                              out Bokmål, Nynorsk, Sámi or Kven)
    langid/ud/ud_sentences.tsv   lang, treebank_file, sent_id, text           (Universal Dependencies treebanks,
                                                                              CC BY-SA 4.0, with --ud: below)
    extraction_trafilatura_eval/ evaldata.json + html/<file>                  (adbar/trafilatura's evaluation,
                                                                              Apache-2.0, with --trafilatura: below)
    extraction_l3s_gn1/          ground-truth.json + html/<id>.html.gz        (L3S-GN1, research use only, with
                                                                              --l3s: below)
    langid/ndt_news/sentences.tsv  lang, file, text                           (NorNE's copy of the Norwegian
                                                                              Dependency Treebank, with --norne: below)
    extraction_big9/             ground-truth.json + html/<id>.html.gz        (Utomo & Leu's Big9 and Chaos sets,
    extraction_chaos/                                                         research use only, with --utomo: below)
    langid/nordicdsl/            nb.txt, nn.txt, da.txt, sv.txt               (NordicDSL's Wikipedia test sentences,
                                                                              CC BY-SA 3.0, with --nordicdsl: below)
    extraction_dragnet/          ground-truth.json + html/<id>.html.gz        (Moz's Dragnet data, AGPL-3.0, with
                                                                              --dragnet: below)
    extraction_readability/      ground-truth.json + html/<id>.html.gz        (Mozilla Readability's test pages,
                                                                              Apache-2.0, with --readability: below)
    extraction_cleanportaleval/  ground-truth.json + html/<id>.html.gz        (CleanPortalEval's news and blog pages,
                                                                              research, with --dragnet: below)

trafilatura's evaluation pages (``tests/eval`` and ``tests/cache``, about 990 pages of news, blogs, shops and
forums in many languages) come with snippets its author wrote for each page: text the main text must hold
("with") and text it must not ("without"). trafilatura was developed against them, so on these pages it
is the best placed of all; the figure is their recall and precision of snippets, not of tokens.

L3S-GN1 (Kohlschütter et al., WSDM 2010; the copy in geodrome/page-signal) holds 621 English news
articles of 408 sites that Google News linked in 2008, each as crawled and as human assessors marked it
up block by block: headline, full text, supplemental (captions and the like), related content, user
comments, or not content. The ground truth is the full text, as the article-extraction benchmark's
``articleBody`` is: each text node counts for the label of its nearest marked ancestor. The marked-up
copies lost some characters the crawled pages had (the annotation tool wrote "?" for typographic
quotes), so a few tokens match no contender.

The treebanks' sentences are split as the treebanks split them, not by hash: a treebank's dev file goes
to dev, its test file to heldout (North Sámi, which has no dev file: train and test). Bokmål and Nynorsk
are the Norwegian Dependency Treebank's (newspapers above all, also government reports, parliament
transcripts and blogs), Danish the Danish Dependency Treebank's, Swedish Talbanken's professional prose,
North Sámi Giellatekno's corpus.

With ``--norne`` (a clone of ltgoslo/norne, which holds the Norwegian Dependency Treebank document by
document) also the treebank's newspaper sentences — Aftenposten, Bergens Tidende, Dagbladet, Klassekampen,
Sunnmørsposten and VG in Bokmål; Dag og Tid, Firda, Klassekampen and Vest-Telemark Blad in Nynorsk — less
every sentence of UD's dev and test files (the UD sets above): in effect the news part of the treebank's
training file, which the UD set leaves out. About 12,000 sentences of each standard, split by a hash of
the treebank file's name (an article's sentences stay together). The annotations are CC0; the texts are
the newspapers', for research.

With ``--utomo`` (a clone of MSVCode/ir-research-data) also Utomo and Leu's web content extraction
sets, each page with a main text a person wrote out (its headline, then its paragraphs): Big9, ten
pages a year of nine English news sites (Ars Technica, BBC, CNN, Forbes, Fox News, LA Times, New York
Magazine, New York Post, Yahoo News) in 2005, 2009, 2013 and 2017, the older ones Wayback Machine
captures; and Chaos, 360 pages of about 240 sites that Google found for 36 news queries in 2017. Big9 is
split by site (nine sites, alternately by the hash of their names: a site's pages stay in one half, so
that rules read off one half's sites are judged on other sites), Chaos by the hash of each page's name.
The headline is left out of the ground truth (its first line, when it reads as one: 25 words at most,
no full stop at its end), as the benchmark's ``articleBody`` leaves it out. Their makers kept only ASCII
characters (typographic quotes and dashes are gone: "soon—or" is "soonor"), so the eval scores these
two sets on the ASCII characters of either text.

With ``--nordicdsl`` (a clone of renhaa/NordicDSL) also the Wikipedia test sentences of Haas and
Derczynski's "Discriminating Between Similar Nordic Languages" (2021): Bokmål, Nynorsk, Danish and
Swedish, each labelled by the Wikipedia it comes from, in lower case and without punctuation or digits
(harder than news for function words and names alike), split by a hash of the file and the sentence.
The file is in the repository's history only (NORDICDSL_COMMIT).

With ``--dragnet`` (a clone of j-szulc/html-cleaning-dataset-merged, which holds Moz's Dragnet data,
seomoz/dragnet_data, with the pages that repository's own copy lacks) also Dragnet's 1,381 English news
and blog pages, each with its article as a person copied it out of the page shown in a browser (Peters
and Lecocq, "Content extraction using diverse feature sets", WWW 2013): the text before the line that
parts it from the comments. The copy is what the person took for the article, with the headline, date
or byline where they took those too, so every extractor, ours and trafilatura alone, loses some recall
on them; it is scored as given. Split by the hash of each page's name. It was tried once before, on
2026-12-05, on a dev half (figures and the rules' dropped words only) and left out then for those
conventions; no rule had been read off it when it was gathered here (2026-12-07).

The same clone holds CleanPortalEval (Endrédy and Novák, "More effective boilerplate removal — the
GoldMiner algorithm", Polibits 48, 2013; ppke-nlpg/CleanPortalEval): 71 pages of four sites of 2011-2012
(BBC News, MSNBC's TV news, a Wall Street Journal blog, Washington Post blogs), each with its main text
as a person marked it in CleanEval's format (``<h>``, ``<p>`` and ``<l>`` blocks, the lines wrapped, HTML
entities left in). The truth is its blocks, one a line, the entities read, without the headline (the
first block, when it is a ``<h>``), as the benchmark's ``articleBody``. Split by site as Big9 is (a site's
pages stay in one half). No rule had been read off any of its pages when it was gathered (2026-12-08).

With ``--readability`` (a clone of mozilla/readability) also the real web pages among Readability's test
pages (``test/test-pages/<name>/source.html`` of 8 KB or more: the smaller ones are the library's own cases
of a few tags), each with the reader view its test expects (``expected.html``: the text of its blocks, a
block per line) as the truth: a machine's output that the library's makers checked, not a person's copy,
and without the headline, as the benchmark's ``articleBody``. The 20 news pages the shared samples hold
are left out; of the rest (news of 2010-2020, blogs, documentation, Wikipedia) no rule had been read off
any when they were gathered (2026-12-07). Split by the hash of each page's name.

Each half gets a ``SOURCES.json`` naming the repositories, their commits and licences. The pages are
third-party data: they are never copied into the project (OUT defaults to ``var/eval-wider``).

    git clone https://github.com/scrapinghub/article-extraction-benchmark aeb
    git clone https://github.com/flairNLP/fundus fundus
    git clone https://github.com/adbar/htmldate htmldate
    git clone https://github.com/pemistahl/lingua-py lingua
    for t in Norwegian-Bokmaal Norwegian-Nynorsk Danish-DDT Swedish-Talbanken North_Sami-Giella; do
        git clone https://github.com/UniversalDependencies/UD_$t; done
    git clone https://github.com/adbar/trafilatura trafilatura
    git clone https://github.com/geodrome/page-signal l3s
    git clone https://github.com/ltgoslo/norne norne
    git clone https://github.com/MSVCode/ir-research-data utomo
    git clone https://github.com/renhaa/NordicDSL nordicdsl
    git clone https://github.com/j-szulc/html-cleaning-dataset-merged dragnet
    git clone https://github.com/mozilla/readability readability
    .venv/bin/python eval/gather_wider.py --aeb aeb --fundus fundus --htmldate htmldate --lingua lingua \
        --ud UD_Norwegian-Bokmaal UD_Norwegian-Nynorsk UD_Danish-DDT UD_Swedish-Talbanken UD_North_Sami-Giella \
        --trafilatura trafilatura --l3s l3s --norne norne --utomo utomo --nordicdsl nordicdsl \\
        --dragnet dragnet --readability readability
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import html
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = {
    "aeb": ("https://github.com/scrapinghub/article-extraction-benchmark", "MIT"),
    "fundus": ("https://github.com/flairNLP/fundus", "MIT"),
    "htmldate": ("https://github.com/adbar/htmldate", "Apache-2.0"),
    "trafilatura": ("https://github.com/adbar/trafilatura", "Apache-2.0 (the pages: third-party web pages)"),
    "lingua": ("https://github.com/pemistahl/lingua-py", "Apache-2.0"),
    "l3s": ("https://github.com/geodrome/page-signal", "L3S-GN1: research use only (L3S Research Center)"),
    "norne": ("https://github.com/ltgoslo/norne", "CC0 (annotations); the newspapers' texts, for research"),
    "utomo": ("https://github.com/MSVCode/ir-research-data", "research use only (Utomo & Leu)"),
    "nordicdsl": ("https://github.com/renhaa/NordicDSL", "CC BY-SA 3.0 (Wikipedia)"),
    "dragnet": ("https://github.com/j-szulc/html-cleaning-dataset-merged",
                "AGPL-3.0 (Moz's Dragnet data, seomoz/dragnet_data; the pages: third-party web pages); "
                "CleanPortalEval (ppke-nlpg/CleanPortalEval): research, no licence stated"),
    "readability": ("https://github.com/mozilla/readability",
                    "Apache-2.0 (its test pages: third-party web pages)"),
}
NORDICDSL_COMMIT = "5eb92ec3477b5b259528ef3229af02d4fa1d649d"  # the last commit that holds the test split
NORDICDSL_CODES = {"nb": "nb", "nn": "nn", "dk": "da", "sv": "sv"}  # its labels -> ours (Faroese, Icelandic left out)
# The Norwegian Dependency Treebank's newspaper documents in NorNE's ndt/<lang>/ (file name prefixes).
NDT_FILE = re.compile(r"\d+[a-z]?_\d+\.conll$")  # what follows a file's source: "db001b_0003.conll" is Dagbladet's
NDT_NEWS = {"nob": ("ap", "bt", "db", "kk", "sp-bm", "vg"), "nno": ("dot", "firda-nn", "kk-nn", "vtb-nn")}
L3S_FOLDER = "L3S-GN1-20100130203947-00001"
L3S_LABEL = re.compile(r"\bx-nc-sel(\d)\b")
L3S_FULL_TEXT = "2"
L3S_TITLE_OPENS = re.compile(rb"<title[\s>]", re.IGNORECASE)
L3S_TITLE_CLOSES = re.compile(rb"</title[\s/>]", re.IGNORECASE)  # as an HTML parser reads an end tag
LINGUA_LANGUAGES = ("nb", "nn", "da", "sv")
LINGUA_SENTENCES = "language-testdata/sentences"
# Utomo & Leu's sets: folder in their repository -> ours; Big9's nine sites, each page's the one it names most.
UTOMO_SETS = {"big9": ("big5-05", "big5-09", "big5-13", "big5-17"), "chaos": ("chaos-all",)}
UTOMO_SITE = re.compile(rb"\b(arstechnica|bbc|cnn|forbes|foxnews|latimes|nymag|nypost|yahoo)\.(?:com|co\.uk)",
                        re.IGNORECASE)
HEADLINE_WORDS = 25
READABILITY_FOLDER = "test/test-pages"
READABILITY_MIN_BYTES = 8_000  # smaller pages are the library's own cases of a few tags each, no web page
READABILITY_BLOCKS = frozenset("p div h1 h2 h3 h4 h5 h6 li ul ol dl dt dd blockquote pre table tr td th figure "
                               "figcaption section article header footer aside br hr".split())
DRAGNET_FOLDER = "dragnet_data"
DRAGNET_COMMENTS = b"!@#$%^&*()  COMMENTS"  # the line that parts the article from its comments
CLEANPORTALEVAL_FOLDER = "CleanPortalEval-master"
CLEANPORTALEVAL_BLOCK = re.compile(r"^\s*<([phl])>", re.MULTILINE)  # a CleanEval block's opening mark
CLEANPORTALEVAL_SITE = re.compile(r"^(.+?)_[^_]+_\d+$")  # "tv.msnbc.com_news_05" -> "tv.msnbc.com"
# Universal Dependencies treebanks: file prefix -> language (the codes ``evaluation.ud_sentences`` reads)
# and the treebank's name.
UD_TREEBANKS = {"no_bokmaal": ("nb", "UD_Norwegian-Bokmaal"), "no_nynorsk": ("nn", "UD_Norwegian-Nynorsk"),
                "da_ddt": ("da", "UD_Danish-DDT"), "sv_talbanken": ("sv", "UD_Swedish-Talbanken"),
                "sme_giella": ("se", "UD_North_Sami-Giella")}
SPLITS = ("dev", "heldout")


def split_of(kind: str, name: str) -> str:
    """dev or heldout, by a hash of the page's name: the same page always lands in the same half."""
    return half_of(f"{kind}:{name}")


def halves_of_sites(sites: set[str], counts: dict, label: str) -> dict[str, str]:
    """Each site's half, the sites taken alternately in the order of their names' hashes (a site's pages stay
    in one half); the halves' sites recorded in ``counts`` under ``<label>_sites``."""
    ordered = sorted(sites, key=lambda site: hashlib.sha1(site.encode()).digest())
    half = {site: SPLITS[i % 2] for i, site in enumerate(ordered)}
    if half:
        counts[f"{label}_sites"] = {split: sorted(s for s in ordered if half[s] == split) for split in SPLITS}
    return half


def half_of(key: str) -> str:
    """dev or heldout by the first byte of the key's sha1 (odd: heldout)."""
    return SPLITS[hashlib.sha1(key.encode()).digest()[0] % 2]


class Repo:
    """A git repository (a clone or a bare mirror), read at its HEAD without a work tree."""

    def __init__(self, path: Path):
        self.path = path
        self.commit = self.git("rev-parse", "HEAD").decode().strip()

    def git(self, *args: str) -> bytes:
        try:
            return subprocess.run(["git", "-C", str(self.path), *args], check=True, capture_output=True).stdout
        except subprocess.CalledProcessError as exc:
            raise SystemExit(f"gather_wider: git {' '.join(args)} in {self.path}: {exc.stderr.decode().strip()}")

    def files(self, folder: str) -> list[str]:
        # -z: names as they are (without it git quotes a name holding a non-ASCII letter)
        return [name for name in self.git("ls-tree", "-r", "-z", "--name-only", "HEAD", folder).decode().split("\0")
                if name]

    def read(self, path: str) -> bytes:
        return self.git("show", f"HEAD:{path}")


def write_text(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class ArticleSet:
    """A set in the article-extraction benchmark's layout, written half by half: each page's HTML as
    ``html/<id>.html.gz``, and its row (``articleBody``, ``url``) in the half's ``ground-truth.json``."""

    def __init__(self, out: Path, folder: str):
        self.out, self.folder = out, folder
        self.halves: dict[str, dict] = {split: {} for split in SPLITS}

    def add(self, split: str, page_id: str, html_gz: bytes, row: dict) -> None:
        target = self.out / split / self.folder / "html" / f"{page_id}.html.gz"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(html_gz)
        self.halves[split][page_id] = row

    def write(self, counts: dict, label: str) -> None:
        for split, rows in self.halves.items():
            write_text(self.out / split / self.folder / "ground-truth.json",
                       json.dumps(rows, ensure_ascii=False, indent=1))
            counts[f"{label}_{split}"] = len(rows)


def shared_names(samples: Path) -> dict[str, set[str]]:
    """The pages the shared samples hold, by set: these are left out."""
    names: dict[str, set[str]] = {"aeb": set(), "fundus": set(), "htmldate": set(), "readability": set()}
    readability = samples / "extraction_readability_testpages"
    if readability.is_dir():
        names["readability"] = {page.name for page in readability.iterdir() if page.is_dir()}
    aeb = samples / "extraction_scrapinghub_aeb" / "ground-truth.json"
    if aeb.is_file():
        names["aeb"] = set(json.loads(aeb.read_text(encoding="utf-8")))
    fundus = samples / "news_fundus" / "ground_truth_flat.jsonl"
    if fundus.is_file():
        names["fundus"] = {Path(json.loads(line)["file"]).name
                           for line in fundus.read_text(encoding="utf-8").splitlines() if line.strip()}
    dates = samples / "dates_htmldate_eval" / "eval_default.json"
    if dates.is_file():
        names["htmldate"] = {row["file"] for row in json.loads(dates.read_text(encoding="utf-8")).values()}
    return names


def gather_aeb(repo: Repo, out: Path, leave_out: set[str], counts: dict) -> None:
    truth = json.loads(repo.read("ground-truth.json"))
    pages = ArticleSet(out, "extraction_scrapinghub_aeb")
    for page_id, row in sorted(truth.items()):
        if page_id in leave_out:
            counts["aeb_left_out"] = counts.get("aeb_left_out", 0) + 1
            continue
        pages.add(split_of("aeb", page_id), page_id, repo.read(f"html/{page_id}.html.gz"), row)
    pages.write(counts, "aeb")


def _version_number(version: str) -> int:
    match = re.fullmatch(r"V(\d+)(?:_\d+)?", version)
    return int(match.group(1)) if match else 10 ** 6


def _fundus_body(entry: dict) -> list[str]:
    """Summary, then each section's headline and paragraphs, in order (the title apart), as the shared
    ``ground_truth_flat.jsonl`` gives it."""
    body = entry.get("body") or {}
    paragraphs = list(body.get("summary") or [])
    for section in body.get("sections") or []:
        paragraphs += list(section.get("headline") or []) + list(section.get("paragraphs") or [])
    return [p for p in paragraphs if p and p.strip()]


def gather_fundus(repo: Repo, out: Path, leave_out: set[str], counts: dict) -> None:
    base = "tests/resources/parser/test_data/"
    files = repo.files(base)
    rows: dict[str, list[dict]] = {split: [] for split in SPLITS}
    for meta_path in sorted(p for p in files if p.endswith("/meta.info")):
        country = meta_path[len(base):].split("/")[0]
        meta = json.loads(repo.read(meta_path))
        by_publisher: dict[str, list[tuple[str, dict]]] = {}
        for name, info in meta.items():
            by_publisher.setdefault(name.rsplit("_", 3)[0], []).append((name, info))
        for publisher, pages in sorted(by_publisher.items()):
            expected_path = f"{base}{country}/{publisher}.json"
            if expected_path not in files:
                counts["fundus_no_truth"] = counts.get("fundus_no_truth", 0) + len(pages)
                continue
            expected = json.loads(repo.read(expected_path))
            versions = sorted(expected, key=_version_number)
            pages.sort(key=lambda page: page[1].get("crawl_date") or "")
            if len(versions) != len(pages):  # which page belongs to which parser version is then unclear
                counts["fundus_unpaired"] = counts.get("fundus_unpaired", 0) + len(pages)
                continue
            for (name, info), version in zip(pages, versions):
                if name in leave_out:
                    counts["fundus_left_out"] = counts.get("fundus_left_out", 0) + 1
                    continue
                entry = expected[version]
                paragraphs = _fundus_body(entry)
                if not paragraphs or f"{base}{country}/{name}" not in files:
                    counts["fundus_no_body"] = counts.get("fundus_no_body", 0) + 1
                    continue
                split = split_of("fundus", name)
                target = out / split / "news_fundus" / "test_data" / country / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(repo.read(f"{base}{country}/{name}"))
                rows[split].append({
                    "file": f"test_data/{country}/{name}", "country": country, "publisher": publisher,
                    "parser_version": version, "url": info.get("url"), "crawl_date": info.get("crawl_date"),
                    "title": entry.get("title"), "authors": entry.get("authors"),
                    "publishing_date": entry.get("publishing_date"), "topics": entry.get("topics"),
                    "body_paragraphs": paragraphs})
    for split, lines in rows.items():
        write_text(out / split / "news_fundus" / "ground_truth_flat.jsonl",
                   "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in lines))
        counts[f"fundus_{split}"] = len(lines)


def gather_htmldate(repo: Repo, out: Path, leave_out: set[str], counts: dict) -> None:
    sets = (("eval_default.json", "tests/eval", "dates_htmldate_eval", "html_bbaw", "eval_default.json"),
            ("eval_mediacloud_2020.json", "tests/test_set", "dates_mediacloud", "html", "eval.json"))
    for truth_file, source, folder, pages_folder, target_file in sets:
        truth = json.loads(repo.read(f"tests/{truth_file}"))
        present = set(repo.files(source))
        halves: dict[str, dict] = {split: {} for split in SPLITS}
        for url, row in sorted(truth.items()):
            name = row["file"]
            if name in leave_out:
                counts[f"{folder}_left_out"] = counts.get(f"{folder}_left_out", 0) + 1
                continue
            if f"{source}/{name}" not in present or not row.get("date"):
                counts[f"{folder}_missing"] = counts.get(f"{folder}_missing", 0) + 1
                continue
            split = split_of(folder, name)
            target = out / split / folder / pages_folder / f"{name}.gz"
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(gzip.compress(repo.read(f"{source}/{name}"), mtime=0))
            halves[split][url] = row
        for split, rows in halves.items():
            write_text(out / split / folder / target_file, json.dumps(rows, ensure_ascii=False, indent=1))
            counts[f"{folder}_{split}"] = len(rows)


def gather_lingua(repo: Repo, out: Path, counts: dict) -> None:
    """lingua's test sentences (none of them in the shared samples, which hold its words and word pairs):
    those of the Scandinavian standards, and those of every other language."""
    codes = sorted(name.rsplit("/", 1)[-1].removesuffix(".txt") for name in repo.files(LINGUA_SENTENCES))
    others = [code for code in codes if code not in LINGUA_LANGUAGES]
    for folder, wanted in (("sentences", LINGUA_LANGUAGES), ("other_languages", others)):
        for code in wanted:
            halves: dict[str, list[str]] = {split: [] for split in SPLITS}
            for line in repo.read(f"{LINGUA_SENTENCES}/{code}.txt").decode("utf-8").splitlines():
                if line.strip():
                    halves[split_of(f"lingua-{code}", line.strip())].append(line.strip())
            for split, lines in halves.items():
                write_text(out / split / "langid" / "lingua" / folder / f"{code}.txt", "\n".join(lines) + "\n")
                counts[f"lingua_{code}_{split}"] = len(lines)


def gather_nordicdsl(repo: Repo, out: Path, counts: dict, commit: str = NORDICDSL_COMMIT) -> None:
    """NordicDSL's Wikipedia test sentences of the four standards (at ``commit``), a file per language
    in each half."""
    import csv
    import io

    table = repo.git("show", f"{commit}:data/wikipedia/test.csv").decode("utf-8")
    halves: dict[tuple[str, str], list[str]] = {(split, code): [] for split in SPLITS
                                                for code in NORDICDSL_CODES.values()}
    for row in csv.DictReader(io.StringIO(table)):
        code, sentence = NORDICDSL_CODES.get(row["language"]), " ".join(row["sentence"].split())
        if code and sentence:
            halves[half_of(f"nordicdsl:{code}.txt:{sentence}"), code].append(sentence)
    for (split, code), lines in halves.items():
        write_text(out / split / "langid" / "nordicdsl" / f"{code}.txt", "\n".join(lines) + "\n")
        counts[f"nordicdsl_{code}_{split}"] = len(lines)


def conllu_sentences(text: str) -> list[tuple[str, str]]:
    """(sent_id, text) of each sentence of a CoNLL-U file."""
    sentences, sent_id = [], ""
    for line in text.splitlines():
        if line.startswith("# sent_id = "):
            sent_id = line[len("# sent_id = "):].strip()
        elif line.startswith("# text = "):
            sentences.append((sent_id, " ".join(line[len("# text = "):].split())))
    return sentences


def gather_ud(repos: list[Repo], out: Path, counts: dict) -> dict[str, Repo]:
    """Each treebank's sentences, its dev (else train) file to dev and its test file to heldout; returns
    the repositories by treebank name."""
    rows: dict[str, list[str]] = {split: [] for split in SPLITS}
    named: dict[str, Repo] = {}
    for repo in repos:
        found = False
        names = repo.files(".")
        for name in names:
            match = re.fullmatch(r"([a-z_]+)-ud-(train|dev|test)\.conllu", name)
            if not match or match.group(1) not in UD_TREEBANKS:
                continue
            kind = match.group(2)
            if kind == "train" and f"{match.group(1)}-ud-dev.conllu" in names:
                continue  # a treebank with a dev file gives dev that, not its (larger) train file
            split = "heldout" if kind == "test" else "dev"
            found = True
            lang, named_as = UD_TREEBANKS[match.group(1)]
            named[named_as] = repo
            sentences = conllu_sentences(repo.read(name).decode("utf-8"))
            rows[split] += [f"{lang}\t{name}\t{sent_id}\t{text}" for sent_id, text in sentences if text]
            counts[f"ud_{lang}_{split}"] = counts.get(f"ud_{lang}_{split}", 0) + len(sentences)
        if not found:
            raise SystemExit(f"gather_wider: no treebank of {', '.join(UD_TREEBANKS)} in {repo.path}")
    for split, lines in rows.items():
        write_text(out / split / "langid" / "ud" / "ud_sentences.tsv",
                   "lang\ttreebank_file\tsent_id\ttext\n" + "\n".join(lines) + "\n")
    return named


def conll_sentences(text: str) -> list[str]:
    """The sentences of a CoNLL file (a token a line, the word form in the second column, a blank line
    between sentences), the tokens joined as they would be written."""
    sentences = []
    for block in text.split("\n\n"):
        forms = [line.split("\t")[1] for line in block.splitlines()
                 if "\t" in line and not line.startswith("#") and line.split("\t")[1] != "|"]
        if forms:
            sentence = re.sub(r" ([,.:;!?)»])", r"\1", " ".join(forms))
            sentences.append(re.sub(r"([(«]) ", r"\1", sentence))
    return sentences


def gather_norne(repo: Repo, out: Path, counts: dict) -> None:
    """The Norwegian Dependency Treebank's newspaper sentences that are in neither UD's dev nor its test
    file, halved by a hash of the treebank file's name (:func:`half_of`)."""
    def key(sentence: str) -> str:
        return re.sub(r"\s+", "", sentence)

    in_ud = {key(text) for path in repo.files("ud") if re.search(r"-ud-(dev|test)\.conllu$", path)
             for _, text in conllu_sentences(repo.read(path).decode("utf-8"))}
    rows: dict[str, list[str]] = {split: [] for split in SPLITS}
    found = False
    for path in repo.files("ndt"):
        _, lang, name = path.split("/")
        if NDT_FILE.sub("", name) not in NDT_NEWS.get(lang, ()):
            continue
        found = True
        split = half_of(name)  # the file's name alone: the split the set was first read by
        for sentence in conll_sentences(repo.read(path).decode("utf-8")):
            if key(sentence) not in in_ud:
                rows[split].append(f"{lang}\t{name}\t{sentence}")
                counts[f"ndt_news_{lang}_{split}"] = counts.get(f"ndt_news_{lang}_{split}", 0) + 1
    if not found:
        raise SystemExit(f"gather_wider: no newspaper document of the treebank (ndt/nob, ndt/nno) in {repo.path}")
    for split, lines in rows.items():
        write_text(out / split / "langid" / "ndt_news" / "sentences.tsv",
                   "lang\tfile\ttext\n" + "\n".join(lines) + "\n")


def gather_trafilatura(repo: Repo, out: Path, counts: dict) -> None:
    """trafilatura's evaluation pages with their snippets, each page in its half by its file name; a page
    is looked for in tests/cache, then tests/eval, as trafilatura's own evaluation does."""
    entries = json.loads(repo.read("tests/evaldata.json"))
    present = set(repo.files("tests/cache")) | set(repo.files("tests/eval"))
    halves: dict[str, dict] = {split: {} for split in SPLITS}
    for url, row in sorted(entries.items()):
        path = next((p for p in (f"tests/cache/{row['file']}", f"tests/eval/{row['file']}") if p in present), None)
        if path is None:
            counts["trafilatura_page_missing"] = counts.get("trafilatura_page_missing", 0) + 1
            continue
        split = split_of("trafilatura", row["file"])
        target = out / split / "extraction_trafilatura_eval" / "html" / row["file"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(repo.read(path))
        halves[split][url] = {"file": row["file"], "with": row.get("with", []), "without": row.get("without", [])}
    for split, rows in halves.items():
        write_text(out / split / "extraction_trafilatura_eval" / "evaldata.json",
                   json.dumps(rows, ensure_ascii=False, indent=1))
        counts[f"trafilatura_{split}"] = len(rows)


def l3s_full_text(annotated: str) -> str:
    """The full text of an L3S-GN1 page as its assessors marked it: the text nodes whose nearest
    ancestor with a label (class ``x-nc-sel<N>``) is labelled full text (labels nest: a block marked not
    content may sit inside full text, and the other way round), a line per block: the dataset's blocks
    are the text between two tags other than a link's."""
    import lxml.html

    tree = lxml.html.document_fromstring(annotated)
    lines: list[str] = []
    open_line = False  # the last text was full text, and only a link's edges came since

    def add(text: str | None, label: str | None) -> None:
        nonlocal open_line
        if label == L3S_FULL_TEXT and text:
            if open_line:
                lines[-1] += text
            else:
                lines.append(text)
            open_line = True
        elif text and text.strip():
            open_line = False

    def walk(element, label: str | None) -> None:
        nonlocal open_line
        if not isinstance(element.tag, str) or element.tag in ("script", "style"):
            return  # comments and processing instructions hold no page text; their tails are read below
        found = L3S_LABEL.search(element.get("class") or "")
        own = found.group(1) if found else label
        open_line = open_line and element.tag == "a"  # any other tag's edge ends a block
        add(element.text, own)
        for child in element:
            walk(child, own)
            open_line = open_line and child.tag == "a"
            add(child.tail, own)

    walk(tree, None)
    return "\n".join(line for line in (" ".join(piece.split()) for piece in lines) if line)


def gather_l3s(repo: Repo, out: Path, counts: dict) -> None:
    """L3S-GN1's pages, each in its half by its name: the page as crawled (gzipped, as the benchmark's
    pages are) and its full text, in the article-extraction benchmark's layout. A page whose assessors
    marked no full text (or that has no marked-up copy) cannot be scored and is left out, and so is one
    whose ``<title>`` is never closed: this copy lost part of those pages (an end tag and what followed
    it), and what a browser shows of such a page is nothing but its title."""
    pages = ArticleSet(out, "extraction_l3s_gn1")
    assessed = {Path(path).name for path in repo.files(f"{L3S_FOLDER}/annotated")}
    for path in repo.files(f"{L3S_FOLDER}/original"):
        name = Path(path).name
        if not name.endswith(".html"):
            continue
        if name not in assessed:
            counts["l3s_not_assessed"] = counts.get("l3s_not_assessed", 0) + 1
            continue
        page_id = name[:-len(".html")]
        page = repo.read(path)
        if L3S_TITLE_OPENS.search(page) and not L3S_TITLE_CLOSES.search(page):
            counts["l3s_title_never_closed"] = counts.get("l3s_title_never_closed", 0) + 1
            continue
        body = l3s_full_text(repo.read(f"{L3S_FOLDER}/annotated/{name}").decode("utf-8", errors="replace"))
        if not body:
            counts["l3s_without_full_text"] = counts.get("l3s_without_full_text", 0) + 1
            continue
        pages.add(split_of("l3s", page_id), page_id, gzip.compress(page, mtime=0), {"articleBody": body, "url": None})
    pages.write(counts, "l3s")


def gold_lines(gold: bytes) -> list[str]:
    """A gold file's lines a person wrote out, stripped, the empty ones left out: UTF-8, or Windows-1252
    where it is not (a few of Utomo and Leu's and of Dragnet's files)."""
    try:
        text = gold.decode("utf-8")
    except UnicodeDecodeError:
        text = gold.decode("cp1252", errors="replace")
    return [line.strip() for line in text.splitlines() if line.strip()]


def utomo_body(gold: bytes) -> str:
    """A page's main text as Utomo and Leu's gold file gives it, without the headline on its first line
    (when it reads as one: at most HEADLINE_WORDS words, no full stop at its end)."""
    lines = gold_lines(gold)
    if lines and len(lines[0].split()) <= HEADLINE_WORDS and not lines[0].endswith("."):
        lines = lines[1:]
    return "\n".join(lines)


def utomo_site(page: bytes) -> str:
    """Which of Big9's nine sites a page is: the one it names most."""
    named = Counter(name.lower().decode() for name in UTOMO_SITE.findall(page))
    if not named:
        raise SystemExit("gather_wider: a Big9 page names none of the nine sites")
    return named.most_common(1)[0][0]


def gather_utomo(repo: Repo, out: Path, counts: dict) -> None:
    """Utomo and Leu's Big9 and Chaos pages with their gold text, in the article-extraction benchmark's
    layout (Big9 split by site, Chaos by page: module docstring)."""
    for label, folders in UTOMO_SETS.items():
        pages = []  # (page id, html, body, site)
        for folder in folders:
            for path in repo.files(f"Extraction/{folder}/html"):
                stem = Path(path).stem
                gold = f"Extraction/{folder}/gold/{stem}.txt"
                body = utomo_body(repo.read(gold))
                if not body:
                    counts[f"{label}_without_text"] = counts.get(f"{label}_without_text", 0) + 1
                    continue
                html = repo.read(path)
                pages.append((f"{folder}/{stem}", html, body, utomo_site(html) if label == "big9" else None))
        half_of_site = halves_of_sites({site for *_, site in pages if site}, counts, label)
        written = ArticleSet(out, f"extraction_{label}")
        for page_id, html, body, site in pages:
            written.add(half_of_site[site] if site else split_of(label, page_id), page_id.replace("/", "_"),
                        gzip.compress(html, mtime=0), {"articleBody": body, "url": None, **({"site": site} if site else {})})
        written.write(counts, label)


def dragnet_body(gold: bytes) -> str:
    """A page's article as Dragnet's person copied it out of the page: what comes before the comments'
    line (:func:`gold_lines`)."""
    return "\n".join(gold_lines(gold.split(DRAGNET_COMMENTS, 1)[0]))


def gather_dragnet(repo: Repo, out: Path, counts: dict) -> None:
    """Dragnet's news and blog pages with their articles, in the article-extraction benchmark's layout,
    each in its half by the hash of its name (module docstring)."""
    pages = ArticleSet(out, "extraction_dragnet")
    for path in repo.files(f"{DRAGNET_FOLDER}/input"):
        name = Path(path).name
        if not name.endswith(".html"):
            continue
        page_id = name[:-len(".html")]
        body = dragnet_body(repo.read(f"{DRAGNET_FOLDER}/GoldStandard/{page_id}.txt"))
        if not body:
            counts["dragnet_without_text"] = counts.get("dragnet_without_text", 0) + 1
            continue
        pages.add(split_of("dragnet", page_id), page_id, gzip.compress(repo.read(path), mtime=0),
                  {"articleBody": body, "url": None})
    pages.write(counts, "dragnet")


def cleanportaleval_body(gold: bytes) -> tuple[str | None, str]:
    """A CleanEval gold file's URL (its first line, "URL: ...") and its main text: each block on a line of
    its own, the entities read, the headline left out (module docstring)."""
    text = "\n".join(gold_lines(gold))
    url = None
    if text.startswith("URL:"):
        first, _, text = text.partition("\n")
        url = first[len("URL:"):].strip() or None
    marks = list(CLEANPORTALEVAL_BLOCK.finditer(text))
    blocks = [(mark.group(1), html.unescape(" ".join(text[mark.end():following.start() if following else None].split())))
              for mark, following in zip(marks, [*marks[1:], None])]
    if blocks and blocks[0][0] == "h":
        blocks = blocks[1:]
    return url, "\n".join(block for _, block in blocks if block)


def gather_cleanportaleval(repo: Repo, out: Path, counts: dict) -> None:
    """CleanPortalEval's pages with their main text, in the article-extraction benchmark's layout, split by
    site (module docstring)."""
    pages = []  # (page id, html, url, body, site)
    for path in repo.files(f"{CLEANPORTALEVAL_FOLDER}/input"):
        name = Path(path).name
        if not name.endswith(".html"):
            continue
        page_id = name[:-len(".html")]
        url, body = cleanportaleval_body(repo.read(f"{CLEANPORTALEVAL_FOLDER}/GoldStandard/{page_id}.txt"))
        if not body:
            counts["cleanportaleval_without_text"] = counts.get("cleanportaleval_without_text", 0) + 1
            continue
        site = CLEANPORTALEVAL_SITE.match(page_id)
        if not site:
            raise SystemExit(f"gather_wider: a CleanPortalEval page named as none of its sites: {page_id}")
        pages.append((page_id, repo.read(path), url, body, site.group(1)))
    half_of_site = halves_of_sites({site for *_, site in pages}, counts, "cleanportaleval")
    written = ArticleSet(out, "extraction_cleanportaleval")
    for page_id, page, url, body, site in pages:
        written.add(half_of_site[site], page_id, gzip.compress(page, mtime=0), {"articleBody": body, "url": url, "site": site})
    written.write(counts, "cleanportaleval")


def readability_body(expected: bytes) -> str:
    """The text of a page's reader view as Readability's test expects it (``expected.html``): its blocks'
    texts, a block per line."""
    from lxml import html as lxml_html

    root = lxml_html.fromstring(expected.decode("utf-8"))
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag in READABILITY_BLOCKS:
            element.tail = "\n" + (element.tail or "")
            element.text = "\n" + (element.text or "")
    return "\n".join(" ".join(line.split()) for line in root.text_content().splitlines() if line.strip())


def gather_readability(repo: Repo, out: Path, leave_out: set[str], counts: dict) -> None:
    """Mozilla Readability's test pages, each with the reader view its test expects, in the article-extraction
    benchmark's layout, each in its half by the hash of its name (module docstring); the ones the shared
    samples hold and the library's own small cases left out."""
    pages = ArticleSet(out, "extraction_readability")
    names = sorted({Path(path).parent.name for path in repo.files(READABILITY_FOLDER) if path.endswith("/source.html")})
    for name in names:
        if name in leave_out:
            counts["readability_left_out"] = counts.get("readability_left_out", 0) + 1
            continue
        source = repo.read(f"{READABILITY_FOLDER}/{name}/source.html")
        if len(source) < READABILITY_MIN_BYTES:
            counts["readability_small_cases"] = counts.get("readability_small_cases", 0) + 1
            continue
        body = readability_body(repo.read(f"{READABILITY_FOLDER}/{name}/expected.html"))
        if not body:
            counts["readability_without_text"] = counts.get("readability_without_text", 0) + 1
            continue
        pages.add(split_of("readability", name), name, gzip.compress(source, mtime=0), {"articleBody": body, "url": None})
    pages.write(counts, "readability")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--aeb", type=Path, required=True, help="a clone of scrapinghub/article-extraction-benchmark")
    parser.add_argument("--fundus", type=Path, required=True, help="a clone of flairNLP/fundus")
    parser.add_argument("--htmldate", type=Path, required=True, help="a clone of adbar/htmldate")
    parser.add_argument("--lingua", type=Path, required=True, help="a clone of pemistahl/lingua-py")
    parser.add_argument("--ud", type=Path, nargs="+", default=[],
                        help="clones of Universal Dependencies treebanks: UD_Norwegian-Bokmaal, UD_Norwegian-Nynorsk, "
                             "UD_Danish-DDT, UD_Swedish-Talbanken, UD_North_Sami-Giella (optional)")
    parser.add_argument("--trafilatura", type=Path, help="a clone of adbar/trafilatura, for its evaluation pages (optional)")
    parser.add_argument("--l3s", type=Path,
                        help="a clone of geodrome/page-signal, for the L3S-GN1 news pages (optional)")
    parser.add_argument("--norne", type=Path,
                        help="a clone of ltgoslo/norne, for the Norwegian Dependency Treebank's news sentences "
                             "(optional)")
    parser.add_argument("--utomo", type=Path,
                        help="a clone of MSVCode/ir-research-data, for Utomo and Leu's Big9 and Chaos news pages "
                             "(optional)")
    parser.add_argument("--nordicdsl", type=Path,
                        help="a clone of renhaa/NordicDSL, for its Wikipedia test sentences (optional)")
    parser.add_argument("--dragnet", type=Path,
                        help="a clone of j-szulc/html-cleaning-dataset-merged, for Moz's Dragnet news and blog pages "
                             "and CleanPortalEval's (optional)")
    parser.add_argument("--readability", type=Path,
                        help="a clone of mozilla/readability, for its test pages (optional)")
    parser.add_argument("--samples", type=Path, default=ROOT.parent / "shared" / "samples",
                        help="the shared samples, whose pages are left out (default: ../shared/samples)")
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "eval-wider")
    args = parser.parse_args()
    if not args.samples.is_dir():
        parser.error(f"no shared samples at {args.samples}: without them the pages tuned on cannot be left out")
    repos = {"aeb": Repo(args.aeb), "fundus": Repo(args.fundus), "htmldate": Repo(args.htmldate),
             "lingua": Repo(args.lingua)}
    leave_out = shared_names(args.samples)
    if args.out.exists():
        shutil.rmtree(args.out)
    counts: dict = {}
    gather_aeb(repos["aeb"], args.out, leave_out["aeb"], counts)
    gather_fundus(repos["fundus"], args.out, leave_out["fundus"], counts)
    gather_htmldate(repos["htmldate"], args.out, leave_out["htmldate"], counts)
    gather_lingua(repos["lingua"], args.out, counts)
    treebanks = gather_ud([Repo(path) for path in args.ud], args.out, counts) if args.ud else {}
    optional = {"trafilatura": gather_trafilatura, "l3s": gather_l3s, "norne": gather_norne, "utomo": gather_utomo,
                "nordicdsl": gather_nordicdsl, "dragnet": gather_dragnet}
    for key, gather in optional.items():
        if getattr(args, key):
            repos[key] = Repo(getattr(args, key))
            gather(repos[key], args.out, counts)
    if args.dragnet:
        gather_cleanportaleval(repos["dragnet"], args.out, counts)
    if args.readability:
        repos["readability"] = Repo(args.readability)
        gather_readability(repos["readability"], args.out, leave_out["readability"], counts)
    sources = {key: {"url": SOURCES[key][0], "licence": SOURCES[key][1], "commit": repo.commit}
               for key, repo in repos.items()}
    if "nordicdsl" in sources:
        sources["nordicdsl"]["commit"] = NORDICDSL_COMMIT
    sources.update({name: {"url": f"https://github.com/UniversalDependencies/{name}", "licence": "CC BY-SA 4.0",
                           "commit": repo.commit} for name, repo in treebanks.items()})
    for split in SPLITS:
        write_text(args.out / split / "SOURCES.json", json.dumps(sources, indent=1) + "\n")
    json.dump(counts, sys.stdout, indent=1, sort_keys=True)
    print()


if __name__ == "__main__":
    main()
