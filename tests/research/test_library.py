"""Research library over the demo corpus and real pages (the NRK and Dagbladet pages of the
shared samples): corpora, concordances, frequencies, trends, collocations, exports, the
collection described, withdrawal, and a saved corpus across a later load.

The corpus is built once for the module (two demo WARCs, then the real pages); the last test
loads a third WARC into it."""

from __future__ import annotations

import io
import json
import uuid
from pathlib import Path

import pandas as pd
import psycopg
import pytest

from conftest import DEMO_WARCS, SAMPLES, _with_database
from warc2corpus import research, settings
from warc2corpus.stages import run
from warc2corpus.store import db, publications
from warc2corpus.research import BadRequest, CorpusFilter, NotFound, QueryTimeout

F = CorpusFilter.from_params
FP, DT, NRK, DB = "www.fjordposten.no", "www.dalen-tidend.no", "www.nrk.no", "www.dagbladet.no"
REAL_PAGES = SAMPLES / "news_fundus" / "nordic_dev_pages.warc.gz"
REGISTER = "domain,title,place,county,has_responsible_editor\nfjordposten.no,Fjordposten,Fjordvik,Nordland,yes\n"


@pytest.fixture(scope="module")
def corpus(server_url, tmp_path_factory):
    """URL of a database with the two first demo WARCs and the real pages loaded and indexed."""
    if not REAL_PAGES.exists():
        pytest.skip(f"shared samples not found at {SAMPLES}; real-data test skipped")
    name = "w2c_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(settings.DATABASE_URL_VARIABLE, url)
        mp.setenv("WARC2CORPUS_STAGING", str(tmp_path_factory.mktemp("staging")))
        run.run_files([DEMO_WARCS / "DEMO-20240301120000-00000.warc.gz",
                         DEMO_WARCS / "DEMO-20240302120000-00001.warc.gz"], "demo")
        run.run_files([REAL_PAGES], "samples")
        with db.connect(url) as conn:
            publications.import_register(conn, Path("register.csv"), text=REGISTER)
            conn.commit()
        yield url
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture
def conn(corpus):
    with research.connect(corpus) as c:
        yield c


def doc_of(conn, host, path) -> int:
    return conn.execute("SELECT doc_id FROM documents WHERE host = %s AND url_path = %s", (host, path)).fetchone()[0]


SKIRENN = "/sport/2024/02/skirenn-i-motvind"


# ---------------------------------------------------------------------------------------------
# Corpora
# ---------------------------------------------------------------------------------------------

def test_the_pipeline_indexed_everything_it_loaded(conn):
    indexed = conn.execute("SELECT count(*) FROM research_docs").fetchone()[0]
    assert indexed == conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 11
    assert conn.execute("SELECT count(*) FROM collection_versions").fetchone()[0] == 2   # one per run


def test_build_corpus_filters_combine(conn):
    rows = research.build_corpus(conn, F({}))
    assert all(r["host"] != "" for r in rows)
    # articles by default: the front pages are left out
    assert {r["url"].rsplit("/", 1)[-1] for r in rows if r["host"] == FP} == {"ferja-innstilt", "skirenn-i-motvind"}
    assert research.count_corpus(conn, F({"page_types": ["article", "front_or_section", "other"]})) == 11
    fjordposten = research.build_corpus(conn, F({"publications": ["Fjordposten"]}))
    assert {r["host"] for r in fjordposten} == {FP} and len(fjordposten) == 3
    assert all(r["publication"] == "Fjordposten" and r["place"] == "Fjordvik" and r["county"] == "Nordland"
               for r in fjordposten)
    assert research.build_corpus(conn, F({"counties": ["nordland"]})) == fjordposten
    assert {r["host"] for r in research.build_corpus(conn, F({"publications": [NRK, "dagbladet.no"]}))} == {NRK, DB}
    assert {r["language"] for r in research.build_corpus(conn, F({"languages": ["nno"]}))} == {"nno"}
    assert [r["published"] for r in research.build_corpus(conn, F({"published_from": "2024-02-28",
                                                                    "published_to": "2024-02-29"}))] \
        == ["2024-02-28", "2024-02-28", "2024-02-29"]
    harvested = research.build_corpus(conn, F({"harvest_from": "2024-03-02", "harvest_to": "2024-03-02"}))
    assert {r["harvest_time"][:10] for r in harvested} == {"2024-03-02"}
    first = fjordposten[0]
    assert set(first) == {"doc_id", "record_id", "title", "publication", "host", "url", "harvest_time", "published",
                          "language", "place", "county", "words", "warc_file", "record_offset", "record_length",
                          "cluster", "cluster_size", "truncated"}
    assert first["record_id"].startswith("<urn:uuid:") and first["words"] > 0


def test_full_text_words_phrases_prefixes_and_operators(conn):
    def hosts(text, **more):
        return sorted(r["url"].split("/")[-1] for r in research.build_corpus(conn, F({"text": text, **more})))

    assert hosts("fergen") == ["ferja-innstilt", "ferja-innstilt"]           # the page and its AMP twin
    assert hosts("FERGEN") == hosts("fergen")                                 # case-insensitive
    assert hosts('"mest nødvendige"') == ["ferja-innstilt", "ferja-innstilt"]
    assert hosts('"nødvendige mest"') == []
    assert hosts('"i dag"') == ["ferja-innstilt", "ferja-innstilt"] + [h for h in hosts('"i dag"') if h != "ferja-innstilt"]
    assert hosts("ferge*") == hosts("fergen OR fergesambandet") == hosts("fergen")
    assert hosts("fergen AND NOT fjordvik") == []
    assert hosts("fergen OR samfunnshus*") == ["ferja-innstilt", "ferja-innstilt", "nytt-samfunnshus"]
    assert hosts("(fergen OR samfunnshus*) NOT fergen") == ["nytt-samfunnshus"]
    assert hosts("samfunnshus* NOT (fergen OR grøndalen)") == []
    assert research.count_corpus(conn, F({"text": "og", "languages": ["nob"]})) == \
        len(research.build_corpus(conn, F({"text": "og", "languages": ["nob"]})))


def test_order_by_date_and_seeded_random(conn):
    every = {"page_types": ["article", "front_or_section", "other"]}
    by_date = research.build_corpus(conn, F(every))
    dates = [r["published"] or r["harvest_time"][:10] for r in by_date]
    assert dates == sorted(dates)
    one = [r["doc_id"] for r in research.build_corpus(conn, F({**every, "order": "random", "seed": 7}))]
    assert one == [r["doc_id"] for r in research.build_corpus(conn, F({**every, "order": "random", "seed": 7}))]
    assert one != [r["doc_id"] for r in research.build_corpus(conn, F({**every, "order": "random", "seed": 8}))]
    assert sorted(one) == sorted(r["doc_id"] for r in by_date)
    assert len(research.build_corpus(conn, F({**every, "limit": 2}))) == 2


def test_corpus_from_an_id_file_reports_unknown_ids(conn):
    rows = research.build_corpus(conn, F({"publications": ["Fjordposten"]}))
    csv_file = ("record_id;note\n" + f"{rows[0]['record_id']};a\n" + "<urn:uuid:00000000-0000-0000-0000-000000000000>;b\n"
                + f"{rows[0]['record_id'].strip('<>')};again\n").encode("utf-8")
    ids = research.read_id_file(csv_file, "ids.csv")
    assert len(ids) == 3
    saved = research.corpus_from_ids(conn, ids, name="from csv")
    assert saved["documents"] == 1 and saved["unknown_ids"] == ["<urn:uuid:00000000-0000-0000-0000-000000000000>"]
    assert [r["doc_id"] for r in research.corpus_documents(conn, saved["id"], limit=10)] == [rows[0]["doc_id"]]

    import openpyxl

    book = openpyxl.Workbook()
    book.active.append(["title", "doc_id"])
    for r in rows:
        book.active.append([r["title"], str(r["doc_id"])])
    book.active.append(["missing", "12345"])
    data = io.BytesIO()
    book.save(data)
    ids = research.read_id_file(data.getvalue(), "corpus.xlsx")
    saved = research.corpus_from_ids(conn, ids)
    assert saved["unknown_ids"] == ["12345"]
    assert [r["doc_id"] for r in research.corpus_documents(conn, saved["id"], limit=10)] == [r["doc_id"] for r in rows]
    assert research.get_corpus(conn, saved["id"])["documents"] == 3


# ---------------------------------------------------------------------------------------------
# Concordances
# ---------------------------------------------------------------------------------------------

def test_concordance_exact_lines(conn):
    skirenn = research.corpus_from_ids(conn, [str(doc_of(conn, FP, SKIRENN))])["id"]
    result = research.concordance(conn, "og", corpus=skirenn, before=5, after=5)
    assert result["total"] == 2
    assert [(l["left"], l["hit"], l["right"]) for l in result["lines"]] == [
        ("inn ekstra mannskap ved matstasjonene,", "og", "det lokale hjelpekorpset hadde folk"),
        ("er godt fornøyd med dagen", "og", "håper den store oppslutningen holder"),
    ]
    line = result["lines"][0]
    assert line["title"] == "Rekordmange løpere trosset motvinden i Fjordvik-rennet"
    assert line["publication"] == "Fjordposten" and line["published"] == "2024-02-26"
    assert set(line) == {"doc_id", "title", "publication", "published", "harvest_time", "left", "hit", "right"}


def test_concordance_totals_pages_and_samples(conn):
    full = research.concordance(conn, "og", limit=1000)
    assert full["total"] == len(full["lines"]) == 50
    page = research.concordance(conn, "og", limit=10, offset=20)
    assert page["lines"] == full["lines"][20:30] and page["total"] == full["total"]
    sample = research.concordance(conn, "og", limit=10, seed=5)
    assert sample == research.concordance(conn, "og", limit=10, seed=5)
    assert sample["lines"] != full["lines"][:10]
    all_sampled = research.concordance(conn, "og", limit=1000, seed=5)["lines"]
    key = lambda l: (l["doc_id"], l["left"], l["right"])  # noqa: E731
    assert sorted(map(key, all_sampled)) == sorted(map(key, full["lines"]))
    phrase = research.concordance(conn, '"i dag"', limit=1000)
    assert phrase["total"] == len(phrase["lines"]) >= 1 and {l["hit"].lower() for l in phrase["lines"]} == {"i dag"}
    prefix = research.concordance(conn, "ferj*", limit=1000)
    assert prefix["total"] == len(prefix["lines"]) and all(l["hit"].lower().startswith("ferj") for l in prefix["lines"])
    assert research.concordance(conn, "ordetfinnesikke") == {"total": 0, "lines": []}


def test_concordance_windows_count_words_and_stop_at_paragraphs(conn):
    lines = research.concordance(conn, "og", limit=1000, before=12, after=12)["lines"]
    for l in lines:
        for side in (l["left"], l["right"]):
            assert sum(1 for t in side.split() if any(c.isalnum() for c in t)) <= 12
    # every window lies inside one paragraph of its document
    for l in lines[:40]:
        texts = [t for (t,) in conn.execute("SELECT text FROM paragraphs WHERE doc_id = %s", (l["doc_id"],))]
        assert any(f"{l['left']} {l['hit']}".strip() in t and f"{l['hit']} {l['right']}".strip() in t
                   or l["right"][:1] in ",.:;!?" for t in texts)


# ---------------------------------------------------------------------------------------------
# Frequencies and trends
# ---------------------------------------------------------------------------------------------

def test_frequencies_of_the_collection_and_of_a_corpus(conn):
    tokens = [t.lower() for (ts,) in conn.execute("SELECT tokens FROM paragraphs") for t in ts]
    words = [t for t in tokens if any(c.isalnum() for c in t)]
    top = research.frequencies(conn, n=3)
    from collections import Counter

    expected = Counter(words).most_common(3)
    assert [(r["word"], r["count"]) for r in top] == expected
    assert top[0]["per_million"] == pytest.approx(expected[0][1] / len(words) * 1e6)
    given = research.frequencies(conn, words=["Og", "ordetfinnesikke"])
    assert given == [{"word": "og", "count": Counter(words)["og"], "per_million": pytest.approx(Counter(words)["og"] / len(words) * 1e6)},
                     {"word": "ordetfinnesikke", "count": 0, "per_million": 0.0}]

    nrk = research.save_corpus(conn, F({"publications": [NRK]}))["id"]
    nrk_tokens = [[t.lower() for t in ts] for (ts,) in conn.execute(
        "SELECT tokens FROM paragraphs p JOIN documents d USING (doc_id) WHERE d.host = %s ORDER BY seq", (NRK,))]
    nrk_words = Counter(t for ts in nrk_tokens for t in ts if any(c.isalnum() for c in t))
    assert [(r["word"], r["count"]) for r in research.frequencies(conn, corpus=nrk, n=5)] == \
        sorted(nrk_words.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    bigrams = Counter(f"{a} {b}" for ts in nrk_tokens for a, b in zip(ts, ts[1:])
                      if any(c.isalnum() for c in a) and any(c.isalnum() for c in b))
    got = research.frequencies(conn, corpus=nrk, ngram=2, n=5)
    assert [(r["word"], r["count"]) for r in got] == sorted(bigrams.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    per_doc = research.frequencies(conn, corpus=nrk, words=["og"], per_document=True)
    assert [(r["word"], r["count"]) for r in per_doc] == [("og", nrk_words["og"])] and per_doc[0]["doc_id"]


def test_trend_by_month_and_split(conn):
    rows = research.trend(conn, ["og", "i dag"], period="month")
    og = {r["period"]: r for r in rows if r["term"] == "og"}
    total = conn.execute("""SELECT count(*) FROM paragraphs p JOIN documents d USING (doc_id), unnest(p.tokens) t
                            WHERE lower(t) = 'og' AND to_char(d.published, 'YYYY-MM') = '2024-02'""").fetchone()[0]
    assert og["2024-02"]["count"] == total
    assert og["2024-02"]["per_million"] == pytest.approx(total / og["2024-02"]["total_words"] * 1e6)
    assert {r["period"] for r in rows if r["term"] == "i dag"} == set(og)
    by_language = research.trend(conn, ["og"], split="language", date_field="harvest")
    assert {r["language"] for r in by_language} == {"nob", "nno", "sme"}
    assert sum(r["count"] for r in by_language) == research.concordance(conn, "og")["total"]
    # a rarer word goes through the full-text index, a common one reads every row: the same counts
    for word in ("fergen", "og"):
        assert sum(r["count"] for r in research.trend(conn, [word], date_field="harvest")) == \
            research.concordance(conn, word)["total"] > 0


# ---------------------------------------------------------------------------------------------
# Exports and the collection described
# ---------------------------------------------------------------------------------------------

def test_exports_read_back_with_pandas(conn):
    rows = research.build_corpus(conn, F({}))
    lines = research.concordance(conn, "og", limit=20)["lines"]
    for table in (rows, lines):
        csv_frame = pd.read_csv(io.BytesIO(research.export(table, "csv")), dtype=str, keep_default_na=False)
        json_frame = pd.read_json(io.BytesIO(research.export(table, "jsonl")), lines=True, dtype=False)
        xlsx_frame = pd.read_excel(io.BytesIO(research.export(table, "xlsx")), dtype=str, keep_default_na=False)
        for frame in (csv_frame, json_frame, xlsx_frame):
            assert list(frame.columns) == list(table[0])
            assert [str(v) for v in frame["doc_id"]] == [str(r["doc_id"]) for r in table]
            assert list(frame["title"]) == [r["title"] for r in table]
    with pytest.raises(BadRequest) as bad:
        research.export(rows, "xls")
    assert bad.value.param == "format"


def test_a_workbooks_text_is_never_a_formula_or_an_error():
    """Titles and authors are third parties' words: in an .xlsx they stay text, exactly (a title beginning with
    "=" was a live formula in the researcher's Excel, "#N/A" an error cell)."""
    import openpyxl
    from openpyxl.cell.cell import ERROR_CODES

    from warc2corpus.research.export import _ERROR_CODES

    assert _ERROR_CODES == set(ERROR_CODES)  # the codes openpyxl turns into errors, restated
    texts = ['=HYPERLINK("http://example.invalid/","Les mer")', "=1+1", "#N/A", "#REF!", "+47 22 00 00 00", "=",
             "-minus", "@ref"]
    data = research.export([{"doc_id": n, "title": text} for n, text in enumerate(texts)], "xlsx")
    cells = [row[1] for row in openpyxl.load_workbook(io.BytesIO(data)).worksheets[0].iter_rows(min_row=2)]
    assert [(c.value, c.data_type) for c in cells] == [(text, "s") for text in texts]


@pytest.mark.filterwarnings("ignore:ConjunctiveGraph is deprecated")   # inside rdflib's JSON-LD parser
def test_collection_described(conn):
    summary = research.collection_summary(conn)
    assert summary["texts"] == 11 and summary["languages"] == {"nob": 6, "nno": 3, "sme": 2}
    assert summary["words"] == conn.execute("SELECT sum(words) FROM research_docs").fetchone()[0]
    assert summary["version"] == 2 and summary["years"] == {"2024": 11}
    assert "<dc:title>" in research.dublin_core(conn)

    import rdflib
    from rdflib.namespace import DCAT, DCTERMS, RDF

    graph = rdflib.Graph().parse(data=research.dcat(conn), format="json-ld")
    dataset = graph.value(predicate=RDF.type, object=DCAT.Dataset)
    assert dataset is not None
    assert str(graph.value(dataset, DCTERMS.title)) == summary["title"]
    assert {str(o) for o in graph.objects(dataset, DCTERMS.language)} == {"nob", "nno", "sme"}
    assert str(graph.value(dataset, rdflib.URIRef(str(DCAT) + "version"))) == "2"   # DCAT 3's dcat:version
    ris = research.citation(conn, "ris")
    assert ris.startswith("TY  - DATA\n") and "ET  - version 2" in ris and ris.rstrip().endswith("ER  -")
    assert research.citation(conn, "bibtex").startswith("@misc{")


# ---------------------------------------------------------------------------------------------
# Bad input and timeouts
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("params, param", [
    ({"limit": 100_001}, "limit"), ({"limit": "many"}, "limit"), ({"published_from": "2024-13-01"}, "published_from"),
    ({"text": '"unclosed'}, "text"), ({"text": "(ferja OR fergen"}, "text"), ({"text": "OR"}, "text"),
    ({"text": "fe*rja"}, "text"), ({"order": "best"}, "order"), ({"page_types": ["blog"]}, "page_types"),
    ({"near_duplicates": "twice"}, "near_duplicates"),
    ({"harvest_from": "2024-03-02", "harvest_to": "2024-03-01"}, "harvest_from"), ({"colour": "red"}, "colour"),
])
def test_bad_filters_name_the_parameter(params, param):
    with pytest.raises(BadRequest) as bad:
        F(params)
    assert bad.value.param == param


def test_bad_analysis_input_names_the_parameter(conn):
    cases = [
        (lambda: research.build_corpus(conn, F({"publications": ["Ukjent Avis"]})), "publications"),
        (lambda: research.build_corpus(conn, F({"places": ["Atlantis"]})), "places"),
        (lambda: research.concordance(conn, "og", before=15, after=10), "window"),
        (lambda: research.concordance(conn, '"i dag"', before=12, after=12), "window"),
        (lambda: research.concordance(conn, "og", limit=1001), "limit"),
        (lambda: research.concordance(conn, "og OR i"), "query"),
        (lambda: research.concordance(conn, "og", offset=-1), "offset"),
        (lambda: research.frequencies(conn, ngram=3), "ngram"),
        (lambda: research.frequencies(conn, words=["to words"]), "words"),
        (lambda: research.trend(conn, ["og"], period="week"), "period"),
        (lambda: research.trend(conn, ["og"], split="author"), "split"),
        (lambda: research.collocations(conn, "og", before=0, after=0), "window"),
        (lambda: research.collocations(conn, "og", sample=0), "sample"),
        (lambda: research.read_id_file(b"1,2", "ids.pdf"), "file"),
        (lambda: research.read_id_file(b"", "ids.csv"), "file"),
        (lambda: research.corpus_from_ids(conn, []), "ids"),
    ]
    for call, param in cases:
        with pytest.raises(BadRequest) as bad:
            call()
        assert bad.value.param == param, (param, bad.value)
    with pytest.raises(NotFound):
        research.get_corpus(conn, "nosuchcorpus")
    with pytest.raises(NotFound):
        research.concordance(conn, "og", corpus="nosuchcorpus")


def test_statement_timeout_is_a_query_timeout(corpus):
    from warc2corpus.research import store

    with research.connect(corpus, timeout_ms=50) as conn:
        with pytest.raises(QueryTimeout), store.guard():
            conn.execute("SELECT pg_sleep(2)")
        assert research.count_corpus(conn, F({})) == 8     # the session goes on
        with pytest.raises(psycopg.errors.ReadOnlySqlTransaction):
            conn.execute("DELETE FROM documents")


# ---------------------------------------------------------------------------------------------
# Withdrawal, and a saved corpus across a later load (these change the module's corpus)
# ---------------------------------------------------------------------------------------------

def test_withdrawn_documents_never_appear(corpus, conn):
    dagbladet = doc_of(conn, DB, conn.execute("SELECT url_path FROM documents WHERE host = %s", (DB,)).fetchone()[0])
    saved = research.corpus_from_ids(conn, [str(dagbladet), str(doc_of(conn, FP, SKIRENN))])["id"]
    before = research.collection_summary(conn)
    og_before = research.frequencies(conn, words=["og"])[0]["count"]
    with db.connect(corpus) as admin:
        publications.decide(admin, DB, "rejected", by="test")
        admin.commit()
    try:
        every = F({"page_types": ["article", "front_or_section", "other"]})
        assert dagbladet not in {r["doc_id"] for r in research.build_corpus(conn, every)}
        assert all(l["doc_id"] != dagbladet for l in research.concordance(conn, "og", limit=1000)["lines"])
        assert [r["doc_id"] for r in research.corpus_documents(conn, saved)] == [doc_of(conn, FP, SKIRENN)]
        assert research.get_corpus(conn, saved)["documents"] == 1
        dagbladet_og = conn.execute("SELECT count(*) FROM paragraphs, unnest(tokens) t WHERE doc_id = %s AND lower(t) = 'og'",
                                    (dagbladet,)).fetchone()[0]
        assert research.frequencies(conn, words=["og"])[0]["count"] == og_before - dagbladet_og
        assert research.concordance(conn, "og")["total"] == og_before - dagbladet_og
        after = research.collection_summary(conn)
        assert after["texts"] == before["texts"] - 1 and after["publications"] == before["publications"] - 1
        assert sum(r["count"] for r in research.frequencies(conn, corpus=saved, n=100_000)) < \
            conn.execute("SELECT sum(words) FROM research_docs WHERE doc_id = ANY(%s)",
                         ([dagbladet, doc_of(conn, FP, SKIRENN)],)).fetchone()[0]
    finally:
        with db.connect(corpus) as admin:
            publications.decide(admin, DB, None, by="test")
            admin.commit()
    assert research.collection_summary(conn)["texts"] == before["texts"]


def test_saved_corpus_is_stable_across_a_later_load(corpus, conn, tmp_path, monkeypatch):
    flt = F({"publications": ["Fjordposten"], "text": "bibliotek* OR fergen OR mannskap"})
    saved = research.save_corpus(conn, flt, name="fjordposten")
    ids = [r["doc_id"] for r in research.corpus_documents(conn, saved["id"])]
    assert saved["documents"] == len(ids) == 3 and saved["collection_version"] == 2
    assert research.get_corpus(conn, saved["id"])["definition"]["filter"] == flt.to_dict()

    monkeypatch.setenv(settings.DATABASE_URL_VARIABLE, corpus)
    monkeypatch.setenv("WARC2CORPUS_STAGING", str(tmp_path))
    run.run_files([DEMO_WARCS / "fjordposten-spesial.warc.gz"], "demo")

    assert research.collection_summary(conn)["version"] == 3
    again = research.get_corpus(conn, saved["id"])
    assert again["documents"] == 3 and again["collection_version"] == 2
    assert [r["doc_id"] for r in research.corpus_documents(conn, saved["id"])] == ids
    rebuilt = [r["doc_id"] for r in research.build_corpus(conn, CorpusFilter.from_params(again["definition"]["filter"]))]
    assert len(rebuilt) == 4 and set(ids) < set(rebuilt)       # the new load brings biblioteket-utvider
    assert json.loads(json.dumps(again)) == again


def test_lexicon_totals_are_the_counts_of_the_indexed_words(conn):
    """After two refreshes (the module's load and the later one above, which adds to words already
    in the lexicon): each word's total is how often it occurs in the indexed documents, and
    punctuation is never counted."""
    counted = dict(conn.execute(
        """SELECT lower(t), count(*) FROM research_docs r JOIN paragraphs p USING (doc_id), unnest(p.tokens) t
           GROUP BY 1"""))
    lexicon = conn.execute("SELECT word, is_word, total FROM research_lexicon").fetchall()
    assert {word for word, _, _ in lexicon} == set(counted)
    assert [(word, total) for word, is_word, total in lexicon if total != (counted[word] if is_word else 0)] == []
    assert sum(1 for _, is_word, total in lexicon if is_word and total > 1) > 100
