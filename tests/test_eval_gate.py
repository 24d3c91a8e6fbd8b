"""The quality gate `warc2corpus eval` (run by `make test` through this file) and `warc2corpus lang`."""

from __future__ import annotations

import io
import json

import pytest

from warc2corpus.cli import main as cli
from warc2corpus.quality import evaluation


def test_quality_gate_holds_on_the_shared_samples(samples, capsys):
    """Every figure at or better than its pin in eval/baseline.json; ours beside the libraries alone."""
    cli.main(["eval", "--samples", str(samples)])  # raises SystemExit(1) on any drop
    out = capsys.readouterr().out
    assert "quality gate passed" in out
    for column in ("ours", "trafilatura alone", "htmldate alone"):
        assert column in out
    assert "udhr_short: confusion matrix" in out


def test_the_gate_fails_on_any_drop():
    report = evaluation.Report()
    report.add("body.x.f1", 0.95)
    report.add("lang.x.errors", 0.02, lower_is_better=True)
    assert evaluation.compare(report, {"body.x.f1": 0.95, "lang.x.errors": 0.02}) == []
    failures = evaluation.compare(report, {"body.x.f1": 0.951, "lang.x.errors": 0.019, "gone.f1": 0.5})
    assert len(failures) == 3
    assert any("below its floor" in f for f in failures) and any("above its ceiling" in f for f in failures)
    assert any("no longer measured" in f for f in failures)


def test_baseline_pins_never_exceed_what_was_measured(tmp_path):
    report = evaluation.Report()
    report.add("body.x.f1", 0.95437)
    report.add("lang.x.errors", 0.01234, lower_is_better=True)
    evaluation.write_baseline(report, tmp_path / "baseline.json")
    pins = evaluation.load_baseline(tmp_path / "baseline.json")
    assert pins["body.x.f1"] <= 0.95437 and pins["lang.x.errors"] >= 0.01234
    assert evaluation.compare(report, pins) == []


def test_committed_baseline_pins_the_issue_targets():
    pins = evaluation.load_baseline()
    assert pins["body.scrapinghub.f1"] >= 0.955 and pins["body.scrapinghub.precision"] >= 0.94
    assert pins["body.fundus.norwegian_min_f1"] >= 0.93
    assert pins["date.fundus.accuracy"] >= 0.98
    assert pins["pagetype.fundus.article_share"] == 1.0
    assert pins["lang.udhr_short.scandinavian_errors"] < 0.02


def test_sentence_sets_are_measured_when_present_and_never_pinned(tmp_path):
    ud = tmp_path / "langid" / "ud"
    ud.mkdir(parents=True)
    rows = [("nb", "Regjeringen la fram statsbudsjettet i dag, og finansministeren er fornøyd med tallene."),
            ("nn", "Regjeringa la fram statsbudsjettet i dag, og finansministeren er nøgd med tala."),
            ("se", "Sámedikki dievasčoahkkin lea mearridan ahte sámegiella galgá leat oidnosis buot dieđuin."),
            ("xx", "Not a language the set holds."), ("nb", "Kort setning.")]
    (ud / "ud_sentences.tsv").write_text("lang\ttreebank_file\tsent_id\tnewdoc\tnewpar\ttext\n" + "".join(
        f"{lang}\tf.conllu\t{i}\t\t\t{text}\n" for i, (lang, text) in enumerate(rows)), encoding="utf-8")
    items = evaluation.ud_sentences(tmp_path)
    assert [code for code, _ in items] == ["nob", "nno", "sme", "nob"]

    report = evaluation.Report()
    evaluation._sentences(report, "ud_short", items, lambda text: "nno", "UD treebank sentences")
    figures = {f.name: f for f in report.figures}
    assert figures["lang.ud_short.scandinavian_errors"].ours == 0.0  # the short one is not a 10-20-token sentence
    assert "gielladetect alone 0.5000; 2 UD treebank sentences (nob 0.0000, nno 0.0000)" in \
        figures["lang.ud_short.scandinavian_errors"].note
    assert figures["lang.ud_short.sme_accuracy"].ours == 1.0
    evaluation.write_baseline(report, tmp_path / "baseline.json")
    assert evaluation.load_baseline(tmp_path / "baseline.json") == {}  # a set other samples may lack


def test_eval_skips_with_a_message_without_samples(tmp_path, capsys):
    cli.main(["eval", "--samples", str(tmp_path / "absent")])
    assert "samples not found" in capsys.readouterr().out


def test_token_prf():
    assert evaluation.token_prf("a b c", "a b c") == (1.0, 1.0, 1.0)
    assert evaluation.token_prf("", "a b") == (0.0, 0.0, 0.0)
    p, r, f = evaluation.token_prf("a a b x", "a b c d")
    assert (p, r) == (0.5, 0.5) and f == 0.5


def test_lang_reads_stdin_and_files(tmp_path, capsys, monkeypatch):
    lines = ["Eg veit ikkje kva som skjer no, men vi må berre vente og sjå kva dei seier.",
             "Jeg vet ikke hva som skjer nå, men vi må bare vente og se hva de sier.", "", "Hei"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    cli.main(["lang"])
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r["language"] for r in rows] == ["nno", "nob", "und"]
    assert rows[0]["file"] == "-" and rows[2]["words"] == 1
    path = tmp_path / "lines.txt"
    path.write_text(lines[1] + "\n", encoding="utf-8")
    cli.main(["lang", str(path)])
    assert json.loads(capsys.readouterr().out)["language"] == "nob"
    with pytest.raises(SystemExit):
        cli.main(["lang", str(tmp_path / "missing.txt")])
