"""Near-duplicates (issue 14): real pages through the whole pipeline, found whichever file is loaded
first, the representative the earliest member, withdrawn documents out of their clusters."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

import psycopg
import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from conftest import run_cli
from warc2corpus import research
from warc2corpus.quality import near_duplicates_eval
from warc2corpus.stages import run
from warc2corpus.store import db, near_duplicates, publications
from warc2corpus.text import minhash

NRK = "https://www.nrk.no/ol/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-_-sa-kom-sjokkvendingen-1.16990729"
NRK_REGIONAL = "https://www.nrk.no/vestland/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-1.16990729"
DAGBLADET = "https://www.dagbladet.no/nyheter/nordmann-domt-til-livstid/81348547"
WIRE_FJORDPOSTEN = "https://www.fjordposten.no/nyheter/nordmann-domt-til-livstid"
WIRE_VESTAVIS = "https://www.vestavis.no/nyheter/2024/08/06/nordmann-domt-til-livstid"
BR = ("https://www.br.de/nachrichten/deutschland-welt/krieg-in-israel-und-gaza-im-news-ticker-vom-26-august-bis-"
      "1-september,UMXw2qF")
BR_OTHER = "https://www.br.de/nachrichten/bayern/oepnv-streiks-ein-existenzielles-problem-fuer-beschaeftigte,VGqtssT"
HOSTS = ("www.nrk.no", "www.dagbladet.no", "www.fjordposten.no", "www.vestavis.no", "www.br.de")


def _page(samples: Path, name: str) -> tuple[str, list[str]]:
    """A real page of the shared samples and the body paragraphs a person marked in it."""
    for line in (samples / "news_fundus" / "ground_truth_flat.jsonl").read_text().splitlines():
        row = json.loads(line)
        if row["file"].endswith(name):
            return gzip.decompress((samples / "news_fundus" / row["file"]).read_bytes()).decode(), row["body_paragraphs"]
    raise LookupError(name)


def _with_intro(html: str, first_paragraph: str, intro: str) -> str:
    """A local paper's intro before the wire story's first paragraph."""
    start = first_paragraph[:60]
    assert start in html
    return html.replace(start, intro + " (NTB): " + start, 1)


def _warc(path: Path, pages: list[tuple[str, str, str]]) -> Path:
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for url, html, date in pages:
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8")], protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(html.encode()),
                                                          http_headers=http, warc_headers_dict={"WARC-Date": date}))
    return path


@pytest.fixture
def news_warcs(samples, tmp_path, corpus_db, staging_dir):
    """Two WARCs of real pages: the originals on 5 August, updated and republished versions on 6 August."""
    nrk, nrk_body = _page(samples, "NRK_2024_08_05.html.gz")
    dagbladet, dagbladet_body = _page(samples, "Dagbladet_2024_08_04.html.gz")
    br, _ = _page(samples, "BR_2024_08_27.html.gz")
    br_other, _ = _page(samples, "BR_2026_04_15.html.gz")
    replaced = nrk_body[5]
    assert replaced in nrk
    updated = nrk.replace(replaced, "Oppdatert klokka 21.40: Retzius sier til NRK etter konkurransen at hun "
                                    "er skuffet, men at hun allerede ser fram mot neste sesong og VM i Tokyo.")
    originals = _warc(tmp_path / "NEWS-20240805100000-00001.warc.gz", [
        (NRK, nrk, "2024-08-05T10:00:00Z"), (DAGBLADET, dagbladet, "2024-08-05T10:05:00Z"),
        (BR, br, "2024-08-05T10:10:00Z"), (BR_OTHER, br_other, "2024-08-05T10:11:00Z")])
    later = _warc(tmp_path / "NEWS-20240806100000-00002.warc.gz", [
        (NRK, updated, "2024-08-06T10:00:00Z"), (NRK_REGIONAL, nrk, "2024-08-06T10:01:00Z"),
        (WIRE_FJORDPOSTEN, _with_intro(dagbladet, dagbladet_body[0], "En mann fra Fjordvik er blant de dømte."),
         "2024-08-06T10:02:00Z"),
        (WIRE_VESTAVIS, _with_intro(dagbladet, dagbladet_body[0], "Saken har vakt stor oppsikt i Vestbygda."),
         "2024-08-06T10:03:00Z")])
    with db.connect() as conn:
        for host in HOSTS:
            publications.decide(conn, host, "accepted", by="test")
        conn.commit()
    return originals, later


def clusters(url: str) -> dict[str, tuple[str, frozenset[tuple[str, str]]]]:
    """Each clustered document's (URL, harvest day) -> its representative's and its cluster's."""
    with psycopg.connect(url) as conn:
        rows = conn.execute(
            """SELECT d.url, d.harvest_time::date::text, r.url, r.harvest_time::date::text, c.representative,
                      c.members
               FROM near_duplicate_clusters c JOIN documents d USING (doc_id)
               JOIN documents r ON r.doc_id = c.representative""").fetchall()
    members: dict[int, set] = {}
    for doc_url, day, _, _, representative, _ in rows:
        members.setdefault(representative, set()).add((doc_url, day))
    assert all(len(members[rep]) == n for *_, rep, n in rows)
    return {(doc_url, day): ((rep_url, rep_day), frozenset(members[rep]))
            for doc_url, day, rep_url, rep_day, rep, _ in rows}


def representatives(found: dict) -> set[tuple[str, str]]:
    return {rep for rep, _ in found.values()}


NRK_CLUSTER = frozenset({(NRK, "2024-08-05"), (NRK, "2024-08-06"), (NRK_REGIONAL, "2024-08-06")})
WIRE_CLUSTER = frozenset({(DAGBLADET, "2024-08-05"), (WIRE_FJORDPOSTEN, "2024-08-06"), (WIRE_VESTAVIS, "2024-08-06")})


@pytest.mark.parametrize("later_first", [False, True], ids=["in_order", "later_file_first"])
def test_clusters_and_representatives_whatever_the_load_order(news_warcs, corpus_db, later_first):
    originals, later = news_warcs
    first, second = (later, originals) if later_first else (originals, later)
    run.run_files([first], "news")
    found = clusters(corpus_db)
    if later_first:
        # The updated version and the regional edition; the wire copies of two local papers.
        assert {members for _, members in found.values()} == {
            frozenset({(NRK, "2024-08-06"), (NRK_REGIONAL, "2024-08-06")}),
            frozenset({(WIRE_FJORDPOSTEN, "2024-08-06"), (WIRE_VESTAVIS, "2024-08-06")})}
        assert representatives(found) == {(NRK, "2024-08-06"), (WIRE_FJORDPOSTEN, "2024-08-06")}
    else:
        assert found == {}  # four different articles, two of them on one template (br.de): no cluster

    run.run_files([second], "news")
    found = clusters(corpus_db)
    # Whatever the order: the later documents join the clusters of the originals, which represent them
    # (an older member that arrives later takes over as representative); br.de's two articles stay apart.
    assert {members for _, members in found.values()} == {NRK_CLUSTER, WIRE_CLUSTER}
    assert representatives(found) == {(NRK, "2024-08-05"), (DAGBLADET, "2024-08-05")}
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 8
        assert conn.execute("SELECT count(*) FROM documents_distinct").fetchone()[0] == 4  # 2 clusters + br.de's 2
        assert conn.execute("SELECT count(DISTINCT cluster) FROM document_clusters").fetchone()[0] == 4
        assert conn.execute("SELECT count(*) FROM near_duplicate_queue").fetchone()[0] == 0
        pairs = conn.execute("SELECT count(*), min(similarity) FROM near_duplicate_pairs").fetchone()
    assert pairs[0] == 6 and pairs[1] >= minhash.THRESHOLD


def test_research_counts_a_story_once_when_asked(news_warcs, corpus_db):
    """A corpus asked to count near-duplicates once (``near_duplicates="once"``) holds each cluster's
    representative, the earliest capture, and every document without near-duplicates; by default it
    holds them all. Counts, corpora and a corpus saved either way agree; a withdrawn representative
    hands its place on (its cluster is recomputed without it)."""
    run.run_files(list(news_warcs), "news")
    every_type = {"page_types": list(research.query.PAGE_TYPES), "limit": 100}
    once = research.CorpusFilter.from_params({**every_type, "near_duplicates": "once"})
    every = research.CorpusFilter.from_params(every_type)
    with research.connect(corpus_db) as conn:
        def found(flt) -> set[tuple[str, str]]:
            return {(row["url"], row["harvest_time"][:10]) for row in research.build_corpus(conn, flt)}

        distinct = {(NRK, "2024-08-05"), (DAGBLADET, "2024-08-05"), (BR, "2024-08-05"), (BR_OTHER, "2024-08-05")}
        assert found(once) == distinct
        assert found(every) == distinct | NRK_CLUSTER | WIRE_CLUSTER and len(found(every)) == 8
        assert (research.count_corpus(conn, once), research.count_corpus(conn, every)) == (4, 8)
        # every row names its cluster (its representative's id) and the cluster's size
        rows = {(row["url"], row["harvest_time"][:10]): row for row in research.build_corpus(conn, every)}
        for members in (NRK_CLUSTER, WIRE_CLUSTER):
            earliest = min(members, key=lambda member: member[1])
            assert {(rows[m]["cluster"], rows[m]["cluster_size"]) for m in members} == {(rows[earliest]["doc_id"], 3)}
        assert rows[BR, "2024-08-05"]["cluster"] == rows[BR, "2024-08-05"]["doc_id"]
        assert rows[BR, "2024-08-05"]["cluster_size"] == 1
        saved = research.save_corpus(conn, once)
        assert saved["documents"] == 4 and saved["definition"]["filter"]["near_duplicates"] == "once"
    with db.connect(corpus_db) as conn:
        publications.decide(conn, "www.dagbladet.no", "rejected", by="test")
        conn.commit()
        near_duplicates.refresh(conn)
    with research.connect(corpus_db) as conn:
        assert found(once) == distinct - {(DAGBLADET, "2024-08-05")} | {(WIRE_FJORDPOSTEN, "2024-08-06")}


def test_withdrawn_documents_leave_their_cluster_and_rejoin(news_warcs, corpus_db):
    run.run_files(list(news_warcs), "news")
    with db.connect() as conn:
        publications.decide(conn, "www.dagbladet.no", "rejected", by="test")
        conn.commit()
        near_duplicates.refresh(conn)
    found = clusters(corpus_db)
    # The withdrawn original leaves; the earliest remaining wire copy represents the two others.
    assert found[(WIRE_VESTAVIS, "2024-08-06")] == (
        (WIRE_FJORDPOSTEN, "2024-08-06"), WIRE_CLUSTER - {(DAGBLADET, "2024-08-05")})
    assert (DAGBLADET, "2024-08-05") not in found
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents_distinct WHERE host IN "
                            "('www.dagbladet.no', 'www.fjordposten.no', 'www.vestavis.no')").fetchone()[0] == 1

    with db.connect() as conn:
        publications.decide(conn, "www.dagbladet.no", "accepted", by="test")
        conn.commit()
        outcome = near_duplicates.refresh(conn)
    assert outcome["signed"] == 0  # nothing hashed again
    assert representatives(clusters(corpus_db)) == {(NRK, "2024-08-05"), (DAGBLADET, "2024-08-05")}


def test_signatures_of_the_former_shingle_hashes_are_made_again(news_warcs, corpus_db):
    """Migration 0015: signatures made with the shingles' former hashes (SHA-1 of their bytes) compare with
    none made since; it empties the signatures, pairs, clusters and queue, and the next refresh signs every
    document again and makes the same clusters."""
    from importlib import resources

    run.run_files(list(news_warcs), "news")
    before = clusters(corpus_db)
    with psycopg.connect(corpus_db) as conn:
        signatures = conn.execute("SELECT doc_id, minhash FROM near_duplicate_signatures ORDER BY doc_id").fetchall()
        conn.execute("UPDATE near_duplicate_signatures SET minhash = decode(repeat('ff', 512), 'hex')")  # stale
        conn.execute(resources.files("warc2corpus.store.migrations")
                     .joinpath("0015_near_duplicate_shingle_hashes.sql").read_text())
        conn.commit()
        assert conn.execute("SELECT count(*) FROM near_duplicate_clusters").fetchone()[0] == 0
    with db.connect() as conn:
        outcome = near_duplicates.refresh(conn)
    assert outcome["signed"] == len(signatures) == 8
    assert clusters(corpus_db) == before and len(before) == 6
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT doc_id, minhash FROM near_duplicate_signatures ORDER BY doc_id").fetchall() \
            == signatures


def test_members_deleted_by_a_reload_leave_their_clusters(news_warcs, corpus_db):
    originals, later = news_warcs
    run.run_files([originals, later], "news")
    # The later file, read again, now holds only the regional edition: the updated version and the
    # wire copies leave the corpus, and their clusters are computed again.
    with open(later, "rb") as stream:
        kept = [(r.rec_headers.get_header("WARC-Target-URI"), r.content_stream().read().decode(),
                 r.rec_headers.get_header("WARC-Date")) for r in ArchiveIterator(stream)
                if r.rec_headers.get_header("WARC-Target-URI") == NRK_REGIONAL]
    _warc(later, kept)
    run.run_files([later], "news")
    found = clusters(corpus_db)
    assert {members for _, members in found.values()} == {frozenset({(NRK, "2024-08-05"),
                                                                     (NRK_REGIONAL, "2024-08-06")})}
    assert representatives(found) == {(NRK, "2024-08-05")}


def test_an_older_capture_of_a_member_makes_it_the_representative(news_warcs, corpus_db, samples, tmp_path):
    run.run_files(list(news_warcs), "news")
    nrk, _ = _page(samples, "NRK_2024_08_05.html.gz")
    older = _warc(tmp_path / "NEWS-20240804100000-00000.warc.gz", [(NRK_REGIONAL, nrk, "2024-08-04T10:00:00Z")])
    outcome = run.run_files([older], "news")
    assert outcome[0]["counts"]["load"]["earlier_capture_of_corpus_document"] == 1  # no new document
    found = clusters(corpus_db)
    assert found[(NRK, "2024-08-05")][0] == (NRK_REGIONAL, "2024-08-04")
    assert found[(NRK, "2024-08-05")][1] == NRK_CLUSTER - {(NRK_REGIONAL, "2024-08-06")} | {
        (NRK_REGIONAL, "2024-08-04")}


def test_a_document_queued_again_during_a_refresh_stays_queued(corpus_db):
    with db.connect() as conn:
        conn.execute("INSERT INTO near_duplicate_queue (doc_id) VALUES (42)")
        [(doc_id, seq)] = conn.execute("SELECT doc_id, seq FROM near_duplicate_queue").fetchall()
        # What the triggers do when the document changes again before the refresh is done.
        conn.execute("INSERT INTO near_duplicate_queue (doc_id) VALUES (42)"
                     " ON CONFLICT (doc_id) DO UPDATE SET seq = EXCLUDED.seq")
        near_duplicates._recluster(conn, [(doc_id, seq)])
        assert conn.execute("SELECT count(*) FROM near_duplicate_queue").fetchone()[0] == 1
        near_duplicates.refresh(conn)
        assert conn.execute("SELECT count(*) FROM near_duplicate_queue").fetchone()[0] == 0


def test_cli_lists_clusters(news_warcs, corpus_db, capsys):
    run.run_files(list(news_warcs), "news")
    code, out, _ = run_cli(capsys, "near-duplicates", "--json")
    assert code == 0
    listed = json.loads(out)["clusters"]
    assert [c["members"] for c in listed] == [3, 3]
    assert {c["documents"][0]["url"] for c in listed} == {NRK, DAGBLADET}  # representative first
    code, out, _ = run_cli(capsys, "near-duplicates", "--refresh", "--limit", "1")
    assert code == 0 and out.startswith("signed 0 documents") and out.count("cluster ") == 1
    code, _, err = run_cli(capsys, "near-duplicates", "--limit", "0")
    assert code == 2 and "--limit" in err


def test_signatures_are_seeded_not_random():
    """Two processes sign a text alike: the pairs do not depend on which worker signed what."""
    import subprocess
    import sys

    program = ("from warc2corpus.text import minhash as n; "
               "print(n.signature(n.shingles('ferja mellom fjordvik og nesøy ble innstilt i går'.split())).tolist())")
    runs = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True).stdout
            for _ in range(2)}
    assert len(runs) == 1


def test_the_signature_estimates_the_jaccard_similarity():
    """The share of equal MinHash values estimates the Jaccard similarity of two documents' shingle sets:
    the same set 1, sets with nothing in common near 0, and sets of a known overlap within the estimate's
    spread (128 values: a standard deviation of at most 0.044) on average over many draws; the signature is
    uint32 little-endian, all ones for no shingles; and signing imports neither datasketch nor scipy."""
    import subprocess
    import sys

    import numpy as np

    rng = np.random.default_rng(11)
    assert np.array_equal(minhash.signature(np.empty(0, dtype=np.uint32)), np.full(minhash.NUM_PERM, 0xFFFFFFFF))
    for jaccard in (0.0, 0.2, 0.5, 0.8, 1.0):
        errors = []
        for _ in range(40):
            pool = np.unique(rng.integers(0, 1 << 32, 3000, dtype=np.uint64).astype(np.uint32))[:2000]
            shared = int(round(2 * jaccard / (1 + jaccard) * 1000))  # |A| = |B| = 1000, |A & B| = shared
            a, b = pool[:1000], np.concatenate([pool[:shared], pool[1000:2000 - shared]])
            sig_a, sig_b = minhash.signature(a), minhash.signature(b)
            assert sig_a.dtype == np.dtype("<u4")
            errors.append(minhash.similarity(sig_a, sig_b) - shared / (2000 - shared))
        assert abs(np.mean(errors)) < 0.02 and np.max(np.abs(errors)) < 0.2, (jaccard, errors)
    program = ("import sys; from warc2corpus.text import minhash as n; n.signature(n.shingles('a b c d e f'.split())); "
               "print(sorted(m for m in sys.modules if m.split('.')[0] in ('datasketch', 'scipy')))")
    assert subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True).stdout.strip() == "[]"


def test_labelled_pairs_precision_and_recall(samples):
    """The figures the README states, on the labelled pairs built from real pages."""
    result = near_duplicates_eval.evaluate(near_duplicates_eval.labelled_pairs(samples))
    assert result["precision"] == 1.0, result["false_positives"]
    assert result["recall"] >= 0.96, result["missed"]
    assert result["kinds"]["same_template"]["found"] == 0 and result["kinds"]["follow_up"]["found"] == 0


def test_a_word_is_a_token_holding_a_letter_or_digit():
    """minhash.words keeps the tokens with a character str.isalnum() accepts, in every script."""
    assert minhash.words([["Hei", ",", "_", "a_b", "3,5", "«", "Ærlig"], ["—", "ᚠ", "٣"]]) == \
        ["hei", "a_b", "3,5", "ærlig", "ᚠ", "٣"]
    assert [c for c in map(chr, range(0x110000)) if bool(minhash.words([[c]])) != c.isalnum()] == []


def _run_hash(run: list[str]) -> int:
    """A run's hash written out for one run, in Python's integers: its words' CRC-32s times the weights
    (mod 2^64), the halves folded, MurmurHash3's finalizer."""
    import zlib

    total = sum(zlib.crc32(word.encode("utf-8")) * int(weight)
                for word, weight in zip(run, minhash._RUN_WEIGHTS)) % (1 << 64)
    value = ((total >> 32) ^ total) & 0xFFFFFFFF
    value ^= value >> 16
    value = value * 0x85EBCA6B & 0xFFFFFFFF
    value ^= value >> 13
    value = value * 0xC2B2AE35 & 0xFFFFFFFF
    return value ^ (value >> 16)


def test_shingles_are_the_hashes_of_the_runs_of_five_words():
    """The distinct hashes of every run of SHINGLE_WORDS words (a text of five words or fewer one run, no
    words none): random word lists of every length up to 40, with repeats and words of other scripts, against
    the runs hashed one by one; runs that differ in one word or in its order hash apart."""
    import random

    rng = random.Random(3)
    vocabulary = ["ferja", "nesøy", "i", "går", "ünïcødé", "北京", "a", "2024", "ble", "innstilt"]
    for length in list(range(0, 12)) * 20 + [rng.randint(12, 40) for _ in range(200)]:
        words = [rng.choice(vocabulary) for _ in range(length)]
        runs = [words[i:i + minhash.SHINGLE_WORDS] for i in range(max(1, length - minhash.SHINGLE_WORDS + 1))]
        expected = sorted({_run_hash(run) for run in runs}) if words else []
        assert minhash.shingles(words).tolist() == expected, words
    run = "ferja mellom fjordvik og nesøy".split()
    assert len({int(minhash.shingles(r)[0]) for r in (run, run[::-1], run[:4] + ["nesoy"], run[1:] + run[:1])}) == 4
