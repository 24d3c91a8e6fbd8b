"""Publications in the database: verdicts over time with editors, the review queue, people's
decisions, the register (import/export), withdrawal of documents of rejected hosts, and the CLI."""

from __future__ import annotations

import csv
import io
import json

import psycopg
import pytest

import conftest
from conftest import DEMO_WARCS
from warc2corpus import autocat
from warc2corpus.stages import run
from warc2corpus.store import db, publications

FP, DT, SA = "www.fjordposten.no", "www.dalen-tidend.no", "www.sapmi-aviisa.no"
BLOG, WEEKLY = "www.bygdebloggen.no", "www.ukeskrift-nord.no"
WARC_1 = DEMO_WARCS / "DEMO-20240301120000-00000.warc.gz"


def run_cli(capsys, *argv) -> tuple[int, str]:
    """The command's exit code and everything it printed."""
    code, out, err = conftest.run_cli(capsys, *argv)
    return code, out + err


@pytest.fixture
def demo(corpus_db, staging_dir):
    run.run_files(sorted(DEMO_WARCS.glob("*.warc.gz")), "demo")
    return corpus_db


def statuses(url: str) -> dict:
    with psycopg.connect(url) as conn:
        return {h: (s, d) for h, s, d in conn.execute("SELECT host, status, decided_by FROM host_status")}


def corpus_count(url: str, host: str | None = None) -> int:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT count(*) FROM documents WHERE NOT withdrawn AND (%s::text IS NULL OR host = %s)",
                            (host, host)).fetchone()[0]


def test_demo_verdicts_editors_and_scores_per_day(demo):
    assert statuses(demo) == {FP: ("accepted", "autocat"), DT: ("accepted", "autocat"), SA: ("accepted", "autocat"),
                              BLOG: ("rejected", "autocat"), WEEKLY: ("uncertain", "autocat")}
    with psycopg.connect(demo) as conn:
        editors = dict(conn.execute("SELECT host, editors FROM publications"))
        days = conn.execute("SELECT day::text, status, front_pages, pages FROM host_scores WHERE host = %s ORDER BY day",
                            (FP,)).fetchall()
        kinds = dict(conn.execute("SELECT kind, count(*) FROM autocat_pages GROUP BY 1"))
        fronts = conn.execute("SELECT count(*) FROM front_pages").fetchone()[0]
        reason = conn.execute("SELECT reason FROM publications WHERE host = %s", (WEEKLY,)).fetchone()[0]
    assert editors[FP] == ["Kari Nordvik"] and editors[DT] == ["Olav Haugland"] and editors[SA] == ["Máret Ánne Ravna"]
    assert editors[BLOG] == [] and editors[WEEKLY] == []
    # the front page on day 1; the article footers on days 2 and 3 (no front page then: the revisit has none)
    assert days == [("2024-03-01", "accepted", 1, 3), ("2024-03-02", "accepted", 0, 2), ("2024-03-03", "accepted", 0, 1)]
    assert kinds["front"] == fronts == 5  # the consent host is ignored
    assert "weak evidence" in reason and "redaktøren" in reason


def test_review_queue_and_a_decision_that_survives_refreshes(demo, staging_dir):
    queue = publications.review_queue(psycopg.connect(demo))
    assert [(q["host"], q["held_back"]) for q in queue] == [(WEEKLY, 2)]
    with db.connect() as conn:
        outcome = publications.decide(conn, WEEKLY, "accepted", by="kari", note="weekly paper, editor Per Strand")
        conn.commit()
    assert outcome["readmit"] == 1  # the WARC that filtered its 2 documents out is loaded again next run
    run.run_files([WARC_1], "demo")  # a refresh of every host of the file
    assert statuses(demo)[WEEKLY] == ("accepted", "person")
    assert corpus_count(demo, WEEKLY) == 2
    with psycopg.connect(demo) as conn:
        assert conn.execute("SELECT status FROM publications WHERE host = %s", (WEEKLY,)).fetchone()[0] == "uncertain"
        log = conn.execute("SELECT status, note, decided_by FROM publication_decisions").fetchall()
    assert log == [("accepted", "weekly paper, editor Per Strand", "kari")]
    assert publications.review_queue(psycopg.connect(demo)) == []


def test_rejecting_a_host_withdraws_its_documents_and_accepting_restores_them(demo, capsys):
    assert corpus_count(demo) == 10
    with db.connect() as conn:
        outcome = publications.decide(conn, FP, "rejected", by="ola", note="not a newspaper after all")
        conn.commit()
    assert outcome["withdrawn"] == 5
    assert corpus_count(demo) == 5 and corpus_count(demo, FP) == 0
    from warc2corpus.store import stats

    with db.connect() as conn:  # what `warc2corpus stats` prints: only what is not withdrawn
        summary = stats.corpus_summary(conn)
    assert summary["documents"] == 5 and summary["withdrawn_documents"] == 5
    assert FP not in summary["by_publication"] and summary["withdrawn_by_publication"] == {FP: 5}
    assert summary["captures"] == 5
    with psycopg.connect(demo) as conn:
        reasons = {r[0] for r in conn.execute("SELECT withdrawn_reason FROM documents WHERE withdrawn")}
    assert reasons == {"host rejected (person)"}
    # Processing a file again while the host is rejected: refreshes never undo a person's decision,
    # and the file's documents of the host become filter rejections (host_rejected) instead.
    run.run_files([WARC_1], "demo")
    assert corpus_count(demo, FP) == 0
    with psycopg.connect(demo) as conn:
        still_withdrawn = conn.execute("SELECT count(*) FROM documents WHERE withdrawn").fetchone()[0]
        filtered = conn.execute("SELECT count(*) FROM rejections WHERE host = %s AND reason = 'host_rejected'",
                                (FP,)).fetchone()[0]
    assert (still_withdrawn, filtered) == (3, 3)  # ferja keeps its WARC_2 capture; amp and bibliotek stay
    with psycopg.connect(demo) as conn:
        counts = conn.execute("SELECT counts FROM warc_files WHERE path = %s", (str(WARC_1),)).fetchone()[0]
    # ... and their pages, with the blog's (rejected by autoCat) and the weekly's (uncertain), were turned away
    # before extraction, as the filter would have turned their documents away: 14 responses, 2 not pages, 5 of
    # rejected hosts, 2 of an uncertain one, 5 extracted
    assert counts["skipped"]["host_rejected"] == 5 and counts["skipped"]["host_uncertain"] == 2
    assert not {"host_rejected", "host_uncertain"} & set(counts["filtered"])
    assert counts["type:response"] == 14 and counts["documents"] == 5
    with db.connect() as conn:
        outcome = publications.decide(conn, FP, None, by="ola", note="mistake")
        conn.commit()
    assert outcome["restored"] == still_withdrawn and outcome["readmit"] == 1
    run.run_files([WARC_1], "demo")  # what the next run does with the flagged file
    assert corpus_count(demo) == 10 and statuses(demo)[FP] == ("accepted", "autocat")


def test_a_host_accepted_while_its_unextracted_pages_await_their_load_has_the_file_loaded_again(demo, monkeypatch):
    """A file extracted while its host was rejected (the host's pages turned away, not extracted), the host
    accepted before the file is loaded: the load flags the file, and the next run brings the documents back."""
    from warc2corpus.stages import per_file

    with db.connect() as conn:
        publications.decide(conn, FP, "rejected", by="ola")
        conn.commit()
    extract = per_file.extract

    def extract_then_accept(*args, **kwargs):
        manifest = extract(*args, **kwargs)
        with db.connect() as conn:  # a person changes their mind while the file is on its way
            assert publications.decide(conn, FP, None, by="ola")["readmit"] == 0  # nothing of it loaded yet
            conn.commit()
        return manifest

    monkeypatch.setattr(per_file, "extract", extract_then_accept)
    run.run_files([WARC_1], "demo")
    with psycopg.connect(demo) as conn:
        flagged = conn.execute("SELECT readmit FROM warc_files WHERE path = %s", (str(WARC_1),)).fetchone()[0]
    assert flagged and corpus_count(demo, FP) < 5  # its pages of the host were not extracted this time
    monkeypatch.setattr(per_file, "extract", extract)
    run.run_files([WARC_1], "demo")  # what the next run does with the flagged file
    assert corpus_count(demo) == 10 and statuses(demo)[FP] == ("accepted", "autocat")


def test_documents_inserted_for_a_rejected_host_are_withdrawn_on_insert(demo):
    with db.connect() as conn:
        publications.decide(conn, BLOG, "rejected", by="test")
        conn.execute(
            """INSERT INTO documents (doc_id, text_sha1, host, url_path, url, harvest_time, language, n_paragraphs,
                                      n_tokens, warc_file, record_offset, record_length, record_id, crawl_job)
               VALUES (42, 'x', %s, '/late', 'https://www.bygdebloggen.no/late', now(), 'nob', 1, 1, 'w', 0, 1,
                       'r', 'demo')""", (BLOG,))
        conn.commit()
        assert conn.execute("SELECT withdrawn FROM documents WHERE doc_id = 42").fetchone()[0] is True
        conn.execute("""INSERT INTO documents (doc_id, text_sha1, host, url_path, url, harvest_time, language,
                            n_paragraphs, n_tokens, warc_file, record_offset, record_length, record_id, crawl_job)
                        VALUES (43, 'y', %s, '/x', 'https://www.fjordposten.no/x', now(), 'nob', 1, 1, 'w', 1, 1,
                                'r', 'demo')""", (FP,))
        assert conn.execute("SELECT withdrawn FROM documents WHERE doc_id = 43").fetchone()[0] is False


def test_a_dropped_declaration_sends_the_host_to_review_and_keeps_its_documents(demo):
    silent = autocat.score_page("<html><body><footer><p>© Fjordposten</p></footer></body></html>", kind="front")
    page = {"warc_file": "later.warc.gz", "record_offset": 1, "host": FP, "url": "https://www.fjordposten.no/",
            "harvest_time": "2024-06-01T12:00:00+00:00", "kind": "front", "score": silent.score,
            "evidence": silent.evidence}
    with db.connect() as conn:
        publications.store_pages(conn, [page])
        assert publications.refresh_hosts(conn, {FP}) == {"uncertain": 1}
        conn.commit()
        reason, editors = conn.execute("SELECT reason, editors FROM publications WHERE host = %s", (FP,)).fetchone()
        days = conn.execute("SELECT count(*) FROM host_scores WHERE host = %s", (FP,)).fetchone()[0]
    assert reason.startswith("declared until 2024-03-03") and editors == ["Kari Nordvik"] and days == 4
    assert corpus_count(demo, FP) == 5  # uncertain is not rejected: nothing withdrawn, a person decides


REGISTER_CSV = """domain,title,has-responsible-editor,place,county
fjordposten.no,Fjordposten,yes,Fjordvik,Nordland
m.fjordposten.no,Fjordposten,yes,Fjordvik,Nordland
bygdebloggen.no,Bygdebloggen,no,Innlandet,Innlandet
ukeskrift-nord.no,Ukeskrift Nord,,Vestvika,Troms
"""


def test_register_import_several_hosts_decisions_and_export(demo, tmp_path, capsys):
    register = tmp_path / "register.csv"
    register.write_text(REGISTER_CSV, encoding="utf-8")
    code, out = run_cli(capsys, "publications", "import", str(register))
    assert code == 0 and "4 rows: 3 publications, 3 domains" in out  # m. and www. are the same domain
    with db.connect() as conn:
        rows = conn.execute("SELECT title, place, county, has_responsible_editor FROM publication_register "
                            "ORDER BY title").fetchall()
        hosts = conn.execute("SELECT host FROM host_status WHERE title = 'Fjordposten' ORDER BY host").fetchall()
    assert rows == [("Bygdebloggen", "Innlandet", "Innlandet", False), ("Fjordposten", "Fjordvik", "Nordland", True),
                    ("Ukeskrift Nord", "Vestvika", "Troms", None)]
    assert [h for (h,) in hosts] == ["fjordposten.no", FP]
    assert statuses(demo)[BLOG] == ("rejected", "register") and statuses(demo)[WEEKLY] == ("uncertain", "autocat")
    # the register says no: a person says yes, and the person wins
    with db.connect() as conn:
        publications.decide(conn, BLOG, "accepted", by="kari")
        conn.commit()
    assert statuses(demo)[BLOG] == ("accepted", "person")

    code, out = run_cli(capsys, "publications", "export", "--format", "csv")
    assert code == 0
    exported = {r["domain"]: r for r in csv.DictReader(io.StringIO(out))}
    assert list(next(csv.DictReader(io.StringIO(out))).keys())[:5] == list(publications.REGISTER_COLUMNS)
    assert exported["fjordposten.no"]["title"] == "Fjordposten"
    assert exported["fjordposten.no"]["has_responsible_editor"] == "yes"
    assert exported["fjordposten.no"]["county"] == "Nordland" and exported["fjordposten.no"]["editors"] == "Kari Nordvik"
    assert exported["dalen-tidend.no"]["has_responsible_editor"] == "yes"  # autoCat's verdict, marked as such
    assert exported["dalen-tidend.no"]["decided_by"] == "autocat"
    assert exported["ukeskrift-nord.no"]["has_responsible_editor"] == ""
    # importing the export back does not turn autoCat's verdicts into register facts
    again = tmp_path / "again.csv"
    again.write_text(out, encoding="utf-8")
    assert run_cli(capsys, "publications", "import", str(again))[0] == 0
    assert statuses(demo)[DT] == ("accepted", "autocat")

    code, out = run_cli(capsys, "publications", "export", "--format", "yaml")
    import yaml
    assert {p["domain"] for p in yaml.safe_load(out)["publications"]} >= {"fjordposten.no", "sapmi-aviisa.no"}


def test_register_yaml_with_several_domains_rejects_and_withdraws(demo, tmp_path):
    register = tmp_path / "register.yaml"
    register.write_text("publications:\n  - title: Fjordposten\n    domains: [fjordposten.no, fjordposten.com]\n"
                        "    has-responsible-editor: no\n    place: Fjordvik\n    county: Nordland\n", encoding="utf-8")
    with db.connect() as conn:
        outcome = publications.import_register(conn, register)
        conn.commit()
    assert outcome["domains"] == 2 and outcome["publications"] == 1 and outcome["withdrawn"] == 5
    assert corpus_count(demo, FP) == 0 and statuses(demo)[FP] == ("rejected", "register")
    bad = tmp_path / "bad.csv"
    bad.write_text("domain,title,has_responsible_editor\nx.no,X,perhaps\n", encoding="utf-8")
    with db.connect() as conn, pytest.raises(ValueError, match="not yes/no"):
        publications.import_register(conn, bad)


def test_publications_cli_list_show_review(demo, capsys):
    code, out = run_cli(capsys, "publications", "list")
    assert code == 0 and "Kari Nordvik" in out and WEEKLY in out
    code, out = run_cli(capsys, "publications", "list", "--status", "uncertain", "--json")
    assert [h["host"] for h in json.loads(out)] == [WEEKLY]
    code, out = run_cli(capsys, "publications", "review")
    assert code == 0 and WEEKLY in out and "2 documents held back" in out
    code, out = run_cli(capsys, "publications", "review", WEEKLY, "--reject", "--note", "advertising paper",
                        "--by", "kari")
    assert code == 0 and "rejected by kari" in out
    code, out = run_cli(capsys, "publications", "show", WEEKLY)
    detail = json.loads(out)
    assert detail["status"] == "rejected" and detail["decided_by"] == "person"
    assert detail["decisions"][0]["note"] == "advertising paper" and detail["days"][0]["status"] == "uncertain"
    code, out = run_cli(capsys, "publications", "review")
    assert "queue is empty" in out
    code, out = run_cli(capsys, "publications", "show", "nowhere.example")
    assert code == 2


def test_autocat_eval_command_prints_figures_and_evidence(capsys, samples):
    code, out = run_cli(capsys, "autocat-eval")
    assert code == 0
    assert "== shared pages as front pages: 50 (2 positive, 48 negative)" in out
    assert "autoCat:  TP 2  FP 0  FN 0  TN 48  uncertain 0" in out
    assert "requirements" in out and ": met" in out
    assert "Vibeke Fürst Haugen" in out and "sv editor line" in out
    code, out = run_cli(capsys, "autocat-eval", "--json", "--quiet")
    report = json.loads(out)
    assert report["failures"] == [] and report["sets"]["built front pages"]["figures"]["FP"] == 0


def test_autocat_command_prints_editors_and_baseline(capsys, tmp_path):
    page = tmp_path / "p.html"
    page.write_text("<html><body><footer><dl><dt>Ansvarlig redaktør</dt><dd>Frode Hansen</dd></dl></footer>"
                    "</body></html>", encoding="utf-8")
    code, out = run_cli(capsys, "autocat", "--url", "https://avisa.no/", str(page))
    line = json.loads(out)
    assert code == 0 and line["status"] == "accepted" and line["editors"] == ["Frode Hansen"]
    assert line["autocat2"]["status"] == "uncertain"  # the baseline: label only, no link


NDLA_FOOTER = ("<footer><p>Nettstaden er utarbeida av NDLA med open kjeldekode.</p>"
               "<p>Ansvarleg redaktør: Kari Nordmann</p><p>Utgåveansvarleg: Ola Hansen</p></footer>")


def _front_page(host: str, footer: str, head: str = "", day: str = "2024-06-01") -> dict:
    scored = autocat.score_page(f"<html><head>{head}</head><body><main><p>Nytt</p></main>{footer}</body></html>",
                                kind="front")
    return {"warc_file": f"{host}.warc.gz", "record_offset": 1, "host": host, "url": f"https://{host}/",
            "harvest_time": f"{day}T12:00:00+00:00", "kind": "front", "score": scored.score,
            "evidence": scored.evidence}


def test_a_body_that_declares_an_editor_but_is_not_news_waits_for_a_person(demo, capsys):
    """NDLA's learning resources print "Ansvarleg redaktør:" in every footer (its public code has the
    string); a municipality or a library does the same: such hosts are recorded as
    declares_editor_not_news, wait in the review queue with the reason, stay off the allow-list
    until a person accepts them, and their documents are filtered out with that reason."""
    government = '<script type="application/ld+json">{"@type": "GovernmentOrganization", "name": "Vik"}</script>'
    pages = [_front_page("ndla.no", NDLA_FOOTER), _front_page("www.vik.kommune.no", NDLA_FOOTER),
             _front_page("www.vikportalen.no", NDLA_FOOTER, head=government),
             _front_page("www.vikposten.no", NDLA_FOOTER)]
    with db.connect() as conn:
        publications.store_pages(conn, pages)
        assert publications.refresh_hosts(conn, {p["host"] for p in pages}) == {
            "declares_editor_not_news": 3, "accepted": 1}
        conn.commit()
        reasons = dict(conn.execute("SELECT host, reason FROM publications WHERE status = 'declares_editor_not_news'"))
        queue = [item["host"] for item in publications.review_queue(conn)]
        allowed = {host for (host,) in conn.execute("SELECT host FROM allow_list")}
    assert "an educational body (host ndla.no)" in reasons["ndla.no"]
    assert "a municipality or county (host www.vik.kommune.no)" in reasons["www.vik.kommune.no"]
    assert "a public body (JSON-LD GovernmentOrganization)" in reasons["www.vikportalen.no"]
    assert all("naming Kari Nordmann" in reason and "A person decides" in reason for reason in reasons.values())
    assert set(reasons) <= set(queue) and "www.vikposten.no" not in queue
    assert "www.vikposten.no" in allowed and not allowed & set(reasons)

    code, out = run_cli(capsys, "publications", "list", "--status", "declares_editor_not_news")
    assert code == 0 and all(host in out for host in reasons)
    code, out = run_cli(capsys, "publications", "review", "ndla.no", "--accept", "--note", "edited learning resource")
    assert code == 0 and statuses(demo)["ndla.no"] == ("accepted", "person")


# A register as people keep it: refused whole, its row named, where it cannot be read as one (a YAML entry's
# one domain was read as its letters; a domain with a space or a label past 63 characters was imported; a
# broken YAML file, one that is no list, a NUL or a reason PostgreSQL refused ended in a traceback)
@pytest.mark.parametrize("name, content, says", [
    ("register.csv", "domain,title,has_responsible_editor\nnrk.no,NRK,yes\nbad host.no,Bad,yes\n",
     "register.csv row 3: not a domain: 'bad host.no'"),
    ("register.csv", f"domain,title\n{'a' * 64}.no,Long\n", "register.csv row 2: not a domain"),
    ("register.csv", "domain,title\nxn--zz--.no,Bad IDNA\n", "row 2: not a domain"),
    ("register.csv", "domain,title,has_responsible_editor\n\nnrk.no,NRK,perhaps\n",
     "register.csv row 3: has_responsible_editor: 'perhaps' is not yes/no"),
    ("register.csv", "domain,title\n,No domain\n", "register.csv row 2: no domain"),
    ("register.csv", "domain,title\nnrk.no,N\x00RK\n", "register.csv: row 2 holds a NUL character"),
    ("register.yaml", "publications: [", "register.yaml: not readable YAML"),
    ("register.yaml", "just a sentence\n", "register.yaml: a list of publications"),
    ("register.yaml", "- 5\n", "register.yaml publication 1: a mapping"),
    ("register.yaml", '- {domain: nrk.no, title: "N\\0RK"}\n', "register.yaml publication 1: holds a NUL"),
    ("register.ods", "domain,title\nnrk.no,NRK\n", "register.ods: a register is YAML, CSV or .xlsx"),
])
def test_a_register_that_cannot_be_read_as_one_is_refused_naming_the_row(tmp_path, name, content, says):
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ValueError) as refused:
        publications.read_register(path)
    assert says in str(refused.value)


def test_a_register_as_spreadsheets_and_editors_save_it(tmp_path):
    import openpyxl

    expected = [{"domain": "bærumsavis.no", "title": "Bærums Avis", "has_responsible_editor": True,
                 "place": "Sandvika", "county": None, "note": None}]
    semicolons = tmp_path / "register.csv"
    semicolons.write_bytes("\ufeffDomain;Title;Has responsible editor;Place\n"
                           "https://www.bærumsavis.no/;Bærums Avis;ja;Sandvika\n".encode("utf-8"))
    book = openpyxl.Workbook()
    book.active.append(["domain", "title", "has-responsible-editor", "place"])
    book.active.append(["www.xn--brumsavis-g3a.no", "Bærums Avis", 1, "Sandvika"])
    workbook = tmp_path / "register.xlsx"
    book.save(workbook)
    one_domain = tmp_path / "register.yaml"
    one_domain.write_text("- title: Bærums Avis\n  domains: bærumsavis.no\n  has_responsible_editor: yes\n"
                          "  place: Sandvika\n", encoding="utf-8")
    for path in (semicolons, workbook, one_domain):
        assert publications.read_register(path) == expected, path.name


def test_a_registers_text_is_kept_composed_as_the_corpus_keeps_it(tmp_path):
    """A register saved on a Mac may write "Ålesund" as "A" and a combining ring: it was another place than
    "Ålesund", and a researcher's place filter found only one of them."""
    import unicodedata

    decomposed = tmp_path / "register.csv"
    decomposed.write_text(unicodedata.normalize(
        "NFD", "domain,title,place,county,note\nhålogalandsavis.no,Hålogalands Avis på nett,Ålesund,Møre og Romsdal,"
               "Året rundt\n"), encoding="utf-8")
    [row] = publications.read_register(decomposed)  # the domain was "not a domain"
    assert (row["domain"], row["title"], row["place"], row["county"], row["note"]) == (
        "hålogalandsavis.no", "Hålogalands Avis på nett", "Ålesund", "Møre og Romsdal", "Året rundt")
    assert all(unicodedata.is_normalized("NFC", row[key]) for key in ("title", "place", "county", "note"))


def test_a_host_typed_decomposed_is_the_host_the_crawler_names(demo, capsys):
    """A decision on "www.hålogalandsavis.no" typed or pasted with "a" and a combining ring went to a host no
    page has: the crawler writes "www.xn--hlogalandsavis-lib.no", which reads composed. One host now."""
    import unicodedata

    from warc2corpus.text import dedup

    typed = unicodedata.normalize("NFD", "www.hålogalandsavis.no")
    assert dedup.normalise_host(typed) == dedup.normalise_host("www.xn--hlogalandsavis-lib.no") \
        == "www.hålogalandsavis.no"
    code, _ = run_cli(capsys, "publications", "review", typed, "--accept", "--by", "tester")
    assert code == 0 and statuses(demo)["www.hålogalandsavis.no"][0] == "accepted"


def test_a_decision_on_a_host_nobody_has_seen_is_kept_and_said(demo, capsys):
    """The command records it (a host may be decided on before its pages come) but says so: a typo ("www.nrk.n")
    went unseen. A reason the database cannot keep is one line, nothing decided."""
    code, out = run_cli(capsys, "publications", "review", "www.fjordpost.no", "--accept", "--by", "tester")
    assert code == 0 and "www.fjordpost.no is no host seen or registered yet" in out
    assert statuses(demo)["www.fjordpost.no"][0] == "accepted"
    code, out = run_cli(capsys, "publications", "review", FP, "--accept", "--by", "tester")
    assert code == 0 and "no host seen" not in out
    code, out = run_cli(capsys, "publications", "review", FP, "--reject", "--by", "tester", "--note", "spam\x00")
    assert code == 2 and out.count("\n") == 1 and "NUL" in out and statuses(demo)[FP][0] == "accepted"
