"""The researcher web page (research/web.py) over the demo corpus, in-process through the API's app: the
pages show what the library returns, downloads parse, bad input is a message on the page, the language
switch sticks, every page passes an offline accessibility check, and the templates ship in the wheel."""

from __future__ import annotations

import collections
import io
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import uuid
import zipfile
from pathlib import Path

import lxml.html
import openpyxl
import pandas as pd
import psycopg
import pytest
from fastapi.testclient import TestClient

from conftest import DEMO_WARCS, ROOT, _with_database
from warc2corpus import research, settings as w2c_settings
from warc2corpus.stages import run
from warc2corpus.store import db, publications
from warc2corpus.research import charts
from warc2corpus.research.api import Settings, standalone_app


REGISTER = "domain,title,place,county,has_responsible_editor\nfjordposten.no,Fjordposten,Fjordvik,Nordland,yes\n"


@pytest.fixture(scope="module")
def demo_url(server_url, tmp_path_factory):
    """A corpus database with the demo WARCs loaded, one publication in the register (title, place and
    county) and the research index built, for this module."""
    name = "w2c_test_web_" + uuid.uuid4().hex[:10]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(w2c_settings.DATABASE_URL_VARIABLE, url)
        patch.setenv("WARC2CORPUS_STAGING", str(tmp_path_factory.mktemp("staging")))
        run.run_files(sorted(DEMO_WARCS.glob("*.warc.gz")), "demo")
        with db.connect(url) as conn:
            publications.import_register(conn, Path("register.csv"), text=REGISTER)
            research.refresh_index(conn)
            conn.commit()
    yield url
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="module")
def client(demo_url):
    with TestClient(standalone_app(Settings(database_url=demo_url)), headers={"Accept-Language": "en-GB"}) as client:
        yield client


# ---------------------------------------------------------------------------------------------
# An offline accessibility check of a page's HTML
# ---------------------------------------------------------------------------------------------

def accessibility_problems(html: str) -> list[str]:
    """What a screen-reader user would miss: the page's language, one h1 and no skipped heading level,
    a label for every form control, a text alternative for every image and chart (title and desc, and a
    table beside it), a caption and th scope in every table, unique ids, link text, a skip link."""
    tree = lxml.html.fromstring(html)
    problems = []
    if tree.get("lang") not in ("nb", "en"):
        problems.append(f"html lang is {tree.get('lang')!r}")
    ids = [e.get("id") for e in tree.iter() if isinstance(e.tag, str) and e.get("id")]
    problems += [f"duplicate id {i!r}" for i in sorted({i for i in ids if ids.count(i) > 1})]
    headings = [int(h.tag[1]) for h in tree.iter("h1", "h2", "h3", "h4", "h5", "h6")]
    if headings.count(1) != 1:
        problems.append(f"{headings.count(1)} h1 headings")
    problems += [f"heading h{b} follows h{a}" for a, b in zip(headings, headings[1:]) if b > a + 1]
    labelled = {label.get("for") for label in tree.iter("label")}
    for control in tree.xpath("//input[not(@type='hidden' or @type='submit' or @type='button')] | //select | //textarea"):
        if control.get("id") not in labelled and not control.get("aria-label") and not control.get("aria-labelledby"):
            problems.append(f"no label for {control.tag} {control.get('name')!r}")
    for img in tree.iter("img"):
        if img.get("alt") is None:
            problems.append(f"img without alt: {img.get('src')}")
    for svg in tree.xpath("//*[local-name()='svg']"):
        names = (svg.get("aria-labelledby") or "").split()
        if svg.get("role") != "img" or not names or not all(n in ids for n in names):
            problems.append(f"svg {svg.get('id')!r} has no role=img with a title and desc")
        figure = svg.xpath("ancestor::figure")
        if not figure or not figure[0].xpath(".//table"):
            problems.append(f"chart {svg.get('id')!r} has no table beside it")
    for table in tree.iter("table"):
        if table.find("caption") is None:
            problems.append("table without caption")
        problems += [f"th without scope: {th.text_content()!r}" for th in table.iter("th") if not th.get("scope")]
    for link in tree.iter("a"):
        if not link.text_content().strip() and not link.get("aria-label"):
            problems.append(f"link without text: {link.get('href')}")
    first_link = next(tree.iter("a"), None)
    if first_link is None or first_link.get("href") != "#main" or tree.get_element_by_id("main", None) is None:
        problems.append("no skip link to #main first")
    return problems


def page(client, path: str, status: int = 200, **kwargs) -> lxml.html.HtmlElement:
    answer = client.get(path, **kwargs)
    assert answer.status_code == status, (path, answer.status_code, answer.text[:500])
    assert answer.headers["content-type"].startswith("text/html")
    assert "Traceback" not in answer.text
    assert accessibility_problems(answer.text) == [], path
    return lxml.html.fromstring(answer.text)


def cells(tree, caption_start: str) -> list[list[str]]:
    """The body rows of the table whose caption starts so, as texts."""
    tables = [t for t in tree.iter("table") if t.find("caption").text_content().strip().startswith(caption_start)]
    assert len(tables) == 1, [t.find("caption").text_content() for t in tree.iter("table")]
    return [[c.text_content().strip() for c in row if c.tag in ("td", "th")] for row in tables[0].find("tbody")]


def build(client, **form) -> str:
    """Build and save a corpus with the form; the corpus id."""
    answer = client.post("/corpus/app/corpora", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text[:2000]
    return answer.headers["location"].rsplit("/", 1)[1]


def download(client, href: str) -> pd.DataFrame:
    answer = client.get(href)
    assert answer.status_code == 200, (href, answer.text[:300])
    fmt = urllib.parse.parse_qs(urllib.parse.urlparse(href).query)["format"][0]
    data = io.BytesIO(answer.content)
    return {"csv": pd.read_csv, "jsonl": lambda d: pd.read_json(d, lines=True), "xlsx": pd.read_excel}[fmt](data)


def links(tree, text_start: str) -> list[str]:
    return [a.get("href") for a in tree.iter("a") if a.text_content().strip().startswith(text_start)]


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------

def test_corpus_prefix_leads_to_the_page(client):
    for path in ("/", "/corpus/"):
        answer = client.get(path, follow_redirects=False)
        assert answer.status_code == 307 and answer.headers["location"] == "/corpus/app/"
    assert client.get("/corpus/app/static/style.css").headers["content-type"].startswith("text/css")


def test_the_form_builds_a_saved_corpus_whose_page_shows_the_library_rows_plots_and_downloads(client, demo_url):
    home = page(client, "/corpus/app/")
    labels = {label.text_content().split("(")[0].strip() for label in home.iter("label")}
    assert {"Publications", "Counties", "Words or phrases", "Published from", "Harvested to", "nob", "nno",
            "File", "All of them", "Once per story", "By date"} <= labels
    with research.connect(demo_url) as conn:
        known = {p["value"] for p in research.profile(conn)["publications"]}
        in_nordland = research.build_corpus(conn, research.CorpusFilter.from_params({"counties": ["Nordland"]}))
    assert "Fjordposten" in known
    assert [o.get("value") for o in home.xpath("//select[@id='counties']/option")] == ["Nordland"]
    for form in ({"counties": ["Nordland"]}, {"places": "Fjordvik"}):
        tree = page(client, f"/corpus/app/corpora/{build(client, **form)}")
        assert [r[0] for r in cells(tree, "Documents 1–")] == [r["title"] for r in in_nordland]
        assert {r[5] for r in cells(tree, "Documents 1–")} == {"Nordland"}
    assert {o.get("value") for o in home.xpath("//select[@id='publications']/option")} == known
    # near-duplicates, and the texts of captures the crawler cut: every document unless asked otherwise, which the
    # definition then shows
    assert {"Include them", "Leave them out"} <= labels
    for param, choice, legend, shown in (("near_duplicates", "once", "Near-duplicates", "Once per story (the earliest)"),
                                         ("near_duplicates", "all", "Near-duplicates", None),
                                         ("truncated", "none", "Texts from cut captures", "Leave them out"),
                                         ("truncated", "all", "Texts from cut captures", None)):
        corpus_id = build(client, counties=["Nordland"], **{param: choice})
        with research.connect(demo_url) as conn:
            assert research.get_corpus(conn, corpus_id)["definition"]["filter"][param] == choice
        definition = page(client, f"/corpus/app/corpora/{corpus_id}").xpath("//dl[@class='definition']")[0]
        assert (legend in definition.text_content()) == bool(shown)
        assert shown is None or shown in definition.text_content()

    corpus_id = build(client, languages=["nob", "nno"], published_from="2024-01-01", name="Norsk 2024")
    with research.connect(demo_url) as conn:
        saved = research.get_corpus(conn, corpus_id)
        rows = research.corpus_documents(conn, corpus_id)
        found = research.profile(conn, corpus_id)
    assert saved["definition"]["filter"]["languages"] == ["nob", "nno"] and saved["name"] == "Norsk 2024"
    tree = page(client, f"/corpus/app/corpora/{corpus_id}")
    assert f"{saved['documents']} documents" in tree.get_element_by_id("main").text_content()
    shown = cells(tree, "Documents 1–")
    assert [r[0] for r in shown] == [r["title"] for r in rows] and {r[4] for r in shown} <= {"nob", "nno"}
    assert len(shown) == saved["documents"] >= 2
    # plots: publications, languages, a timeline of publication and harvest months; each with its table
    assert [s.get("id") for s in tree.xpath("//*[local-name()='svg']")] == \
        ["chart-publications", "chart-languages", "chart-timeline"]
    assert cells(tree, "Documents per language") == [[r["value"], str(r["documents"])] for r in found["languages"]]
    timeline = tree.xpath("//*[@id='chart-timeline']")[0]
    assert len(timeline.xpath(".//*[local-name()='polyline' or local-name()='circle' or local-name()='rect']")) > 0
    header = [th.text_content() for th in tree.xpath("//figure[.//*[@id='chart-timeline']]//thead//th")]
    assert header == ["Month", "Published", "Harvested"]
    # downloads: the metadata in three formats, the API's own export
    hrefs = links(tree, "All metadata as")
    assert len(hrefs) == 3 and all(h.startswith(f"/corpus/corpora/{corpus_id}/documents?") for h in hrefs)
    for href in hrefs:
        table = download(client, href)
        assert table["title"].tolist() == [r["title"] for r in rows]
    assert not tree.xpath("//*[@role='status']")
    profile_csv = download(client, links(tree, "The data behind the plots as CSV")[0])
    assert set(profile_csv["dimension"]) == {"publication", "language", "county", "published", "harvested"}
    # citable: the link re-opens this corpus and view
    cite = tree.get_element_by_id("cite-link").get("href")
    assert cite.endswith(f"/corpus/app/corpora/{corpus_id}")
    # a corpus cut at its limit says how many more match
    capped = build(client, languages=["nob", "nno"], published_from="2024-01-01", limit="2")
    tree = page(client, f"/corpus/app/corpora/{capped}")
    assert len(cells(tree, "Documents 1–")) == 2
    assert tree.xpath("//*[@role='status']")[0].text_content() == (
        f"{saved['documents']} documents match the definition now; the corpus holds the first 2 in the chosen order "
        "(see “At most this many documents”).")


def test_the_views_show_what_the_library_answers_and_download_it(client, demo_url):
    corpus_id = build(client, languages=["nob", "nno", "sme"])
    base = f"/corpus/app/corpora/{corpus_id}"
    with research.connect(demo_url) as conn:
        conc = research.concordance(conn, "kommunen", corpus=corpus_id, before=5, after=5, limit=2, offset=2)
        conc_all = research.concordance(conn, "kommunen", corpus=corpus_id, before=5, after=5, limit=1000)
        sampled = research.concordance(conn, "og", corpus=corpus_id, before=4, after=4, limit=5, seed=7)
        coll = research.collocations(conn, "kommunen", corpus=corpus_id, n=50)
        freq = research.frequencies(conn, corpus=corpus_id, n=100)
        bigrams = research.frequencies(conn, corpus=corpus_id, n=10, ngram=2)
        trend = research.trend(conn, ["kommunen", "og"], corpus=corpus_id, period="month", split="language")
    assert conc["total"] == 4 and len(conc["lines"]) == 2

    tree = page(client, f"{base}/concordance?query=kommunen&before=5&after=5&limit=2&offset=2")
    assert cells(tree, "Lines 3–4 of 4") == [[line["left"], line["hit"], line["right"],
                                              f"{line['title']}{line['publication']}, {line['published']}"]
                                             for line in conc["lines"]]
    assert links(tree, "Previous page") and not links(tree, "Next page")
    assert tree.get_element_by_id("cite-link").get("href") == \
        f"http://testserver{base}/concordance?query=kommunen&before=5&after=5&limit=2&offset=2"
    tree = page(client, f"{base}/concordance?query=kommunen&before=5&after=5&limit=2&seed=")   # as a form sends it
    assert tree.get_element_by_id("cite-link").get("href") == \
        f"http://testserver{base}/concordance?query=kommunen&before=5&after=5&limit=2"
    for href in links(tree, "The concordance (up to 1,000 lines) as"):
        assert download(client, href)["hit"].tolist() == [line["hit"] for line in conc_all["lines"]]
    tree = page(client, f"{base}/concordance?query=og&before=4&after=4&limit=5&seed=7")
    assert [r[1] for r in cells(tree, "Lines 1–5 of")] == [line["hit"] for line in sampled["lines"]]
    assert [r[0] for r in cells(tree, "Lines 1–5 of")] == [line["left"] for line in sampled["lines"]]

    tree = page(client, f"{base}/collocations?query=kommunen&reference=collection")
    shown = cells(tree, "Collocates of “kommunen”")
    assert [r[0] for r in shown] == [r["word"] for r in coll] and [int(r[1]) for r in shown] == [r["count"] for r in coll]
    bars = tree.xpath("//*[@id='chart-collocations']//*[local-name()='rect']")
    assert len(bars) == min(20, len(coll))
    for href in links(tree, "Collocations as"):
        assert download(client, href)["word"].tolist() == [r["word"] for r in coll]
    other = build(client, languages=["nno"])
    tree = page(client, f"{base}/collocations?query=kommunen&reference=saved&reference_id={other}")
    assert "reference: " + other in tree.xpath("//table[@class='collocations']/caption")[0].text_content()

    tree = page(client, f"{base}/frequencies")
    assert [(r[0], int(r[1])) for r in cells(tree, "Frequency list")] == [(r["word"], r["count"]) for r in freq]
    for href in links(tree, "Frequency list as"):
        assert download(client, href)["word"].tolist() == [r["word"] for r in freq]
    tree = page(client, f"{base}/frequencies?ngram=2&n=10")
    assert [r[0] for r in cells(tree, "Frequency list")] == [r["word"] for r in bigrams]

    tree = page(client, f"{base}/trends?terms=kommunen,og&period=month&split=language")
    shown = cells(tree, "Relative frequency per month")
    assert [(r[0], r[1], r[2], int(r[3])) for r in shown] == \
        [(r["term"], r["period"], r["language"], r["count"]) for r in trend]
    names = {f"{r['term']} ({r['language']})" for r in trend}
    header = [th.text_content() for th in tree.xpath("//figure//thead//th")]
    assert header[0] == "Period" and set(header[1:]) == names
    for href in links(tree, "Trends as"):
        assert download(client, href)["count"].tolist() == [r["count"] for r in trend]
    tree = page(client, f"{base}/trends?terms=og&date_field=harvest")
    for href in links(tree, "Trends as"):   # the API takes the page's date field
        assert download(client, href)["period"].astype(str).tolist() == ["2024"]


def test_an_uploaded_id_list_becomes_a_corpus_and_unknown_ids_are_listed(client, demo_url):
    with research.connect(demo_url) as conn:
        docs = research.build_corpus(conn, research.CorpusFilter.from_params({"languages": ["nno"]}))
    csv = "doc_id\n" + "\n".join(str(d["doc_id"]) for d in docs) + "\n12345\n"
    answer = client.post("/corpus/app/corpora/from-file", files={"file": ("ids.csv", csv.encode(), "text/csv")},
                         data={"name": "fra fil"}, follow_redirects=False)
    assert answer.status_code == 303
    tree = page(client, answer.headers["location"])
    assert [r[0] for r in cells(tree, "Documents 1–")] == [d["title"] for d in docs]
    assert tree.xpath("//ul[@class='ids']/li")[0].text_content() == "12345"
    book = openpyxl.Workbook()
    book.active.append(["record_id"])
    book.active.append([docs[0]["record_id"]])
    data = io.BytesIO()
    book.save(data)
    answer = client.post("/corpus/app/corpora/from-file", files={"file": ("ids.xlsx", data.getvalue())},
                         follow_redirects=False)
    assert answer.status_code == 303
    assert [r[0] for r in cells(page(client, answer.headers["location"]), "Documents 1–")] == [docs[0]["title"]]


@pytest.mark.parametrize("form, field, says", [
    ({}, None, "The form is empty"),
    ({"limit": "10", "order": "date"}, None, "The form is empty"),
    ({"limit": "10", "order": "date", "near_duplicates": "once"}, None, "The form is empty"),
    ({"limit": "10", "truncated": "none"}, None, "The form is empty"),
    ({"published_from": "2024-13-01"}, "published_from", "not an ISO date"),
    ({"published_from": "2024-03-01", "published_to": "2024-01-01"}, "published_from", "lies after"),
    ({"text": "(kommunen"}, "text", "closing parenthesis"),
    ({"text": "ordetfinnesikke"}, "text", "No documents match"),
    ({"publications": ["www.finnes-ikke.no"]}, "publications", "unknown publication"),
])
def test_bad_build_input_is_a_message_on_the_form(client, form, field, says):
    answer = client.post("/corpus/app/corpora", data=form)
    assert answer.status_code == 400 and says in answer.text and "Traceback" not in answer.text
    assert accessibility_problems(answer.text) == []
    tree = lxml.html.fromstring(answer.text)
    alert = tree.xpath("//*[@role='alert']")[0]
    if field:
        assert alert.xpath(".//a")[0].get("href") == f"#{field}"
        if field not in ("text",) or "match" not in says:
            assert tree.get_element_by_id(field).get("aria-invalid") == "true"
    for key, value in form.items():   # what was typed stays in the form
        if key in ("published_from", "text"):
            assert tree.get_element_by_id(key).get("value") == value


def test_other_bad_input_is_a_message_on_the_page(client):
    corpus_id = build(client, languages=["nob"])
    base = f"/corpus/app/corpora/{corpus_id}"
    bad_file = client.post("/corpus/app/corpora/from-file", files={"file": ("ids.pdf", b"%PDF-1.4")})
    assert bad_file.status_code == 400 and "a .csv or .xlsx file is expected" in bad_file.text
    assert lxml.html.fromstring(bad_file.text).get_element_by_id("file").get("aria-invalid") == "true"
    not_csv = client.post("/corpus/app/corpora/from-file", files={"file": ("ids.xlsx", b"not a workbook")})
    assert not_csv.status_code == 400 and "not a readable .xlsx workbook" in not_csv.text
    no_file = client.post("/corpus/app/corpora/from-file", data={"name": "x"})
    assert no_file.status_code == 400 and "Choose a file" in no_file.text
    tree = page(client, f"{base}/concordance?query=ordetfinnesikke", 200)
    assert "does not occur in this corpus" in tree.xpath("//*[@role='status']")[0].text_content()
    tree = page(client, f"{base}/concordance?query=og&before=20&after=20", 400)
    assert "more than 25 words" in tree.xpath("//*[@role='alert']")[0].text_content()
    tree = page(client, f"{base}/collocations?query=og&reference=saved&reference_id=nosuchcorp", 400)
    assert "no saved corpus" in tree.xpath("//*[@role='alert']")[0].text_content()
    page(client, f"{base}/trends?terms=og&period=week", 400)
    page(client, f"{base}?offset=x", 400)
    opened = client.get(f"/corpus/app/open?id=+{corpus_id}+", follow_redirects=False)
    assert opened.headers["location"] == f"/corpus/app/corpora/{corpus_id}"
    assert client.get("/corpus/app/open?id=", follow_redirects=False).headers["location"] == "/corpus/app/"
    tree = page(client, "/corpus/app/corpora/nosuchcorp", 404)
    assert "No corpus “nosuchcorp”" in tree.text_content()
    page(client, "/corpus/app/corpora/nosuchcorp/concordance?query=og", 404)


def test_the_language_switch_sticks_and_sets_lang(demo_url):
    with TestClient(standalone_app(Settings(database_url=demo_url))) as client:
        first = client.get("/corpus/app/collection", headers={"Accept-Language": "nb-NO,nb;q=0.9"})
        assert lxml.html.fromstring(first.text).get("lang") == "nb" and "Totalt" in first.text
        switched = client.get("/corpus/app/language?set=en&next=/corpus/app/collection", follow_redirects=False)
        assert switched.status_code == 303 and switched.headers["location"] == "/corpus/app/collection"
        again = page(client, "/corpus/app/collection", headers={"Accept-Language": "nb-NO"})
        assert again.get("lang") == "en" and "Totals" in again.text_content()
        back = page(client, "/corpus/app/language?set=nb&next=/corpus/app/")
        assert back.get("lang") == "nb" and back.xpath("//h1")[0].text_content() == "Bygg et korpus"
        away = client.get("/corpus/app/language?set=en&next=https://example.org/", follow_redirects=False)
        assert away.headers["location"] == "/corpus/app/"   # no redirect off the site


def test_the_collection_page_shows_totals_plots_and_its_descriptions(client, demo_url):
    with research.connect(demo_url) as conn:
        summary = research.collection_summary(conn)
        found = research.profile(conn)
        bibtex = research.citation(conn, "bibtex")
    tree = page(client, "/corpus/app/collection")
    totals = dict(zip([d.text_content() for d in tree.xpath("//dl[@class='totals']/dt")],
                      [d.text_content() for d in tree.xpath("//dl[@class='totals']/dd")]))
    assert totals["Texts"] == str(summary["texts"]) and totals["Words"] == f"{summary['words']:,}"
    assert [s.get("id") for s in tree.xpath("//*[local-name()='svg']")] == \
        ["chart-publications", "chart-languages", "chart-counties", "chart-timeline"]
    header = [th.text_content() for th in tree.xpath("//figure[.//*[@id='chart-timeline']]//thead//th")]
    assert header == ["Month", *sorted(r["value"] for r in found["languages"])]
    counties = cells(tree, "Documents per county")
    assert sum(int(r[1]) for r in counties) == summary["texts"]
    assert {r[0] for r in counties} == {"Nordland", "(not given)"}
    for href in links(tree, "The data behind the plots as"):
        table = download(client, href)
        language_rows = table[table["dimension"] == "language"]
        assert dict(zip(language_rows["value"], language_rows["documents"])) == summary["languages"]
    assert tree.xpath("//pre")[0].text_content() == bibtex
    for text, path in (("Dublin Core", "/corpus/collection/dublin-core"), ("DCAT", "/corpus/collection/dcat"),
                       ("Citation: RIS", "/corpus/collection/citation?format=ris")):
        href = links(tree, text)[0]
        assert href == path and client.get(href).status_code == 200


def test_the_page_ships_in_the_wheel(tmp_path):
    """Templates and the stylesheet are package data: a wheel (what `pip install .` installs) holds them.
    (pip builds it in an isolated environment with the setuptools pyproject.toml asks for, from a copy of
    the sources so that no build/ directory is left in the checkout.)"""
    source_copy = tmp_path / "src"
    shutil.copytree(ROOT / "include", source_copy / "include", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copy(ROOT / "pyproject.toml", source_copy)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "dist"),
                    str(source_copy)], check=True, capture_output=True, timeout=300)
    wheel = next((tmp_path / "dist").glob("warc2corpus-*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    source = ROOT / "include" / "warc2corpus" / "research"
    expected = {f"warc2corpus/research/{p.relative_to(source)}" for d in ("templates", "static")
                for p in (source / d).iterdir()}
    assert expected and expected <= names
    assert re.search(r"warc2corpus/store/migrations/\d+.*\.sql", "\n".join(names))


def test_profile_counts_what_the_corpus_documents_hold(client, demo_url):
    """research.profile (the plots' numbers) against the corpus's own metadata rows, counted here."""
    corpus_id = build(client, languages=["nob", "nno", "sme"])
    with research.connect(demo_url) as conn:
        rows = research.corpus_documents(conn, corpus_id)
        found = research.profile(conn, corpus_id)
        whole = research.profile(conn)
        summary = research.collection_summary(conn)

    def counted(key):
        return sorted(collections.Counter(key(r) for r in rows).items())

    assert found["documents"] == len(rows) == 7   # the articles of the 10 documents
    assert sorted((r["value"], r["documents"]) for r in found["publications"]) == counted(lambda r: r["publication"])
    assert sorted((r["value"], r["documents"]) for r in found["languages"]) == counted(lambda r: r["language"])
    published = [r for r in rows if r["published"]]
    assert sorted(((r["month"], r["language"]), r["documents"]) for r in found["published"]) == \
        sorted(collections.Counter((r["published"][:7], r["language"]) for r in published).items())
    assert found["undated"] == len(rows) - len(published)
    assert sorted(((r["month"], r["language"]), r["documents"]) for r in found["harvested"]) == \
        counted(lambda r: (r["harvest_time"][:7], r["language"]))
    # the whole collection: every document, whatever its page type, as the collection's totals count them
    assert whole["documents"] == summary["texts"] and {r["value"]: r["documents"] for r in whole["languages"]} == \
        summary["languages"]
    assert research.profile_rows(found)[0] == {"dimension": "publication", "value": found["publications"][0]["value"],
                                               "language": None, "documents": found["publications"][0]["documents"]}


def test_a_page_past_the_statement_timeout_says_so_and_nothing_hangs(demo_url):
    """A lock held elsewhere makes the page's queries wait; PostgreSQL cancels them at the statement timeout
    and the page says so (503 with Retry-After), in HTML."""
    with TestClient(standalone_app(Settings(database_url=demo_url, timeout_ms=300)),
                    headers={"Accept-Language": "en"}) as client, psycopg.connect(demo_url) as locker:
        corpus_id = build(client, languages=["nob"])
        locker.execute("LOCK TABLE documents, research_docs IN ACCESS EXCLUSIVE MODE")
        started = time.monotonic()
        answer = client.get(f"/corpus/app/corpora/{corpus_id}/concordance?query=og")
        waited = time.monotonic() - started
        locker.rollback()
        assert answer.status_code == 503 and answer.headers["retry-after"]
        assert answer.headers["content-type"].startswith("text/html") and "The query took too long" in answer.text
        assert accessibility_problems(answer.text) == [] and waited < 5
        locker.execute("LOCK TABLE research_docs IN ACCESS EXCLUSIVE MODE")   # the corpus found, its text not
        answer = client.get(f"/corpus/app/corpora/{corpus_id}/concordance?query=og")
        locker.rollback()
        assert answer.status_code == 503 and "The query took too long" in answer.text
        assert lxml.html.fromstring(answer.text).get_element_by_id("query").get("value") == "og"   # the form stays
        assert client.get(f"/corpus/app/corpora/{corpus_id}/concordance?query=og").status_code == 200


def test_charts_draw_every_value_with_a_text_alternative():
    bars = lxml.html.fromstring(charts.bar_chart("b", [("ferje", 8.75), ("båt & bro", 2), ("buss", 0)],
                                                 title="Ord", desc="Tre stolper", decimal_comma=True))
    widths = [float(r.get("width")) for r in bars.xpath("//rect")]
    assert widths[0] == 380 and widths[1] == pytest.approx(380 * 2 / 8.75, abs=0.1) and widths[2] == 0
    assert [t.text for t in bars.xpath("//text[@class='value']")] == ["8,8", "2", "0"]
    assert bars.xpath("//title")[0].text == "Ord" and bars.xpath("//desc")[0].text == "Tre stolper"
    assert bars.xpath("//text[@class='label']")[1].text == "båt & bro"   # escaped in the SVG, read back
    lines = lxml.html.fromstring(charts.line_chart("l", ["2023", "2024", "2025"],
                                                   [("ferje", [1.5, None, 3.0]), ("båt", [2.0, 2.0, 2.0])],
                                                   title="T", desc="D", y_label="per million"))
    polylines = lines.xpath("//polyline")
    assert [len(p.get("points").split()) for p in polylines] == [2, 3]   # a missing value is no point
    assert polylines[0].get("stroke") != polylines[1].get("stroke") and polylines[1].get("stroke-dasharray")
    assert [t.text for t in lines.xpath("//text[@class='label']")][-2:] == ["ferje", "båt"]   # the legend
