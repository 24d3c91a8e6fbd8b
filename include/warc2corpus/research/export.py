"""Tables as CSV, JSON Lines or Excel bytes (all read back by pandas)."""

from __future__ import annotations

import csv
import io
import json
import re

FORMATS = ("csv", "jsonl", "xlsx")
MEDIA_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "jsonl": "application/jsonl",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}
# Characters an .xlsx cell cannot hold (XML 1.0 forbids them).
_ILLEGAL_XML = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _columns(rows: list[dict]) -> list[str]:
    columns: dict[str, None] = {}
    for row in rows:
        columns.update(dict.fromkeys(row))
    return list(columns)


def _cell(value):
    if isinstance(value, (dict, list, tuple)):
        return json.dumps(value, ensure_ascii=False)
    return value


def _xlsx_cell(sheet, value):
    """Excel holds numbers as doubles: integers beyond 2**53 (document ids) go as text, exactly. Text is
    always text: openpyxl writes a string that begins with "=" as a formula, and a page's title or author
    (third parties' words) would then run in the researcher's Excel ('=HYPERLINK("http://…")'); "#N/A" and
    the other error codes it writes as errors."""
    value = _cell(value)
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2**53:
        return str(value)
    if not isinstance(value, str):
        return value
    value = _ILLEGAL_XML.sub("", value)
    if not (value.startswith("=") or value in _ERROR_CODES):
        return value
    from openpyxl.cell import WriteOnlyCell

    cell = WriteOnlyCell(sheet, value=value)
    cell.data_type = "s"
    return cell


_ERROR_CODES = frozenset(("#NULL!", "#DIV/0!", "#VALUE!", "#REF!", "#NAME?", "#NUM!", "#N/A"))


def export(rows: list[dict], fmt: str) -> bytes:
    """rows (dicts; the columns in first-seen order) as csv (UTF-8, header), jsonl or xlsx (one
    sheet; document ids as text, since Excel keeps 15 digits of a number)."""
    from warc2corpus.research.query import BadRequest

    if fmt not in FORMATS:
        raise BadRequest("format", f"one of {', '.join(FORMATS)}, not {fmt!r}")
    columns = _columns(rows)
    if fmt == "jsonl":
        return "".join(json.dumps(r, ensure_ascii=False, default=str) + "\n" for r in rows).encode("utf-8")
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        for row in rows:
            writer.writerow(["" if row.get(c) is None else _cell(row.get(c)) for c in columns])
        return out.getvalue().encode("utf-8")
    import openpyxl

    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet("data")
    sheet.append(columns)
    for row in rows:
        sheet.append([_xlsx_cell(sheet, row.get(c)) for c in columns])
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()
