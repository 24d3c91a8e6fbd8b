"""The warc2corpus command, called as a user would."""

from __future__ import annotations

import gzip
import io
import json
import re
import subprocess
import sys
from pathlib import Path

from warcio.archiveiterator import ArchiveIterator

from conftest import DEMO_WARCS, run_cli

WARC_1 = DEMO_WARCS / "DEMO-20240301120000-00000.warc.gz"


def page_from_demo(url: str) -> bytes:
    with open(WARC_1, "rb") as stream:
        for record in ArchiveIterator(stream):
            if record.rec_type == "response" and record.rec_headers.get_header("WARC-Target-URI") == url:
                return record.content_stream().read()
    raise LookupError(url)


def test_run_prints_a_summary_and_stats_counts_the_corpus(corpus_db, staging_dir, capsys):
    code, out, _ = run_cli(capsys, "stats", "--json")
    assert code == 0 and json.loads(out)["documents"] == 0

    code, out, _ = run_cli(capsys, "run", *map(str, sorted(DEMO_WARCS.glob("*.warc.gz"))), "--crawl-job", "demo")
    assert code == 0
    table = out.splitlines()
    assert table[0].split()[:4] == ["WARC", "status", "records", "documents"]
    assert "revisits" in table[0]
    rows = {line.split()[0]: line.split() for line in table[2:5]}
    assert rows[WARC_1.name][1:4] == ["loaded", "15", "12"]
    assert "3 WARC files, 17 documents extracted" in out

    code, out, _ = run_cli(capsys, "stats", "--json")
    summary = json.loads(out)
    assert summary["documents"] == 10
    assert summary["by_language"] == {"nob": 5, "nno": 3, "sme": 2}
    assert summary["by_harvest_year"] == {"2024": 10}
    assert summary["warc_files_by_status"] == {"loaded": 3}
    assert summary["publications_by_status"] == {"accepted": 3, "rejected": 1, "uncertain": 1}
    assert summary["rejections_by_reason"]["filter:host_rejected"] == 2

    code, out, _ = run_cli(capsys, "stats")
    assert code == 0 and "documents: 10" in out and "www.fjordposten.no" in out
    assert "the seed model (word lists only)" in out  # 10 documents are too few to train a model on

    code, out, _ = run_cli(capsys, "naturalness", "--train")
    assert code == 0 and out.startswith("not trained: the corpus holds") and "no trained model" in out
    code, out, _ = run_cli(capsys, "naturalness", "--force")
    assert code == 0 and out.startswith("trained model #1") and " on " in out.splitlines()[1]
    code, out, _ = run_cli(capsys, "stats", "--json")
    assert [m["id"] for m in json.loads(out)["naturalness_models"]] == [1]


def test_run_skips_a_missing_file_and_loads_the_others(corpus_db, staging_dir, capsys, tmp_path):
    code, out, err = run_cli(capsys, "run", str(WARC_1), str(tmp_path / "nope.warc.gz"))
    assert code == 3  # some inputs were not loaded
    assert f"skipped {tmp_path / 'nope.warc.gz'}: No such file or directory" in err
    rows = {line.split()[0]: line for line in out.splitlines()[2:4]}
    assert rows["nope.warc.gz"].split(maxsplit=1)[1].startswith("skipped: No such file or directory")
    assert rows[WARC_1.name].split()[1] == "loaded"
    code, out, _ = run_cli(capsys, "stats", "--json")
    assert json.loads(out)["warc_files_by_status"] == {"loaded": 1}


def test_extract_prints_one_json_line_per_file(capsys, tmp_path):
    url = "https://www.dalen-tidend.no/nyheiter/2024/02/nytt-samfunnshus"
    plain = tmp_path / "samfunnshus.html"
    plain.write_bytes(page_from_demo(url))
    zipped = tmp_path / "samfunnshus.html.gz"
    zipped.write_bytes(gzip.compress(plain.read_bytes()))
    code, out, _ = run_cli(capsys, "extract", "--url", url, str(plain), str(zipped))
    assert code == 0
    lines = [json.loads(line) for line in out.splitlines()]
    assert [line["file"] for line in lines] == [str(plain), str(zipped)]
    first, second = lines
    assert first == second | {"file": str(plain)}
    assert first["language"] == "nno" and first["published"] == "2024-02-28"
    assert first["title"] and len(first["paragraphs"]) >= 4
    assert first["text"] == "\n".join(first["paragraphs"])
    assert "dropped_paragraphs" not in first


def test_extract_shows_each_dropped_paragraph_with_its_reason(capsys, tmp_path):
    page = tmp_path / "side.html"
    story = "".join(f"<p>Kommunestyret vedtok i kveld den nye planen for sentrum, sak nummer {n} av mange i år.</p>"
                    for n in range(6))
    page.write_text(f"<html><head><title>Ny plan</title></head><body><article><h1>Ny plan</h1>{story}"
                    "<p>Meld deg på nyhetsbrevet vårt</p><h2>3 kommentarer</h2><p>Helt enig med ordføreren!</p>"
                    "</article></body></html>")
    code, out, _ = run_cli(capsys, "extract", "--show-dropped", str(page))
    assert code == 0
    result = json.loads(out)
    assert {"reason": "comments", "text": "3 kommentarer"} in result["dropped_paragraphs"]
    assert {"reason": "boilerplate", "text": "Meld deg på nyhetsbrevet vårt"} in result["dropped_paragraphs"]
    counted = {}
    for row in result["dropped_paragraphs"]:
        counted[row["reason"]] = counted.get(row["reason"], 0) + 1
    assert counted == result["dropped"]


def test_extract_reports_unreadable_files(capsys, tmp_path):
    broken = tmp_path / "broken.html.gz"
    broken.write_bytes(b"not gzip at all")
    code, _, err = run_cli(capsys, "extract", str(broken))
    assert code == 2 and "cannot read" in err


def test_autocat_scores_front_pages(capsys, tmp_path):
    accepted = tmp_path / "fjordposten.html"
    accepted.write_bytes(page_from_demo("https://www.fjordposten.no/"))
    silent = tmp_path / "bygdebloggen.html"
    silent.write_bytes(page_from_demo("https://www.bygdebloggen.no/"))
    code, out, _ = run_cli(capsys, "autocat", "--url", "https://www.fjordposten.no/", str(accepted), str(silent))
    assert code == 0
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["score"] == 1.0 and first["status"] == "accepted" and first["front_page"] is True
    assert first["evidence"]["main"].lower().startswith("ansvarlig redakt")
    assert "presse.no/pfu/etiske-regler" in first["evidence"]["link"]
    assert second["score"] == 0.0 and second["status"] == "rejected" and second["evidence"] == {}


def test_db_url_and_status_follow_the_configured_server(corpus_db, capsys):
    code, out, _ = run_cli(capsys, "db", "url")
    assert code == 0 and out.strip() == corpus_db
    code, out, _ = run_cli(capsys, "db", "status")
    assert code == 0 and "reachable" in out
    code, _, err = run_cli(capsys, "db", "stop")
    assert code == 2 and "does not manage" in err


def test_unreachable_database_is_a_clear_error(capsys, monkeypatch):
    monkeypatch.setenv("AIRFLOW_CONN_WARC2CORPUS_DB", "postgresql://nobody:secret@127.0.0.1:1/none")
    code, _, err = run_cli(capsys, "stats")
    assert code == 2 and "cannot connect" in err and "secret" not in err


def test_console_script_is_installed():
    script = Path(sys.executable).with_name("warc2corpus")
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0
    for command in ("db", "run", "stats", "extract", "autocat"):
        assert command in result.stdout


def test_an_unreadable_file_is_recorded_and_the_others_still_load(corpus_db, staging_dir, capsys, tmp_path):
    garbage = tmp_path / "CRAWL-20240301000000-00009.warc.gz"
    garbage.write_bytes(b"hi\n")
    code, out, _ = run_cli(capsys, "run", str(garbage), str(WARC_1), "--crawl-job", "demo")
    assert code == 0  # no input file fails the run
    assert f"{garbage.name}: quarantined: Unknown archive format" in out
    code, out, _ = run_cli(capsys, "stats", "--json")
    summary = json.loads(out)
    assert summary["warc_files_by_status"] == {"quarantined": 1, "loaded": 1}
    assert summary["documents"] == 7


def test_stats_piped_into_head_ends_quietly(corpus_db, staging_dir):
    """`warc2corpus stats | head -n 3`: no BrokenPipeError once head has what it wants."""
    import shutil
    import subprocess

    warc2corpus = shutil.which("warc2corpus", path=str(Path(sys.executable).parent))
    subprocess.run([warc2corpus, "run", str(WARC_1)], check=True, capture_output=True, timeout=300)
    # `lang` over 20,000 lines writes more than a pipe holds, so it is still writing when head has closed.
    result = subprocess.run(f"yes 'Dette er ei setning på norsk.' | head -n 20000 | {warc2corpus} lang | head -n 1 >/dev/null; "
                            f"{warc2corpus} stats --json | head -c 10 > /dev/null; "
                            f"{warc2corpus} publications list | head -n 1 > /dev/null; "
                            f"{warc2corpus} stats | head -n 3",
                            shell=True, capture_output=True, text=True, timeout=300)
    assert len(result.stdout.splitlines()) == 3
    assert "BrokenPipeError" not in result.stderr and "Traceback" not in result.stderr, result.stderr


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_run_progress_shows_share_and_time_left_from_the_first_record(corpus_db, staging_dir):
    from warc2corpus.cli import main as cli
    from warc2corpus.stages import run

    terminal = _Terminal()
    progress = cli.Progress([WARC_1], terminal)
    run.run_files([WARC_1], "demo", on_progress=progress)
    progress.finish()
    lines = [line for line in terminal.getvalue().split("\r") if line.strip()]
    assert lines[0].startswith(f"{WARC_1.name}: ") and "1 records read" in lines[0]  # from the first record
    assert re.search(r": \d+%, \d+ (s|min|h) left, ", lines[0])
    assert re.search(r": 100%, 0 s left, 15 records read, 12 documents", lines[-1]), lines[-1]


def test_what_the_database_refuses_is_told_as_it_is(monkeypatch, capsys):
    """psycopg's OperationalError holds the server's limits (SQLSTATE 54) and its want of resources (53) as well
    as a lost connection; each was 'lost the corpus database … run again once the database is back'."""
    import psycopg

    from warc2corpus.cli import main as cli

    for error, says in ((psycopg.errors.ProgramLimitExceeded("index row size 6016 exceeds btree version 4 "
                                                             "maximum 2704"), "past one of its limits"),
                        (psycopg.errors.DiskFull("could not extend file"), "short of resources"),
                        (psycopg.OperationalError("server closed the connection unexpectedly"),
                         "lost the corpus database")):
        def refuse(args, error=error):
            raise error

        monkeypatch.setattr(cli, "cmd_stats", refuse)
        code, _, err = run_cli(capsys, "stats")
        assert code != 0 and err.count("\n") == 1 and says in err and str(error) in err, err
        assert ("run again" in err) == (not isinstance(error, psycopg.errors.ProgramLimitExceeded))


def test_a_bad_setting_or_staging_area_is_one_line_naming_it(corpus_db, staging_dir, monkeypatch, capsys, tmp_path):
    """Each was a traceback: an environment variable's value no number, or not above zero where it must be, and a
    staging area that cannot be written."""
    warc = str(DEMO_WARCS / "DEMO-20240301120000-00000.warc.gz")
    for variable, value, says in (("WARC2CORPUS_MAX_RECORD_MB", "abc", "WARC2CORPUS_MAX_RECORD_MB='abc' is not a number"),
                                  ("WARC2CORPUS_EXTRACTION_SECONDS", "-5", "must be a number above zero"),
                                  ("WARC2CORPUS_MAX_HEADER_KB", "0", "must be a number above zero"),
                                  ("WARC2CORPUS_STAGING_STALE_HOURS", "nan", "STAGING_STALE_HOURS='nan'")):
        with monkeypatch.context() as patch:
            patch.setenv(variable, value)
            code, _, err = run_cli(capsys, "run", warc)
        assert code != 0 and err.count("\n") == 1 and says in err and "Traceback" not in err, (variable, err)
    not_a_folder = tmp_path / "a-file"
    not_a_folder.write_text("")
    monkeypatch.setenv("WARC2CORPUS_STAGING", str(not_a_folder / "staging"))
    code, _, err = run_cli(capsys, "run", warc)
    assert code != 0 and err.count("\n") == 1, err
    assert f"cannot write the staging area {not_a_folder / 'staging'} (WARC2CORPUS_STAGING): Not a directory" in err
