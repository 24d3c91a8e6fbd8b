"""Deduplication: normalised text, identity (sha1 + host + path), earliest capture wins in any order."""

from __future__ import annotations

import hashlib
import random
import unicodedata

import pytest

from warc2corpus.reading import warcs
from warc2corpus.text import dedup

TEXT = ["Blåbærsyltetøy på brødskiva.", "Andre avsnitt."]


# --- normalise / text_sha1 --------------------------------------------------------------------------


def test_normalise_nfc_and_nfd_are_equal():
    nfc = ["Blåbærsyltetøy og østers på Åsgårdstrand"]
    nfd = [unicodedata.normalize("NFD", nfc[0])]
    assert nfd[0] != nfc[0]  # the test is about different code points
    assert dedup.normalise(nfd) == dedup.normalise(nfc) == nfc[0]
    assert dedup.text_sha1(nfd) == dedup.text_sha1(nfc)


def test_normalise_collapses_whitespace_and_drops_empty_paragraphs():
    paragraphs = ["  Første \t avsnitt\u00a0her ", "", "   ", "Andre\n\navsnitt"]
    assert dedup.normalise(paragraphs) == "Første avsnitt her\nAndre avsnitt"


def test_normalise_keeps_paragraph_boundaries():
    assert dedup.normalise(["a b", "c"]) != dedup.normalise(["a", "b c"])
    assert dedup.text_sha1(["a b", "c"]) != dedup.text_sha1(["a", "b c"])


def test_text_sha1_is_stable():
    expected = hashlib.sha1("Blåbærsyltetøy på brødskiva.\nAndre avsnitt.".encode("utf-8")).hexdigest()
    assert dedup.text_sha1(TEXT) == expected
    assert dedup.text_sha1([" Blåbærsyltetøy  på brødskiva. ", "Andre avsnitt."]) == expected
    assert dedup.text_sha1(["Annen tekst."]) != expected
    assert dedup.text_sha1([]) == hashlib.sha1(b"").hexdigest()


# --- host_and_path / document_id ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://www.NRK.no/Nyheter/Sak-1", ("www.nrk.no", "/Nyheter/Sak-1")),
        ("http://example.no:8080/a/b", ("example.no", "/a/b")),
        ("https://example.no", ("example.no", "/")),
        ("https://example.no/", ("example.no", "/")),
        ("https://Example.NO.:443?side=2", ("example.no", "/")),
        ("https://example.no/sak?id=1#top", ("example.no", "/sak")),
        ("https://user:pw@example.no/x", ("example.no", "/x")),
    ],
)
def test_host_and_path(url, expected):
    assert dedup.host_and_path(url) == expected


def test_document_id_is_positive_63_bit_and_stable():
    sha1 = dedup.text_sha1(TEXT)
    first = dedup.document_id(sha1, "www.nrk.no", "/nyheter/1")
    assert first == dedup.document_id(sha1, "www.nrk.no", "/nyheter/1")
    digest = hashlib.sha1(f"{sha1}\x00www.nrk.no\x00/nyheter/1".encode()).digest()
    assert first == int.from_bytes(digest[:8], "big") >> 1
    ids = {
        first,
        dedup.document_id(sha1, "www.vg.no", "/nyheter/1"),
        dedup.document_id(sha1, "www.nrk.no", "/nyheter/2"),
        dedup.document_id(dedup.text_sha1(["Annen tekst."]), "www.nrk.no", "/nyheter/1"),
    }
    assert len(ids) == 4
    for value in ids:
        assert 0 < value < 2**63


def test_document_id_does_not_confuse_host_and_path_boundaries():
    sha1 = dedup.text_sha1(TEXT)
    assert dedup.document_id(sha1, "a.no", "/b") != dedup.document_id(sha1, "a.no/", "b")


# --- deduplicate ------------------------------------------------------------------------------------


def _doc(url, paragraphs, harvest_time, warc_file="a.warc.gz", offset=0, n_tokens=None):
    host, path = dedup.host_and_path(url)
    sha1 = dedup.text_sha1(paragraphs)
    return {
        "doc_id": dedup.document_id(sha1, host, path),
        "url": url,
        "n_tokens": len(" ".join(paragraphs).split()) if n_tokens is None else n_tokens,
        "harvest_time": harvest_time,
        "warc_file": warc_file,
        "record_offset": offset,
    }


def _key(doc):
    return (doc["harvest_time"], doc["warc_file"], doc["record_offset"])


def test_earliest_capture_kept_in_any_order():
    captures = [
        _doc("https://nrk.no/sak", TEXT, "2024-08-05T15:00:00Z", "b.warc.gz", 500),
        _doc("https://nrk.no/sak", TEXT, "2024-08-03T09:00:00Z", "c.warc.gz", 900),
        _doc("https://nrk.no/sak", TEXT, "2024-08-04T10:00:00Z", "a.warc.gz", 100),
        _doc("https://NRK.no:443/sak?utm=x", TEXT, "2024-08-06T10:00:00Z", "a.warc.gz", 200),
    ]
    rng = random.Random(1234)
    for _ in range(20):
        shuffled = captures[:]
        rng.shuffle(shuffled)
        earliest, later, empty = dedup.deduplicate(shuffled)
        assert [_key(d) for d in earliest] == [("2024-08-03T09:00:00Z", "c.warc.gz", 900)]
        assert sorted(_key(d) for d in later) == sorted(_key(d) for d in captures if d is not captures[1])
        assert empty == []


def test_ties_broken_by_warc_file_then_offset():
    same_time = "2024-08-05T15:00:00Z"
    captures = [
        _doc("https://nrk.no/sak", TEXT, same_time, "b.warc.gz", 10),
        _doc("https://nrk.no/sak", TEXT, same_time, "a.warc.gz", 700),
        _doc("https://nrk.no/sak", TEXT, same_time, "a.warc.gz", 300),
        _doc("https://nrk.no/sak", TEXT, same_time, "a.warc.gz", 5000),
    ]
    for order in ([0, 1, 2, 3], [3, 2, 1, 0], [2, 0, 3, 1], [1, 3, 0, 2]):
        earliest, later, _ = dedup.deduplicate([captures[i] for i in order])
        assert [_key(d) for d in earliest] == [(same_time, "a.warc.gz", 300)]
        assert len(later) == 3


def test_empty_texts_are_dropped():
    docs = [
        _doc("https://nrk.no/tom", [], "2024-08-05T15:00:00Z", offset=1),
        _doc("https://nrk.no/tom2", ["x"], "2024-08-05T15:00:00Z", offset=2, n_tokens=0),
        _doc("https://nrk.no/sak", TEXT, "2024-08-05T15:00:00Z", offset=3),
    ]
    earliest, later, empty = dedup.deduplicate(docs)
    assert [d["record_offset"] for d in earliest] == [3]
    assert later == []
    assert [d["record_offset"] for d in empty] == [1, 2]


def test_same_text_on_another_path_or_host_is_another_document():
    docs = [
        _doc("https://nrk.no/sak", TEXT, "2024-08-05T15:00:00Z", offset=1),
        _doc("https://nrk.no/sak-kopi", TEXT, "2024-08-06T15:00:00Z", offset=2),
        _doc("https://www.nrk.no/sak", TEXT, "2024-08-07T15:00:00Z", offset=3),
        _doc("https://nrk.no/sak", ["Oppdatert tekst."], "2024-08-08T15:00:00Z", offset=4),
    ]
    earliest, later, empty = dedup.deduplicate(docs)
    assert sorted(d["record_offset"] for d in earliest) == [1, 2, 3, 4]
    assert later == [] and empty == []


def test_earliest_capture_with_fractional_second_warc_dates():
    """WARC/1.1 dates may carry fractions: 09:30:00 is earlier than 09:30:00.5, whatever the spelling.

    Both harvest times are spelled the way warcs.read_records spells them (Record.harvest_time).
    """
    whole = warcs.iso_utc(warcs.parse_warc_date("2019-04-12T09:30:00.000000Z"))
    fraction = warcs.iso_utc(warcs.parse_warc_date("2019-04-12T09:30:00.500000Z"))
    assert whole < fraction  # the spelling orders like the time it names
    docs = [
        _doc("https://nrk.no/sak", TEXT, fraction, "a.warc.gz", 100),
        _doc("https://nrk.no/sak", TEXT, whole, "a.warc.gz", 200),
    ]
    earliest, later, _ = dedup.deduplicate(docs)
    assert [d["harvest_time"] for d in earliest] == [whole]
    assert [d["harvest_time"] for d in later] == [fraction]
