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
import re
import time
from pathlib import Path

import psycopg
import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from warc2corpus import tasks, warcs

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
    from warc2corpus import db, publications

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
    partial with the records before; nothing readable is quarantined."""
    name, errors, types = row["file"], row["errors_warcio_1.8.1"], row["record_types"]
    if name.endswith(".lz4"):  # the same records as the uncompressed file beside it
        return expected_from_profile(profile[name[: -len(".lz4")]], profile)
    counted = sum(int(part.rsplit(":", 1)[1]) for part in types.split(",") if ":" in part)
    whole_file = re.search(r"gzip-whole-file \((\d+) records", row["compression"])
    if whole_file:
        return "loaded", int(whole_file.group(1))
    if not errors:
        return "loaded", counted
    if "truncated member 0" in errors or "error member 0" in errors or not counted:
        return "quarantined", 0
    return "partial", counted


def test_every_shared_sample_file(samples, corpus_db, staging_dir):
    folder = samples / "warc"
    with open(folder / "profile.tsv", encoding="utf-8") as table:
        rows = list(csv.DictReader(table, delimiter="\t"))
    profile = {row["file"]: row for row in rows}
    results = tasks.run_files([folder / row["file"] for row in rows], "samples")  # no exception escapes
    assert len(results) == len(rows)
    mismatches = []
    for row in rows:
        ledger = ledger_row(corpus_db, folder / row["file"])
        expected = expected_from_profile(row, profile)
        got = (ledger["status"], ledger["counts"].get("records", 0))
        if got != expected:
            mismatches.append((row["file"], expected, got, ledger["error"]))
        if ledger["status"] != "loaded":
            assert ledger["error"] and ledger["error_class"], row["file"]
    assert mismatches == []


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
    [result] = tasks.run_files([cut], "broken")
    row = ledger_row(corpus_db, cut)
    assert row["status"] == "partial" and row["error_class"] == "TruncatedGzip"
    assert row["last_good_offset"] == offsets[2]
    assert len(documents(corpus_db)) == 2
    tasks.run_files([cut], "broken")  # a rerun duplicates nothing
    assert len(documents(corpus_db)) == 2


def test_bad_gzip_magic_in_the_middle(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    warc = build_warc(tmp_path / "magic.warc.gz", [three_pages])
    offsets = [r.offset for r in warcs.read_records(warc)]
    data = bytearray(warc.read_bytes())
    data[offsets[1]:offsets[1] + 2] = b"XX"
    warc.write_bytes(bytes(data))
    tasks.run_files([warc], "broken")
    row = ledger_row(corpus_db, warc)
    assert row["status"] == "partial" and row["last_good_offset"] == offsets[1]
    assert "not gzip data" in row["error"]
    assert [d[0] for d in documents(corpus_db)] == ["https://www.fjordposten.no/sak/0"]


def test_garbage_after_a_record_in_a_plain_warc(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    warc = build_warc(tmp_path / "garbage.warc", [three_pages], gzip_members=False)
    size = warc.stat().st_size
    with open(warc, "ab") as out:
        out.write(b"\x00\x01 this is not a record \xff" * 20)
    tasks.run_files([warc], "broken")
    row = ledger_row(corpus_db, warc)
    assert row["status"] == "partial" and row["counts"]["records"] == 3
    assert row["last_good_offset"] <= size
    assert len(documents(corpus_db)) == 3


def test_nothing_readable_is_quarantined(tmp_path, corpus_db, staging_dir):
    for name, data in (("zero.warc.gz", b""), ("text.warc.gz", b"hello\n"), ("corrupt.warc.gz", b"\x1f\x8b\x08\x00junk")):
        (tmp_path / name).write_bytes(data)
    results = tasks.run_files(sorted(tmp_path.glob("*.warc.gz")), "broken")
    statuses = {Path(r["warc_file"]).name: r["status"] for r in results}
    # An empty file is no WARC either (issue 9: it was `loaded` with 0 records, as if nothing were wrong).
    assert statuses == {"corrupt.warc.gz": "quarantined", "text.warc.gz": "quarantined", "zero.warc.gz": "quarantined"}


def test_whole_file_gzip_is_read_and_back_pointers_work(tmp_path, corpus_db, staging_dir, accept_all):
    accept_all("www.fjordposten.no")
    plain = build_warc(tmp_path / "plain.warc", [three_pages], gzip_members=False)
    whole = tmp_path / "whole-file.warc.gz"
    whole.write_bytes(gzip.compress(plain.read_bytes()))
    tasks.run_files([whole], "gz")
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
    [result] = tasks.run_files([warc], "limits")
    assert result["counts"]["skipped"]["too_large"] == 1
    assert [d[0] for d in documents(corpus_db)] == ["https://www.fjordposten.no/sak"]
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT reason FROM rejections WHERE url LIKE '%/stor'").fetchone() == ("too_large",)


def test_extraction_time_limit(tmp_path, corpus_db, staging_dir, accept_all, monkeypatch):
    from warc2corpus import extract

    accept_all("www.fjordposten.no")
    real = extract.extract

    def slow_on_one_page(html, url=None, **kwargs):
        if url.endswith("/treg"):
            time.sleep(5)
        return real(html, url, **kwargs)

    monkeypatch.setattr(extract, "extract", slow_on_one_page)
    monkeypatch.setenv("WARC2CORPUS_EXTRACTION_SECONDS", "0.5")

    def records(writer):
        write_record(writer, "https://www.fjordposten.no/treg", ARTICLE.encode())
        write_record(writer, "https://www.fjordposten.no/sak", ARTICLE.replace("Ferja", "Bussen").encode())

    warc = build_warc(tmp_path / "slow.warc.gz", [records])
    started = time.monotonic()
    [result] = tasks.run_files([warc], "limits")
    assert time.monotonic() - started < 4
    assert result["counts"]["skipped"]["timeout"] == 1
    assert [d[0] for d in documents(corpus_db)] == ["https://www.fjordposten.no/sak"]


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
    [result] = tasks.run_files([warc], "revisits")
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
        tasks.run_files([path], "revisits")
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM documents").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM revisits WHERE doc_id IS NOT NULL").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM captures WHERE record_type = 'revisit'").fetchone()[0] == 1
    tasks.run_files([first], "revisits")  # reloading the original's file keeps the revisit resolved
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM captures WHERE record_type = 'revisit'").fetchone()[0] == 1


def test_unresolvable_revisit_is_counted(tmp_path, corpus_db, staging_dir):
    scratch = io.BytesIO()
    original = write_record(WARCWriter(scratch, gzip=True), "https://elsewhere.no/", ARTICLE.encode())
    warc = build_warc(tmp_path / "lonely.warc.gz",
                      [lambda writer: write_revisit(writer, "https://elsewhere.no/", original, "2024-03-02T12:00:00Z")])
    [result] = tasks.run_files([warc], "revisits")
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
    tasks.run_files([warc], "charsets")
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
    [result] = tasks.run_files([warc], "digests")
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
    from warc2corpus import extract

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
    [result] = tasks.run_files([warc], "wayback")
    assert result["counts"]["skipped"] == {"wayback_not_found": 1, "wayback_redirect": 1}
    [(url, harvest_time, record_url, _, _, _)] = documents(corpus_db)
    assert url == "https://www.fws.gov/birds/"
    assert harvest_time.isoformat() == "2017-11-24T15:13:15+00:00"
    assert record_url == wayback_url
    with psycopg.connect(corpus_db) as conn:
        stored = [r[0] for r in conn.execute("SELECT text FROM paragraphs ORDER BY seq")]
    expected = extract.extract(original, "https://www.fws.gov/birds/").paragraphs
    assert stored == [" ".join(p.split()) for p in expected]
