"""The research API standalone (in-process, through its ASGI app): every endpoint over the demo corpus,
exports, bad input, statement timeouts, and who may change what (API tokens)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import csv
import hashlib
import io
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import httpx
import openpyxl
import psycopg
import pytest
from fastapi.testclient import TestClient

from conftest import DEMO_WARCS, _with_database, run_cli
from warc2corpus import research, settings as w2c_settings
from warc2corpus.stages import run
from warc2corpus.store import db
from warc2corpus.research import auth
from warc2corpus.research.api import Settings, standalone_app


@pytest.fixture(scope="module")
def demo_url(server_url, tmp_path_factory):
    """A corpus database with the demo WARCs loaded and the research index built, for this module."""
    name = "w2c_test_api_" + uuid.uuid4().hex[:10]
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = _with_database(server_url, name)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(w2c_settings.DATABASE_URL_VARIABLE, url)
        patch.setenv("WARC2CORPUS_STAGING", str(tmp_path_factory.mktemp("staging")))
        run.run_files(sorted(DEMO_WARCS.glob("*.warc.gz")), "demo")
        with db.connect(url) as conn:
            research.refresh_index(conn)
            conn.commit()
    yield url
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def make_client(url: str, **settings) -> TestClient:
    return TestClient(standalone_app(Settings(database_url=url, **settings)))


@pytest.fixture(scope="module")
def client(demo_url):
    with make_client(demo_url) as client:
        yield client


def new_token(url: str, name: str, scope: str) -> dict:
    with db.connect(url) as conn:
        created = auth.create_token(conn, name, scope=scope, by="test")
        conn.commit()
    return created


def bearer(token: str) -> dict:
    return {"Authorization": f"Bearer {token}"}


# ---------------------------------------------------------------------------------------------
# The OpenAPI page and the endpoints
# ---------------------------------------------------------------------------------------------

ENDPOINTS = {
    "/collection": {"get"}, "/collection/dublin-core": {"get"}, "/collection/dcat": {"get"},
    "/collection/citation": {"get"}, "/documents": {"get"}, "/documents/count": {"get"}, "/corpora": {"post"},
    "/corpora/from-file": {"post"}, "/corpora/{corpus_id}": {"get"}, "/corpora/{corpus_id}/documents": {"get"},
    "/frequencies": {"get"}, "/trends": {"get"}, "/concordance": {"get"}, "/collocations": {"get"},
    "/publications": {"get"}, "/publications/{host}": {"get"}, "/publications/{host}/decision": {"post"},
    "/tokens": {"get", "post"}, "/tokens/{token_id}": {"delete"},
}


def test_openapi_page_documents_every_endpoint(client):
    spec = client.get("/corpus/openapi.json").json()
    assert {path: set(ops) for path, ops in spec["paths"].items()} == ENDPOINTS
    concordance = {p["name"] for p in spec["paths"]["/concordance"]["get"]["parameters"]}
    assert {"query", "corpus", "before", "after", "limit", "offset", "seed", "format"} <= concordance
    page = client.get("/corpus/docs")
    assert page.status_code == 200 and "/corpus/openapi.json" in page.text
    home = client.get("/", follow_redirects=False)
    assert home.status_code == 307 and home.headers["location"] == "/corpus/app/"  # the researcher page


def test_collection_description_matches_the_library(client, demo_url):
    with research.connect(demo_url) as conn:
        summary = research.collection_summary(conn)
        dublin_core = research.dublin_core(conn)
        dcat = research.dcat(conn)
        ris = research.citation(conn, "ris")
        bibtex = research.citation(conn, "bibtex")
    assert client.get("/corpus/collection").json() == summary
    answer = client.get("/corpus/collection/dublin-core")
    assert answer.headers["content-type"].startswith("application/xml") and answer.text == dublin_core
    answer = client.get("/corpus/collection/dcat")
    assert answer.headers["content-type"].startswith("application/ld+json") and answer.json() == json.loads(dcat)
    assert client.get("/corpus/collection/citation").text == ris
    assert client.get("/corpus/collection/citation?format=bibtex").text == bibtex


def test_a_corpus_can_leave_out_the_texts_of_captures_the_crawler_cut(client, demo_url):
    """truncated=none: no document read from a capture marked WARC-Truncated; the definition keeps it."""
    with psycopg.connect(demo_url) as conn:
        cut = conn.execute("UPDATE documents SET truncated = 'length' WHERE doc_id = "
                           "(SELECT min(doc_id) FROM documents WHERE page_type = 'article' AND NOT withdrawn) "
                           "RETURNING doc_id").fetchone()[0]
    try:
        every = client.get("/corpus/documents", params={"limit": 5000}).json()
        whole = client.get("/corpus/documents", params={"limit": 5000, "truncated": "none"}).json()
        assert cut in {r["doc_id"] for r in every} and [r for r in every if r["doc_id"] != cut] == whole
        assert [r["truncated"] for r in every if r["doc_id"] == cut] == ["length"]
        assert client.get("/corpus/documents/count", params={"truncated": "none"}).json() == {"count": len(whole)}
        saved = client.post("/corpus/corpora", json={"truncated": "none", "limit": 5000})
        assert saved.status_code == 201 and saved.json()["definition"]["filter"]["truncated"] == "none"
        assert saved.json()["documents"] == len(whole)
    finally:
        with psycopg.connect(demo_url) as conn:
            conn.execute("UPDATE documents SET truncated = NULL WHERE doc_id = %s", (cut,))


def _cells(xlsx: bytes) -> list[tuple]:
    return list(openpyxl.load_workbook(io.BytesIO(xlsx), read_only=True).worksheets[0].iter_rows(values_only=True))


def test_documents_are_the_library_corpus_in_every_format(client, demo_url):
    query = {"languages": ["nob", "nno"], "order": "date"}
    with research.connect(demo_url) as conn:
        expected = research.build_corpus(conn, research.CorpusFilter.from_params(query))
    assert expected, "the demo corpus has Bokmål and Nynorsk documents"
    rows = client.get("/corpus/documents", params=query).json()
    assert rows == expected
    assert {r["language"] for r in rows} == {"nob", "nno"}
    assert client.get("/corpus/documents/count", params=query).json() == {"count": len(expected)}
    for fmt in ("csv", "jsonl", "xlsx"):
        answer = client.get("/corpus/documents", params={**query, "format": fmt})
        assert answer.status_code == 200
        assert answer.headers["content-disposition"] == f'attachment; filename="documents.{fmt}"'
        if fmt == "xlsx":  # a workbook carries the time it was made: compare the cells
            assert _cells(answer.content) == _cells(research.export(expected, fmt))
        else:
            assert answer.content == research.export(expected, fmt)
    lines = client.get("/corpus/documents", params={**query, "format": "jsonl"}).text.splitlines()
    assert [json.loads(line) for line in lines] == expected
    table = list(csv.DictReader(io.StringIO(client.get("/corpus/documents", params={**query, "format": "csv"})
                                            .content.decode("utf-8-sig"))))
    assert [r["doc_id"] for r in table] == [str(r["doc_id"]) for r in expected]


def test_analysis_endpoints_answer_what_the_library_answers(client, demo_url):
    with research.connect(demo_url) as conn:
        freq = research.frequencies(conn, n=20)
        bigrams = research.frequencies(conn, n=10, ngram=2)
        chosen = research.frequencies(conn, words=["og", "i"])
        trend = research.trend(conn, ["og"], period="month", split="language")
        conc = research.concordance(conn, "og", before=5, after=5, limit=7)
        colloc = research.collocations(conn, "og", n=15)
    assert client.get("/corpus/frequencies?n=20").json() == freq
    assert client.get("/corpus/frequencies?n=10&ngram=2").json() == bigrams
    assert client.get("/corpus/frequencies?words=og&words=i").json() == chosen
    assert client.get("/corpus/trends?terms=og&period=month&split=language").json() == trend
    answer = client.get("/corpus/concordance?query=og&before=5&after=5&limit=7").json()
    assert answer == conc and conc["lines"]
    for line in answer["lines"]:
        assert len((line["left"] + " " + line["hit"] + " " + line["right"]).split()) <= 11
    assert client.get("/corpus/concordance?query=og&before=5&after=5&limit=7&format=csv").content == \
        research.export(conc["lines"], "csv")
    assert client.get("/corpus/collocations?query=og&n=15").json() == colloc


def test_saved_corpora_by_definition_and_from_an_id_file(client, demo_url):
    saved = client.post("/corpus/corpora", json={"languages": ["nno"], "name": "nynorsk"})
    assert saved.status_code == 201, saved.text
    corpus = saved.json()
    assert corpus["name"] == "nynorsk" and corpus["documents"] > 0
    assert client.get(f"/corpus/corpora/{corpus['id']}").json()["id"] == corpus["id"]
    rows = client.get(f"/corpus/corpora/{corpus['id']}/documents").json()
    assert len(rows) == corpus["documents"] and {r["language"] for r in rows} == {"nno"}
    # the saved corpus as an id file, with an id nobody knows
    ids = "doc_id\n" + "".join(f"{r['doc_id']}\n" for r in rows) + "999999999999\n"
    uploaded = client.post("/corpus/corpora/from-file", files={"file": ("ids.csv", ids.encode(), "text/csv")},
                           data={"name": "from a file"})
    assert uploaded.status_code == 201, uploaded.text
    made = uploaded.json()
    assert made["documents"] == corpus["documents"] and made["unknown_ids"] == ["999999999999"]
    again = client.get(f"/corpus/corpora/{made['id']}/documents").json()
    assert sorted(r["doc_id"] for r in again) == sorted(r["doc_id"] for r in rows)
    # the corpus serves as the scope of an analysis
    with research.connect(demo_url) as conn:
        expected = research.frequencies(conn, corpus=corpus["id"], n=5)
    assert client.get(f"/corpus/frequencies?corpus={corpus['id']}&n=5").json() == expected


def _paragraphs(url: str, min_words: int = 26) -> list[str]:
    with psycopg.connect(url) as conn:
        return [t for (t,) in conn.execute("SELECT text FROM paragraphs WHERE array_length(tokens, 1) >= %s",
                                           (min_words,))]


def test_no_endpoint_returns_a_full_text(client, demo_url):
    paragraphs = _paragraphs(demo_url)
    assert paragraphs, "the demo corpus has paragraphs longer than a concordance window"
    corpus = client.post("/corpus/corpora", json={"limit": 100}).json()["id"]
    answers = []
    for path in ("/collection", "/collection/dublin-core", "/collection/dcat", "/collection/citation",
                 "/documents?limit=100", "/documents?format=jsonl", f"/corpora/{corpus}",
                 f"/corpora/{corpus}/documents?format=csv", "/frequencies?n=100000&per_document=true",
                 "/trends?terms=og", "/concordance?query=og&limit=1000&before=12&after=12",
                 "/concordance?query=og&format=jsonl", "/collocations?query=og&n=1000", "/publications",
                 "/publications/www.fjordposten.no"):
        answer = client.get("/corpus" + path)
        assert answer.status_code == 200, (path, answer.text)
        answers.append(re.sub(r"\s+", " ", answer.content.decode("utf-8")))
    for text in paragraphs:
        text = re.sub(r"\s+", " ", text)
        assert not any(text in answer for answer in answers), text


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, param, status", [
    ("/documents?publications=no-such-paper.example", "publications", 400),
    ("/documents/count?publications=no-such-paper.example", "publications", 400),
    ("/concordance?query=og&before=15&after=15", "window", 400),
    ("/concordance?query=og&limit=1001", "limit", 400),
    ('/concordance?query=%22og', "query", 400),
    ("/documents?text=(og%20AND", "text", 400),
    ("/documents?limit=100001", "limit", 400),
    ("/documents?limit=many", "limit", 400),
    ("/documents?publication=www.fjordposten.no", "publication", 400),
    ("/documents?format=pdf", "format", 400),
    ("/documents?truncated=some", "truncated", 400),
    ("/documents?published_from=yesterday", "published_from", 400),
    ("/trends", "terms", 400),
    ("/concordance", "query", 400),
    ("/corpora/no-such-corpus", None, 404),
    ("/frequencies?corpus=no-such-corpus", None, 404),
    ("/publications/no-such-host.example", "host", 404),
    # what PostgreSQL refuses, or Python cannot parse, is refused here, by name: none of it was a 500 (a NUL
    # character anywhere, a query nested deeper than Python recurses) or a 503 "the corpus database cannot be
    # reached" (a word longer than a tsquery takes)
    ("/frequencies?words=ferje%00", "words", 400),
    ("/documents?publications=www.fjordposten.no%00", "publications", 400),
    ("/documents?languages=nob%00", "languages", 400),
    ("/documents?text=og%00", "text", 400),
    ("/trends?terms=og%00", "terms", 400),
    ("/corpora/%00", None, 404),
    ("/frequencies?corpus=a%00b", None, 404),
    ("/collocations?query=og&reference=%00", None, 404),
    ("/documents?text=" + "a" * 2001, "text", 400),
    ("/documents/count?text=og%20" + "b" * 2001 + "*", "text", 400),
    ("/concordance?query=%22og%20" + "å" * 1001 + "%22", "query", 400),
    ("/documents?text=" + "(" * 500 + "og" + ")" * 500, "text", 400),
    ("/documents/count?text=" + "NOT%20" * 1000 + "og", "text", 400),
    ("/concordance?query=" + "(" * 1000 + "og" + ")" * 1000, "query", 400),
])
def test_bad_input_gets_a_json_error_naming_the_parameter(client, path, param, status):
    answer = client.get("/corpus" + path)
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert body["detail"]
    if param:
        assert body["param"] == param


def test_a_bad_id_file_and_a_bad_body_are_named(client):
    answer = client.post("/corpus/corpora/from-file", files={"file": ("ids.pdf", b"%PDF-1.4", "application/pdf")})
    assert answer.status_code == 400 and answer.json()["param"] == "file"
    answer = client.post("/corpus/corpora", json={"languages": "nob", "limit": 5, "colour": "red"})
    assert answer.status_code == 400 and answer.json()["param"] in ("languages", "colour")
    for body in ({"name": "Ferjer\x00", "text": "ferje*"}, {"name": "n" * 501, "text": "ferje*"}):
        answer = client.post("/corpus/corpora", json=body)
        assert answer.status_code == 400 and answer.json()["param"] == "name", answer.text
    answer = client.post("/corpus/corpora/from-file", files={"file": ("ids.csv", b"doc_id\n1\n2\x003\n", "text/csv")})
    assert answer.status_code == 400 and answer.json()["param"] == "file", answer.text
    assert "row 3 holds a NUL character" in answer.json()["detail"]


def test_nesting_within_the_limit_and_a_long_name_are_taken(client):
    """The limits refuse only what is past them: 20 levels of parentheses and NOTs, a name of 500 characters."""
    nested = client.get("/corpus/documents/count", params={"text": "(" * 19 + "NOT ferje" + ")" * 19})
    plain = client.get("/corpus/documents/count", params={"text": "NOT ferje"})
    assert nested.status_code == 200 and nested.json() == plain.json(), nested.text
    saved = client.post("/corpus/corpora", json={"name": "n" * 500, "text": "ferje*"})
    assert saved.status_code == 201 and saved.json()["name"] == "n" * 500, saved.text


@pytest.mark.parametrize("error, status, says", [
    (psycopg.errors.ProgramLimitExceeded("word is too long to be indexed"), 400,
     "past one of its limits (word is too long to be indexed)"),
    (psycopg.errors.OutOfMemory("out of memory"), 503, "short of resources (out of memory)"),
    (psycopg.OperationalError("connection refused"), 503, "cannot be reached"),
])
def test_what_the_database_refuses_is_told_as_it_is(client, monkeypatch, error, status, says):
    """psycopg's OperationalError holds the server's limits (SQLSTATE 54) and its want of resources (53) as well
    as a lost connection: each is told as what it is (a limit was a 503 'cannot be reached')."""
    def refuse(*args, **kwargs):
        raise error

    monkeypatch.setattr(research, "count_corpus", refuse)
    answer = client.get("/corpus/documents/count")
    assert answer.status_code == status and says in answer.json()["detail"], answer.text
    assert ("Retry-After" in answer.headers) == (status == 503)


def test_a_query_past_the_statement_timeout_is_stopped_with_503(demo_url):
    """A lock held elsewhere makes the query wait; PostgreSQL cancels it at the statement timeout."""
    with make_client(demo_url, timeout_ms=300) as client, psycopg.connect(demo_url) as locker:
        locker.execute("LOCK TABLE documents, research_docs IN ACCESS EXCLUSIVE MODE")
        started = time.monotonic()
        answer = client.get("/corpus/documents/count?languages=nob")
        waited = time.monotonic() - started
        locker.rollback()
        assert answer.status_code == 503, answer.text
        assert "longer than 0.3 s" in answer.json()["detail"]
        assert waited < 5
        assert client.get("/corpus/documents/count?languages=nob").status_code == 200  # nothing left hanging


# ---------------------------------------------------------------------------------------------
# Who may change what
# ---------------------------------------------------------------------------------------------

def _changes(token_id: int):
    """Every state-changing (or token-revealing) endpoint: (method, path, JSON body)."""
    return [
        ("post", "/corpus/publications/www.ukeskrift-nord.no/decision", {"decision": "accept", "note": "checked"}),
        ("get", "/corpus/tokens", None),
        ("post", "/corpus/tokens", {"name": "someone", "scope": "research"}),
        ("delete", f"/corpus/tokens/{token_id}", None),
    ]


def _call(client, method, path, body, headers=None):
    return client.request(method.upper(), path, json=body, headers=headers or {})


def test_changes_need_an_admin_token(client, demo_url):
    admin = new_token(demo_url, "editor", "admin")
    reader = new_token(demo_url, "a researcher", "research")
    victim = new_token(demo_url, "to revoke", "research")
    revoked = new_token(demo_url, "former editor", "admin")
    with db.connect(demo_url) as conn:
        auth.revoke_token(conn, revoked["id"])
        conn.commit()
    forged = "w2c_" + "A" * 43
    airflow_like = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl"
    for method, path, body in _changes(victim["id"]):
        assert _call(client, method, path, body).status_code == 401, path
        for token in (forged, airflow_like, revoked["token"]):
            assert _call(client, method, path, body, bearer(token)).status_code == 401, (path, token)
        assert _call(client, method, path, body, {"Authorization": "Basic ZWRpdG9yOmVkaXRvcg=="}).status_code == 401
        answer = _call(client, method, path, body, bearer(reader["token"]))
        assert answer.status_code == 403 and "scope" in answer.json()["detail"], path
    # nothing happened so far
    with db.connect(demo_url) as conn:
        assert auth.find_token(conn, victim["token"]) is not None
        assert conn.execute("SELECT count(*) FROM publication_decisions").fetchone()[0] == 0
    # the admin token does each
    outcomes = [_call(client, method, path, body, bearer(admin["token"])) for method, path, body in
                _changes(victim["id"])]
    assert [a.status_code for a in outcomes] == [200, 200, 201, 200], [a.text for a in outcomes]
    assert outcomes[0].json()["decided_by"] == "editor"
    assert outcomes[0].json()["status"] == "accepted"
    assert "token" not in json.dumps(outcomes[1].json()).replace('"token_', "")  # listing shows no values
    assert outcomes[2].json()["token"].startswith("w2c_")
    assert outcomes[3].json()["revoked_at"]
    with db.connect(demo_url) as conn:
        assert auth.find_token(conn, victim["token"]) is None
        assert conn.execute("SELECT decided_by, note FROM publication_decisions").fetchall() == \
            [("editor", "checked")]
    assert client.get("/corpus/publications/www.ukeskrift-nord.no").json()["status"] == "accepted"


def test_a_reason_the_database_cannot_keep_is_refused_and_nothing_is_decided(client, demo_url):
    admin = new_token(demo_url, "editor", "admin")
    host = "www.fjordposten.no"
    answer = client.post(f"/corpus/publications/{host}/decision", json={"decision": "reject", "note": "spam\x00"},
                         headers=bearer(admin["token"]))
    assert answer.status_code == 400 and answer.json()["param"] == "note", answer.text
    assert client.get(f"/corpus/publications/{host}").json()["decisions"] == []


def test_a_decision_to_reject_withdraws_the_hosts_documents_from_every_answer(demo_url):
    admin = new_token(demo_url, "editor", "admin")
    host = "www.dalen-tidend.no"
    with make_client(demo_url) as client:
        before = client.get("/corpus/documents").json()
        assert any(r["host"] == host for r in before)
        answer = client.post(f"/corpus/publications/{host}/decision", json={"decision": "reject"},
                             headers=bearer(admin["token"]))
        assert answer.status_code == 200 and answer.json()["withdrawn"] > 0
        assert not any(r["host"] == host for r in client.get("/corpus/documents").json())
        assert client.get("/corpus/documents/count").json()["count"] == \
            len(before) - sum(r["host"] == host for r in before)
        unknown = client.post("/corpus/publications/no-such-host.example/decision", json={"decision": "reject"},
                              headers=bearer(admin["token"]))
        assert unknown.status_code == 404 and unknown.json()["param"] == "host"
        bad = client.post(f"/corpus/publications/{host}/decision", json={"decision": "maybe"},
                          headers=bearer(admin["token"]))
        assert bad.status_code == 400 and bad.json()["param"] == "decision"
        restored = client.post(f"/corpus/publications/{host}/decision", json={"decision": "clear"},
                               headers=bearer(admin["token"]))
        assert restored.status_code == 200 and restored.json()["restored"] == answer.json()["withdrawn"]
        assert len(client.get("/corpus/documents").json()) == len(before)


def test_one_setting_makes_research_endpoints_require_a_token(demo_url, monkeypatch):
    monkeypatch.setenv("WARC2CORPUS_API_REQUIRE_TOKEN", "1")
    settings = Settings.from_env(database_url=demo_url)
    assert settings.require_token
    reader = new_token(demo_url, "a researcher", "research")
    with TestClient(standalone_app(settings)) as client:
        for path in ("/corpus/collection", "/corpus/documents/count", "/corpus/concordance?query=og"):
            refused = client.get(path)
            assert refused.status_code == 401 and refused.headers["www-authenticate"] == "Bearer"
            assert client.get(path, headers=bearer("w2c_" + "B" * 43)).status_code == 401
            assert client.get(path, headers=bearer(reader["token"])).status_code == 200
        assert client.post("/corpus/corpora", json={"limit": 3}).status_code == 401
        with db.connect(demo_url) as conn:
            auth.revoke_token(conn, reader["id"])
            conn.commit()
        assert client.get("/corpus/collection", headers=bearer(reader["token"])).status_code == 401
        assert client.get("/corpus/openapi.json").status_code == 200  # the documentation stays readable


def test_settings_from_the_environment_name_a_bad_variable(monkeypatch):
    monkeypatch.setenv("WARC2CORPUS_API_REQUIRE_TOKEN", "perhaps")
    with pytest.raises(ValueError, match="WARC2CORPUS_API_REQUIRE_TOKEN"):
        Settings.from_env()
    monkeypatch.setenv("WARC2CORPUS_API_REQUIRE_TOKEN", "0")
    monkeypatch.setenv("WARC2CORPUS_API_CONNECTIONS", "-2")
    with pytest.raises(ValueError, match="WARC2CORPUS_API_CONNECTIONS"):
        Settings.from_env()
    monkeypatch.setenv("WARC2CORPUS_API_CONNECTIONS", "3")
    monkeypatch.setenv("WARC2CORPUS_API_TIMEOUT_MS", "2500")
    assert Settings.from_env() == Settings(connections=3, timeout_ms=2500)


def test_tokens_command_creates_lists_and_revokes_tokens_stored_hashed(corpus_db, capsys):
    code, out, _ = run_cli(capsys, "tokens", "create", "Ada Lovelace", "--scope", "admin", "--json")
    assert code == 0
    created = json.loads(out)
    token = created["token"]
    assert token.startswith("w2c_") and len(token) > 40
    with db.connect(corpus_db) as conn:
        stored = conn.execute("SELECT token_sha256 FROM api_tokens WHERE id = %s", (created["id"],)).fetchone()[0]
        assert bytes(stored) == hashlib.sha256(token.encode()).digest()
        assert token.encode() not in b"".join(bytes(v) if isinstance(v, (bytes, memoryview)) else str(v).encode()
                                              for v in conn.execute("SELECT * FROM api_tokens").fetchone())
    code, out, _ = run_cli(capsys, "tokens", "list")
    assert code == 0 and "Ada Lovelace" in out and "admin" in out and token not in out
    with make_client(corpus_db) as client:
        assert client.get("/corpus/tokens", headers=bearer(token)).status_code == 200
        code, out, _ = run_cli(capsys, "tokens", "revoke", str(created["id"]))
        assert code == 0 and "revoked" in out
        assert client.get("/corpus/tokens", headers=bearer(token)).status_code == 401
    code, _, err = run_cli(capsys, "tokens", "revoke", "4242")
    assert code == 2 and "no token 4242" in err
    code, _, err = run_cli(capsys, "tokens", "create", " ")
    assert code == 2 and "name" in err


def test_a_burst_beyond_the_limit_gets_503_with_retry_after(demo_url):
    """In-process: with at most 4 requests in flight, 1 connection and a lock making queries wait, a burst of
    30 gets only 200s and 503s carrying Retry-After (the real server: test_api_server)."""
    with make_client(demo_url, max_requests=4, connections=1, wait_seconds=0.3) as client, \
            psycopg.connect(demo_url) as locker:
        locker.execute("LOCK TABLE documents, research_docs IN ACCESS EXCLUSIVE MODE")
        answers = []

        def ask():
            answers.append(client.get("/corpus/documents/count?languages=nob"))

        threads = [threading.Thread(target=ask) for _ in range(30)]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        locker.rollback()
        for thread in threads:
            thread.join(30)
    statuses = [a.status_code for a in answers]
    assert len(statuses) == 30 and set(statuses) <= {200, 503} and 200 in statuses and 503 in statuses
    assert all(a.headers.get("retry-after") for a in answers if a.status_code == 503)


# ---------------------------------------------------------------------------------------------
# The real server: `warc2corpus serve` (uvicorn) on a free loopback port
# ---------------------------------------------------------------------------------------------

def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _rss_kib(pid: int) -> int:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", status, re.M).group(1))


@contextlib.contextmanager
def serve(url: str, log: Path, **limits: str):
    """`warc2corpus serve --host 127.0.0.1 --port P` as a subprocess with these WARC2CORPUS_API_* limits;
    yields (base URL, process) once it answers."""
    port = _free_port()
    env = {**os.environ, w2c_settings.DATABASE_URL_VARIABLE: url,
           **{f"WARC2CORPUS_API_{name.upper()}": value for name, value in limits.items()}}
    with open(log, "wb") as out:
        process = subprocess.Popen([str(Path(sys.executable).with_name("warc2corpus")), "serve", "--host",
                                    "127.0.0.1", "--port", str(port)], env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(base + "/corpus/openapi.json", timeout=5).status_code == 200:  # open with tokens required
                    break
            except httpx.HTTPError:
                pass
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.3)
        yield base, process
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)


@pytest.fixture(scope="module")
def server(demo_url, tmp_path_factory):
    """The real server with at most 16 requests in flight, 2 connections, half a second of waiting for one."""
    with serve(demo_url, tmp_path_factory.mktemp("serve") / "serve.log", max_requests="16", connections="2",
               wait_seconds="0.5") as running:
        yield running


async def _burst(base: str, path: str, params: dict, n: int = 100) -> list[httpx.Response]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=120) as client:
        return await asyncio.gather(*(client.get(path, params=params) for _ in range(n)))


def test_serve_answers_on_loopback_like_the_app(server, client):
    base, _ = server
    for path in ("/corpus/collection", "/corpus/documents?languages=sme", "/corpus/concordance?query=og&limit=5"):
        assert httpx.get(base + path).json() == client.get(path).json()
    bad = httpx.get(base + "/corpus/concordance?query=og&before=20&after=20")
    assert bad.status_code == 400 and bad.json()["param"] == "window"
    assert httpx.get(base + "/corpus/docs").status_code == 200
    assert httpx.post(base + "/corpus/tokens", json={"name": "x"}).status_code == 401


def test_a_burst_of_100_concurrent_requests_gets_only_200_or_503_with_retry_after(server, demo_url):
    """Queries held up by a lock while 100 requests arrive at once: 16 in flight at most, 2 of them on a
    connection, the others refused at once or after half a second; the lock goes and the 2 finish. The
    server's memory stays bounded and it answers normally afterwards."""
    base, process = server
    rss_before = _rss_kib(process.pid)

    with psycopg.connect(demo_url) as locker:
        locker.execute("LOCK TABLE documents, research_docs IN ACCESS EXCLUSIVE MODE")
        releaser = threading.Timer(2.0, locker.rollback)
        releaser.start()
        answers = asyncio.run(_burst(base, "/corpus/documents", {"languages": "nob", "limit": 50}))
        releaser.join()
    statuses = collections.Counter(a.status_code for a in answers)
    rss_after = _rss_kib(process.pid)
    print(f"burst of 100: {dict(statuses)}; server RSS {rss_before / 1024:.0f} -> {rss_after / 1024:.0f} MiB")
    assert set(statuses) <= {200, 503} and statuses[200] >= 1 and statuses[503] >= 80, statuses
    for answer in answers:
        if answer.status_code == 503:
            assert int(answer.headers["retry-after"]) > 0 and "busy" in answer.json()["detail"]
    assert rss_after - rss_before < 100 * 1024  # KiB: the burst leaves no lasting growth
    assert httpx.get(base + "/corpus/documents/count?languages=nob").status_code == 200


def test_requests_in_flight_beyond_the_worker_threads_all_get_a_connection(demo_url, tmp_path):
    """Regression: 64 requests in flight (more than the 40 worker threads) on 4 connections. Requests that
    waited for a connection in worker threads starved the threads that held the connections, so every one
    of them waited its full wait and got 503 (76 of 100 did). They wait on the event loop now: the 64 in
    flight are answered, the 36 beyond the bound are refused at once."""
    with serve(demo_url, tmp_path / "serve.log", max_requests="64", connections="4", wait_seconds="60") as (base, _):
        answers = asyncio.run(_burst(base, "/corpus/concordance", {"query": "og", "limit": 50}))
    statuses = collections.Counter(a.status_code for a in answers)
    print(f"burst of 100, 64 in flight, 4 connections: {dict(statuses)}")
    assert set(statuses) <= {200, 503} and statuses[200] >= 64, statuses
    assert all("requests in flight" in a.json()["detail"] for a in answers if a.status_code == 503)
