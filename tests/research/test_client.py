"""The Python client (warc2corpus.research.client): the same DataFrames over HTTP from a real
`warc2corpus serve` (uvicorn on loopback) and from the library on the database, over the demo corpus;
clear errors for an unreachable server, bad filters and unknown corpora."""

from __future__ import annotations

import socket

import pandas as pd
import pytest
from pandas.testing import assert_frame_equal

from test_api import demo_url, serve  # noqa: F401  (the demo corpus fixture and the real server)
from warc2corpus import research
from warc2corpus.store import db
from warc2corpus.research import auth
from warc2corpus.research.client import ApiError, Corpus, Source, Unreachable, connect


@pytest.fixture(scope="module")
def api(demo_url, tmp_path_factory):  # noqa: F811
    with serve(demo_url, tmp_path_factory.mktemp("serve") / "serve.log") as (base, _):
        yield base + "/corpus"


def _analyses(source: Source, reference: Corpus) -> dict[str, pd.DataFrame]:
    corpus = Corpus(text="kommunen OR fylket", languages=["nob", "nno"], published_from="2024-01-01",
                    name="kommunar", source=source)
    once = Corpus(text="kommunen OR fylket", languages=["nob", "nno"], published_from="2024-01-01",
                  near_duplicates="once", source=source)
    whole = Corpus(text="kommunen OR fylket", languages=["nob", "nno"], published_from="2024-01-01",
                   truncated="none", source=source)
    return {
        "whole": pd.DataFrame([{"size": whole.size, "truncated": whole.definition["filter"]["truncated"]}]),
        "size": pd.DataFrame([{"size": corpus.size, "definition": str(corpus.definition)}]),
        "once": pd.DataFrame([{"size": once.size, "near_duplicates": once.definition["filter"]["near_duplicates"]}]),
        "frame": corpus.frame,
        "concordance": corpus.concordance("kommunen", before=5, after=5),
        "collocations": corpus.collocations("kommunen", before=3, after=3),
        "collocations_ref": corpus.collocations("kommunen", reference=reference),
        "frequencies": corpus.frequencies(n=20),
        "bigrams": corpus.frequencies(n=10, ngram=2),
        "trend": corpus.trend(["kommunen", "fylket"], split="language"),
        "collection_frequencies": source.frequencies(["kommunen", "og"]),
        "collection_trend": source.trend("kommunen", period="month"),
        "reopened": Corpus.from_id(corpus.id, source=source).frame,
    }


def test_the_client_answers_the_same_over_http_and_from_the_database(api, demo_url):  # noqa: F811
    over_http, direct = connect(api), connect(demo_url)
    with over_http, direct:
        reference_http = Corpus(languages=["nob"], source=over_http)
        reference_db = Corpus(languages=["nob"], source=direct)
        answers = _analyses(over_http, reference_http), _analyses(direct, reference_db)
        assert over_http.collection() == direct.collection()
    for name in answers[0]:
        assert_frame_equal(answers[0][name], answers[1][name], obj=name)
    got = answers[0]
    # what a researcher sees is the demo corpus's: 4 hits of "kommunen", in documents of 2024
    assert got["concordance"].attrs["total"] == 4 and len(got["concordance"]) == 4
    assert got["concordance"].attrs == answers[1]["concordance"].attrs
    assert {"left", "hit", "right", "doc_id", "title"} <= set(got["concordance"].columns)
    assert got["concordance"]["hit"].str.lower().eq("kommunen").all()
    frame = got["frame"]
    assert len(frame) == got["size"]["size"][0] > 0
    # the demo's AMP copy of an article, captured a day later, is its near-duplicate: counted once when asked
    assert got["once"]["near_duplicates"][0] == "once" and 0 < got["once"]["size"][0] < len(frame)
    # no capture of the demo was cut by its crawler: leaving such texts out leaves the corpus as it is
    assert got["whole"]["truncated"][0] == "none" and got["whole"]["size"][0] == len(frame)
    assert frame["published"].min() >= pd.Timestamp("2024-01-01")
    assert set(frame["language"]) <= {"nob", "nno"}
    assert {"count", "relative", "log_likelihood", "pmi"} <= set(got["collocations"].columns)
    assert got["frequencies"]["count"].is_monotonic_decreasing
    assert set(got["trend"]["language"]) <= {"nob", "nno"}
    assert_frame_equal(got["frame"], got["reopened"])


def test_a_corpus_from_an_excel_or_csv_file_of_ids(api, demo_url, tmp_path):  # noqa: F811
    with connect(demo_url) as source:
        ids = list(Corpus(languages=["nno"], source=source).frame["doc_id"])
    assert len(ids) == 2  # the demo's two Nynorsk articles
    # as a researcher would: the corpus downloaded as Excel (ids as text: Excel keeps 15 digits of a number),
    # a row added by hand
    (tmp_path / "ids.xlsx").write_bytes(research.export([{"doc_id": i} for i in ids + [999]], "xlsx"))
    (tmp_path / "ids.csv").write_text("doc_id\n" + "\n".join(map(str, ids)) + "\n")
    for url in (api, demo_url):
        with connect(url) as source:
            from_excel = Corpus.from_file(tmp_path / "ids.xlsx", name="nynorsk", source=source)
            assert (from_excel.size, from_excel.unknown_ids, from_excel.name) == (2, ["999"], "nynorsk")
            assert sorted(from_excel.frame["doc_id"]) == sorted(ids)
            assert Corpus.from_file(tmp_path / "ids.csv", source=source).size == 2


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_clear_errors(api, demo_url, monkeypatch, tmp_path):  # noqa: F811
    with pytest.raises(Unreachable, match="cannot be reached.*warc2corpus serve"):
        Corpus(languages=["nob"], source=f"http://127.0.0.1:{_closed_port()}/corpus")
    for url in (api, demo_url):
        with connect(url) as source:
            with pytest.raises(research.BadRequest) as bad:
                Corpus(published_from="last spring", source=source)
            assert bad.value.param == "published_from"
            with pytest.raises(research.BadRequest) as bad:
                Corpus(languages=["nob"], source=source).concordance("kommunen", before=20, after=20)
            assert bad.value.param == "window"
            with pytest.raises(research.NotFound, match="nosuchcorp"):
                Corpus.from_id("nosuchcorp", source=source)
    with pytest.raises(research.BadRequest, match="API URL .* or a database URL"):
        connect("ftp://example.org")
    # a server that requires a token: refused without one, answered with one
    with serve(demo_url, tmp_path / "serve.log", require_token="1") as (base, _):
        with pytest.raises(ApiError, match="requires a token") as refused:
            connect(base + "/corpus").collection()
        assert refused.value.status == 401
        with db.connect(demo_url) as conn:
            token = auth.create_token(conn, "a researcher", scope="research", by="test")["token"]
            conn.commit()
        with connect(base + "/corpus", token=token) as source:
            assert Corpus(languages=["nno"], source=source).size == 2
    monkeypatch.setenv("WARC2CORPUS_RESEARCH", demo_url)
    with connect() as source:
        assert source.collection()["texts"] == 10
        assert "@" not in repr(source)
