"""Rows of a table a person made in a spreadsheet or an editor: the research page's lists of ids and the
publication register. Read as spreadsheets save them: CSV in UTF-8 (a byte order mark or none), with
commas, semicolons (what Excel writes where the decimal mark is a comma, as in Norway) or tabs between
the cells; UTF-16 text with its byte order mark (Excel's "Unicode text"); an Excel workbook (.xlsx, its
first sheet). Anything else is refused with a message saying what to do (:class:`TableError`), never read
as something it is not.
"""

from __future__ import annotations

import csv
import io

EXTENSIONS = (".csv", ".tsv", ".txt", ".xlsx")


class TableError(ValueError):
    """The file is not a table read here; the message says why."""


class Row(list):
    """A row's cell texts, and its number as the spreadsheet shows it (the first row is 1)."""

    def __init__(self, cells, number: int):
        super().__init__(cells)
        self.number = number


def read_rows(data: bytes, filename: str) -> list[Row]:
    """The rows (:class:`Row`: lists of cell texts, numbered) of the file, blank rows left out. ``filename``
    tells the kind."""
    name = (filename or "").lower()
    if name.endswith(".xlsx"):
        rows = _workbook_rows(data)
    elif name.endswith((".csv", ".tsv", ".txt")):
        rows = _text_rows(decode_text(data))
    else:
        raise TableError(f"a .csv or .xlsx file is expected, not {filename!r}")
    kept = [Row(row, number) for number, row in enumerate(rows, start=1) if any(cell.strip() for cell in row)]
    for row in kept:
        if any("\x00" in cell for cell in row):
            raise TableError(f"row {row.number} holds a NUL character (\\x00): is it a text file?")
    return kept


def _workbook_rows(data: bytes) -> list[list[str]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(data), read_only=True, data_only=True)
    except Exception as exc:  # openpyxl raises many kinds for a file that is no workbook
        raise TableError(f"not a readable .xlsx workbook: {exc}") from None
    return [["" if cell is None else str(cell) for cell in row]
            for row in book.worksheets[0].iter_rows(values_only=True)]


def decode_text(data: bytes) -> str:
    """A text file's text: UTF-16 with its byte order mark, else UTF-8 (a byte order mark or none)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise TableError("not readable UTF-16 text, though it begins with UTF-16's byte order mark") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TableError(f"not UTF-8 text (byte 0x{data[exc.start]:02x} at {exc.start:,}): save it in UTF-8 "
                         "(Excel: 'CSV UTF-8', or .xlsx)") from None


def _text_rows(text: str) -> list[list[str]]:
    """The cells of CSV text, separated by whichever of comma, semicolon and tab its first line holds most of
    (a comma when it holds none: a single column)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    delimiter = max(",;\t", key=first.count) if any(d in first for d in ",;\t") else ","
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))
