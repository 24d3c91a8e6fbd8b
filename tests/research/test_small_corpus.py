"""Research analyses on a small corpus written here, where every figure can be checked by hand:
collocation counts and scores, and concordance windows at paragraph edges."""

from __future__ import annotations

import hashlib
import json
import math
import re
from importlib import resources

import pytest

from warc2corpus import research
from warc2corpus.research import store as research_store
from warc2corpus.store import db
from warc2corpus.text.tokens import tokenize


def add_documents(conn, docs: dict[int, list[str]], *, host="www.avis.no", published="2024-01-15") -> None:
    """Documents (id -> paragraphs) straight into the loader's tables, as the loader would leave them."""
    for doc_id, paragraphs in docs.items():
        n_tokens = sum(len(tokenize(text)[0]) for text in paragraphs)
        conn.execute(
            """INSERT INTO documents (doc_id, text_sha1, host, url_path, url, title, published, harvest_time, language,
                   n_paragraphs, n_tokens, warc_file, record_offset, record_length, record_id, crawl_job, page_type)
               VALUES (%s, %s, %s, %s, %s, %s, %s, '2024-02-01T12:00:00Z', 'nob', %s, %s, 'test.warc.gz', %s, 100,
                       %s, 'test', 'article')""",
            (doc_id, hashlib.sha1(str(doc_id).encode()).hexdigest(), host, f"/{doc_id}", f"https://{host}/{doc_id}",
             f"Sak {doc_id}", published, len(paragraphs), n_tokens, doc_id * 1000, f"<urn:uuid:test-{doc_id}>"))
        for seq, text in enumerate(paragraphs):
            tokens, starts = tokenize(text)
            conn.execute("INSERT INTO paragraphs (doc_id, seq, text, tokens, token_starts) VALUES (%s, %s, %s, %s, %s)",
                         (doc_id, seq, text, tokens, starts))


@pytest.fixture
def small(corpus_db):
    with db.connect(corpus_db) as conn:
        add_documents(conn, {
            1: ["sol hav X fjell vind", "X regn"],
            2: ["hav x, hav"],
            3: ["hav fjell fjell"],
        })
        conn.commit()
        research.refresh_index(conn)
    with research.connect(corpus_db) as conn:
        yield conn


def test_collocations_counted_by_hand(small):
    rows = {r["word"]: r for r in research.collocations(small, "x", before=1, after=1)}
    # windows of one word: hav|fjell (doc 1, first paragraph), -|regn (paragraph start), hav|hav (doc 2;
    # the comma is no word and does not count)
    assert {w: r["count"] for w, r in rows.items()} == {"hav": 3, "fjell": 1, "regn": 1}
    window, reference_words = 5, 7 + 3 + 3       # collocates counted; words of the collection
    hav = rows["hav"]
    assert hav["reference_count"] == 4
    assert hav["relative"] == pytest.approx((3 / window) / (4 / reference_words))
    e1 = window * (3 + 4) / (window + reference_words)
    e2 = reference_words * (3 + 4) / (window + reference_words)
    assert hav["log_likelihood"] == pytest.approx(2 * (3 * math.log(3 / e1) + 4 * math.log(4 / e2)))
    # pmi over the documents holding x (1 and 2: 10 words), 3 hits, hav 3 times in them, span 2
    assert hav["pmi"] == pytest.approx(math.log2(3 * 10 / (3 * 3 * 2)))
    assert rows["fjell"]["reference_count"] == 3
    assert rows["fjell"]["log_likelihood"] < 0 < rows["regn"]["log_likelihood"]   # fjell is rarer near x

    wider = {r["word"]: r["count"] for r in research.collocations(small, "x", before=5, after=5)}
    assert wider == {"sol": 1, "hav": 3, "fjell": 1, "vind": 1, "regn": 1}

    other = research.save_corpus(small, research.CorpusFilter.from_params({"text": "fjell NOT x"}))["id"]
    against = {r["word"]: r for r in research.collocations(small, "x", before=1, after=1, reference=other)}
    assert against["hav"]["reference_count"] == 1 and against["fjell"]["reference_count"] == 2
    assert against["hav"]["relative"] == pytest.approx((3 / 5) / (1 / 3))
    assert against["regn"]["reference_count"] == 0 and against["regn"]["relative"] is None
    assert research.collocations(small, "x", before=1, after=1, sample=1, seed=3) in (
        [r for r in research.collocations(small, "x", before=1, after=1, corpus=c)]
        for c in (research.corpus_from_ids(small, ["1"])["id"], research.corpus_from_ids(small, ["2"])["id"]))


def test_concordance_windows_stop_at_paragraph_edges(corpus_db):
    with db.connect(corpus_db) as conn:
        add_documents(conn, {7: ["Første avsnitt slutter med ordet sol.",
                                 "Sol står først her, og etter den kommer fem ord til."]})
        conn.commit()
        research.refresh_index(conn)
    with research.connect(corpus_db) as conn:
        lines = research.concordance(conn, "sol", before=3, after=3)["lines"]
        assert [(l["left"], l["hit"], l["right"]) for l in lines] == [
            ("slutter med ordet", "sol", "."),           # the paragraph ends: a shorter right side
            ("", "Sol", "står først her"),              # the paragraph begins: nothing on the left
        ]
        assert research.concordance(conn, "sol", before=0, after=0)["lines"][1]["right"] == ""
        assert [l["right"] for l in research.concordance(conn, '"sol står"', before=0, after=1)["lines"]] == ["først"]
        assert research.concordance(conn, '"sol sol"')["total"] == 0     # never across paragraphs
        assert research.build_corpus(conn, research.CorpusFilter.from_params({"text": '"sol sol"'})) == []
        assert research.frequencies(conn, corpus=research.corpus_from_ids(conn, ["7"])["id"], words=["sol sol"],
                                    ngram=2)[0]["count"] == 0


def test_refresh_is_idempotent_and_follows_deletions(corpus_db):
    with db.connect(corpus_db) as conn:
        add_documents(conn, {1: ["en to tre"], 2: ["to tre fire"]})
        conn.commit()
        assert research.refresh_index(conn) == {"indexed": 2, "removed": 0, "version": 1}
        assert research.refresh_index(conn) == {"indexed": 0, "removed": 0, "version": None}
        conn.execute("DELETE FROM documents WHERE doc_id = 2")
        conn.commit()
        assert research.refresh_index(conn) == {"indexed": 0, "removed": 1, "version": 2}
        assert research.frequencies(conn, words=["tre", "fire"]) == [
            {"word": "tre", "count": 1, "per_million": 1e6 / 3}, {"word": "fire", "count": 0, "per_million": 0.0}]


def test_research_commands(corpus_db, capsys):
    from conftest import run_cli

    with db.connect(corpus_db) as conn:
        add_documents(conn, {1: ["sol hav X fjell vind", "X regn"], 2: ["hav x, hav"]})
        conn.commit()
    assert run_cli(capsys, "research", "index") == (0, "indexed 2 documents, removed 0; collection version 1\n", "")
    assert run_cli(capsys, "research", "index")[1] == "indexed 0 documents, removed 0; nothing changed\n"
    code, out, err = run_cli(capsys, "research", "conc", "x", "--before", "1", "--after", "1")
    assert code == 0 and err == "3 hits\n"
    assert [line.split("\t")[3:] for line in out.splitlines()] == [["hav", "X", "fjell"], ["", "X", "regn"],
                                                                   ["hav", "x", ", hav"]]
    code, out, _ = run_cli(capsys, "research", "freq", "--n", "2")
    assert out == "word,count,per_million\nhav,3,300000.0\nx,3,300000.0\n"
    code, out, err = run_cli(capsys, "research", "conc", "x", "--before", "20", "--after", "20")
    assert code == 2 and err.startswith("warc2corpus: window:")
    assert json.loads(run_cli(capsys, "research", "summary")[1])["texts"] == 2
    code, out, err = run_cli(capsys, "research", "conc", "x", "--corpus", "nosuchcorp")
    assert code == 2 and err == "warc2corpus: not found: corpus 'nosuchcorp'\n"  # it said only "corpus 'nosuchcorp'"


def test_concurrent_refreshes_wait_for_each_other(corpus_db):
    from concurrent.futures import ThreadPoolExecutor

    with db.connect(corpus_db) as conn:
        add_documents(conn, {i: [f"ord{i} felles tekst", "og litt til"] for i in range(1, 2501)})
        conn.commit()

    def refresh(_):
        with db.connect(corpus_db) as conn:
            return research.refresh_index(conn)

    with ThreadPoolExecutor(2) as pool:
        outcomes = list(pool.map(refresh, range(2)))
    assert sorted(o["indexed"] for o in outcomes) == [0, 2500]
    with research.connect(corpus_db) as conn:
        assert research.frequencies(conn, words=["felles", "ord7"]) == [
            {"word": "felles", "count": 2500, "per_million": pytest.approx(2500 / 15000 * 1e6)},
            {"word": "ord7", "count": 1, "per_million": pytest.approx(1 / 15000 * 1e6)}]
        assert conn.execute("SELECT count(*) FROM collection_versions").fetchone()[0] == 1


def test_the_lexicon_takes_words_as_written(corpus_db):
    """Words that array syntax reads otherwise (quotes, backslashes, braces, commas, NULL) reach the
    lexicon as they are, with their totals; a token without a letter or digit is in it, uncounted."""
    tokens = ["NULL", "a\\b", 'x"y', "{z}", "k,l", "null", "{", "C:\\"]
    with db.connect(corpus_db) as conn:
        add_documents(conn, {1: ["placeholder"]})
        conn.execute("UPDATE paragraphs SET tokens = %s, token_starts = %s WHERE doc_id = 1",
                     (tokens, list(range(0, 8 * len(tokens), 8))))
        conn.commit()
        research.refresh_index(conn)
        rows = dict(conn.execute("SELECT word, total FROM research_lexicon").fetchall())
    assert rows == {"null": 2, "a\\b": 1, 'x"y': 1, "{z}": 1, "k,l": 1, "{": 0, "c:\\": 1}


def test_the_lexicons_totals_are_updated_in_place(corpus_db):
    """Adding counts to words already in the lexicon updates their rows on their own pages (HOT
    updates, which touch no index): a refresh adds its batch's counts to every word it meets again."""
    words = [f"ord{i:05d}" for i in range(4000)]
    again = words[::4]
    with db.connect(corpus_db) as conn:
        research_store.add_to_lexicon(conn, words, [True] * len(words), [1] * len(words))
        conn.commit()
        research_store.add_to_lexicon(conn, again, [True] * len(again), [2] * len(again))
        hot, updated = conn.execute(
            "SELECT pg_stat_get_xact_tuples_hot_updated(oid), pg_stat_get_xact_tuples_updated(oid)"
            " FROM pg_class WHERE relname = 'research_lexicon'").fetchone()
        conn.commit()
        totals = dict(conn.execute("SELECT word, total FROM research_lexicon").fetchall())
    assert updated == len(again) and hot == updated
    assert totals == {w: 3 if w in set(again) else 1 for w in words}


def _tsvector_text_by_hand(paragraphs, code, lexeme):
    """A document's tsvector text as the index means it: each word's quoted lexeme
    with its first MAX_POSITIONS positions (a token's place in the sequence, paragraph separators
    counted, from 1, clamped at MAX_POSITION), words in id order."""
    from warc2corpus.research.index import MAX_POSITION, MAX_POSITIONS

    places: dict[int, list[int]] = {}
    place = 0
    for n, tokens in enumerate(paragraphs):
        place += 1 if n else 0
        for token in tokens:
            place += 1
            if code[token] >= 0:
                places.setdefault(code[token], []).append(min(place, MAX_POSITION))
    return " ".join(f"{lexeme[word]}:{','.join(map(str, found[:MAX_POSITIONS]))}"
                    for word, found in sorted(places.items()))


def test_a_documents_tsvector_text_holds_each_words_first_positions():
    """The index's tsvector text, made in one join, against the same text made word by word: random
    documents with punctuation, a token too long for a lexeme (no word: ``index.UNINDEXED``), words over
    256 times and documents past position 16,383, empty paragraphs and documents of punctuation alone."""
    import random

    from warc2corpus.research.index import _document

    rng = random.Random(7)
    words = [f"w{i}" for i in range(40)] + ["it's"]
    code = {w: i for i, w in enumerate(words)} | {".": -2, ",": -3, "x" * 2100: -4}
    lexeme = {i: "'" + w.replace("'", "''") + "'" for i, w in enumerate(words)}
    documents = [[], [[]], [[".", ","]], [["x" * 2100]], [["w1"] * 300 + ["w2"]], [["w3"] * 17000, ["w3", "w4"]]]
    for _ in range(300):
        documents.append([[rng.choice(words + [".", ",", "x" * 2100]) for _ in range(rng.randint(0, 60))]
                          for _ in range(rng.randint(1, 6))])
    for paragraphs in documents:
        assert _document(paragraphs, code, lexeme)[1] == _tsvector_text_by_hand(paragraphs, code, lexeme), paragraphs[:2]


def test_words_written_decomposed_find_what_the_corpus_holds(corpus_db):
    """A researcher's "blåbær" with its "å" as "a" and a combining ring (as macOS and some PDFs hand text on),
    or copied from a page that hyphenates with soft hyphens ("blå\u00adbær"), was "not a word" in a query and
    counted nothing in a frequency list: the corpus keeps its texts composed (NFC) and without what shows
    nothing, and now reads every query, word list and filter so."""
    import unicodedata

    with db.connect(corpus_db) as conn:
        add_documents(conn, {1: ["Blåbær på låven i år", "blåbær"], 2: ["Jordbær i Ålesund"]})
        conn.commit()
        research.refresh_index(conn)
    decomposed = lambda text: unicodedata.normalize("NFD", text)  # noqa: E731
    assert decomposed("blåbær") != "blåbær"
    with research.connect(corpus_db) as conn:
        for query in ("på låven", "blåbær"):
            hits = research.concordance(conn, decomposed(query), before=1, after=1)
            assert hits == research.concordance(conn, query, before=1, after=1) and hits["lines"]
        assert [(r["word"], r["count"]) for r in research.frequencies(conn, words=[decomposed("blåbær")])] \
            == [("blåbær", 2)]
        for copied in ("blå\u00adbær", "blå\u200bbær", "\ufeffblåbær"):  # soft hyphen, zero-width space, BOM
            assert research.concordance(conn, copied) == research.concordance(conn, "blåbær"), repr(copied)
        flt = research.CorpusFilter.from_params({"text": decomposed("ålesund OR låven")})
        assert research.count_corpus(conn, flt) == 2


def test_phrases_are_found_wherever_a_long_document_holds_them(corpus_db):
    """PostgreSQL's tsvector keeps 256 positions of a word and none past 16,383, so a phrase search
    through it (``'og' <-> 'så'``) cannot see a phrase after a word's 256th occurrence, nor anywhere past
    token 16,383: a long report's or live blog's occurrences were missing from concordances, counts,
    trends and collocations, and the document from a corpus built by the phrase. Such documents are
    read word for word."""
    filler = " ".join(f"ord{n % 997}" for n in range(17_000))
    with db.connect(corpus_db) as conn:
        add_documents(conn, {
            1: [" ".join(["og"] * 300) + " og så videre"],       # the phrase after og's 300th occurrence
            2: [filler, "ferja er innstilt i dag"],                # the phrase past token 16,383
            3: ["ferja er innstilt", "og så"],                     # a short document: each phrase once
            4: ["ferja er ikke innstilt, og ikke så"],             # the words, not the phrases
        })
        conn.commit()
        research.refresh_index(conn)
        flags = dict(conn.execute("SELECT doc_id, positions_whole FROM research_fts").fetchall())
        assert flags == {1: False, 2: False, 3: True, 4: True}
        # the migration marks the documents of an index made before it alike
        migration = (resources.files("warc2corpus.store.migrations") / "0018_phrases_in_long_documents.sql").read_text()
        conn.execute("UPDATE research_fts SET positions_whole = true")
        conn.execute(re.search(r"^UPDATE .*?;", migration, re.S | re.M).group(0))
        assert dict(conn.execute("SELECT doc_id, positions_whole FROM research_fts").fetchall()) == flags
        conn.commit()
    with research.connect(corpus_db) as conn:
        def docs(text):
            return sorted(int(r["url"].rsplit("/", 1)[1]) for r in research.build_corpus(
                conn, research.CorpusFilter.from_params({"text": text})))

        assert research.concordance(conn, '"og så"')["total"] == 2
        assert research.concordance(conn, '"ferja er innstilt"')["total"] == 2
        assert [line["right"] for line in research.concordance(conn, "ferja er innstilt", after=2)["lines"]] == \
            ["i dag", ""]
        assert docs('"og så"') == [1, 3]
        assert docs('"ferja er innstilt"') == [2, 3]
        assert docs('"ferja er innstilt" AND "og så"') == [3]
        assert docs('"ferja er innstilt" OR "og så"') == [1, 2, 3]
        assert docs('ferja NOT "ferja er innstilt"') == [4]
        assert docs('og NOT "og så"') == [4]
        assert research.count_corpus(conn, research.CorpusFilter.from_params({"text": '"og så"'})) == 2
        assert research.frequencies(conn, words=["og så"], ngram=2)[0]["count"] == 2
        assert {r["word"]: r["count"] for r in research.collocations(conn, '"ferja er innstilt"', before=0, after=1)} \
            == {"i": 1}
        assert sum(r["count"] for r in research.trend(conn, '"og så"', date_field="published")) == 2


def test_a_refresh_leaves_no_entry_pending_in_either_full_text_index(corpus_db):
    """A refresh merges the GIN indexes' pending entries at its end: none left in the index of all documents
    nor in the one of long documents (whose list was never merged, and which every phrase search reads)."""
    filler = " ".join(f"ord{n % 997}" for n in range(17_000))
    with db.connect(corpus_db) as conn:
        conn.execute("CREATE EXTENSION IF NOT EXISTS pgstattuple")
        add_documents(conn, {1: [filler, "ferja er innstilt"], 2: ["ferja er innstilt i dag"], 3: ["og så videre"]})
        conn.commit()
        assert research.refresh_index(conn)["indexed"] == 3
        for name in ("research_fts_gin", "research_fts_long_gin"):
            pending = conn.execute("SELECT pending_tuples FROM pgstatginindex(%s::regclass)", (name,)).fetchone()[0]
            assert pending == 0, name
        assert dict(conn.execute("SELECT doc_id, positions_whole FROM research_fts").fetchall()) == \
            {1: False, 2: True, 3: True}


def test_a_term_written_with_punctuation_is_found_as_written(corpus_db):
    """A researcher's "NRK's", "Oslo/Akershus", "#metoo" or "50%" was "not a word" (400): the index holds
    words only. Such a term is its tokens side by side, its punctuation matched as written, in every
    analysis and in a built corpus, under AND, OR and NOT; the index finds the documents it may be in
    ('nrk' <2> 's') and each is read word for word."""
    with db.connect(corpus_db) as conn:
        add_documents(conn, {
            1: ["Ifølge NRK's nyheter kom #metoo til Oslo/Akershus med 50% oppslutning."],
            2: ["NRK s nyheter, NRK og s, Oslo og Akershus, metoo, 50 prosent."],   # the words, not as written
            3: ["Det var NRK's sak.", "Ingen annen."],
        })
        conn.commit()
        research.refresh_index(conn)
    with research.connect(corpus_db) as conn:
        def docs(text):
            return sorted(int(r["url"].rsplit("/", 1)[1]) for r in research.build_corpus(
                conn, research.CorpusFilter.from_params({"text": text})))

        assert docs("NRK's") == [1, 3]
        assert docs("Oslo/Akershus") == docs("#metoo") == docs("50%") == [1]
        assert docs('"NRK\'s nyheter"') == [1]
        assert docs("nrk NOT NRK's") == [2]
        assert docs("NRK's AND NOT #metoo") == [3]
        assert docs("#metoo OR sak") == [1, 3]
        assert research.count_corpus(conn, research.CorpusFilter.from_params({"text": "NRK's"})) == 2
        lines = research.concordance(conn, "NRK's", before=1, after=1)["lines"]
        assert [(line["left"], line["hit"], line["right"]) for line in lines] == \
            [("Ifølge", "NRK's", "nyheter"), ("var", "NRK's", "sak")]
        assert research.concordance(conn, "#metoo", before=0, after=2)["lines"][0]["hit"] == "#metoo"
        assert {r["word"]: r["count"] for r in research.collocations(conn, "NRK's", before=1, after=1)} == \
            {"ifølge": 1, "nyheter": 1, "var": 1, "sak": 1}
        assert {r["word"]: r["count"] for r in research.collocations(conn, "#metoo", before=1, after=1)} == \
            {"kom": 1, "til": 1}
        assert sum(r["count"] for r in research.trend(conn, ["NRK's"])) == 2
        for text in ("%", "'", "#"):
            with pytest.raises(research.BadRequest, match="not a word"):
                research.build_corpus(conn, research.CorpusFilter.from_params({"text": text}))


def test_a_frequency_list_names_a_word_that_is_several_tokens(small):
    """A frequency list counts words (tokens): "NRK's" is three (nrk ' s) and was counted 0 without a word;
    it is refused with its tokens named, and a concordance counts it. One token holding a hyphen or a
    full stop ("e-post", "bl.a.") is one word."""
    with pytest.raises(research.BadRequest, match='''the tokens "nrk ' s"'''):
        research.frequencies(small, words=["NRK's"])
    with pytest.raises(research.BadRequest, match="not a pair of words"):
        research.frequencies(small, words=["hav x,"], ngram=2)
    assert {r["word"]: r["count"] for r in research.frequencies(small, words=["hav", "e-post", "bl.a."])} == \
        {"hav": 4, "e-post": 0, "bl.a.": 0}
