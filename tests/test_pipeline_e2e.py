"""End to end: the real DAG with dag.test() over the demo WARCs into a fresh PostgreSQL database.

The demo world (demo/README.md): fjordposten, dalen-tidend and sapmi-aviisa declare a responsible
editor and a press-ethics code (accepted); bygdebloggen declares nothing (rejected); ukeskrift-nord
shows only weak evidence, "redaktøren" and a bare presse.no link (uncertain); samtykke.fjordposten.no
is a consent host autoCat ignores (unassessed).
"""

from __future__ import annotations

import secrets

import psycopg
import pytest
from warcio.archiveiterator import ArchiveIterator

from conftest import DEMO_WARCS
from test_dag import load_dag_module

WARC_1 = "DEMO-20240301120000-00000.warc.gz"
WARC_2 = "DEMO-20240302120000-00001.warc.gz"
WARC_3 = "fjordposten-spesial.warc.gz"

FP, DT, SA = "www.fjordposten.no", "www.dalen-tidend.no", "www.sapmi-aviisa.no"
# (host, path): (language, publication date, harvest time, WARC file)
EXPECTED_DOCUMENTS = {
    (FP, "/"): ("nob", None, "2024-03-01T12:00:01+00:00", WARC_1),
    (FP, "/nyheter/2024/02/ferja-innstilt"): ("nob", "2024-02-27", "2024-03-01T12:00:02+00:00", WARC_1),
    (FP, "/sport/2024/02/skirenn-i-motvind"): ("nob", "2024-02-26", "2024-03-01T12:00:03+00:00", WARC_1),
    (FP, "/amp/nyheter/2024/02/ferja-innstilt"): ("nob", "2024-02-27", "2024-03-02T12:00:02+00:00", WARC_2),
    (FP, "/nyheter/2024/02/biblioteket-utvider"): ("nob", "2024-02-29", "2024-03-03T12:00:01+00:00", WARC_3),
    (DT, "/"): ("nno", None, None, WARC_1),
    (DT, "/nyheiter/2024/02/nytt-samfunnshus"): ("nno", "2024-02-28", "2024-03-01T12:00:07+00:00", WARC_1),
    (DT, "/nyheiter/2024/02/straumbrot"): ("nno", "2024-02-29", "2024-03-02T12:00:04+00:00", WARC_2),
    (SA, "/"): ("sme", None, None, WARC_1),
    (SA, "/oddasat/2024/02/samegielkursa"): ("sme", "2024-02-28", "2024-03-01T12:00:09+00:00", WARC_1),
}
EXPECTED_REJECTIONS = {
    ("https://www.bygdebloggen.no/", "filter", "host_rejected"),
    ("https://www.bygdebloggen.no/2024/02/vinterhagen", "filter", "host_rejected"),
    ("https://www.ukeskrift-nord.no/", "filter", "host_uncertain"),
    ("https://www.ukeskrift-nord.no/nyheter/2024/02/nytt-fiskemottak", "filter", "host_uncertain"),
    ("https://samtykke.fjordposten.no/", "filter", "host_unassessed"),
    ("https://www.fjordposten.no/logo.png", "read", "not_html"),
    ("https://www.fjordposten.no/finnes-ikke", "read", "http_status"),
    ("https://www.fjordposten.no/tom-side", "dedup", "empty_text"),
}


def corpus_snapshot(url: str) -> dict:
    with psycopg.connect(url) as conn:
        def rows(sql):
            return sorted(conn.execute(sql).fetchall())

        return {
            "documents": rows("SELECT doc_id, host, url_path, url, text_sha1, language, published, harvest_time,"
                              " warc_file, record_offset, record_length, record_id, title, n_tokens FROM documents"),
            "paragraphs": rows("SELECT doc_id, seq, text, tokens, token_starts FROM paragraphs"),
            "captures": rows("SELECT warc_file, record_offset, record_length, record_id, url, harvest_time, doc_id,"
                             " record_type FROM captures"),
            "rejections": rows("SELECT warc_file, record_offset, url, stage, reason FROM rejections"),
            "publications": rows("SELECT host, score, status FROM publications"),
            "ledger": rows("SELECT path, status, capture_start FROM warc_files"),
        }


@pytest.fixture
def demo_run(corpus_db, staging_dir, airflow_db, capfd):
    dag = load_dag_module("dag_e2e").dag
    run = dag.test()
    assert run.state == "success"
    out, err = capfd.readouterr()
    assert "Done. Returned value" in out + err  # the task logs are here ...
    assert "XCom not found" not in out + err    # ... and a successful run logs no such error
    return dag, corpus_snapshot(corpus_db)


def test_demo_documents_languages_dates_and_provenance(demo_run, corpus_db):
    _, snapshot = demo_run
    documents = {(d[1], d[2]): d for d in snapshot["documents"]}
    assert set(documents) == set(EXPECTED_DOCUMENTS)
    for key, (language, published, harvested, warc) in EXPECTED_DOCUMENTS.items():
        doc = documents[key]
        assert doc[5] == language, key
        if published:
            assert str(doc[6]) == published, key
        if harvested:
            assert doc[7].isoformat() == harvested, key
        assert doc[8].endswith("/" + warc), key
        assert doc[13] > 10, key
    # Every document's back-pointer leads to its WARC record.
    for doc in documents.values():
        with open(doc[8], "rb") as stream:
            stream.seek(doc[9])
            record = next(iter(ArchiveIterator(stream)))
            assert record.rec_headers.get_header("WARC-Record-ID") == doc[11]
            assert record.rec_headers.get_header("WARC-Target-URI") == doc[3]
    # Paragraph tokens carry their offsets within the paragraph.
    for _, _, text, tokens, starts in snapshot["paragraphs"]:
        assert [text[s:s + len(t)] for t, s in zip(tokens, starts)] == tokens


def test_demo_filtered_skipped_and_deduplicated(demo_run):
    _, snapshot = demo_run
    assert {(r[2], r[3], r[4]) for r in snapshot["rejections"]} == EXPECTED_REJECTIONS
    assert {(h, s) for h, _, s in snapshot["publications"]} == {
        (FP, "accepted"), (DT, "accepted"), (SA, "accepted"),
        ("www.bygdebloggen.no", "rejected"), ("www.ukeskrift-nord.no", "uncertain")}
    # The re-captured article is one document with two captures; its document is the earlier capture.
    by_path = {d[2]: d for d in snapshot["documents"] if d[1] == FP}
    article = by_path["/nyheter/2024/02/ferja-innstilt"]
    captures = [c for c in snapshot["captures"] if c[6] == article[0]]
    assert len(captures) == 2
    assert min(c[5] for c in captures) == article[7]
    # The same text on another path is its own document.
    amp = by_path["/amp/nyheter/2024/02/ferja-innstilt"]
    assert amp[4] == article[4] and amp[0] != article[0]
    # The revisit of fjordposten's front page (next day) is a capture of the front page document.
    front = by_path["/"]
    assert sorted(c[7] for c in snapshot["captures"] if c[6] == front[0]) == ["response", "revisit"]
    assert len(snapshot["captures"]) == len(snapshot["documents"]) + 2
    assert {(p.rsplit("/", 1)[1], s) for p, s, _ in snapshot["ledger"]} == {
        (WARC_1, "loaded"), (WARC_2, "loaded"), (WARC_3, "loaded")}


def test_rerun_and_reprocess_change_nothing(demo_run, corpus_db):
    dag, first = demo_run
    assert dag.test().state == "success"
    assert corpus_snapshot(corpus_db) == first
    assert dag.test(run_conf={"reprocess": True}).state == "success"
    assert corpus_snapshot(corpus_db) == first


def test_older_warc_loaded_after_newer_one_wins(corpus_db, staging_dir):
    from warc2corpus.stages import per_run, run
    from warc2corpus.store import db, publications

    with db.connect() as conn:  # the newer WARC alone holds no front page: accept the host by hand
        publications.decide(conn, FP, "accepted", by="test", note="demo")
        conn.commit()
    loads = run.run_files([DEMO_WARCS / WARC_2], "demo")
    newer = {d[2]: d for d in corpus_snapshot(corpus_db)["documents"] if d[1] == FP}
    loads += run.run_files([DEMO_WARCS / WARC_1], "demo")
    older = {d[2]: d for d in corpus_snapshot(corpus_db)["documents"] if d[1] == FP}
    # the run's counts: the re-captured article is one duplicate in this order too (it was not counted at all)
    assert per_run.corpus_updated(loads)["not_new_by_reason"]["duplicate"] == 1

    path = "/nyheter/2024/02/ferja-innstilt"
    assert newer[path][8].endswith(WARC_2)
    assert older[path][8].endswith(WARC_1)
    assert older[path][0] == newer[path][0]  # the document keeps its id
    assert older[path][7].isoformat() == "2024-03-01T12:00:02+00:00"
    with psycopg.connect(corpus_db) as conn:
        assert conn.execute("SELECT count(*) FROM captures WHERE doc_id = %s", (older[path][0],)).fetchone()[0] == 2


def test_a_crashed_load_leaves_nothing_of_the_file(corpus_db, staging_dir, monkeypatch):
    from warc2corpus.stages import run
    from warc2corpus.store import ledger

    real_mark = ledger.mark

    def crash_on_load(conn, path, status, **kwargs):
        if status == "loaded":
            raise RuntimeError("worker killed")
        return real_mark(conn, path, status, **kwargs)

    monkeypatch.setattr(ledger, "mark", crash_on_load)
    with pytest.raises(RuntimeError, match="worker killed"):
        run.run_files([DEMO_WARCS / WARC_1], "demo")
    crashed = corpus_snapshot(corpus_db)
    assert crashed["documents"] == [] and crashed["captures"] == [] and crashed["rejections"] == []
    assert {s for _, s, _ in crashed["ledger"]} == {"extracted"}

    monkeypatch.setattr(ledger, "mark", real_mark)
    run.run_files([DEMO_WARCS / WARC_1], "demo")
    assert len(corpus_snapshot(corpus_db)["documents"]) == 7


def test_the_runs_counts_show_with_the_run_in_airflows_api(demo_run, corpus_db, tmp_path, monkeypatch):
    """The corpus asset's event carries the run's counts: Airflow's REST API gives them by the run's id, and the
    run's page in the UI shows them in its tab "Corpus counts" (an external view of the run), behind the login."""
    import json

    from fastapi.testclient import TestClient

    from airflow.api_fastapi.app import create_app, purge_cached_app

    passwords = tmp_path / "passwords.json"
    passwords.write_text(json.dumps({"operator": "operator-secret-3"}))
    monkeypatch.setenv("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_ALL_ADMINS", "False")
    monkeypatch.setenv("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_USERS", "operator:viewer")
    monkeypatch.setenv("AIRFLOW__CORE__SIMPLE_AUTH_MANAGER_PASSWORDS_FILE", str(passwords))
    # the key that signs the tokens, as bin/airflow-local makes it: 64 bytes at least for HS512 (RFC 7518,
    # 3.2); the 16 that `airflow` writes into a new airflow.cfg draw PyJWT's InsecureKeyLengthWarning
    monkeypatch.setenv("AIRFLOW__API_AUTH__JWT_SECRET", secrets.token_urlsafe(64))
    dag, snapshot = demo_run
    purge_cached_app()
    with TestClient(create_app(apps="core")) as client:
        token = client.post("/auth/token", json={"username": "operator", "password": "operator-secret-3"})
        client.headers["Authorization"] = f"Bearer {token.json()['access_token']}"
        runs = client.get(f"/api/v2/dags/{dag.dag_id}/dagRuns", params={"order_by": "-start_date", "limit": 1})
        run_id = runs.json()["dag_runs"][0]["dag_run_id"]
        events = client.get("/api/v2/assets/events", params={"source_dag_id": dag.dag_id, "source_run_id": run_id})
        assert events.status_code == 200, events.text
        # the run's page has a tab "Corpus counts" (plugins/warc2corpus_run_counts.py) showing the same
        views = {v["name"]: v for p in client.get("/api/v2/plugins").json()["plugins"] for v in p["external_views"]}
        assert views["Corpus counts"]["destination"] == "dag_run"
        page = client.get(views["Corpus counts"]["href"].format(DAG_ID=dag.dag_id, RUN_ID=run_id))
        anonymous = client.get(f"/run-counts/{dag.dag_id}/{run_id}", headers={"Authorization": ""})
    purge_cached_app()
    [event] = events.json()["asset_events"]
    assert event["name"] == "warc2corpus_corpus" and event["source_task_id"] == "corpus_updated"
    counts = event["extra"]
    assert counts["files"] == {"loaded": 3}
    assert counts["new_documents"] == len(snapshot["documents"]) == len(EXPECTED_DOCUMENTS)
    # the re-captured article is one duplicate whichever of its two files the mapped loads load first
    assert counts["not_new_by_reason"] == {"duplicate": 1, "empty_text": 1, "host_rejected": 2, "host_uncertain": 2,
                                           "host_unassessed": 1, "http_status": 1, "not_a_response": 3,
                                           "not_html": 1}
    assert anonymous.status_code == 401
    assert page.status_code == 200, page.text
    assert f"<th scope=\"row\">new_documents</th><td>{len(EXPECTED_DOCUMENTS)}</td>" in page.text
    assert "<th scope=\"row\">host_uncertain</th><td>2</td>" in page.text
    assert "<th scope=\"row\">files loaded</th><td>3</td>" in page.text


def test_a_files_documents_are_read_once_and_spooled_rows_load_alike(corpus_db, staging_dir, server_url, monkeypatch):
    """The load reads a file's staged documents once (its paragraph and capture rows wait in a spool while
    the documents' own rows go in); rows spooled to a temporary file load exactly as rows held in memory."""
    from conftest import _with_database
    from warc2corpus import settings
    from warc2corpus.stages import per_file, run
    from warc2corpus.store import load

    reads = []
    left_in = per_file._documents_left_in

    def counted(staging, staged):
        documents = left_in(staging, staged)
        return lambda: reads.append(staged["documents"]) or documents()

    monkeypatch.setattr(per_file, "_documents_left_in", counted)
    warcs = [DEMO_WARCS / WARC_1, DEMO_WARCS / WARC_2]
    run.run_files(warcs, "demo")
    assert len(reads) == len(set(reads)) == 2  # each file's documents read once
    in_memory = corpus_snapshot(corpus_db)
    assert in_memory["paragraphs"] and in_memory["captures"]

    other = f"w2c_test_{secrets.token_hex(6)}"
    with psycopg.connect(server_url, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{other}"')
    try:
        monkeypatch.setenv(settings.DATABASE_URL_VARIABLE, _with_database(server_url, other))
        monkeypatch.setattr(load, "SPOOL_BYTES", 1)  # every row to the temporary file
        run.run_files(warcs, "demo")
        assert corpus_snapshot(_with_database(server_url, other)) == in_memory
    finally:
        with psycopg.connect(server_url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{other}" WITH (FORCE)')
