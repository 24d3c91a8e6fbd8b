"""The collection described: totals and version, Dublin Core, DCAT (JSON-LD), RIS and BibTeX.

The title, publisher and landing page come from the environment (WARC2CORPUS_COLLECTION_TITLE,
WARC2CORPUS_COLLECTION_PUBLISHER, WARC2CORPUS_COLLECTION_URL) so an installation names itself."""

from __future__ import annotations

import json
import os
from xml.sax.saxutils import escape

from warc2corpus.research import store
from warc2corpus.research.corpora import jsonable

DESCRIPTION = ("Edited Norwegian news harvested from the web (publications with a responsible editor), "
               "deduplicated, language-tagged and tokenised; full texts stay in the house, research "
               "access gives counts, trends, concordances and collocations.")


def _names() -> dict:
    return {
        "title": os.environ.get("WARC2CORPUS_COLLECTION_TITLE", "Web News Collection (warc2corpus)"),
        "publisher": os.environ.get("WARC2CORPUS_COLLECTION_PUBLISHER", "warc2corpus"),
        "url": os.environ.get("WARC2CORPUS_COLLECTION_URL", "http://localhost:8000/corpus"),
    }


def collection_summary(conn) -> dict:
    """texts, words, publications, hosts, languages{}, years{}, date ranges, version (+ its time)."""
    row = jsonable(store.summary(conn))
    version = store.current_version(conn)
    row["version"] = version["version"] if version else None
    row["version_created_at"] = version["created_at"].isoformat() if version else None
    row.update(_names())
    return row


def _years(summary: dict) -> str:
    years = sorted(summary["years"])
    return f"{years[0]}/{years[-1]}" if years else ""


def dublin_core(conn) -> str:
    s = collection_summary(conn)
    fields = [("title", s["title"]), ("description", DESCRIPTION), ("publisher", s["publisher"]),
              ("type", "Dataset"), ("format", "text"), ("identifier", s["url"]),
              ("coverage", _years(s)), ("date", (s["version_created_at"] or "")[:10]),
              ("hasVersion", str(s["version"] or "")),
              ("extent", f"{s['texts']} texts, {s['words']} words, {s['publications']} publications")]
    fields += [("language", lang) for lang in s["languages"]]
    body = "\n".join(f"  <{'dcterms' if k in ('hasVersion', 'extent') else 'dc'}:{k}>{escape(str(v))}"
                     f"</{'dcterms' if k in ('hasVersion', 'extent') else 'dc'}:{k}>" for k, v in fields)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<metadata xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/">\n'
            f"{body}\n</metadata>\n")


def dcat(conn) -> str:
    s = collection_summary(conn)
    years = sorted(s["years"])
    doc = {
        "@context": {"dcat": "http://www.w3.org/ns/dcat#", "dct": "http://purl.org/dc/terms/",
                     "foaf": "http://xmlns.com/foaf/0.1/", "xsd": "http://www.w3.org/2001/XMLSchema#"},
        "@id": s["url"],
        "@type": "dcat:Dataset",
        "dct:title": s["title"],
        "dct:description": DESCRIPTION,
        "dct:publisher": {"@type": "foaf:Agent", "foaf:name": s["publisher"]},
        "dct:language": list(s["languages"]),
        "dcat:version": str(s["version"] or ""),
        "dct:modified": {"@value": s["version_created_at"] or "", "@type": "xsd:dateTime"},
        "dcat:keyword": ["news", "Norwegian", "web archive", "corpus"],
        "dct:extent": f"{s['texts']} texts, {s['words']} words, {s['publications']} publications",
        "dcat:distribution": {"@type": "dcat:Distribution", "dcat:accessURL": {"@id": s["url"]},
                              "dct:title": "Research API (counts, concordances, exports of metadata)"},
    }
    if years:
        doc["dct:temporal"] = {"@type": "dct:PeriodOfTime",
                               "dcat:startDate": {"@value": f"{years[0]}-01-01", "@type": "xsd:date"},
                               "dcat:endDate": {"@value": f"{years[-1]}-12-31", "@type": "xsd:date"}}
    return json.dumps(doc, ensure_ascii=False, indent=2)


def citation(conn, fmt: str = "ris") -> str:
    from warc2corpus.research.query import BadRequest

    if fmt not in ("ris", "bibtex"):
        raise BadRequest("format", f"'ris' or 'bibtex', not {fmt!r}")
    s = collection_summary(conn)
    year = (s["version_created_at"] or "")[:4]
    version = s["version"] or ""
    note = f"{s['texts']} texts, {s['words']} words"
    if fmt == "ris":
        return "\n".join([
            "TY  - DATA", f"TI  - {s['title']}", f"PB  - {s['publisher']}", f"PY  - {year}",
            f"ET  - version {version}", f"UR  - {s['url']}", f"N1  - {note}", "ER  - ", ""])
    key = f"webnews{year}v{version}"
    return (f"@misc{{{key},\n  title = {{{s['title']}}},\n  publisher = {{{s['publisher']}}},\n"
            f"  year = {{{year}}},\n  version = {{{version}}},\n  url = {{{s['url']}}},\n"
            f"  note = {{{note}}}\n}}\n")
