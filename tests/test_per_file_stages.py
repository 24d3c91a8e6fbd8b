"""The filter and deduplicate stages decide by the documents' heads (host, identity, capture order,
size), staged beside the documents by extract: they never read or write a document, and the load
reads the documents whose heads are left."""

from __future__ import annotations

import gzip

import pytest

from warc2corpus.records import Capture, FileStatus, Head
from warc2corpus.stages import per_file
from warc2corpus.store.staging import Staging


def _doc(doc_id: int, host: str, offset: int, harvest_time: str | None, n_tokens: int = 3) -> dict:
    return {"doc_id": doc_id, "host": host, "warc_file": "a.warc.gz", "record_offset": offset,
            "record_length": 100, "record_id": f"<urn:uuid:{offset}>", "url": f"https://{host}/{doc_id}",
            "harvest_time": harvest_time, "record_url": f"https://{host}/{doc_id}", "payload_digest": None,
            "digest_ok": None, "truncated": None, "n_tokens": n_tokens, "title": "Æ, ø og å — «sitat»",
            "paragraphs": [["Kommunen sparer penger.", ["Kommunen", "sparer", "penger", "."], [0, 9, 16, 22], "nob"]]}


def _head(doc: dict, line: int) -> dict:
    return Head(**{k: doc[k] for k in Capture.keys()}, host=doc["host"], n_tokens=doc["n_tokens"], line=line).to_dict()


def _lines(staging: Staging, key: str) -> list[bytes]:
    return gzip.decompress(staging.path(key).read_bytes()).splitlines(keepends=True)


def test_filter_and_deduplicate_read_heads_and_the_load_the_documents_left(tmp_path):
    staging = Staging(tmp_path)
    docs = [_doc(1, "avisa.no", 10, "2024-01-02T00:00:00Z"), _doc(2, "annen.no", 20, "2024-01-02T00:00:00Z"),
            _doc(1, "avisa.no", 30, "2024-01-01T00:00:00Z"),    # an earlier capture of document 1
            _doc(3, "avisa.no", 40, "2024-01-03T00:00:00Z", n_tokens=0),  # no text
            _doc(4, "avisa.no", 50, None)]                      # a record without a date
    staging.write_jsonl("job/run/a/extracted.jsonl.gz", docs)
    staging.write_jsonl("job/run/a/heads.jsonl.gz", [_head(doc, n) for n, doc in enumerate(docs)])
    staged_documents = staging.path("job/run/a/extracted.jsonl.gz").read_bytes()
    heads = _lines(staging, "job/run/a/heads.jsonl.gz")
    staging.write_json("job/run/allow.json.gz", {"avisa.no": "accepted", "annen.no": "rejected"})
    manifest = {"status": FileStatus.EXTRACTED, "warc_file": "a.warc.gz", "crawl_job": "job", "run_id": "run",
                "staged": {"documents": "job/run/a/extracted.jsonl.gz", "heads": "job/run/a/heads.jsonl.gz",
                           "rejections": []}, "counts": {}}

    filtered = per_file.filter(manifest, {"allow_list": "job/run/allow.json.gz"}, staging=staging)
    assert _lines(staging, filtered["staged"]["heads"]) == [heads[0], heads[2], heads[3], heads[4]]  # as staged
    assert filtered["counts"]["filtered"] == {"host_rejected": 1}
    [rejected] = staging.read_jsonl(filtered["staged"]["rejections"][0])
    assert (rejected["host"], rejected["record_offset"], rejected["url"], rejected["reason"]) \
        == ("annen.no", 20, "https://annen.no/2", "host_rejected")

    deduplicated = per_file.deduplicate(filtered, staging=staging)
    assert _lines(staging, deduplicated["staged"]["heads"]) == [heads[2], heads[4]]  # the earliest capture, as staged
    [later] = staging.read_jsonl(deduplicated["staged"]["later_captures"])
    assert later == {k: docs[0][k] for k in Capture.keys()}
    [empty] = staging.read_jsonl(deduplicated["staged"]["rejections"][-1])
    assert (empty["record_offset"], empty["reason"]) == (40, "empty_text")

    # The documents were never written again; the load reads those whose heads are left, each time asked.
    assert deduplicated["staged"]["documents"] == manifest["staged"]["documents"]
    assert staging.path("job/run/a/extracted.jsonl.gz").read_bytes() == staged_documents
    documents = per_file._documents_left_in(staging, deduplicated["staged"])
    assert list(documents()) == list(documents()) == [docs[2], docs[4]]


def test_a_file_staged_without_heads_says_how_to_stage_it_again(tmp_path):
    """A manifest from a run under way when warc2corpus was upgraded (its documents staged, no heads)."""
    staging = Staging(tmp_path)
    staging.write_jsonl("job/run/a/extracted.jsonl.gz", [_doc(1, "avisa.no", 10, "2024-01-02T00:00:00Z")])
    staging.write_json("job/run/allow.json.gz", {"avisa.no": "accepted"})
    manifest = {"status": FileStatus.EXTRACTED, "warc_file": "a.warc.gz", "crawl_job": "job", "run_id": "run",
                "staged": {"documents": "job/run/a/extracted.jsonl.gz", "rejections": []}, "counts": {}}
    for stage in (lambda: per_file.filter(manifest, {"allow_list": "job/run/allow.json.gz"}, staging=staging),
                  lambda: per_file.deduplicate(manifest, staging=staging)):
        with pytest.raises(ValueError, match="a.warc.gz was staged by an earlier warc2corpus.*clear this file's extract"):
            stage()
