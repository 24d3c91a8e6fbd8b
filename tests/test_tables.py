"""Tables people make (``warc2corpus.tables``): the research page's id lists and the publication register,
as spreadsheets and editors save them."""

from __future__ import annotations

import io

import openpyxl
import pytest

from warc2corpus.tables import TableError, read_rows


@pytest.mark.parametrize("data, name", [
    (b"domain,title\nnrk.no,NRK\n", "register.csv"),
    (b"domain;title\r\nnrk.no;NRK\r\n", "register.csv"),              # Excel where the decimal mark is a comma
    (b"\xef\xbb\xbfdomain;title\nnrk.no;NRK\n", "register.csv"),      # Excel's "CSV UTF-8": a byte order mark
    ("domain\ttitle\nnrk.no\tNRK\n".encode("utf-16"), "register.txt"),  # Excel's "Unicode text"
    (b"domain\ttitle\nnrk.no\tNRK\n", "register.tsv"),
])
def test_the_delimiters_and_encodings_spreadsheets_write(data, name):
    assert read_rows(data, name) == [["domain", "title"], ["nrk.no", "NRK"]]


def test_a_delimiter_inside_quotes_is_text_and_rows_keep_their_numbers():
    rows = read_rows(b'domain,title\n\n"a,b.no","Avis; Oslo"\n', "register.csv")
    assert rows == [["domain", "title"], ["a,b.no", "Avis; Oslo"]]
    assert [row.number for row in rows] == [1, 3]  # the blank row is left out, not counted away


def test_a_workbooks_first_sheet():
    book = openpyxl.Workbook()
    book.active.append(["doc_id", None])
    book.active.append([12345, "Bærum"])
    data = io.BytesIO()
    book.save(data)
    assert read_rows(data.getvalue(), "ids.XLSX") == [["doc_id", ""], ["12345", "Bærum"]]


@pytest.mark.parametrize("data, name, says", [
    (b"domain,title\nb\xe6rum.no,B\xe6rum\n", "register.csv", "not UTF-8 text (byte 0xe6 at 14)"),
    (b"domain,title\nnrk.no,N\x00RK\n", "register.csv", "row 2 holds a NUL character"),
    (b"PK\x03\x04 broken", "register.xlsx", "not a readable .xlsx workbook"),
    (b"domain,title\n", "register.ods", "a .csv or .xlsx file is expected"),
    (b"\xff\xfeA", "register.txt", "not readable UTF-16"),
])
def test_what_is_no_table_is_refused_saying_why(data, name, says):
    with pytest.raises(TableError) as refused:
        read_rows(data, name)
    assert says in str(refused.value)
