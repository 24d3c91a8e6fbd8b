"""Real-world WARC input: broken files, revisits, encodings, digests, limits, Wayback captures.

Small fixtures are built here with warcio; the shared samples (real files from warcio, pywb, IIPC,
jwarc, resiliparse and webarchive-commons) are all run through the pipeline at once.
"""

from __future__ import annotations

import base64
import csv
import gzip
import hashlib
import io
import json
import random
import re
import string
import time
import zlib
from datetime import datetime, timezone
from pathlib import Path

import psycopg
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from warc2corpus.reading import warcs
from warc2corpus.reading.limits import Limits
from warc2corpus.stages import rejections, run

ARTICLE = ("<html><head><title>Ferja innstilt</title></head><body><article><h1>Ferja innstilt</h1>"
           "<p>Ferja mellom Fjordvik og Nesøy ble innstilt i hele går på grunn av sterk vind og høye bølger, "
           "opplyser rederiet til avisen.</p><p>Passasjerene ble sendt med buss rundt fjorden, en tur som tok "
           "nesten tre timer lenger enn vanlig, og mange kom for sent på jobb.</p>"
           "<p>Rederiet venter at ferja går som normalt igjen fra i morgen tidlig dersom vinden løyer.</p>"
           "</article></body></html>")


def write_record(writer: WARCWriter, url: str, body: bytes, *, status: str = "200 OK",
                 content_type: str = "text/html; charset=utf-8", date: str = "2024-03-01T12:00:00Z",
                 extra_http: list | None = None, record_id: str | None = None, warc_headers: dict | None = None):
    http = StatusAndHeaders(status, [("Content-Type", content_type), *(extra_http or [])], protocol="HTTP/1.1")
    headers = {"WARC-Date": date, **({"WARC-Record-ID": record_id} if record_id else {}), **(warc_headers or {})}
    record = writer.create_warc_record(url, "response", payload=io.BytesIO(body), http_headers=http,
                                       warc_headers_dict=headers)
    writer.write_record(record)
    return record


def write_revisit(writer: WARCWriter, url: str, original, date: str):
    record = writer.create_revisit_record(
        url, digest=original.rec_headers.get_header("WARC-Payload-Digest"),
        refers_to_uri=url, refers_to_date=original.rec_headers.get_header("WARC-Date"),
        http_headers=StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1"),
        warc_headers_dict={"WARC-Date": date})
    record.rec_headers.add_header("WARC-Refers-To", original.rec_headers.get_header("WARC-Record-ID"))
    writer.write_record(record)


def build_warc(path: Path, records, gzip_members: bool = True) -> Path:
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=gzip_members)
        for record in records:
            record(writer)
    return path


def ledger_row(url: str, path: Path) -> dict:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT status, error_class, error, last_good_offset, layout, counts FROM warc_files"
                           " WHERE path = %s", (str(path.resolve()),)).fetchone()
    return dict(zip(("status", "error_class", "error", "last_good_offset", "layout", "counts"), row))


@pytest.fixture
def accept_all(corpus_db):
    """These tests are about reading: every host counts as an edited publication."""
    from warc2corpus.store import db, publications

    def accept(*hosts):
        with db.connect() as conn:
            for host in hosts:
                publications.decide(conn, host, "accepted", by="test")
            conn.commit()
    return accept


def documents(url: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT url, harvest_time, record_url, digest_ok, warc_file, record_offset"
                            " FROM documents ORDER BY url").fetchall()


# ---------------------------------------------------------------------------------------------
# Every shared sample file, in one run
# ---------------------------------------------------------------------------------------------

def expected_from_profile(row: dict, profile: dict[str, dict]) -> tuple[str, int]:
    """(ledger status, records read) that a profile.tsv row implies for a reader that does the
    right thing: whole-file gzip and lz4 are read; a file warcio cannot read past some record is
    partial with the records before (a file cut in its first record: that record, cut short); nothing
    readable is quarantined."""
    name, errors, types = row["file"], row["errors_warcio_1.8.1"], row["record_types"]
    if name.endswith(".lz4"):  # the same records as the uncompressed file beside it
        return expected_from_profile(profile[name[: -len(".lz4")]], profile)
    counted = sum(int(part.rsplit(":", 1)[1]) for part in types.split(",") if ":" in part)
    whole_file = re.search(r"gzip-whole-file \((\d+) records", row["compression"])
    if whole_file:
        return "loaded", int(whole_file.group(1))
    if not errors:
        return "loaded", counted
    if "truncated member 0" in errors and counted:
        return "partial", counted  # its record cut short, skipped as truncated_record (as the file uncompressed)
    if "error member 0" in errors or not counted:
        return "quarantined", 0
    return "partial", counted


def test_every_shared_sample_file(samples, corpus_db, staging_dir):
    folder = samples / "warc"
    with open(folder / "profile.tsv", encoding="utf-8") as table:
        rows = list(csv.DictReader(table, delimiter="\t"))
    profile = {row["file"]: row for row in rows}
    results = run.run_files([folder / row["file"] for row in rows], "samples")  # no exception escapes
    assert len(results) == len(rows)
    mismatches, read_on = [], []
    for row in rows:
        ledger = ledger_row(corpus_db, folder / row["file"])
        expected = expected_from_profile(row, profile)
        got = (ledger["status"], ledger["counts"].get("records", 0))
        if expected[0] == got[0] == "partial" and got[1] > expected[1]:
            read_on.append(row["file"])  # the reading went on past what stopped warcio (a member to skip)
        elif got != expected:
            mismatches.append((row["file"], expected, got, ledger["error"]))
        if ledger["status"] != "loaded":
            assert ledger["error"] and ledger["error_class"], row["file"]
    assert mismatches == []
    assert read_on == ["warcio/example-wrong-chunks.warc.gz"]  # a record's body in a member of its own


def test_every_shared_sample_file_loads_its_pages_once_their_hosts_are_accepted(samples, corpus_db, staging_dir,
                                                                               accept_all):
    """The files again, every host of theirs accepted, so that every page read is loaded: no file's load fails.
    webarchive-commons' link-extraction-test.warc, whose records carry no WARC-Record-ID, failed its load
    (documents.record_id is NOT NULL) once its host was accepted; its records are now named after the file
    and offset."""
    folder = samples / "warc"
    with open(folder / "profile.tsv", encoding="utf-8") as table:
        files = [folder / row["file"] for row in csv.DictReader(table, delimiter="\t")]
    hosts = set()
    for path in files:
        for record in warcs.read_records(path):
            try:
                hosts.add(rejections.dedup.host_and_path(record.url or "")[0])
            except ValueError:
                pass
    accept_all(*sorted(h for h in hosts if h))
    results = run.run_files(files, "samples")  # no exception escapes
    assert all(r["status"] in ("loaded", "partial", "quarantined") for r in results), \
        [(r["warc_file"], r["status"], r.get("error")) for r in results if r["status"] not in ("loaded", "partial",
                                                                                                 "quarantined")]
    link_test = str((folder / "webarchive-commons" / "link-extraction-test.warc").resolve())
    with psycopg.connect(corpus_db) as conn:
        named = conn.execute("SELECT record_offset, record_id FROM documents WHERE warc_file = %s ORDER BY 1",
                             (link_test,)).fetchall()
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] > 20  # 27 today
    assert named == [(offset, f"<urn:warc2corpus:link-extraction-test.warc:{offset}>") for offset in (258, 1696, 2807)]


# ---------------------------------------------------------------------------------------------
# Broken files
# ---------------------------------------------------------------------------------------------

def three_pages(writer):
    for n in range(3):
        write_record(writer, f"https://www.fjordposten.no/sak/{n}", ARTICLE.replace("Nesøy", f"Nesøy {n}").encode(),
                     date=f"2024-03-01T12:00:0{n}Z")


def test_truncated_last_member_gives_partial(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    whole = build_warc(tmp_path / "whole.warc.gz", [three_pages])
    members = warcs.scan_gzip_members(whole)
    assert members == (None, None, 3)
    data = whole.read_bytes()
    offsets = [r.offset for r in warcs.read_records(whole)]  # where each member starts
    cut = tmp_path / "CUT-20240301120000-00000.warc.gz"
    cut.write_bytes(data[: offsets[2] + (len(data) - offsets[2]) // 2])
    [result] = run.run_files([cut], "broken")
    row = ledger_row(corpus_db, cut)
    assert row["status"] == "partial" and row["error_class"] == "TruncatedGzip"
    assert row["last_good_offset"] == offsets[2]
    assert len(documents(corpus_db)) == 2
    run.run_files([cut], "broken")  # a rerun duplicates nothing
    assert len(documents(corpus_db)) == 2


@pytest.mark.parametrize("bad", ["http://[www.fjordposten.no/sak/x", "http://www.fjordposten.no]/sak/x"])
def test_a_capture_of_a_url_no_host_can_be_read_from_costs_only_itself(tmp_path, corpus_db, staging_dir,
                                                                      accept_all, bad):
    """A crawler's capture of a broken link ("http://[www...", Python's urlsplit: "Invalid IPv6 URL") ended the
    file's extraction with a traceback, every page of the file lost; now it is bad_url, the rest loaded."""
    accept_all("www.fjordposten.no")

    def records(writer):
        three_pages(writer)
        write_record(writer, bad, ARTICLE.encode())
        write_record(writer, "https://www.fjordposten.no/sak/9", ARTICLE.replace("Nesøy", "Nesøy 9").encode())

    path = build_warc(tmp_path / "BAD-20240301120000-00000.warc.gz", [records])
    [result] = run.run_files([path], "broken")
    assert ledger_row(corpus_db, path)["status"] == "loaded", result
    assert [d[0].rsplit("/", 1)[1] for d in documents(corpus_db)] == ["0", "1", "2", "9"]
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT stage, reason, url, host FROM rejections").fetchall() == [
            ("read", "bad_url", bad, None)]


def test_a_token_longer_than_the_index_keeps_never_stops_the_research_index(tmp_path, corpus_db, staging_dir,
                                                                           accept_all):
    """A run of 6,000 letters and digits in a paragraph (base64, a hash) went into the research lexicon, whose
    unique index takes rows of 2,704 bytes at most: the index refresh failed on every run after, and no new
    document became searchable. Now every such token is one lexicon entry, no word; the text keeps it."""
    import random
    import string

    from warc2corpus import research

    accept_all("www.fjordposten.no")
    run_of_letters = "".join(random.Random(1).choices(string.ascii_letters + string.digits, k=6000))
    article = ARTICLE.replace("</p>", f" Koden var {run_of_letters} i teksten.</p>", 1)
    assert article != ARTICLE

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/sak/lang", article.encode())
        write_record(writer, "https://www.fjordposten.no/sak/kort", ARTICLE.encode())

    run.run_files([build_warc(tmp_path / "LONG-20240301120000-00000.warc.gz", [records])], "long")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 2
        assert conn.execute("SELECT count(*) FROM research_docs").fetchone()[0] == 2  # both indexed
        assert conn.execute("SELECT is_word, total FROM research_lexicon WHERE word = ''"  # research.index.UNINDEXED
                            ).fetchall() == [(False, 0)]
        assert conn.execute("SELECT max(octet_length(word)) FROM research_lexicon").fetchone()[0] < 100
        hit = research.concordance(conn, "koden")
    assert hit["total"] == 1 and hit["lines"][0]["right"].startswith("var " + run_of_letters[:50])


def test_what_no_database_row_can_hold_never_fails_a_files_load(tmp_path, corpus_db, staging_dir, accept_all):
    """A btree row ends at 2,704 bytes: a page whose URL path held 6,000 characters, or a WARC-Record-ID of
    4,000, made the file's whole load fail (ProgramLimitExceeded), on every retry, as did a record without
    WARC-Record-ID (NOT NULL). Now the path's uniqueness goes through its md5 (migration 0017), such a record
    is named after its file and offset, and a host longer than DNS allows (253) is bad_url."""
    accept_all("www.fjordposten.no")
    rng = random.Random(7)
    long_path = "/" + "".join(rng.choices(string.ascii_lowercase + string.digits, k=6000))
    long_id = "<urn:uuid:" + "".join(rng.choices(string.ascii_letters, k=4000)) + ">"
    long_host = ".".join("".join(rng.choices(string.ascii_lowercase, k=60)) for _ in range(5)) + ".no"

    def page(n: int) -> bytes:
        return ARTICLE.replace("Nesøy", f"Nesøy {n}").encode()

    def records(writer):
        write_record(writer, "https://www.fjordposten.no" + long_path, page(1))
        write_record(writer, "https://www.fjordposten.no/sak/2", page(2), record_id=long_id)
        write_record(writer, f"https://{long_host}/sak/3", page(3))
        write_record(writer, "https://www.fjordposten.no/sak/4", page(4))

    plain = build_warc(tmp_path / "ROWS-20240301120000-00000.warc", [records], gzip_members=False)
    data = plain.read_bytes()
    last = data.rindex(b"WARC/1.0\r\n")
    without_id = data[:last] + re.sub(rb"WARC-Record-ID: [^\r]*\r\n", b"", data[last:], count=1)
    assert len(without_id) < len(data)
    plain.write_bytes(without_id)
    [result] = run.run_files([plain], "rows")
    assert ledger_row(corpus_db, plain)["status"] == "loaded", result
    with psycopg.connect(corpus_db) as conn:
        loaded = conn.execute("SELECT url_path, record_id, record_offset FROM documents ORDER BY record_offset").fetchall()
        assert conn.execute("SELECT reason, host FROM rejections").fetchall() == [("bad_url", long_host)]
    name = plain.name
    assert [(path, record_id) for path, record_id, _ in loaded] == [
        (long_path, loaded[0][1]), ("/sak/2", f"<urn:warc2corpus:{name}:{loaded[1][2]}>"),
        ("/sak/4", f"<urn:warc2corpus:{name}:{loaded[2][2]}>")]
    assert loaded[0][1].startswith("<urn:uuid:") and len(loaded[0][1]) < 100


@pytest.mark.parametrize("escape, kept", [("\\u0000", ""), ("\\ud800", "\ufffd")])
def test_what_autocat_quotes_of_a_page_never_fails_the_run(tmp_path, corpus_db, staging_dir, escape, kept):
    """A page's JSON-LD with "\\u0000" in a job title: autoCat quoted it, and PostgreSQL's jsonb refused the NUL,
    failing the run's autoCat step (and every run after that took the file); with "\\ud800", a lone surrogate no
    UTF-8 holds, the file's staging failed. Now the NUL is left out and the surrogate is U+FFFD."""
    page = ('<html><head><title>Nullvik Avis</title><script type="application/ld+json">{"@context": '
            f'"https://schema.org", "@type": "Person", "name": "Kari Nordmann", "jobTitle": "Ansvarlig redaktør{escape}"}}'
            '</script></head><body><article><h1>Om oss</h1><p>Nullvik Avis er avisen for folk i Nullvik og omegn, '
            'og den kommer ut hver dag med nyheter fra kommunen.</p></article></body></html>')

    def records(writer):
        write_record(writer, "https://www.nullvik-avis.no/", page.encode())
        write_record(writer, "https://www.nullvik-avis.no/om-oss", page.encode())

    path = build_warc(tmp_path / "QUOTE-20240301120000-00000.warc.gz", [records])
    [result] = run.run_files([path], "quotes")
    assert result["status"] == "loaded", result
    with psycopg.connect(corpus_db) as conn:
        quoted = [json.dumps(e, ensure_ascii=False) for (e,) in conn.execute(
            "SELECT evidence FROM autocat_pages WHERE host = 'www.nullvik-avis.no'")]
        assert conn.execute("SELECT count(*) FROM publications WHERE host = 'www.nullvik-avis.no'").fetchone()[0] == 1
    assert quoted and all(f"Ansvarlig redaktør{kept}\"" in e for e in quoted), quoted


def test_bad_gzip_magic_in_the_middle(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    warc = build_warc(tmp_path / "magic.warc.gz", [three_pages])
    offsets = [r.offset for r in warcs.read_records(warc)]
    data = bytearray(warc.read_bytes())
    data[offsets[1]:offsets[1] + 2] = b"XX"
    warc.write_bytes(bytes(data))
    run.run_files([warc], "broken")
    row = ledger_row(corpus_db, warc)
    # the reading goes on at the next member that begins a WARC record: only the damaged one's page is lost
    assert row["status"] == "partial" and row["last_good_offset"] == warc.stat().st_size
    assert f"not gzip data at byte {offsets[1]}; the reading went on at byte {offsets[2]}" in row["error"]
    assert sorted(d[0] for d in documents(corpus_db)) == ["https://www.fjordposten.no/sak/0",
                                                          "https://www.fjordposten.no/sak/2"]


def test_garbage_after_a_record_in_a_plain_warc(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    warc = build_warc(tmp_path / "garbage.warc", [three_pages], gzip_members=False)
    size = warc.stat().st_size
    with open(warc, "ab") as out:
        out.write(b"\x00\x01 this is not a record \xff" * 20)
    run.run_files([warc], "broken")
    row = ledger_row(corpus_db, warc)
    assert row["status"] == "partial" and row["counts"]["records"] == 3
    assert row["last_good_offset"] <= size
    assert len(documents(corpus_db)) == 3


def test_nothing_readable_is_quarantined(tmp_path, corpus_db, staging_dir):
    for name, data in (("zero.warc.gz", b""), ("text.warc.gz", b"hello\n"), ("corrupt.warc.gz", b"\x1f\x8b\x08\x00junk")):
        (tmp_path / name).write_bytes(data)
    results = run.run_files(sorted(tmp_path.glob("*.warc.gz")), "broken")
    statuses = {Path(r["warc_file"]).name: r["status"] for r in results}
    # An empty file is no WARC either (issue 9: it was `loaded` with 0 records, as if nothing were wrong).
    assert statuses == {"corrupt.warc.gz": "quarantined", "text.warc.gz": "quarantined", "zero.warc.gz": "quarantined"}


def test_whole_file_gzip_is_read_and_back_pointers_work(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    plain = build_warc(tmp_path / "plain.warc", [three_pages], gzip_members=False)
    whole = tmp_path / "whole-file.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    run.run_files([whole], "gz")
    row = ledger_row(corpus_db, whole)
    assert row["status"] == "loaded" and row["layout"] == "gzip-whole-file"
    rows = documents(corpus_db)
    assert len(rows) == 3
    with gzip.open(whole, "rb") as stream:  # offsets count bytes of the decompressed stream
        for url, _, _, _, _, offset in rows:
            stream.seek(offset)
            head = stream.read(400).decode("utf-8", "replace")
            assert head.startswith("WARC/1.") and f"WARC-Target-URI: {url}" in head


def test_a_50_mb_record_is_skipped_without_reading_it(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    huge = b"<html><body>" + b"<p>fyll</p>" * (50 * 2**20 // 11) + b"</body></html>"

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/stor", huge)
        write_record(writer, "https://www.fjordposten.no/sak", ARTICLE.encode(), date="2024-03-01T12:00:05Z")

    warc = build_warc(tmp_path / "huge.warc.gz", [records])
    [result] = run.run_files([warc], "limits")
    assert result["counts"]["skipped"]["too_large"] == 1
    assert [d[0] for d in documents(corpus_db)] == ["https://www.fjordposten.no/sak"]
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT reason FROM rejections WHERE url LIKE '%/stor'").fetchone() == ("too_large",)


def _the_slow_page_is_a_timeout(tmp_path, corpus_db, monkeypatch, slow_page: str):
    """Under a limit of 0.5 s, ``slow_page`` (at /treg) is turned away as ``timeout``, quickly, and the
    page after it is loaded."""
    monkeypatch.setenv("WARC2CORPUS_EXTRACTION_SECONDS", "0.5")

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/treg", slow_page.encode())
        write_record(writer, "https://www.fjordposten.no/sak", ARTICLE.replace("Ferja", "Bussen").encode())

    warc = build_warc(tmp_path / "slow.warc.gz", [records])
    started = time.monotonic()
    [result] = run.run_files([warc], "limits")
    assert time.monotonic() - started < 4
    assert result["counts"]["skipped"]["timeout"] == 1
    assert [d[0] for d in documents(corpus_db)] == ["https://www.fjordposten.no/sak"]


def test_extraction_time_limit(tmp_path, corpus_db, staging_dir, accept_all, monkeypatch):
    from warc2corpus.text import extract

    accept_all("www.fjordposten.no")
    real = extract.extract

    def slow_on_one_page(html, url=None, **kwargs):
        if url.endswith("/treg"):
            time.sleep(5)
        return real(html, url, **kwargs)

    monkeypatch.setattr(extract, "extract", slow_on_one_page)
    _the_slow_page_is_a_timeout(tmp_path, corpus_db, monkeypatch, ARTICLE)


def test_the_time_limit_holds_inside_code_that_catches_every_exception(tmp_path, corpus_db, staging_dir,
                                                                       accept_all, monkeypatch):
    """trafilatura's JSON-LD reader runs under an ``except Exception`` (text.metadata does as trafilatura
    does): the limit, raised there, was caught, the page's metadata came out without its JSON-LD and the
    rest of the page ran with no limit at all. The limit is a BaseException now: the page is a timeout."""
    from trafilatura import metadata as trafilatura_metadata

    from warc2corpus.reading.limits import TimeLimitExceeded, time_limit

    with pytest.raises(TimeLimitExceeded):
        with time_limit(0.2):
            try:
                time.sleep(3)
            except Exception:
                pass

    accept_all("www.fjordposten.no")
    real = trafilatura_metadata.extract_meta_json

    def slow_json_ld(tree, found):
        if tree.findtext(".//title") == "Treg":
            time.sleep(5)
        return real(tree, found)

    monkeypatch.setattr(trafilatura_metadata, "extract_meta_json", slow_json_ld)
    _the_slow_page_is_a_timeout(tmp_path, corpus_db, monkeypatch,
                                ARTICLE.replace("Ferja innstilt</title>", "Treg</title>"))


# ---------------------------------------------------------------------------------------------
# Revisits
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("revisit_first", [False, True])
def test_revisit_in_the_same_file_before_or_after_its_original(tmp_path, corpus_db, staging_dir, accept_all,
                                                               revisit_first):
    accept_all("www.fjordposten.no")
    url = "https://www.fjordposten.no/sak"
    scratch = io.BytesIO()
    original = write_record(WARCWriter(scratch, gzip=True), url, ARTICLE.encode(),
                            record_id="<urn:uuid:00000000-0000-0000-0000-000000000001>")

    def records(writer):
        steps = [lambda: write_record(writer, url, ARTICLE.encode(), record_id=original.rec_headers.get_header("WARC-Record-ID")),
                 lambda: write_revisit(writer, url, original, "2024-03-02T12:00:00Z")]
        for step in (reversed(steps) if revisit_first else steps):
            step()

    warc = build_warc(tmp_path / "revisit.warc.gz", [records])
    [result] = run.run_files([warc], "revisits")
    assert result["counts"]["load"]["revisits_resolved"] == 1
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
        kinds = conn.execute("SELECT record_type, harvest_time FROM captures ORDER BY harvest_time").fetchall()
    assert [k for k, _ in kinds] == ["response", "revisit"]


@pytest.mark.parametrize("revisit_file_first", [False, True])
def test_revisit_in_another_file_whatever_the_order(tmp_path, corpus_db, staging_dir, accept_all, revisit_file_first):
    accept_all("www.fjordposten.no")
    url = "https://www.fjordposten.no/sak"
    holder = {}

    def originals(writer):
        holder["original"] = write_record(writer, url, ARTICLE.encode())

    first = build_warc(tmp_path / "A-20240301000000-0.warc.gz", [originals])
    second = build_warc(tmp_path / "B-20240302000000-0.warc.gz",
                        [lambda writer: write_revisit(writer, url, holder["original"], "2024-03-02T12:00:00Z")])
    order = [second, first] if revisit_file_first else [first, second]
    for path in order:
        run.run_files([path], "revisits")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM revisits WHERE doc_id IS NOT NULL").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM captures WHERE record_type = 'revisit'").fetchone()[0] == 1
    run.run_files([first], "revisits")  # reloading the original's file keeps the revisit resolved
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM captures WHERE record_type = 'revisit'").fetchone()[0] == 1


def write_not_modified(writer: WARCWriter, url: str, original, date: str):
    """A server-not-modified revisit as Heritrix writes one for a 304: the original named by its URL and
    WARC-Date alone (no payload to take a digest of, no record id)."""
    record = writer.create_revisit_record(
        url, digest="sha1:" + "A" * 32, refers_to_uri=url, refers_to_date=original.rec_headers.get_header("WARC-Date"),
        http_headers=StatusAndHeaders("304 Not Modified", [("ETag", '"abc"')], protocol="HTTP/1.1"),
        warc_headers_dict={"WARC-Date": date})
    record.rec_headers.replace_header("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/server-not-modified")
    record.rec_headers.remove_header("WARC-Payload-Digest")  # warcio asks for one; a 304 has no payload
    writer.write_record(record)


@pytest.mark.parametrize("revisit_file_first", [False, True])
def test_a_server_not_modified_revisit_is_resolved_by_its_originals_url_and_date(
        tmp_path, corpus_db, staging_dir, accept_all, revisit_file_first):
    """A 304's revisit names its original by WARC-Refers-To-Target-URI and WARC-Refers-To-Date only: it
    was never resolved (``revisit_unresolved``), and a daily harvest's captures of an unchanged page were
    lost. It is the capture of that URL at that second, whichever file comes first; another capture of
    the URL (the day before) or of another URL at that second is not its original."""
    accept_all("www.fjordposten.no")
    url = "https://www.fjordposten.no/sak"
    holder = {}

    def originals(writer):
        write_record(writer, url, ARTICLE.replace("Ferja", "Båten").encode(), date="2024-02-29T12:00:00Z")
        holder["original"] = write_record(writer, url, ARTICLE.encode(), date="2024-03-01T12:00:00Z")
        write_record(writer, url + "/annen", ARTICLE.replace("Ferja", "Bussen").encode(), date="2024-03-01T12:00:00Z")

    first = build_warc(tmp_path / "A-20240301000000-0.warc.gz", [originals])
    second = build_warc(tmp_path / "B-20240302000000-0.warc.gz",
                        [lambda writer: write_not_modified(writer, url, holder["original"], "2024-03-02T12:00:00Z")])
    for path in ([second, first] if revisit_file_first else [first, second]):
        run.run_files([path], "revisits")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT refers_to_date, payload_digest, refers_to FROM revisits").fetchall() == \
            [(datetime(2024, 3, 1, 12, tzinfo=timezone.utc), None, None)]
        original = conn.execute("SELECT doc_id FROM captures WHERE harvest_time = '2024-03-01T12:00:00Z' "
                                "AND url = %s", (url,)).fetchone()[0]
        assert conn.execute("SELECT doc_id FROM captures WHERE record_type = 'revisit'").fetchall() == [(original,)]
    if not revisit_file_first:  # (loaded first, its file counts it unresolved then: the original came later)
        assert ledger_row(corpus_db, second)["counts"]["skipped"].get("revisit_unresolved") is None


def test_unresolvable_revisit_is_counted(tmp_path, corpus_db, staging_dir):
    scratch = io.BytesIO()
    original = write_record(WARCWriter(scratch, gzip=True), "https://elsewhere.no/", ARTICLE.encode())
    warc = build_warc(tmp_path / "lonely.warc.gz",
                      [lambda writer: write_revisit(writer, "https://elsewhere.no/", original, "2024-03-02T12:00:00Z")])
    [result] = run.run_files([warc], "revisits")
    assert result["counts"]["load"]["revisits_unresolved"] == 1
    assert ledger_row(corpus_db, warc)["counts"]["skipped"]["revisit_unresolved"] == 1


# ---------------------------------------------------------------------------------------------
# Encodings and digests
# ---------------------------------------------------------------------------------------------

CHARSET_PAGES = {
    "iso-8859-1": "Blåbærsyltetøy og rømmegrøt på Østlandet var tema da bygdekvinnelaget møttes i går kveld.",
    "windows-1251": "Городской совет утвердил новый бюджет на следующий год после долгих обсуждений в среду.",
    "gb2312": "市政府今天宣布了新的交通计划，预计明年开始实施，市民普遍表示欢迎。",
    "euc-jp": "市役所は本日、新しい交通計画を発表しました。来年から実施される予定です。",
    "big5": "市政府今天宣布了新的交通計畫，預計明年開始實施，市民普遍表示歡迎。",
}


@pytest.mark.parametrize("declared", [True, False])
def test_pages_in_each_charset_come_out_readable(tmp_path, corpus_db, staging_dir, accept_all, declared):
    accept_all("news.example.no")

    def records(writer):
        for n, (charset, text) in enumerate(CHARSET_PAGES.items()):
            html = f"<html><head><title>{charset}</title></head><body><article><p>{text}</p>" \
                   f"<p>{text} {text}</p></article></body></html>"
            content_type = f"text/html; charset={charset}" if declared else "text/html"
            write_record(writer, f"https://news.example.no/{charset}", html.encode(charset), content_type=content_type,
                         date=f"2024-03-01T12:00:0{n}Z")

    warc = build_warc(tmp_path / "charsets.warc.gz", [records])
    run.run_files([warc], "charsets")
    with psycopg.connect(corpus_db) as conn:
        texts = dict(conn.execute("SELECT d.url, string_agg(p.text, ' ') FROM documents d JOIN paragraphs p"
                                  " USING (doc_id) GROUP BY 1").fetchall())
    for charset, text in CHARSET_PAGES.items():
        assert text in texts[f"https://news.example.no/{charset}"], charset


def raw_response(url: str, http_block: bytes, date: str, payload_digest: str) -> bytes:
    """A WARC response record written by hand, so that its payload digest says what we want."""
    headers = (f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {url}\r\nWARC-Date: {date}\r\n"
               f"WARC-Record-ID: <urn:uuid:{hashlib.md5(url.encode()).hexdigest()[:8]}-0000-0000-0000-000000000000>\r\n"
               f"WARC-Payload-Digest: {payload_digest}\r\nContent-Type: application/http; msgtype=response\r\n"
               f"Content-Length: {len(http_block)}\r\n\r\n")
    return headers.encode() + http_block + b"\r\n\r\n"


def test_chunked_and_gzip_bodies_and_digest_forms(tmp_path, corpus_db, staging_dir, accept_all):
    """pywb's convention: the digest of the still-chunked body, here in sha1:<hex> form; and a mismatch."""
    accept_all("www.fjordposten.no")
    body = gzip.compress(ARTICLE.encode())
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 100]), body[i:i + 100]) for i in range(0, len(body), 100)) \
        + b"0\r\n\r\n"
    http = (b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nTransfer-Encoding: chunked\r\n"
            b"Content-Encoding: gzip\r\n\r\n" + chunked)
    over_chunks = "sha1:" + hashlib.sha1(chunked).hexdigest()
    wrong = "sha1:" + base64.b32encode(hashlib.sha1(b"something else").digest()).decode()
    warc = tmp_path / "chunked.warc"
    warc.write_bytes(raw_response("https://www.fjordposten.no/sak/0", http, "2024-03-01T12:00:00Z", over_chunks)
                     + raw_response("https://www.fjordposten.no/sak/1", http, "2024-03-01T12:00:01Z", wrong))
    [result] = run.run_files([warc], "digests")
    assert result["status"] == "loaded"
    assert result["counts"]["digest_mismatch"] == 1
    rows = documents(corpus_db)
    assert [(r[0].rsplit("/", 1)[1], r[3]) for r in rows] == [("0", True), ("1", False)]
    with psycopg.connect(corpus_db) as conn:  # the text came through chunking and gzip
        assert "Fjordvik" in conn.execute("SELECT string_agg(text, ' ') FROM paragraphs").fetchone()[0]


def test_digest_forms():
    raw = b"payload"
    b32 = "sha1:" + base64.b32encode(hashlib.sha1(raw).digest()).decode()
    assert warcs.check_payload_digest(warcs.normalise_digest(b32), raw, False) is True
    assert warcs.check_payload_digest(warcs.normalise_digest(b32.lower()), raw, False) is True
    assert warcs.check_payload_digest(warcs.normalise_digest("sha1:" + hashlib.sha1(raw).hexdigest()), raw, False)
    assert warcs.check_payload_digest(warcs.normalise_digest(b32), b"other", False) is False
    assert warcs.normalise_digest("md99:xyz") is None and warcs.normalise_digest("garbage") is None
    assert warcs.check_payload_digest(None, raw, False) is None


# ---------------------------------------------------------------------------------------------
# Wayback Machine captures
# ---------------------------------------------------------------------------------------------

def test_wayback_view_restores_to_the_original_text(samples, tmp_path, corpus_db, staging_dir, accept_all):
    from warc2corpus.text import extract

    folder = samples / "wayback_edgi"
    view = (folder / "fws.gov_birds_20171124151315_view.html").read_bytes()
    original = (folder / "fws.gov_birds_20171124151315_id_.html").read_text(encoding="utf-8")
    wayback_url = "https://web.archive.org/web/20171124151315/https://www.fws.gov/birds/"
    accept_all("www.fws.gov")

    def records(writer):
        write_record(writer, wayback_url, view, date="2024-05-01T10:00:00Z")
        write_record(writer, "https://web.archive.org/web/20201027220743/https://www.whitehouse.gov/ostp/about/student/faqs",
                     (folder / "whitehouse_ostp_faqs_20201027220743_view_404.html").read_bytes(), status="404 Not Found",
                     date="2024-05-01T10:00:01Z")
        write_record(writer, "https://web.archive.org/web/20201027215555/https://www.whitehouse.gov/administration/eop/ostp/about/student/faqs",
                     (folder / "whitehouse_ostp_20201027215555_view_redirect_interstitial.html").read_bytes(),
                     date="2024-05-01T10:00:02Z")

    warc = build_warc(tmp_path / "wayback.warc.gz", [records])
    [result] = run.run_files([warc], "wayback")
    assert result["counts"]["skipped"] == {"wayback_not_found": 1, "wayback_redirect": 1}
    [(url, harvest_time, record_url, _, _, _)] = documents(corpus_db)
    assert url == "https://www.fws.gov/birds/"
    assert harvest_time.isoformat() == "2017-11-24T15:13:15+00:00"
    assert record_url == wayback_url
    with psycopg.connect(corpus_db) as conn:
        stored = [r[0] for r in conn.execute("SELECT text FROM paragraphs ORDER BY seq")]
    expected = extract.extract(original, "https://www.fws.gov/birds/").paragraphs
    assert stored == [" ".join(p.split()) for p in expected]


# ---------------------------------------------------------------------------------------------
# Content encodings, header sizes and the libraries' warnings, through the whole pipeline
# ---------------------------------------------------------------------------------------------

def corrupt_brotli(html: bytes) -> bytes:
    """Real brotli data with eight bytes overwritten, where brotli notices (it has no checksum: other
    damage can decode to garbage, or to a stream that merely breaks off, which counts as cut short)."""
    import brotli

    data = bytearray(brotli.compress(html * 20))
    data[len(data) // 3: len(data) // 3 + 8] = b"\x00" * 8
    with pytest.raises(brotli.error):
        brotli.Decompressor().process(bytes(data))
    return bytes(data)


def encoded_pages(writer):
    """A plain page, a br page, a corrupt br body, br and gzip bombs, a page mislabelled gzip, a plain page."""
    import brotli

    bomb = b"<html><body>" + b"<p>bombe</p>" * (64 * 2**20 // 12)
    pages = [("plain", ARTICLE.encode(), None),
             ("br", brotli.compress(ARTICLE.replace("Ferja", "Hurtigbåten").encode()), "br"),
             ("bad-br", corrupt_brotli(ARTICLE.encode()), "br"),
             ("br-bomb", brotli.compress(bomb, quality=1), "br"),
             ("gzip-bomb", gzip.compress(bomb, compresslevel=1), "gzip"),
             ("mislabelled", ARTICLE.replace("Ferja", "Bussen").encode(), "gzip"),
             ("plain-2", ARTICLE.replace("Ferja", "Toget").encode(), None)]
    for n, (name, body, encoding) in enumerate(pages):
        write_record(writer, f"https://www.fjordposten.no/{name}", body, date=f"2024-03-01T12:00:0{n}Z",
                     extra_http=[("Content-Encoding", encoding)] if encoding else [])


def test_br_bodies_bombs_and_a_corrupt_body(tmp_path, corpus_db, staging_dir, accept_all):
    """A br page is a document (warcio's br reader fails with brotli 1.2 and used to end the file);
    bombs are too_large (the gzip one used to reach the parser undecoded, as empty_text); a corrupt
    body is a decode_error and the file reads on to its end."""
    accept_all("www.fjordposten.no")
    warc = build_warc(tmp_path / "encodings.warc.gz", [encoded_pages])
    [result] = run.run_files([warc], "encodings")
    row = ledger_row(corpus_db, warc)
    assert row["status"] == "loaded" and row["error"] is None
    assert row["counts"]["records"] == 7 and row["counts"]["documents"] == 4
    assert row["counts"]["skipped"] == {"decode_error": 1, "too_large": 2}
    assert sorted(d[0].rsplit("/", 1)[1] for d in documents(corpus_db)) == ["br", "mislabelled", "plain", "plain-2"]
    with psycopg.connect(corpus_db) as conn:
        reasons = dict(conn.execute("SELECT url, reason FROM rejections").fetchall())
        text = conn.execute("SELECT string_agg(p.text, ' ') FROM paragraphs p JOIN documents d USING (doc_id)"
                            " WHERE d.url LIKE '%/br'").fetchone()[0]
    assert reasons == {"https://www.fjordposten.no/bad-br": "decode_error",
                       "https://www.fjordposten.no/br-bomb": "too_large",
                       "https://www.fjordposten.no/gzip-bomb": "too_large"}
    assert "Hurtigbåten mellom Fjordvik og Nesøy" in text


def test_zstd_bodies_stacked_encodings_and_an_unknown_one(tmp_path, corpus_db, staging_dir, accept_all):
    """Chrome asks for zstd since 2024, so a browser-based crawler's WARC holds zstd bodies: they were
    stored as empty pages (`empty_text`), as were bodies in two encodings ("gzip, br", undone last
    first). Now they are documents, a zstd bomb is too_large, a body cut short gives its start, and one
    in an encoding not read here that is no text is a decode_error, not an empty page."""
    import brotli
    import zstandard

    accept_all("www.fjordposten.no")
    zstd = zstandard.ZstdCompressor().compress
    bomb = b"<html><body>" + b"<p>bombe</p>" * (64 * 2**20 // 12)
    noise = "".join(random.Random(1).choices(string.ascii_letters, k=400_000)).encode()  # some zstd blocks
    pages = [("zstd", zstd(ARTICLE.replace("Ferja", "Hurtigbåten").encode()), "zstd"),
             ("gzip-br", brotli.compress(gzip.compress(ARTICLE.replace("Ferja", "Bussen").encode())), "gzip, br"),
             ("gzip-gzip", gzip.compress(gzip.compress(ARTICLE.replace("Ferja", "Toget").encode())), "x-gzip,GZIP"),
             ("identity", ARTICLE.replace("Ferja", "Fly").encode(), "identity"),
             ("zstd-cut", zstd(ARTICLE.replace("Ferja", "Sykkelen").encode() + b"<!-- " + noise + b" -->")[:-2000], "zstd"),
             ("zstd-bomb", zstd(bomb), "zstd"),
             ("compress", zlib.compress(ARTICLE.encode()), "compress")]

    def records(writer):
        for n, (name, body, encoding) in enumerate(pages):
            write_record(writer, f"https://www.fjordposten.no/{name}", body, date=f"2024-03-01T12:00:0{n}Z",
                         extra_http=[("Content-Encoding", encoding)])

    warc = build_warc(tmp_path / "zstd.warc.gz", [records])
    run.run_files([warc], "zstd")
    row = ledger_row(corpus_db, warc)
    assert row["status"] == "loaded" and row["counts"]["skipped"] == {"decode_error": 1, "too_large": 1}
    with psycopg.connect(corpus_db) as conn:
        texts = dict(conn.execute("SELECT d.url, string_agg(p.text, ' ') FROM paragraphs p JOIN documents d"
                                  " USING (doc_id) GROUP BY d.url").fetchall())
        reasons = dict(conn.execute("SELECT url, reason FROM rejections").fetchall())
    for name, word in (("zstd", "Hurtigbåten"), ("gzip-br", "Bussen"), ("gzip-gzip", "Toget"), ("identity", "Fly"),
                       ("zstd-cut", "Sykkelen")):
        assert word in texts[f"https://www.fjordposten.no/{name}"], name
    assert reasons == {"https://www.fjordposten.no/zstd-bomb": "too_large",
                       "https://www.fjordposten.no/compress": "decode_error"}


def test_a_page_without_a_content_type_is_sniffed_as_a_browser_does(tmp_path, corpus_db, staging_dir, accept_all):
    """A response with no Content-Type (or "application/unknown") is HTML when its bytes open with one of
    the tags the WHATWG's sniffing names, as a browser shows it: such pages were skipped as not_html.
    JSON without a type, and HTML labelled text/plain (which a browser shows as text), are not_html."""
    accept_all("www.fjordposten.no")

    def untyped(writer, name, body, date, content_type=None):
        headers = [("Server", "Apache")] + ([("Content-Type", content_type)] if content_type else [])
        writer.write_record(writer.create_warc_record(
            f"https://www.fjordposten.no/{name}", "response", payload=io.BytesIO(body),
            http_headers=StatusAndHeaders("200 OK", headers, protocol="HTTP/1.1"),
            warc_headers_dict={"WARC-Date": date}))

    def records(writer):
        untyped(writer, "uten-type", ("\r\n  " + ARTICLE.replace("Ferja", "Bussen")).encode(), "2024-03-01T12:00:01Z")
        untyped(writer, "ukjent-type", ARTICLE.replace("Ferja", "Toget").encode(), "2024-03-01T12:00:02Z",
                "application/unknown")
        untyped(writer, "json", b'{"title": "<p>Ferja</p>"}', "2024-03-01T12:00:03Z")
        untyped(writer, "tekst", ARTICLE.replace("Ferja", "Flyet").encode(), "2024-03-01T12:00:04Z", "text/plain")

    assert ARTICLE.lstrip().lower().startswith(("<!doctype html", "<html"))
    warc = build_warc(tmp_path / "untyped.warc.gz", [records])
    run.run_files([warc], "untyped")
    row = ledger_row(corpus_db, warc)
    assert row["counts"]["skipped"] == {"not_html": 2}
    with psycopg.connect(corpus_db) as conn:
        texts = dict(conn.execute("SELECT d.url, string_agg(p.text, ' ') FROM paragraphs p JOIN documents d"
                                  " USING (doc_id) GROUP BY d.url").fetchall())
    assert set(texts) == {"https://www.fjordposten.no/uten-type", "https://www.fjordposten.no/ukjent-type"}
    assert "Bussen" in texts["https://www.fjordposten.no/uten-type"] and "Toget" in texts["https://www.fjordposten.no/ukjent-type"]


def test_a_capture_the_crawler_cut_is_kept_and_marked(tmp_path, corpus_db, staging_dir, accept_all):
    """A crawler that stops reading a body (at its size limit, a timeout, a dropped connection) says so
    in WARC-Truncated: the page's text may end early. It was stored as if whole; now the document and
    its capture carry the reason, and the file's counts and `warc2corpus stats` count such captures."""
    from warc2corpus.store import db, stats

    accept_all("www.fjordposten.no")
    cut = ARTICLE.replace("Ferja", "Bussen").encode()
    cut = cut[:cut.index(b"</p>") + 4]

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/kuttet", cut, date="2024-03-01T12:00:01Z",
                     warc_headers={"WARC-Truncated": "length"})
        write_record(writer, "https://www.fjordposten.no/hel", ARTICLE.replace("Ferja", "Toget").encode(),
                     date="2024-03-01T12:00:02Z")

    warc = build_warc(tmp_path / "cut.warc.gz", [records])
    run.run_files([warc], "cut")
    assert ledger_row(corpus_db, warc)["counts"]["truncated_captures"] == 1
    with psycopg.connect(corpus_db) as conn:
        documents = dict(conn.execute("SELECT url, truncated FROM documents").fetchall())
        captures = dict(conn.execute("SELECT url, truncated FROM captures").fetchall())
    assert documents == captures == {"https://www.fjordposten.no/kuttet": "length", "https://www.fjordposten.no/hel": None}
    with psycopg.connect(corpus_db) as conn:  # the research view holds every column of documents
        assert dict(conn.execute("SELECT url, truncated FROM documents_distinct").fetchall()) == documents
    with db.connect() as conn:
        assert stats.corpus_summary(conn)["truncated_captures"] == {"length": 1}


def test_a_register_naming_a_host_as_it_reads_meets_the_crawlers_ascii_name(tmp_path, corpus_db, staging_dir):
    """Crawlers write an internationalised domain name in its ASCII form, registers and people as it
    reads: the register's "hålogalandsavis.no" never met the WARC's "www.xn--hlogalandsavis-lib.no", and
    the paper's pages were held back. Now both are one host, named as it reads."""
    from warc2corpus.store import db, publications

    with db.connect() as conn:
        publications.import_register(conn, tmp_path / "register.csv", text=(
            "domain,title,has_responsible_editor\nHålogalandsavis.no,Hålogalandsavis,yes\n"))
        conn.commit()
    ascii_host = "www.hålogalandsavis.no".encode("idna").decode()
    assert ascii_host == "www.xn--hlogalandsavis-lib.no"

    def records(writer):
        write_record(writer, f"https://{ascii_host}/nyheter/ferja", ARTICLE.encode())

    warc = build_warc(tmp_path / "idn.warc.gz", [records])
    run.run_files([warc], "idn")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT host, url FROM documents").fetchall() == [
            ("www.hålogalandsavis.no", f"https://{ascii_host}/nyheter/ferja")]
        assert conn.execute("SELECT count(*) FROM rejections").fetchone()[0] == 0


def test_a_content_type_header_listing_several_types_is_read_by_its_last(tmp_path, corpus_db, staging_dir,
                                                                          accept_all):
    """A Content-Type that lists two values (two headers joined by a comma) is its last, as browsers read
    it: "text/html, text/html; charset=utf-8" was not_html, its page lost."""
    accept_all("www.fjordposten.no")

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/to", ARTICLE.replace("Ferja", "Bussen").encode(),
                     content_type="text/html, text/html; charset=utf-8")
        write_record(writer, "https://www.fjordposten.no/bilde", b"\x89PNG\r\n\x1a\n" + bytes(2000),
                     content_type="text/html, image/png", date="2024-03-01T12:00:01Z")

    warc = build_warc(tmp_path / "types.warc.gz", [records])
    run.run_files([warc], "types")
    with psycopg.connect(corpus_db) as conn:
        assert [r[0] for r in conn.execute("SELECT url FROM documents")] == ["https://www.fjordposten.no/to"]
        assert conn.execute("SELECT url, reason FROM rejections").fetchall() == [
            ("https://www.fjordposten.no/bilde", "not_html")]


def test_a_body_labelled_html_that_is_no_page(tmp_path, corpus_db, staging_dir, accept_all):
    """A PDF, a picture, random bytes or JSON served as text/html (PHP's default, and a browser-based
    crawler records a page's API calls) were stored as documents of garbled characters or escaped JSON;
    a page gzipped with no Content-Encoding to say so, as an empty page. Now the first four are
    not_html, saying why, and the gzipped page is a document; a page with a stray NUL near its start and
    a page in UTF-16 without a mark stay pages."""
    accept_all("www.fjordposten.no")
    rnd = random.Random(7)
    pages = {"pdf": b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\n" + b"x" * 3000,
             "png": b"\x89PNG\r\n\x1a\n" + rnd.randbytes(20_000),
             "random": rnd.randbytes(30_000),
             "json": json.dumps({"html": ARTICLE, "id": 7}).encode(),
             "gzip": gzip.compress(ARTICLE.replace("Ferja", "Bussen").encode()),
             "nul": ARTICLE.replace("Ferja", "Toget").replace("<body>", "<body>\x00", 1).encode(),
             "utf16": ARTICLE.replace("Ferja", "Flyet").encode("utf-16-le")}
    assert ARTICLE.index("<body>") < 1400

    def records(writer):
        for n, (name, body) in enumerate(pages.items()):
            write_record(writer, f"https://www.fjordposten.no/{name}", body, date=f"2024-03-01T12:00:0{n}Z")

    warc = build_warc(tmp_path / "no-page.warc.gz", [records])
    run.run_files([warc], "no-page")
    with psycopg.connect(corpus_db) as conn:
        texts = dict(conn.execute("SELECT d.url, string_agg(p.text, ' ') FROM paragraphs p JOIN documents d"
                                  " USING (doc_id) GROUP BY d.url").fetchall())
        reasons = {url.rsplit("/", 1)[1]: reason for url, reason in conn.execute("SELECT url, reason FROM rejections")}
    for name, word in (("gzip", "Bussen"), ("nul", "Toget"), ("utf16", "Flyet")):
        assert word in texts[f"https://www.fjordposten.no/{name}"], name
    assert reasons == {"pdf": "not_html", "png": "not_html", "random": "not_html", "json": "not_html"}
    errors = {r.url.rsplit("/", 1)[1]: r.error for r in warcs.WarcReader(str(warc), Limits()).records() if r.error}
    assert errors == {"pdf": "a binary body labelled as a page", "png": "a binary body labelled as a page",
                      "random": "a binary body labelled as a page", "json": "a JSON body labelled as a page"}


def test_huge_header_lines_skip_their_record(tmp_path, corpus_db, staging_dir, accept_all):
    from test_warcs import build_huge_header_warc

    accept_all("example.no")
    files = [build_huge_header_warc(tmp_path / f"{where}.warc.gz", where, 2**20) for where in ("warc", "http")]
    run.run_files(files, "headers")
    for path in files:
        row = ledger_row(corpus_db, path)
        assert row["status"] == "loaded" and row["counts"]["skipped"] == {"header_too_large": 1}
        assert row["counts"]["records"] == 3 and row["counts"]["documents"] == 2
    with psycopg.connect(corpus_db) as conn:
        rows = conn.execute("SELECT warc_file, record_offset, url, reason FROM rejections"
                            " ORDER BY warc_file").fetchall()
    assert [(Path(f).name, url, reason) for f, _, url, reason in rows] == [
        ("http.warc.gz", "https://example.no/1", "header_too_large"), ("warc.warc.gz", None, "header_too_large")]
    with open(files[1], "rb") as stream:  # the back-pointer of the skipped record is its gzip member
        stream.seek(rows[1][1])
        assert gzip.GzipFile(fileobj=stream).read(9) == b"WARC/1.0\r"


def test_a_utf8_page_with_a_few_broken_bytes_stays_utf8(samples, tmp_path, corpus_db, staging_dir, accept_all):
    """A real Norwegian page (NRK) in UTF-8 with four bytes broken used to be decoded whole as
    windows-1252: every æ, ø and å garbled. Declared or not, it is UTF-8 with four U+FFFD."""
    from warc2corpus.reading import charsets
    from warc2corpus.text import extract

    page = gzip.decompress((samples / "news_fundus" / "test_data" / "no" / "NRK_2024_08_05.html.gz").read_bytes())
    url = ("https://www.nrk.no/ol/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-_-sa-kom-sjokkvendingen"
           "-1.16990729")
    expected = extract.extract(page.decode("utf-8"), url).paragraphs
    assert any("ø" in p for p in expected)
    broken = bytearray(page)
    for n, start in enumerate(m.start() for m in re.finditer("ø".encode(), page)):
        if n % 40 == 0:  # every 40th ø loses its second byte
            broken[start + 1] = ord("?")
    assert broken.count(b"\xc3?") == 4
    undeclared = re.sub(rb"<meta[^>]*charset[^>]*>", b"", bytes(broken), flags=re.IGNORECASE)
    assert charsets.declared_charset(undeclared) is None
    accept_all("www.nrk.no")

    def records(writer):
        write_record(writer, url, bytes(broken), content_type="text/html; charset=utf-8")
        write_record(writer, url + "-udeklarert", undeclared, content_type="text/html", date="2024-03-01T12:00:01Z")

    warc = build_warc(tmp_path / "nrk.warc.gz", [records])
    run.run_files([warc], "charsets")
    with psycopg.connect(corpus_db) as conn:
        for source in (url, url + "-udeklarert"):
            stored = [r[0] for r in conn.execute("SELECT p.text FROM paragraphs p JOIN documents d USING (doc_id)"
                                                 " WHERE d.url = %s ORDER BY p.seq", (source,))]
            assert stored and not any("Ã" in p for p in stored), source
            kept = [p for p in expected if " ".join(p.split()) in stored]
            assert len(kept) >= len(expected) - 4 and any("ø" in p for p in kept), source


def test_a_bom_and_a_page_nested_too_deep_reach_the_corpus_whole(samples, tmp_path, corpus_db, staging_dir,
                                                                accept_all, caplog):
    """A real Norwegian page (NRK) saved with a UTF-8 byte order mark and served as iso-8859-1 (a
    server's default label) was stored garbled ("TÃ¥rene"); the same page inside 300 <div>s left open
    was stored without a word of its text (libxml2 stops at 256 levels). Both now as the page itself,
    and the second's notice is logged with its file and offset and counted."""
    from warc2corpus.text import extract

    page = gzip.decompress((samples / "news_fundus" / "test_data" / "no" / "NRK_2024_08_05.html.gz").read_bytes())
    url = ("https://www.nrk.no/ol/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-_-sa-kom-sjokkvendingen"
           "-1.16990729")
    expected = extract.extract(page.decode("utf-8"), url).paragraphs
    assert len(expected) > 5 and any("å" in p for p in expected)
    body_at = page.index(b">", page.index(b"<body")) + 1
    nested = page[:body_at] + b"<div>" * 300 + page[body_at:]
    accept_all("www.nrk.no")

    def records(writer):
        write_record(writer, url, b"\xef\xbb\xbf" + page, content_type="text/html; charset=iso-8859-1")
        write_record(writer, url + "-nestet", nested, content_type="text/html; charset=utf-8",
                     date="2024-03-01T12:00:01Z")

    warc = build_warc(tmp_path / "nrk.warc.gz", [records])
    with caplog.at_level("INFO"):
        run.run_files([warc], "bom-and-depth")
    with psycopg.connect(corpus_db) as conn:
        for source in (url, url + "-nestet"):
            stored = [r[0] for r in conn.execute("SELECT p.text FROM paragraphs p JOIN documents d USING (doc_id)"
                                                 " WHERE d.url = %s ORDER BY p.seq", (source,))]
            assert stored == [" ".join(p.split()) for p in expected], source
    notices = [r.getMessage() for r in caplog.records if ": lxml: " in r.getMessage()]
    assert len(notices) == 1 and notices[0].startswith(f"{warc.resolve()}:") and "deeper than" in notices[0]
    assert ledger_row(corpus_db, warc)["counts"]["warnings"] == {"lxml": 1}


def test_library_warnings_are_logged_with_file_and_offset(samples, corpus_db, staging_dir, caplog, capfd):
    """warcio warns of a record whose Content-Length is wrong (straight to stderr) and of spaces in a
    target URI (its logger), naming neither the file nor the record: both come out as one log line
    '<file>:<offset>: warcio: …' and are counted in the file's counts."""
    files = [samples / "warc" / "pywb" / "example.warc",
             samples / "warc" / "warcio" / "example-space-in-target-uri.warc.gz"]
    with caplog.at_level("INFO"):
        run.run_files(files, "warnings")
    _, err = capfd.readouterr()
    assert "Record not followed by newline" not in err and "Replacing spaces" not in err
    lines = [r.getMessage() for r in caplog.records if ": warcio: " in r.getMessage()]
    assert lines == [f"{files[0].resolve()}:4061: warcio: WARNING: Record not followed by newline, perhaps "
                     "Content-Length is invalid Offset: 4764 Remainder: b'm\\r\\n'",
                     f"{files[1].resolve()}:241: warcio: Replacing spaces in invalid WARC-Target-URI: "
                     "file:///example with spaces.png"]
    for path in files:
        assert ledger_row(corpus_db, path)["counts"]["warnings"] == {"warcio": 1}


# ---------------------------------------------------------------------------------------------
# "No input file can fail a run", and nothing read goes uncounted
# ---------------------------------------------------------------------------------------------

def pathological_files(folder: Path) -> list[Path]:
    """br pages, a corrupt br body, br and gzip bombs, huge header lines (WARC and HTTP headers,
    gzip per record and plain), garbage after records, a file cut inside a record."""
    from test_warcs import build_huge_header_warc

    files = [build_warc(folder / "encodings.warc.gz", [encoded_pages]),
             build_warc(folder / "encodings.warc", [encoded_pages], gzip_members=False)]
    for where in ("warc", "http"):
        for name in (f"huge-{where}.warc.gz", f"huge-{where}.warc"):
            files.append(build_huge_header_warc(folder / name, where, 16 * 2**20))
    garbage = build_warc(folder / "garbage.warc", [three_pages], gzip_members=False)
    with open(garbage, "ab") as out:
        out.write(b"\x00" * 100_000 + b"no record here" * 10_000)
    cut = folder / "cut.warc"
    cut.write_bytes(build_warc(folder / "whole.warc", [encoded_pages], gzip_members=False).read_bytes()[:-5000])
    return [*files, garbage, cut]


def test_no_input_file_fails_a_run_and_every_record_is_counted(samples, tmp_path, corpus_db, staging_dir, capsys):
    """Every shared sample file (broken ones, and the README and CDX beside them, included) and the
    pathological files above, through `warc2corpus run` at once: exit code 0, every file in the
    ledger, and each file's counts add up: every record read is a document, a revisit or skipped
    for a reason; every document is filtered or kept; every kept one is distinct, a later capture
    or empty; and each rejection counted is in `rejections`."""
    from conftest import run_cli

    files = sorted(p for p in (samples / "warc").rglob("*") if p.is_file()) + pathological_files(tmp_path)
    code, out, err = run_cli(capsys, "run", "--crawl-job", "messy", *map(str, files))
    assert code == 0, err
    with psycopg.connect(corpus_db) as conn:
        ledger = {Path(path): (status, counts) for path, status, counts
                  in conn.execute("SELECT path, status, counts FROM warc_files")}
        rejected = dict(conn.execute("SELECT warc_file, count(*) FROM rejections GROUP BY 1").fetchall())
    assert set(ledger) == {p.resolve() for p in files}
    problems = []
    for path, (status, counts) in sorted(ledger.items()):
        skipped = {k: v for k, v in counts.get("skipped", {}).items() if k != "revisit_unresolved"}
        documents, kept = counts.get("documents", 0), counts.get("kept_by_allow_list", 0)
        sums = {
            "records": (counts.get("records", 0), documents + counts.get("revisits", 0) + sum(skipped.values())),
            "documents": (documents, kept + sum(counts.get("filtered", {}).values())),
            "kept": (kept, counts.get("distinct_in_file", 0) + counts.get("later_captures_in_file", 0)
                     + counts.get("empty_text", 0)),
            "rejections": (rejected.get(str(path), 0),
                           sum(v for k, v in skipped.items() if k not in rejections.NOT_DOCUMENT_REASONS)
                           + sum(counts.get("filtered", {}).values()) + counts.get("empty_text", 0)),
        }
        problems += [(path.name, status, name, pair) for name, pair in sums.items() if pair[0] != pair[1]]
    assert problems == []
    statuses = {p.name: ledger[p.resolve()][0] for p in files if p.parent == tmp_path}
    assert statuses == {"encodings.warc.gz": "loaded", "encodings.warc": "loaded",
                        "huge-warc.warc.gz": "loaded", "huge-warc.warc": "partial",
                        "huge-http.warc.gz": "loaded", "huge-http.warc": "loaded",
                        "garbage.warc": "partial", "cut.warc": "partial"}
    skipped = {p.name: ledger[p.resolve()][1]["skipped"] for p in files if p.name.startswith(("encodings", "huge"))}
    assert skipped["encodings.warc"] == skipped["encodings.warc.gz"] == {"decode_error": 1, "too_large": 2}
    assert all(skipped[f"huge-{where}.warc.gz"] == {"header_too_large": 1} for where in ("warc", "http"))
