"""Reading WARC files: file-name timestamps, WARC dates, which records are documents, and offsets."""

from __future__ import annotations

import gzip
import re
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from warc2corpus.reading import warcs

HTML = "<html><head><title>Hei</title></head><body><p>Blåbærsyltetøy på brødskiva.</p></body></html>".encode()
DATE = "2019-04-12T09:30:00Z"


def _response(writer, url, status, content_type, payload, date=DATE, extra_headers=()):
    http = StatusAndHeaders(
        status, [("Content-Type", content_type), ("Content-Length", str(len(payload))), *extra_headers],
        protocol="HTTP/1.1",
    )
    return writer.create_warc_record(
        url, "response", payload=BytesIO(payload), http_headers=http,
        warc_headers_dict={"WARC-Date": date},
    )


def _build(path: Path, *, gzip_records: bool = True) -> Path:
    """A small WARC: warcinfo, request, 200 HTML, 404 HTML, 200 PNG, revisit, 200 XHTML."""
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=gzip_records)
        writer.write_record(writer.create_warcinfo_record(path.name, {"software": "test"}))
        request_headers = StatusAndHeaders("GET /a HTTP/1.1", [("Host", "example.no")], is_http_request=True)
        writer.write_record(
            writer.create_warc_record(
                "https://example.no/a", "request", payload=BytesIO(b""), http_headers=request_headers,
                warc_headers_dict={"WARC-Date": DATE},
            )
        )
        writer.write_record(_response(writer, "https://example.no/a", "200 OK", "text/html; charset=utf-8", HTML))
        writer.write_record(
            _response(writer, "https://example.no/missing", "404 Not Found", "text/html", b"<html>404</html>",
                      date="2019-04-12T09:31:00Z")
        )
        writer.write_record(
            _response(writer, "https://example.no/logo.png", "200 OK", "image/png", b"\x89PNG\r\n\x1a\nxxxx")
        )
        revisit_headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html")], protocol="HTTP/1.1")
        writer.write_record(
            writer.create_revisit_record(
                "https://example.no/a", digest="sha1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
                refers_to_uri="https://example.no/a", refers_to_date=DATE, http_headers=revisit_headers,
            )
        )
        writer.write_record(
            _response(writer, "https://example.no/x", "200 OK", "application/xhtml+xml", b"<html>x</html>")
        )
    return path


@pytest.fixture
def small_warc(tmp_path) -> Path:
    return _build(tmp_path / "TEST-20190412093000-00001-host.warc.gz")


# --- inflating: zlib-ng, as zlib would --------------------------------------------------------------

def _read_all(path: Path) -> tuple[list, dict]:
    reader = warcs.WarcReader(path, warcs.Limits())
    records = [(r.offset, r.length, r.url, r.record_type, r.skip_reason, r.body) for r in reader.records()]
    outcome = reader.outcome
    return records, {"status": outcome.status, "layout": outcome.layout, "error": outcome.error,
                     "error_class": outcome.error_class, "last_good_offset": outcome.last_good_offset}


def test_gzip_members_are_inflated_by_zlib_ng_as_zlib_inflates_them(tmp_path, monkeypatch):
    """The member scan and warcio's reading inflate with zlib-ng (faster); a whole file, one with a
    member corrupted in its middle and one cut short read the same records, the same outcome and
    the same error message as with the standard library's zlib."""
    import zlib

    from zlib_ng import zlib_ng

    whole = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz").read_bytes()
    members = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)]
    corrupt = bytearray(whole)
    corrupt[members[2] + 40: members[2] + 48] = b"\xff" * 8
    files = {"whole": whole, "corrupt": bytes(corrupt), "truncated": whole[:members[4] + 30]}
    assert isinstance(warcs.gzip_decompressor(), type(zlib_ng.decompressobj()))
    assert warcs._BoundedLineReader.DECOMPRESSORS["gzip"] is warcs.gzip_decompressor
    paths = {}
    for name, data in files.items():
        paths[name] = tmp_path / f"TEST-20190412093000-00002-{name}.warc.gz"
        paths[name].write_bytes(data)
    with_zlib_ng = {name: _read_all(path) for name, path in paths.items()}
    monkeypatch.setattr(warcs, "gzip_decompressor", lambda: zlib.decompressobj(16 + zlib.MAX_WBITS))
    monkeypatch.setitem(warcs._BoundedLineReader.DECOMPRESSORS, "gzip", warcs.gzip_decompressor)
    with_zlib = {name: _read_all(path) for name, path in paths.items()}
    assert with_zlib_ng == with_zlib
    assert len(with_zlib_ng["whole"][0]) == 7 and with_zlib_ng["whole"][1]["status"] == "complete"
    assert with_zlib_ng["corrupt"][1]["error_class"] == "CorruptGzip"
    assert with_zlib_ng["truncated"][1]["error_class"] == "TruncatedGzip"


def test_a_file_is_scanned_member_by_member_only_where_its_reading_meets_trouble(tmp_path, monkeypatch):
    """A gzip file that reads cleanly is inflated once, by warcio (no member scan). Where a member fails
    to inflate (corrupt in its middle, or in its checksum alone, which shows only as it ends), the last
    is cut short (the record in it comes back short, and only the reading's end shows why) or bytes after
    the last are no gzip, the file is scanned once and the reading stops at the first bad member, as if
    the scan had come first: every record before that member, the fault the scan names; then it goes on
    at the next member that inflates whole and begins a WARC record. Of the bad member itself, only what
    its bytes can be trusted for (test_a_damaged_members_record_is_kept_where_its_bytes_can_be_trusted):
    here a 404's record whose checksum is wrong (no digest checked: a skipped record's body is not read),
    unverified; a record cut short, truncated_record; one cut in its member's trailer, whole."""
    whole = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz").read_bytes()
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    assert len(starts) == 8
    corrupt, checksum = bytearray(whole), bytearray(whole)
    corrupt[starts[2] + 40: starts[2] + 48] = b"\xff" * 8
    checksum[starts[4] - 7] ^= 1  # member 3's CRC-32 (its last 8 bytes: CRC-32, then the length)
    damaged = {  # the file, where its first bad member starts and ends, the fault, the bad member's record
        "corrupt": (bytes(corrupt), starts[2], starts[3], "CorruptGzip", None, ""),
        "checksum": (bytes(checksum), starts[3], starts[4], "CorruptGzip", "unverified",
                     "; the record in the damaged member skipped as unverified"),
        "cut short": (whole[:starts[5] + 200], starts[5], None, "TruncatedGzip", "truncated_record",
                      "; the record in the damaged member skipped as truncated_record"),
        "cut at the trailer": (whole[:starts[6] - 3], starts[5], None, "TruncatedGzip", "revisit",
                               "; the record in the damaged member kept: whole before the cut"),
        "garbage after": (whole + b"no gzip here\n", len(whole), None, "CorruptGzip", None, ""),
    }
    scans = []
    scan = warcs.scan_gzip_members
    monkeypatch.setattr(warcs, "scan_gzip_members", lambda path, *start: scans.append(path) or scan(path, *start))
    path = tmp_path / "TEST-20190412093000-00002-x.warc.gz"
    path.write_bytes(whole)
    clean, outcome = _read_all(path)
    assert len(clean) == 7 and outcome["status"] == "complete" and scans == []
    for name, (data, bad_at, bad_end, error_class, salvaged, said) in damaged.items():
        scans.clear()
        path.write_bytes(data)
        records, outcome = _read_all(path)
        assert scan(path)[0] == bad_at, name
        assert [r for r in records if r[0] != bad_at] == \
            [r for r in clean if r[0] < bad_at or bad_end is not None and r[0] >= bad_end], name
        assert [r[2:5] for r in records if r[0] == bad_at] == \
            [r[2:4] + (salvaged,) for r in clean if r[0] == bad_at and salvaged], name
        went_on = "" if bad_end is None else f"; the reading went on at byte {bad_end} ({bad_end - bad_at} bytes passed over)"
        assert (outcome["error_class"], outcome["error"], outcome["status"]) == \
            (error_class, scan(path)[1] + went_on + said, "partial"), name
        assert scans == [str(path)], name


def test_damage_in_the_middle_costs_only_the_damaged_members_records(tmp_path):
    """Garbage between two members, two corrupt members, an uncompressed record among the members: the
    reading goes on at the next member that begins a WARC record each time, so only the damaged members'
    records are lost; the fault names the first damage, where the reading went on, the stretches and the
    bytes passed over. (Before, every record after the first damage was lost.)"""
    import zlib

    clean_path = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    whole = clean_path.read_bytes()
    clean, _ = _read_all(clean_path)
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    member = [whole[a:b] for a, b in zip(starts, starts[1:])]
    spoilt = [bytearray(m) for m in member]
    for k in (1, 4):
        spoilt[k][30:38] = b"\xff" * 8
    garbage = b"these bytes are no gzip\n"
    cases = {
        "garbage between": (b"".join(member[:3]) + garbage + b"".join(member[3:]), set(),
                            f"not gzip data at byte {starts[3]}; the reading went on at byte {starts[3] + len(garbage)} "
                            f"({len(garbage)} bytes passed over)"),
        "two corrupt": (b"".join(map(bytes, spoilt[:2])) + b"".join(member[2:4]) + bytes(spoilt[4]) +
                        b"".join(member[5:]), {1, 4},
                        f"; the reading went on at byte {starts[2]} (2 damaged stretches, "
                        f"{starts[2] - starts[1] + starts[5] - starts[4]} bytes passed over)"),
        "uncompressed": (b"".join(member[:2]) + zlib.decompress(member[2], 31) + b"".join(member[3:]), {2},
                         f"not gzip data at byte {starts[2]}"),
    }
    path = tmp_path / "TEST-20190412093000-00002-damaged.warc.gz"
    for name, (data, lost, said) in cases.items():
        path.write_bytes(data)
        records, outcome = _read_all(path)
        assert [r[2:] for r in records] == [r[2:] for n, r in enumerate(clean) if n not in lost], name
        assert outcome["status"] == "partial" and outcome["error_class"] == "CorruptGzip", name
        assert said in outcome["error"], (name, outcome["error"])
    # what ends the reading after it went on is named too: a cut last member, a member that is no record
    path.write_bytes(b"".join([member[0], bytes(spoilt[1]), *member[2:6], member[6][:-30]]))
    records, outcome = _read_all(path)
    assert [r[2:] for r in records] == [r[2:] for r in clean[:1] + clean[2:6]] + \
        [("https://example.no/x", "response", "truncated_record", None)]  # the cut member's record, cut short
    assert f"(2 damaged stretches, " in outcome["error"]
    assert f"; the last: truncated gzip member at byte {starts[6]}" in outcome["error"]
    two = gzip.compress(zlib.decompress(member[3], 31) + zlib.decompress(member[4], 31))
    path.write_bytes(b"".join([member[0], bytes(spoilt[1]), member[2], two, *member[5:]]))
    records, outcome = _read_all(path)
    assert [r[2:] for r in records] == [r[2:] for r in clean[:1] + clean[2:4] + clean[5:]]
    assert "; then SharedGzipMember: 1 gzip member (the first at byte" in outcome["error"]


def test_a_damaged_members_record_is_kept_where_its_bytes_can_be_trusted(tmp_path):
    """A gzip member damaged in its trailer alone — a CRC-32 or length that does not match, one bit
    flipped in the archive's storage; the file cut inside its last member's last bytes — holds its whole
    record, which the reading passed over with the member (the file partial, the record lost). The
    member is now inflated as far as it inflates: of a corrupt member the record is kept when its
    payload digest verifies, as in a corrupt whole-file gzip, and skipped as ``unverified`` when it does
    not (damage in its data that still inflates: stored blocks) or when it has none to check; of a cut
    member, as read (what inflates before a cut is exact). The records around it read as before, and
    the fault says what became of it."""
    import zlib

    clean_path = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    whole = clean_path.read_bytes()
    clean, _ = _read_all(clean_path)
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    member = [whole[a:b] for a, b in zip(starts, starts[1:])]
    page = 2  # the 200 HTML page's record: its member, its row
    assert clean[page][2:5] == ("https://example.no/a", "response", None) and clean[page][5] == HTML

    def flipped(data: bytes, at: int) -> bytes:
        spoilt = bytearray(data)
        spoilt[at] ^= 1
        return bytes(spoilt)

    stored = gzip.compress(zlib.decompress(member[page], 31), compresslevel=0)  # its bytes as they are
    body_at = stored.index(HTML[-20:])
    text = zlib.decompress(member[page], 31)
    undigested = gzip.compress(re.sub(rb"WARC-Payload-Digest: [^\r]*\r\n", b"", text))
    cases = {  # the damaged member, the page's row then, what the fault adds
        "checksum": (flipped(member[page], len(member[page]) - 7), clean[page][2:],
                     "; the record in the damaged member kept: its payload digest verifies"),
        "length": (flipped(member[page], len(member[page]) - 2), clean[page][2:],
                   "; the record in the damaged member kept: its payload digest verifies"),
        "data": (flipped(stored, body_at), ("https://example.no/a", "response", "unverified", None),
                 "; the record in the damaged member skipped as unverified"),
        "no digest": (flipped(undigested, len(undigested) - 7), ("https://example.no/a", "response", "unverified", None),
                      "; the record in the damaged member skipped as unverified"),
    }
    path = tmp_path / "TEST-20190412093000-00002-damaged.warc.gz"
    for name, (damaged, row, said) in cases.items():
        path.write_bytes(b"".join(member[:page]) + damaged + b"".join(member[page + 1:]))
        records, outcome = _read_all(path)
        assert [r[2:] for r in records] == [r[2:] for r in clean[:page]] + [row] + [r[2:] for r in clean[page + 1:]], name
        assert records[page][0] == starts[page], name
        assert outcome["status"] == "partial" and outcome["error_class"] == "CorruptGzip", name
        assert outcome["error"].startswith(f"corrupt gzip member at byte {starts[page]}"), name
        assert outcome["error"].endswith(said), (name, outcome["error"])
    # the file cut inside its last member's trailer: the last record whole before the cut
    path.write_bytes(whole[:-3])
    records, outcome = _read_all(path)
    assert [r[2:] for r in records] == [r[2:] for r in clean]
    assert (outcome["status"], outcome["error_class"], outcome["error"]) == (
        "partial", "TruncatedGzip",
        f"truncated gzip member at byte {starts[-2]}; the record in the damaged member kept: whole before the cut")


def test_a_gzip_member_that_holds_no_record_costs_no_other(tmp_path):
    """A gzip member that inflates well but holds no WARC record (garbage compressed, another file's
    member, a record's body in a member of its own) is skipped as not_a_record at its own offset, the
    reading goes on with the next member, and the file is partial (StrayGzipMember); before, the reading
    ended there (ArchiveLoadFailed) and every record after it was lost. A gzip file that gives no record
    at all (no WARC) stays unreadable."""
    clean_path = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    whole = clean_path.read_bytes()
    clean, _ = _read_all(clean_path)
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    member = [whole[a:b] for a, b in zip(starts, starts[1:])]
    stray = gzip.compress(b"this is no record at all\r\n\r\n")
    path = tmp_path / "TEST-20190412093000-00002-stray.warc.gz"
    path.write_bytes(b"".join([*member[:3], stray, *member[3:]]))
    records, outcome = _read_all(path)
    assert [r[2:] for r in records[:3] + records[4:]] == [r[2:] for r in clean]
    assert records[3][:2] == (starts[3], len(stray)) and records[3][4] == "not_a_record"
    assert (outcome["status"], outcome["error_class"]) == ("partial", "StrayGzipMember")
    assert f"the first at byte {starts[3]}" in outcome["error"]
    path.write_bytes(stray + gzip.compress(b"nor this\r\n"))
    records, outcome = _read_all(path)
    assert records == [] and (outcome["status"], outcome["error_class"]) == ("unreadable", "ArchiveLoadFailed")
    # after a member skipped for its headers' size the next reading starts afresh, and warcio parses a line
    # that looks like an ARC record's header whole before it is refused: the member skipped is still its own
    raw = gzip.decompress(member[2])
    big = gzip.compress(raw.replace(b"WARC-Date:", b"X-Long: " + b"y" * 500 + b"\r\nWARC-Date:", 1))
    arc_like = gzip.compress(b"http://x.no/ 10.0.0.1 20080101000000 text/html 5\nhello\n")
    path.write_bytes(b"".join([*member[:2], big, arc_like, *member[3:]]))
    reader = warcs.WarcReader(path, warcs.Limits(max_header_line_bytes=300, max_header_bytes=2000))
    read = [(r.offset, r.length, r.url, r.record_type, r.skip_reason) for r in reader.records()]
    assert [r[4] for r in read[2:4]] == ["header_too_large", "not_a_record"]
    assert read[3][:2] == (starts[2] + len(big), len(arc_like))
    assert [r[2:] for r in read[4:]] == [r[2:5] for r in clean[3:]]


def test_an_arc_files_reading_goes_on_past_a_corrupt_member(tmp_path):
    """A per-record gzip ARC file with a corrupt member: the reading goes on at the next member that begins
    an ARC record's header line, so only the damaged member's page is lost."""
    def arc_record(url: str, date: str, content_type: str, body: bytes) -> bytes:
        return f"{url} 10.0.0.1 {date} {content_type} {len(body)}\n".encode() + body + b"\n"

    records = [arc_record("filedesc://t.arc", "20080430204825", "text/plain",
                          b"1 0 Test\nURL IP-address Archive-date Content-type Archive-length\n")]
    for n in range(6):
        page = f"<html><body><p>Side {n} med tekst.</p></body></html>".encode()
        http = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: %d\r\n\r\n" % len(page)
        records.append(arc_record(f"http://www.example.no/sak/{n}", f"2008043020{n:04d}", "text/html", http + page))
    members = [gzip.compress(record) for record in records]
    path = tmp_path / "IAH-20080430204825-00000-t.arc.gz"
    path.write_bytes(b"".join(members))
    clean, outcome = _read_all(path)
    assert len(clean) == 7 and outcome["status"] == "complete"
    corrupt = bytearray(members[3])
    corrupt[20:28] = b"\xff" * 8
    path.write_bytes(b"".join(members[:3]) + bytes(corrupt) + b"".join(members[4:]))
    records_read, outcome = _read_all(path)
    assert records_read == clean[:3] + clean[4:]
    assert outcome["status"] == "partial" and "the reading went on at byte" in outcome["error"]


def test_a_gzip_member_holding_two_records_costs_only_its_second(tmp_path):
    """A per-record file with one gzip member holding two records (warcio stops there: "non-chunked gzip
    file detected"): every record of the other members is read, the member's first record spans the
    member, and the file is partial (SharedGzipMember, naming the member's byte). warcio alone read the
    second record from its buffer at an offset no member has, every offset after it wrong, and lost the
    last record (where the member is larger than its buffer it stops at the member instead: on a real page's
    WARC 37 records of 40 lost, and the record before given a negative length)."""
    import zlib

    whole = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz").read_bytes()
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    member = [whole[a:b] for a, b in zip(starts, starts[1:])]
    two = gzip.compress(zlib.decompress(member[2], 31) + zlib.decompress(member[3], 31))
    path = tmp_path / "TEST-20190412093000-00002-shared.warc.gz"
    path.write_bytes(b"".join(member[:2]) + two + b"".join(member[4:]))
    clean, _ = _read_all(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    records, outcome = _read_all(path)
    assert [r[2:] for r in records] == [r[2:] for r in clean[:3] + clean[4:]]
    assert records[2][:2] == (starts[2], len(two))
    shift = len(two) - (starts[4] - starts[2])
    assert [r[0] for r in records[3:]] == [r[0] + shift for r in clean[4:]]
    assert all(r[1] > 0 for r in records) and outcome["last_good_offset"] == path.stat().st_size
    assert outcome["status"] == "partial" and outcome["error_class"] == "SharedGzipMember"
    assert f"at byte {starts[2]}" in outcome["error"]



def test_a_record_shorter_than_its_gzip_member_loses_no_record_after_it(tmp_path):
    """A record whose WARC Content-Length leaves out the last lines its gzip member holds (its payload and
    the end of its HTTP headers): the record spans its member, every other record is read, and the file is
    partial (SharedGzipMember, naming the member). warcio alone read the leftover lines as the start of a
    record and stopped there (ArchiveLoadFailed), the records after the member lost. (A single leftover
    line, warcio passes over with a warning.)"""
    import zlib

    whole = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz").read_bytes()
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)] + [len(whole)]
    member = [whole[a:b] for a, b in zip(starts, starts[1:])]
    raw = zlib.decompress(member[2], 31)
    length = int(re.search(rb"Content-Length: (\d+)", raw).group(1))
    cut = len(HTML) + 30
    short = gzip.compress(raw.replace(b"Content-Length: %d" % length, b"Content-Length: %d" % (length - cut), 1))
    path = tmp_path / "TEST-20190412093000-00002-short.warc.gz"
    path.write_bytes(b"".join(member[:2]) + short + b"".join(member[3:]))
    clean, _ = _read_all(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    records, outcome = _read_all(path)
    assert [r[2:4] for r in records] == [r[2:4] for r in clean]
    assert records[2][:2] == (starts[2], len(short)) and records[2][5] != clean[2][5]
    assert [r[4:] for r in records[3:]] == [r[4:] for r in clean[3:]]
    assert outcome["status"] == "partial" and outcome["error_class"] == "SharedGzipMember"
    assert f"at byte {starts[2]}" in outcome["error"]



def test_a_whole_file_gzip_cut_short_gives_the_records_before_the_cut(tmp_path):
    """A whole-file gzip (one member around every record) cut short gives the records before the cut, the
    record the cut falls in as truncated_record, and is partial (TruncatedGzip); garbage after its end
    costs no record (partial, CorruptGzip); a corrupt one gives the records whose payload digest verifies,
    the others skipped as unverified (its damage can garble what comes before the error shows). Before: a
    cut one was unreadable (the member scan's verdict on its first member), garbage after the end lost
    the last record, and a corrupt one gave nothing."""
    clean_path = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    clean, _ = _read_all(clean_path)
    whole_file = gzip.compress(gzip.decompress(clean_path.read_bytes()))
    path = tmp_path / "TEST-20190412093000-00002-wf.warc.gz"
    path.write_bytes(whole_file)
    records, outcome = _read_all(path)
    assert outcome["layout"] == "gzip-whole-file" and outcome["status"] == "complete" and len(records) == 7
    complete = records
    truncated = set()
    for cut in range(len(whole_file) // 3, len(whole_file) - 8, 40):
        path.write_bytes(whole_file[:cut])
        records, outcome = _read_all(path)
        assert (outcome["status"], outcome["error_class"]) == ("partial", "TruncatedGzip"), cut
        assert 1 <= len(records) <= 7 and records[:-1] == complete[:len(records) - 1], cut
        last = complete[len(records) - 1]
        # the last at its place; a document (no skip reason) only whole, never a cut body
        assert records[-1][0] == last[0] and (records[-1][4] is not None or records[-1][2:] == last[2:]), cut
        if records[-1][4] == "truncated_record":
            truncated.add(records[-1][0])
    assert truncated  # a cut inside a block
    path.write_bytes(whole_file + b"no gzip here")
    records, outcome = _read_all(path)
    assert records == complete and (outcome["status"], outcome["error_class"]) == ("partial", "CorruptGzip")
    corrupt = bytearray(whole_file)
    corrupt[-6] ^= 1  # its CRC-32: every byte of the records intact, which only their digests can tell
    path.write_bytes(bytes(corrupt))
    records, outcome = _read_all(path)
    assert (outcome["layout"], outcome["status"], outcome["error_class"]) == ("gzip-whole-file", "partial", "CorruptGzip")
    kept = [r for r in records if r[4] != "unverified"]
    assert kept == [r for r in complete if r[4] is None] and len(kept) == 2  # the two pages, with their bodies
    assert "the 2 whose payload digest verifies were kept" in outcome["error"]


def test_a_corrupt_whole_file_gzip_keeps_the_records_its_digests_vouch_for(tmp_path):
    """A byte flipped in a whole-file gzip: zlib tells only at the end (its checksum), and what it inflated
    may be garbled anywhere before. The records whose payload digest verifies are kept, with the clean
    file's bodies; the damaged page is skipped as unverified. It gave nothing. (Stored blocks, so that the
    flipped byte lands in a known page's body and inflating goes on past it, as it may in deflated data.)"""
    paths = [_build(tmp_path / f"TEST-20190412093000-0000{n}-part.warc.gz") for n in range(6)]
    plain = b"".join(gzip.decompress(p.read_bytes()) for p in paths)
    clean = tmp_path / "TEST-20190412093000-00010-clean.warc.gz"
    clean.write_bytes(gzip.compress(plain, compresslevel=0))
    complete, outcome = _read_all(clean)
    assert outcome["status"] == "complete" and outcome["layout"] == "gzip-whole-file"
    pages = [r for r in complete if r[4] is None]
    assert len(pages) == 12
    third = [m.start() for m in re.finditer(re.escape(HTML), plain)][2]  # the third part's page body
    assert len(plain) < 65_535  # one stored block: byte n of the records is byte 15 + n of the file
    damaged = bytearray(clean.read_bytes())
    damaged[15 + third + 20] ^= 0x20  # a letter's case in "Blåbærsyltetøy"
    path = tmp_path / "TEST-20190412093000-00011-damaged.warc.gz"
    path.write_bytes(bytes(damaged))
    records, outcome = _read_all(path)
    assert (outcome["status"], outcome["error_class"]) == ("partial", "CorruptGzip")
    hit = max((r for r in pages if r[0] <= third), key=lambda r: r[0])  # the page the byte lies in
    kept = [r for r in records if r[4] is None]
    assert kept == [r for r in pages if r is not hit]  # every other page, each as the clean file has it
    assert [r[4] for r in records if r[0] == hit[0]] == ["unverified"]
    assert "the 11 whose payload digest verifies were kept" in outcome["error"]


def test_a_plain_warc_cut_inside_its_last_records_header_is_never_complete(tmp_path):
    """Cut anywhere in the last record's header block, an uncompressed WARC gives the records before the cut
    and is partial. Before: cut within its first line or two ("WARC/1.0") it was complete with a record of no
    type added; a little further (the record without its WARC-Target-URI) partial for "'NoneType' object has
    no attribute 'startswith'"."""
    clean_path = _build(tmp_path / "TEST-20190412093000-00001-plain.warc", gzip_records=False)
    clean, _ = _read_all(clean_path)
    data = clean_path.read_bytes()
    last = clean[-1][0]
    header_end = data.index(b"\r\n\r\n", last) + 4
    path = tmp_path / "TEST-20190412093000-00002-cut.warc"
    for cut in range(last + 1, header_end + 2):
        path.write_bytes(data[:cut])
        records, outcome = _read_all(path)
        assert outcome["status"] == "partial", (cut - last, outcome)
        assert records[:len(clean) - 1] == clean[:-1], cut - last
        assert all(r[4] == "truncated_record" for r in records[len(clean) - 1:]), cut - last
        assert "NoneType" not in outcome["error"]


@pytest.mark.parametrize("gzip_records", [False, True])
def test_a_skipped_last_record_cut_in_its_block_makes_the_file_partial(tmp_path, gzip_records):
    """The cut was seen only in a record whose body was read (an HTML page): a file ending inside a picture's
    block was complete."""
    path = tmp_path / "TEST-20190412093000-00001-png.warc"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=False)
        writer.write_record(_response(writer, "https://example.no/a", "200 OK", "text/html; charset=utf-8", HTML))
        writer.write_record(_response(writer, "https://example.no/logo.png", "200 OK", "image/png",
                                      b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 8))
    data = path.read_bytes()[:-1000]
    path.write_bytes(gzip.compress(data) if gzip_records else data)
    records, outcome = _read_all(path)
    assert [r[4] for r in records] == [None, "truncated_record"]
    assert outcome["status"] == "partial", outcome


def test_a_record_without_its_target_uri_costs_no_record_after_it(tmp_path):
    """A response without WARC-Target-URI (malformed) ended the file's reading there (warcio took None for
    the URI and failed on it); now it is skipped as having no HTTP headers to read, and the rest is read."""
    clean_path = _build(tmp_path / "TEST-20190412093000-00001-plain.warc", gzip_records=False)
    clean, _ = _read_all(clean_path)
    data = clean_path.read_bytes()
    without = data.replace(b"WARC-Target-URI: https://example.no/missing\r\n", b"", 1)
    assert without != data
    path = tmp_path / "TEST-20190412093000-00002-nouri.warc"
    path.write_bytes(without)
    records, outcome = _read_all(path)
    assert outcome["status"] == "complete" and len(records) == len(clean)
    assert [r[2] for r in records] == [r[2] if r[2] != "https://example.no/missing" else None for r in clean]
    assert records[3][4] == "no_http_headers"
    assert [r[2:] for r in records[4:]] == [r[2:] for r in clean[4:]]


@pytest.mark.parametrize("content", [b"x", b"WARC/", b"\x1f"])
def test_a_few_bytes_that_are_no_warc_are_unreadable(tmp_path, content):
    """A file of a line without its end and nothing else was read as a WARC of no records, complete."""
    path = tmp_path / "TEST-20190412093000-00001-few.warc"
    path.write_bytes(content)
    records, outcome = _read_all(path)
    assert records == [] and outcome["status"] == "unreadable", outcome


def test_an_lz4_file_cut_short_is_never_complete(tmp_path):
    """An lz4 WARC cut short is partial (TruncatedLz4) with the records of its whole blocks, or unreadable
    when the cut falls in its first block; never complete. Before, a cut in a one-block file read as
    complete with no record (lz4's EOFError taken by warcio for the end of the records)."""
    lz4_frame = pytest.importorskip("lz4.frame")
    clean_path = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    raw = gzip.decompress(clean_path.read_bytes())
    path = tmp_path / "TEST-20190412093000-00002-x.warc.lz4"
    path.write_bytes(lz4_frame.compress(raw))
    complete, outcome = _read_all(path)
    assert len(complete) == 7 and outcome["status"] == "complete"
    path.write_bytes(lz4_frame.compress(raw)[:-10])
    records, outcome = _read_all(path)
    assert records == [] and (outcome["status"], outcome["error_class"]) == ("unreadable", "TruncatedLz4")
    many = raw * 40  # 127 KB: two 64 KB blocks
    data = lz4_frame.compress(many, block_size=lz4_frame.BLOCKSIZE_MAX64KB)
    path.write_bytes(data)
    complete, _ = _read_all(path)
    path.write_bytes(data[:len(data) - 20])  # into its last block
    records, outcome = _read_all(path)
    assert (outcome["status"], outcome["error_class"]) == ("partial", "TruncatedLz4")
    assert 100 < len(records) < 280 and records[:-1] == complete[:len(records) - 1]


@pytest.mark.parametrize("padding", [b"\r\n", b"\n\n", b"\x00" * 4, b"  "])
def test_blank_padding_between_gzip_members_loses_no_record(tmp_path, padding):
    """Blank bytes between gzip members or after the last (which the member scan allows): every record is
    read, each at its own member's offset, and the file is complete. warcio alone tried to inflate the
    padding, failed, and read the members after it as raw bytes: "\\r\\n" before the fourth member gave 4
    records of 7 and called the file complete; NULs there, or after the last member, made it partial."""
    whole = _build(tmp_path / "TEST-20190412093000-00001-whole.warc.gz").read_bytes()
    starts = [m.start() for m in re.finditer(b"\x1f\x8b\x08", whole)]
    path = tmp_path / "TEST-20190412093000-00002-padded.warc.gz"
    clean, _ = _read_all(tmp_path / "TEST-20190412093000-00001-whole.warc.gz")
    for data, shift_from in ((whole[:starts[3]] + padding + whole[starts[3]:], starts[3]),
                             (whole[:starts[1]] + padding + whole[starts[1]:starts[5]] + padding + whole[starts[5]:],
                              starts[1]),
                             (whole + padding, len(whole))):
        path.write_bytes(data)
        records, outcome = _read_all(path)
        assert outcome["status"] == "complete" and outcome["error"] is None, (padding, outcome)
        assert [r[2:] for r in records] == [r[2:] for r in clean]
        members = [m.start() for m in re.finditer(b"\x1f\x8b\x08", data)]
        assert [r[0] for r in records] == members
        assert [r[0] for r in records if r[0] < shift_from] == [r[0] for r in clean if r[0] < shift_from]


# --- file names and dates -----------------------------------------------------------------------


def test_capture_time_from_iipc_name():
    assert warcs.capture_time_from_name("PREFIX-20190412093000-00001-host.warc.gz") == datetime(
        2019, 4, 12, 9, 30, 0, tzinfo=timezone.utc
    )


def test_capture_time_from_heritrix_17_digit_name():
    assert warcs.capture_time_from_name("/data/WEB-20190412093000123-00042-crawler.example.warc.gz") == datetime(
        2019, 4, 12, 9, 30, 0, tzinfo=timezone.utc
    )


def test_capture_time_from_name_without_timestamp():
    assert warcs.capture_time_from_name("news.warc.gz") is None
    assert warcs.capture_time_from_name(Path("/x/2019/harvest-0001.warc.gz")) is None


def test_capture_time_from_name_with_invalid_date():
    assert warcs.capture_time_from_name("PREFIX-20191399093000-00001-host.warc.gz") is None


def test_parse_warc_date_z_form():
    assert warcs.parse_warc_date("2019-04-12T09:30:00Z") == datetime(2019, 4, 12, 9, 30, tzinfo=timezone.utc)


def test_parse_warc_date_with_fraction_and_offset():
    parsed = warcs.parse_warc_date("2019-04-12T11:30:00.123+02:00")
    assert parsed == datetime(2019, 4, 12, 9, 30, 0, 123000, tzinfo=timezone.utc)


def test_parse_warc_date_arc_form():
    assert warcs.parse_warc_date("20190412093000") == datetime(2019, 4, 12, 9, 30, tzinfo=timezone.utc)


@pytest.mark.parametrize("value, expected", [
    ("2016-12-31T23:59:60Z", datetime(2016, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone.utc)),  # a leap second
    ("2016-12-31T23:59:60.25Z", datetime(2016, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone.utc)),
    ("2017-01-01T00:59:60+01:00", datetime(2016, 12, 31, 23, 59, 59, 999_999, tzinfo=timezone.utc)),
    ("2019-04-12T09:30:00z", datetime(2019, 4, 12, 9, 30, tzinfo=timezone.utc)),  # W3C-DTF's Z in lower case
    ("2019-04-12T09:30Z", datetime(2019, 4, 12, 9, 30, tzinfo=timezone.utc)),    # reduced precision
    ("2019-04-12T09:30:00.123456789Z", datetime(2019, 4, 12, 9, 30, 0, 123456, tzinfo=timezone.utc)),
])
def test_parse_warc_date_forms_crawlers_write(value, expected):
    assert warcs.parse_warc_date(value) == expected


def test_a_page_captured_in_a_leap_second_is_read_with_its_time(tmp_path):
    """A crawl that wrote through 2016-12-31T23:59:60Z: the page was turned away as no_warc_date."""
    path = tmp_path / "TEST-20161231235959-00001-host.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(_response(writer, "https://example.no/a", "200 OK", "text/html; charset=utf-8", HTML,
                                      date="2016-12-31T23:59:60Z"))
    [record] = [r for r in warcs.WarcReader(path, warcs.Limits()).records() if r.record_type == "response"]
    assert record.skip_reason is None and record.body == HTML
    assert record.harvest_time == "2016-12-31T23:59:59.999999Z"


@pytest.mark.parametrize("value", [None, "", "   ", "yesterday", "2019-13-45T00:00:00Z", "2019041209",
                                   "2019-04-12T09:60:00Z", "2019-04-12T09:30:61Z"])
def test_parse_warc_date_garbage(value):
    assert warcs.parse_warc_date(value) is None


# --- records --------------------------------------------------------------------------------------


def test_read_records_classifies_every_record(small_warc):
    records = list(warcs.read_records(small_warc))
    assert [(r.record_type, r.url, r.skip_reason) for r in records] == [
        ("warcinfo", None, "not_a_response"),
        ("request", "https://example.no/a", "not_a_response"),
        ("response", "https://example.no/a", None),
        ("response", "https://example.no/missing", "http_status"),
        ("response", "https://example.no/logo.png", "not_html"),
        ("revisit", "https://example.no/a", "revisit"),
        ("response", "https://example.no/x", None),
    ]


def test_html_response_has_body_and_metadata(small_warc):
    page = [r for r in warcs.read_records(small_warc) if r.url == "https://example.no/a" and r.record_type == "response"][0]
    assert page.body == HTML
    assert page.skip_reason is None
    assert page.http_status == 200
    assert page.content_type == "text/html; charset=utf-8"
    assert page.harvest_time == "2019-04-12T09:30:00.000000Z"
    assert page.record_id and page.record_id.startswith("<urn:uuid:")
    assert page.headers.get("Content-Type") == "text/html; charset=utf-8"


def test_skipped_records_carry_no_body(small_warc):
    records = list(warcs.read_records(small_warc))
    for record in records:
        if record.skip_reason:
            assert record.body is None
    not_found = [r for r in records if r.skip_reason == "http_status"][0]
    assert not_found.http_status == 404
    assert not_found.harvest_time == "2019-04-12T09:31:00.000000Z"
    png = [r for r in records if r.skip_reason == "not_html"][0]
    assert png.http_status == 200 and png.content_type == "image/png"


def test_offsets_and_lengths_tile_the_file(small_warc):
    records = list(warcs.read_records(small_warc))
    assert len(records) == 7
    assert records[0].offset == 0
    for current, following in zip(records, records[1:]):
        assert following.offset > current.offset
        assert current.length > 0
        assert current.offset + current.length == following.offset
    assert records[-1].offset + records[-1].length == small_warc.stat().st_size


def test_offsets_in_uncompressed_warc(tmp_path):
    """Uncompressed: warcio's record length leaves out the CRLFCRLF record separator (as CDX indexes do)."""
    path = _build(tmp_path / "TEST-20190412093000-00001-host.warc", gzip_records=False)
    data = path.read_bytes()
    records = list(warcs.read_records(path))
    assert len(records) == 7
    assert records[0].offset == 0
    for current, following in zip(records, records[1:]):
        assert following.offset > current.offset
        assert data[current.offset:current.offset + 8] == b"WARC/1.0"
        assert current.offset + current.length + 4 == following.offset
        assert data[current.offset + current.length:following.offset] == b"\r\n\r\n"
    assert records[-1].offset + records[-1].length + 4 == len(data)
    assert [r.skip_reason for r in records] == [
        "not_a_response", "not_a_response", None, "http_status", "not_html", "revisit", None
    ]


def test_offset_points_at_the_record(small_warc):
    """Reading the file from a record's offset, for its length, gives exactly that record."""
    page = [r for r in warcs.read_records(small_warc) if r.skip_reason is None][0]
    with open(small_warc, "rb") as stream:
        stream.seek(page.offset)
        member = gzip.decompress(stream.read(page.length))
    assert member.startswith(b"WARC/1.")
    assert b"WARC-Target-URI: https://example.no/a" in member
    assert member.rstrip().endswith(HTML)


def test_provenance_keys(small_warc):
    page = [r for r in warcs.read_records(small_warc) if r.skip_reason is None][0]
    provenance = page.provenance()
    assert set(provenance) == {"warc_file", "record_offset", "record_length", "record_id", "url", "harvest_time"}
    assert provenance["warc_file"] == str(small_warc)
    assert provenance["record_offset"] == page.offset
    assert provenance["record_length"] == page.length
    assert provenance["record_id"] == page.record_id
    assert provenance["url"] == "https://example.no/a"
    assert provenance["harvest_time"] == "2019-04-12T09:30:00.000000Z"


def test_gzip_content_encoding_is_undone(tmp_path):
    path = tmp_path / "encoded.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(
            _response(writer, "https://example.no/z", "200 OK", "text/html", gzip.compress(HTML),
                      extra_headers=[("Content-Encoding", "gzip")])
        )
    (record,) = warcs.read_records(path)
    assert record.skip_reason is None
    assert record.body == HTML


def test_first_record_date_on_file_without_timestamp_name(tmp_path):
    path = tmp_path / "news.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        writer.write_record(
            _response(writer, "https://example.no/a", "200 OK", "text/html", HTML, date="2021-06-01T12:00:00Z")
        )
    assert warcs.capture_time_from_name(path) is None
    expected = datetime(2021, 6, 1, 12, 0, tzinfo=timezone.utc)
    assert warcs.first_record_date(path) == expected
    assert warcs.file_capture_start(path) == expected


def test_file_capture_start_prefers_the_name(small_warc):
    assert warcs.file_capture_start(small_warc) == datetime(2019, 4, 12, 9, 30, tzinfo=timezone.utc)


# --- real data ------------------------------------------------------------------------------------


def test_nordic_dev_pages_warc(samples):
    path = samples / "news_fundus" / "nordic_dev_pages.warc.gz"
    records = list(warcs.read_records(path))
    documents = [r for r in records if r.skip_reason is None]
    assert [r.url for r in documents] == [
        "https://www.dagbladet.no/nyheter/nordmann-domt-til-livstid/81348547",
        "https://www.nrk.no/ol/ol-i-paris-2024_-tarene-rant-for-stavhopper-lene-retzius-_-sa-kom-sjokkvendingen-1.16990729",
        "https://www.expressen.se/nyheter/sverige/elever-atalas-for-misshandel-pa-lundsberg/",
    ]
    for document in documents:
        assert document.http_status == 200
        assert document.body and b"<html" in document.body[:2000].lower()
    revisits = [r for r in records if r.record_type == "revisit"]
    assert len(revisits) == 1
    assert revisits[0].skip_reason == "revisit"
    assert revisits[0].url == documents[1].url
    assert documents[0].harvest_time == "2024-08-04T10:23:36.000000Z"
    assert records[-1].offset + records[-1].length == path.stat().st_size


# ---------------------------------------------------------------------------------------------
# Content encodings: every body decoded by us, bounded, and one record's fault stays its own
# ---------------------------------------------------------------------------------------------

LIMIT = 40 * 2**20


def test_decode_payload_undoes_each_encoding():
    import zlib

    import brotli

    assert warcs.decode_payload(brotli.compress(HTML), None, "br", LIMIT) == HTML
    assert warcs.decode_payload(gzip.compress(HTML), None, "x-gzip", LIMIT) == HTML
    assert warcs.decode_payload(zlib.compress(HTML), None, "deflate", LIMIT) == HTML
    raw_deflate = zlib.compressobj(wbits=-zlib.MAX_WBITS)
    assert warcs.decode_payload(raw_deflate.compress(HTML) + raw_deflate.flush(), None, "deflate", LIMIT) == HTML
    body = brotli.compress(HTML)
    chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 20]), body[i:i + 20]) for i in range(0, len(body), 20))
    assert warcs.decode_payload(chunked + b"0\r\n\r\n", "chunked", "br", LIMIT) == HTML


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate"])
def test_a_content_encoding_bomb_is_too_large(encoding):
    """64 MiB of markup squeezed into a few KiB: decoding stops at the limit (the gzip one used to be
    passed on undecoded and end up as an empty text)."""
    import zlib

    import brotli

    page = b"<html><body>" + b"<p>bombe</p>" * (64 * 2**20 // 12)
    compress = {"gzip": gzip.compress, "deflate": zlib.compress,
                "br": lambda data: brotli.compress(data, quality=1)}[encoding]
    bomb = compress(page)
    assert len(bomb) < 2**20
    assert warcs.decode_payload(bomb, None, encoding, LIMIT) is None
    assert warcs.decode_payload(bomb, None, encoding, 65 * 2**20) == page  # under a higher limit it decodes


@pytest.mark.parametrize("encoding", ["gzip", "br", "deflate"])
def test_a_body_not_in_its_claimed_encoding_is_passed_on(encoding):
    assert warcs.decode_payload(HTML, None, encoding, LIMIT) == HTML


@pytest.mark.parametrize("encoding", ["gzip", "br"])
def test_a_corrupt_body_raises_and_a_truncated_one_gives_its_start(encoding):
    import brotli

    page = HTML.replace(b"<p>", b"<p>" + b"Brunost og ferske vafler. " * 2000)
    compressed = gzip.compress(page) if encoding == "gzip" else brotli.compress(page)
    corrupt = bytearray(compressed)
    corrupt[len(corrupt) // 3: len(corrupt) // 3 + 8] = b"\xff" * 8
    with pytest.raises(warcs.DecodeError):
        warcs.decode_payload(bytes(corrupt), None, encoding, LIMIT)
    start = warcs.decode_payload(compressed[: len(compressed) // 2], None, encoding, LIMIT)
    assert page.startswith(start)


def _page_record(writer, url, body, encoding=None, date=DATE):
    extra = [("Content-Encoding", encoding)] if encoding else []
    writer.write_record(_response(writer, url, "200 OK", "text/html; charset=utf-8", body, date=date,
                                  extra_headers=extra))


@pytest.mark.parametrize("gzip_records", [True, False])
def test_a_bad_br_record_between_two_good_pages(tmp_path, gzip_records):
    """brotli 1.2 and warcio 1.8.1 disagree ('brotli.Decompressor' object has no attribute
    'unused_data'): every br body, good or bad, used to end the reading of its file."""
    import brotli

    corrupt = bytearray(brotli.compress(HTML * 50))
    corrupt[len(corrupt) // 2: len(corrupt) // 2 + 8] = b"\x00" * 8
    path = tmp_path / "br.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=gzip_records)
        _page_record(writer, "https://example.no/1", HTML)
        _page_record(writer, "https://example.no/br", brotli.compress(HTML), "br")
        _page_record(writer, "https://example.no/bad-br", bytes(corrupt), "br")
        _page_record(writer, "https://example.no/2", HTML)
    reader = warcs.WarcReader(path, warcs.Limits())
    got = [(r.url, r.skip_reason, r.body) for r in reader.records()]
    assert got == [("https://example.no/1", None, HTML), ("https://example.no/br", None, HTML),
                   ("https://example.no/bad-br", "decode_error", None), ("https://example.no/2", None, HTML)]
    assert reader.outcome.status == "complete" and reader.outcome.records == 4


def test_any_fault_decoding_a_body_is_that_records_reason(tmp_path, monkeypatch):
    """Whatever goes wrong decoding one body (here a decoder that fails in a way nobody foresaw),
    the reading goes on with the next record."""
    path = tmp_path / "pages.warc.gz"
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        _page_record(writer, "https://example.no/1", HTML)
        _page_record(writer, "https://example.no/odd", gzip.compress(HTML), "gzip")
        _page_record(writer, "https://example.no/2", HTML)
    real = warcs._decompress

    def failing(raw, encoding, limit):
        raise MemoryError("decoder gave up")

    monkeypatch.setattr(warcs, "_decompress", failing)
    reader = warcs.WarcReader(path, warcs.Limits())
    records = list(reader.records())
    assert [(r.url, r.skip_reason) for r in records] == [
        ("https://example.no/1", None), ("https://example.no/odd", "decode_error"), ("https://example.no/2", None)]
    assert records[1].error == "decoder gave up" and reader.outcome.status == "complete"
    monkeypatch.setattr(warcs, "_decompress", real)


# ---------------------------------------------------------------------------------------------
# Header sizes: a huge header line is skipped in bounded memory
# ---------------------------------------------------------------------------------------------

PAGE = "<html><body><p>Ferja mellom Fjordvik og Nesøy ble innstilt.</p></body></html>".encode()


def _huge_line(out, size: int) -> None:
    """'X-Huge: aaaa…' of ``size`` bytes, written a MiB at a time."""
    out.write(b"X-Huge: ")
    piece = b"a" * 2**20
    for start in range(0, size, len(piece)):
        out.write(piece[: size - start])
    out.write(b"\r\n")


def _write_record(out, n: int, *, huge_warc: int = 0, huge_http: int = 0) -> None:
    """A response record written by hand, so that a header line can be far larger than memory."""
    http_head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
    http_tail = b"\r\n" + PAGE
    length = len(http_head) + (len(b"X-Huge: \r\n") + huge_http if huge_http else 0) + len(http_tail)
    out.write(f"WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.no/{n}\r\n"
              f"WARC-Date: 2024-03-01T12:00:0{n}Z\r\n"
              f"WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000{n}>\r\n"
              f"Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n".encode())
    if huge_warc:
        _huge_line(out, huge_warc)
    out.write(b"\r\n" + http_head)
    if huge_http:
        _huge_line(out, huge_http)
    out.write(http_tail + b"\r\n\r\n")


def build_huge_header_warc(path: Path, where: str, size: int) -> Path:
    """Three records; the middle one has a header line of ``size`` bytes in its WARC or HTTP
    headers. A ``.gz`` path gets one gzip member per record."""
    with open(path, "wb") as out:
        for n in range(3):
            huge = {f"huge_{where}": size} if n == 1 else {}
            if path.suffix == ".gz":
                with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=1) as member:
                    _write_record(member, n, **huge)
            else:
                _write_record(out, n, **huge)
    return path


# The child's own peak (VmHWM starts afresh at exec; getrusage's ru_maxrss would carry over the
# peak of the pytest process it was forked from).
READ_IN_A_CHILD = """
import json, re, sys
from warc2corpus.reading import warcs
reader = warcs.WarcReader(sys.argv[1], warcs.Limits())
records = [[r.url, r.skip_reason] for r in reader.records()]
peak = int(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read()).group(1)) * 1024
print(json.dumps({"records": records, "status": reader.outcome.status, "error": reader.outcome.error,
                  "peak_rss": peak}))
"""


@pytest.mark.parametrize("where,name", [("warc", "huge.warc.gz"), ("http", "huge.warc.gz"), ("http", "huge.warc"),
                                        ("warc", "huge.warc")])
def test_a_huge_header_line_costs_no_memory(tmp_path, where, name):
    """A 1 GiB header line used to be read whole (a 1 MB file took 104 s and 3.5 GB). The line here is
    512 MiB in a gzip file (512 KiB on disk), 128 MiB in a plain one; the child reading it must peak
    well below it. Where the record can be framed (its gzip member, or its Content-Length for HTTP
    headers) it is skipped and the next one read; a plain file's WARC headers cannot be framed, and
    the reading ends there, partial."""
    import json
    import subprocess
    import sys

    if not Path("/proc/self/status").exists():
        pytest.skip("the child's peak memory is read from /proc (Linux)")
    size = 512 * 2**20 if name.endswith(".gz") else 128 * 2**20
    path = build_huge_header_warc(tmp_path / name, where, size)
    child = subprocess.run([sys.executable, "-c", READ_IN_A_CHILD, str(path)], capture_output=True, text=True,
                           check=True)
    result = json.loads(child.stdout)
    assert result["peak_rss"] < size / 2, result["peak_rss"] / 2**20
    if where == "warc" and name == "huge.warc":
        assert result["records"] == [["https://example.no/0", None]]
        assert result["status"] == "partial" and "longer than 65536 bytes" in result["error"]
    else:
        middle = None if where == "warc" else "https://example.no/1"  # no WARC headers to tell the URL
        assert result["records"] == [["https://example.no/0", None], [middle, "header_too_large"],
                                     ["https://example.no/2", None]]
        assert result["status"] == "complete"


def test_header_blocks_are_bounded_too(tmp_path):
    """Many short lines add up: WARC headers over max_header_bytes are as bad as one long line."""
    path = tmp_path / "many.warc.gz"
    with open(path, "wb") as out:
        for n in range(2):
            with gzip.GzipFile(fileobj=out, mode="wb") as member:
                buffer = BytesIO()
                _write_record(buffer, n)
                record = buffer.getvalue()
                if n == 0:
                    record = record.replace(b"\r\n\r\n", b"\r\n" + b"X-Many: 1\r\n" * 30000 + b"\r\n", 1)
                member.write(record)
    records = list(warcs.read_records(path))
    assert [(r.url, r.skip_reason) for r in records] == [(None, "header_too_large"), ("https://example.no/1", None)]
    assert "WARC headers longer than 262144 bytes" in records[0].error


# ---------------------------------------------------------------------------------------------
# What the libraries say while a record is read and handled
# ---------------------------------------------------------------------------------------------

def test_library_messages_are_logged_per_record_with_file_and_offset(small_warc, caplog, capsys):
    """trafilatura's own warnings (a Python DeprecationWarning and its logger's) raised while the
    caller handles a record are logged once, as '<file>:<offset>: <library>: <message>', counted by
    library, and reach no other handler; its DEBUG records go on as before."""
    import logging
    from collections import Counter

    import trafilatura

    from warc2corpus.reading import notices

    counts: Counter = Counter()
    seen = []
    with caplog.at_level(logging.DEBUG):
        for record in notices.per_record(warcs.read_records(small_warc), counts):
            if record.skip_reason is None and record.url == "https://example.no/a":
                seen.append(record.offset)
                trafilatura.extract(record.body.decode(), no_fallback=True)
                for _ in range(2):
                    logging.getLogger("trafilatura.core").warning("discarding data: %s", record.url)
                logging.getLogger("courlan.core").info("no valid URL")
    [offset] = seen
    messages = [(r.levelname, r.getMessage()) for r in caplog.records if r.name == "warc2corpus.reading.notices"]
    prefix = f"{small_warc}:{offset}: "
    assert messages == [
        ("WARNING", prefix + 'trafilatura: DeprecationWarning: "no_fallback" will be removed, use "fast" instead'),
        ("WARNING", prefix + "trafilatura: discarding data: https://example.no/a (2 times)"),
        ("INFO", prefix + "courlan: no valid URL"),
    ]
    assert counts == {"trafilatura": 3}
    debug = [r for r in caplog.records if r.name.startswith("trafilatura.") and r.levelno == logging.DEBUG]
    assert debug  # passed on as before
    assert not [r for r in caplog.records if r.name.startswith(("trafilatura.", "courlan."))
                and r.levelno >= logging.INFO]
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("name", ["garbage.warc.gz", "garbage.warc"])
def test_a_huge_line_after_a_record_is_read_past(tmp_path, name):
    """A 1 MiB line right after record 1's block (as when its Content-Length is short): warcio warns
    of it and reads on, as before, but the line is no longer read whole; offsets and lengths stay
    exact."""
    path = tmp_path / name
    with open(path, "wb") as out:
        for n in range(3):
            buffer = BytesIO()
            _write_record(buffer, n)
            data = buffer.getvalue()
            if n == 1:
                garbage = BytesIO()
                _huge_line(garbage, 2**20)
                data = data[:-4] + garbage.getvalue() + b"\r\n\r\n"
            if name.endswith(".gz"):
                with gzip.GzipFile(fileobj=out, mode="wb") as member:
                    member.write(data)
            else:
                out.write(data)
    reader = warcs.WarcReader(path, warcs.Limits())
    read = list(reader.records())
    assert [(r.url, r.skip_reason) for r in read] == [(f"https://example.no/{n}", None) for n in range(3)]
    assert reader.outcome.status == "complete"
    [notice] = read[1].notices
    assert notice.library == "warcio" and "Record not followed by newline" in notice.message
    data = path.read_bytes()
    if name.endswith(".gz"):
        assert read[1].offset + read[1].length == read[2].offset  # record 1 is its whole gzip member
    else:
        assert data[: read[1].offset + read[1].length].endswith(PAGE)
        assert data[read[2].offset:].startswith(b"WARC/1.0\r\n")
