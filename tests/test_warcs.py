"""Reading WARC files: file-name timestamps, WARC dates, which records are documents, and offsets."""

from __future__ import annotations

import gzip
from datetime import datetime, timezone
from io import BytesIO
from pathlib import Path

import pytest
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from warc2corpus import warcs

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


@pytest.mark.parametrize("value", [None, "", "   ", "yesterday", "2019-13-45T00:00:00Z", "2019041209"])
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
