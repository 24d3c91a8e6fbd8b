"""Slotted dataclasses or msgspec Structs for the records the stages hand on (warc2corpus.records)?

Measures, per document of 12 paragraphs, in one process: building the record, writing it as a staged
JSON line, and reading it back into a record, for a plain dict (today's staging), the slotted
dataclass of warc2corpus.records (stdlib json) and an equivalent msgspec.Struct (msgspec.json; msgspec
0.23.0 is in constraints.txt through Airflow, not a dependency of the library). Best of 5 rounds,
the garbage collector off.

    .venv/bin/python bench/records.py [--documents 20000]
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import json
import time
import typing

import msgspec

from warc2corpus.records import Document, Paragraph


# The same fields, types and defaults as records.Document, as a msgspec Struct.
DocumentStruct = msgspec.defstruct("DocumentStruct", [
    (f.name, typing.get_type_hints(Document)[f.name], *(() if f.default is dataclasses.MISSING else (f.default,)))
    for f in dataclasses.fields(Document)])


def fields(n: int) -> dict:
    text = "Ferja mellom Fjordvik og Nesøy ble innstilt i går på grunn av sterk vind, opplyser rederiet."
    tokens = text.replace(",", " ,").replace(".", " .").split()
    starts = list(range(0, len(tokens) * 5, 5))
    return {"warc_file": "/data/crawl/x.warc.gz", "record_offset": n * 1000, "record_length": 999,
            "record_id": f"<urn:uuid:{n:032x}>", "url": f"https://www.fjordvik.no/nyheter/{n}",
            "harvest_time": "2024-05-01T12:00:00Z", "crawl_job": "demo", "doc_id": n * 7919, "text_sha1": "ab" * 20,
            "host": "www.fjordvik.no", "url_path": f"/nyheter/{n}", "title": "Ferja innstilt", "author": None,
            "published": "2024-05-01", "language": "nob", "n_paragraphs": 12, "n_tokens": 12 * len(tokens),
            "paragraphs": [(text, tokens, starts, "nob")] * 12, "page_type": "article", "mixed_language": False,
            "language_shares": '{"nob": 1.0}', "dropped": "{}", "text_source": "trafilatura", "rejected": None}


def best(function, rounds: int = 5) -> float:
    """Best wall time of ``rounds`` calls, the cyclic garbage collector off (it would charge one side
    for the objects the other left)."""
    times = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        try:
            started = time.perf_counter()
            function()
            times.append(time.perf_counter() - started)
        finally:
            gc.enable()
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=20000)
    n = parser.parse_args().documents
    raw = [fields(i) for i in range(n)]
    dicts_lines = [json.dumps(d) for d in raw]
    dataclasses_built = [Document(**{**d, "paragraphs": [Paragraph(*p) for p in d["paragraphs"]]}) for d in raw]
    structs_built = [DocumentStruct(**d) for d in raw]
    encoder, decoder = msgspec.json.Encoder(), msgspec.json.Decoder(DocumentStruct)
    struct_lines = [encoder.encode(s) for s in structs_built]
    sides = {
        "dict (today)": (lambda: [dict(d) for d in raw],
                         lambda: [json.dumps(d) for d in raw],
                         lambda: [json.loads(line) for line in dicts_lines]),
        "dataclass(slots=True) + json": (
            lambda: [Document(**{**d, "paragraphs": [Paragraph(*p) for p in d["paragraphs"]]}) for d in raw],
            lambda: [json.dumps(doc.to_dict()) for doc in dataclasses_built],
            lambda: [Document(**json.loads(line)) for line in dicts_lines]),
        "msgspec.Struct + msgspec.json": (lambda: [DocumentStruct(**d) for d in raw],
                                          lambda: [encoder.encode(s) for s in structs_built],
                                          lambda: [decoder.decode(line) for line in struct_lines]),
    }
    print(f"{n} documents of 12 paragraphs; µs per document, best of 5")
    print(f"{'':32} {'build':>8} {'to JSON':>8} {'from JSON':>10}")
    for name, (build, write, read) in sides.items():
        print(f"{name:32} " + " ".join(f"{best(step) / n * 1e6:8.2f}" for step in (build, write)) +
              f" {best(read) / n * 1e6:10.2f}")


if __name__ == "__main__":
    main()
