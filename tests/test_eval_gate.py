"""The quality gate `warc2corpus eval` (run by `make test` through this file) and `warc2corpus lang`."""

from __future__ import annotations

import gzip
import io
import json
from pathlib import Path

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
    assert pins["pagetype.fundus.accuracy"] == 1.0
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
    # As documents: the four standards' sentences, file by file (one file here), North Sámi left out.
    assert evaluation.ud_documents(tmp_path) == [("nob", [rows[0][1], rows[4][1]]), ("nno", [rows[1][1]])]

    report = evaluation.Report()
    evaluation._sentences(report, "ud_short", items, lambda text: "nno", "UD treebank sentences")
    figures = {f.name: f for f in report.figures}
    assert figures["lang.ud_short.scandinavian_errors"].ours == 0.0  # the short one is not a 10-20-token sentence
    assert "gielladetect alone 0.5000; 2 UD treebank sentences (nob 0.0000 (0.0000-0.7935), " \
           "nno 0.0000 (0.0000-0.7935))" in figures["lang.ud_short.scandinavian_errors"].note
    assert figures["lang.ud_short.sme_accuracy"].ours == 1.0
    evaluation.write_baseline(report, tmp_path / "baseline.json")
    assert evaluation.load_baseline(tmp_path / "baseline.json") == {}  # a set other samples may lack


def test_treebank_sentences_are_also_read_as_documents(tmp_path):
    """The treebank's news sentences, file by file in order and cut into documents of
    DOCUMENT_SENTENCES, each sentence a paragraph: errors within the document beside each paragraph
    read alone; never pinned."""
    folder = tmp_path / "langid" / "ndt_news"
    folder.mkdir(parents=True)
    bokmaal = ["Regjeringen la fram statsbudsjettet i dag, og finansministeren er fornøyd med tallene.",
               "Det var stas å pakke ut og se på all maten som kom med bilen i går."]  # reads as Nynorsk too
    nynorsk = ["Regjeringa la fram statsbudsjettet i dag, og finansministeren er nøgd med tala."]
    rows = [("nob", "ap001_0000.conll", text) for text in bokmaal * 21] + \
           [("nno", "dot001_0000.conll", text) for text in nynorsk * 3] + [("swe", "x.conll", "Hej.")]
    (folder / "sentences.tsv").write_text("lang\tfile\ttext\n" + "".join("\t".join(row) + "\n" for row in rows),
                                          encoding="utf-8")
    documents = evaluation.ndt_news_documents(tmp_path)
    assert [(code, len(sentences)) for code, sentences in documents] == [("nob", 20), ("nob", 20), ("nob", 2),
                                                                        ("nno", 3)]
    report = evaluation.Report()
    evaluation._documents(report, "ndt_news_documents", documents, "sentences")
    figure = report.figures[0]
    assert figure.name == "lang.ndt_news_documents.scandinavian_errors" and figure.ours == 0.0
    alone = report.details["confusion.ndt_news_documents"]["each paragraph alone"]
    assert alone["nob"] == {"nob": 21, "nno": 21}  # the tied sentence read alone: the character models' Nynorsk
    assert "each paragraph alone 0.4667; 45 sentences (nob 0.0000 (alone 0.5000), nno 0.0000 (alone 0.0000))" \
        in figure.note
    evaluation.write_baseline(report, tmp_path / "baseline.json")
    assert evaluation.load_baseline(tmp_path / "baseline.json") == {}


def test_eval_skips_with_a_message_without_samples(tmp_path, capsys):
    cli.main(["eval", "--samples", str(tmp_path / "absent")])
    assert "samples not found" in capsys.readouterr().out


def test_intervals_of_a_mean_and_of_an_error_rate():
    """The bootstrap interval holds the mean, narrows with more pages like these, is the same on every
    run (fixed seed), and collapses where every page scores alike; Wilson's interval is the textbook's."""
    scores = [0.2, 0.9, 1.0, 0.95, 0.85, 0.99, 0.7, 1.0, 0.6, 0.97]
    low, high = evaluation.bootstrap_interval(scores)
    assert low < evaluation.mean(scores) < high and high - low > 0.1
    assert evaluation.bootstrap_interval(scores) == (low, high)
    wide_low, wide_high = evaluation.bootstrap_interval(scores * 10)
    assert low < wide_low < wide_high < high
    assert evaluation.bootstrap_interval([0.5] * 8) == (0.5, 0.5)
    assert evaluation.bootstrap_interval([0.7]) == (0.7, 0.7)
    assert evaluation.wilson_interval(0, 0) == (0.0, 0.0)
    assert [round(x, 4) for x in evaluation.wilson_interval(1, 100)] == [0.0018, 0.0545]
    assert [round(x, 4) for x in evaluation.wilson_interval(0, 10)] == [0.0, 0.2775]
    assert [round(x, 4) for x in evaluation.wilson_interval(20, 1000)] == [0.013, 0.0307]


def test_body_f1_carries_its_interval_and_the_gain_over_trafilatura_alone():
    pages = [evaluation.Page(str(i), None, "", body="a b c d") for i in range(4)]
    ours = [evaluation.Result(text, None) for text in ("a b c d", "a b c d", "a b", "a b c d")]
    alone = [evaluation.Result(text, None) for text in ("a b", "a b c d x", "a b", "a")]
    report = evaluation.Report()
    evaluation._body(report, "set", pages, ours, alone)
    f1 = next(f for f in report.figures if f.name == "body.set.f1")
    assert round(f1.ours, 4) == round((3 + 2 / 3) / 4, 4)
    low, high = evaluation.bootstrap_interval([1.0, 1.0, 2 / 3, 1.0])
    gain = evaluation.bootstrap_interval([1.0 - 2 / 3, 1.0 - 8 / 9, 0.0, 1.0 - 0.4])
    assert 2 / 3 <= low < f1.ours < high == 1.0 and gain[0] > 0  # every page at least as good as alone's
    assert f1.note == (f"95 % interval {low:.4f}-{high:.4f}; ours - alone {f1.ours - f1.trafilatura:+.4f} "
                       f"({gain[0]:+.4f} to {gain[1]:+.4f}); 4 pages")


def test_our_side_restores_a_wayback_capture_as_the_pipeline_does():
    """Big9's older pages are Wayback captures, toolbar and all: the pipeline's restore step takes the
    toolbar out before extraction, and so does the eval's measure of ours."""
    from warc2corpus.text import extract

    story = [f"Kommunestyret vedtok budsjettet for {year} etter en lang debatt om skolene og veiene i bygda."
             for year in range(2001, 2005)]
    toolbar = ("<!-- BEGIN WAYBACK TOOLBAR INSERT --><div><p>Starting in 1996, Alexa Internet has been donating "
               "their crawl data to the Internet Archive, and these data are added to the Wayback Machine after an "
               "embargo period.</p></div><!-- END WAYBACK TOOLBAR INSERT -->")
    html = ("<html><head><title>Budsjett</title></head><body><article><h1>Budsjett</h1>" + toolbar
            + "".join(f"<p>{p}</p>" for p in story) + "</article></body></html>")
    page = evaluation.Page("capture", "https://www.example.no/nyheter/budsjett", html, body="\n".join(story))
    assert any("Alexa" in p for p in extract.extract(html, page.url, naturalness=False).paragraphs)  # unrestored
    assert evaluation.ours(page).text == "\n".join(story)


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


def _gather_wider():
    """eval/gather_wider.py, a script outside the package."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "eval"))
    import gather_wider

    return gather_wider


def _commit_all(repo: Path) -> None:
    """A git repository of what the folder holds, as the source repositories gather_wider reads."""
    import subprocess

    for command in (["init", "-q"], ["add", "."], ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "x"]):
        subprocess.run(["git", "-C", str(repo), *command], check=True)


def _cleaning_datasets_clone(tmp_path, folder: str, pages: dict[str, tuple[str, bytes]]):
    """A clone of j-szulc/html-cleaning-dataset-merged holding, in one of its sets' folders, each page
    (name -> its HTML and its gold file's bytes) as ``input/<name>.html`` and ``GoldStandard/<name>.txt``."""
    repo = tmp_path / "html-cleaning-dataset-merged"
    for part in ("input", "GoldStandard"):
        (repo / folder / part).mkdir(parents=True)
    for name, (html, gold) in pages.items():
        (repo / folder / "input" / f"{name}.html").write_text(html, encoding="utf-8")
        (repo / folder / "GoldStandard" / f"{name}.txt").write_bytes(gold)
    _commit_all(repo)
    return _gather_wider().Repo(repo)


def _date_page(folder, name: str, date: str) -> None:
    import gzip

    folder.mkdir(parents=True, exist_ok=True)
    html = (f"<html><head><title>Kommunen</title><meta property='article:published_time' content='{date}T08:00:00Z'>"
            "</head><body><article><h1>Kommunen</h1>" + "<p>Kommunestyret vedtok budsjettet etter et langt møte "
            "i går kveld, og ordføreren var fornøyd med resultatet.</p>" * 3 + "</article></body></html>")
    (folder / f"{name}.gz").write_bytes(gzip.compress(html.encode()))


def test_other_page_sets_are_measured_without_pins(tmp_path, capsys):
    """A samples folder holding only some sets (eval/gather_wider.py's halves): those are measured;
    a page whose truth has no date (Media Cloud's NaN) is left out of the exact-day score and counted;
    every date set's pages are also scored as one; without --no-pins the gate fails on every pinned
    figure it could not measure."""
    folder = tmp_path / "dates_mediacloud"
    _date_page(folder / "html", "a.html", "2020-06-07")
    _date_page(folder / "html", "b.html", "2020-09-21")
    _date_page(folder / "html", "c.html", "2020-03-03")
    (folder / "eval.json").write_text(json.dumps({"https://example.no/a": {"file": "a.html", "date": "2020-06-07"},
                                                  "https://example.no/b": {"file": "b.html", "date": "2020-01-01"},
                                                  "https://example.no/c": {"file": "c.html", "date": float("nan")}}))
    cli.main(["eval", "--samples", str(tmp_path), "--no-pins", "--json"])
    out = capsys.readouterr().out
    report = json.loads(out.splitlines()[-1])
    assert report["figures"] == {"date.mediacloud.accuracy": 0.5}
    folder = tmp_path / "dates_htmldate_eval"
    _date_page(folder / "html_bbaw", "d.html", "2021-02-02")
    (folder / "eval_default.json").write_text(json.dumps({"https://example.no/d": {"file": "d.html",
                                                                                  "date": "2021-02-02"}}))
    cli.main(["eval", "--samples", str(tmp_path), "--no-pins"])
    out = capsys.readouterr().out
    assert "2 pages with a known date, 1 without one left out" in out
    cli.main(["eval", "--samples", str(tmp_path), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures == {"date.htmldate.accuracy": 1.0, "date.mediacloud.accuracy": 0.5,
                       "date.all.accuracy": round(2 / 3, 4)}
    with pytest.raises(SystemExit) as failed:
        cli.main(["eval", "--samples", str(tmp_path)])
    assert failed.value.code == 1
    assert "body.scrapinghub.f1: no longer measured" in capsys.readouterr().out


def test_what_each_cleaning_rule_dropped_is_weighed_against_the_truth():
    """Per reason, the dropped paragraphs' words the truth holds beyond our kept text (recall lost) and
    the others (precision won): a line the truth holds once and we keep once costs nothing when its
    copy goes; the truth's words are consumed as they are counted."""
    truth = "Det blåser kraftig i dag . Det blåser kraftig i dag . Ferja går ikke"
    result = evaluation.Result("Det blåser kraftig i dag .", None, dropped=[
        ("repeated", "Det blåser kraftig i dag ."), ("repeated", "Det blåser kraftig i dag ."),
        ("boilerplate", "Meld deg på nyhetsbrevet"), ("links", "Ferja går ikke i dag")])
    assert evaluation.dropped_words([truth], [result]) == {
        "boilerplate": {"paragraphs": 1, "truth_words": 0, "other_words": 4},
        "links": {"paragraphs": 1, "truth_words": 3, "other_words": 2},
        "repeated": {"paragraphs": 2, "truth_words": 6, "other_words": 6}}
    # A set whose truth lost its non-ASCII characters ("Sjø er blått" written "Sj er bltt") scores ours so too.
    ascii_only = evaluation.dropped_words(["Sj er bltt"], [evaluation.Result("", None, dropped=[("links", "Sjø er blått")])],
                                          evaluation.ascii_only)
    assert ascii_only == {"links": {"paragraphs": 1, "truth_words": 3, "other_words": 0}}


def test_page_changes_count_pages_better_and_worse_and_name_the_worse():
    report = evaluation.Report()
    report.details = {"body.l3s_gn1.pages": {"a": 0.95, "b": 0.80, "c": 0.5, "d": 0.9},
                      "body.fundus.pages": {"x": 1.0}, "confusion.x": {}}
    earlier = {"details": {"body.l3s_gn1.pages": {"a": 0.90, "b": 0.85, "c": 0.5005, "e": 0.1}}}
    assert evaluation.page_changes(report, earlier) == [
        "l3s_gn1: F1 0.7502 -> 0.7500 on 3 pages: 1 better, 1 worse (2 pages in one run only)",
        "    worse: b 0.8500 -> 0.8000"]


def test_eval_against_an_earlier_run_shows_each_page_that_moved(tmp_path, capsys):
    folder = tmp_path / "extraction_scrapinghub_aeb"
    (folder / "html").mkdir(parents=True)
    story = ["Kommunestyret vedtok torsdag å legge ned to av de fire skolene i bygda fra neste høst.",
             "Vedtaket kom etter et langt møte der foreldre fylte salen og flere talere ba om utsettelse.",
             "Foreldreaksjonen vil nå be fylkesmannen vurdere om saken er godt nok utredet."]
    html = "<html><body><article><h1>Skoler legges ned</h1>" + "".join(f"<p>{p}</p>" for p in story) + "</article></body></html>"
    (folder / "html" / "p1.html.gz").write_bytes(gzip.compress(html.encode()))
    (folder / "ground-truth.json").write_text(json.dumps({"p1": {"articleBody": "\n".join(story), "url": "https://a.no/1"}}))
    earlier = tmp_path / "earlier.txt"
    earlier.write_text("a printed report\n" + json.dumps({"figures": {}, "details": {
        "body.scrapinghub.pages": {"p1": 0.5}}}) + "\n")
    cli.main(["eval", "--samples", str(tmp_path), "--no-pins", "--against", str(earlier)])
    out = capsys.readouterr().out
    assert "scrapinghub: F1 0.5000 -> 1.0000 on 1 pages: 1 better, 0 worse" in out
    earlier.write_text("no JSON here\n")
    with pytest.raises(SystemExit) as wrong:
        cli.main(["eval", "--samples", str(tmp_path), "--no-pins", "--against", str(earlier)])
    assert "holds no JSON line" in str(wrong.value)


def test_gather_wider_splits_fundus_pages_as_the_shared_flat_file(tmp_path):
    """eval/gather_wider.py pairs fundus' pages with their parser versions by crawl date, writes the
    body as summary + section headlines + paragraphs, leaves out pages the shared samples hold, and
    puts each page in the same half every time."""
    import gzip

    gather_wider = _gather_wider()

    base = tmp_path / "fundus" / "tests" / "resources" / "parser" / "test_data" / "no"
    base.mkdir(parents=True)
    (base / "meta.info").write_text(json.dumps({
        "Avis_2026_01_06.html.gz": {"url": "https://avis.no/b", "crawl_date": "2026-01-06 10:00:00"},
        "Avis_2024_08_04.html.gz": {"url": "https://avis.no/a", "crawl_date": "2024-08-04 10:00:00"},
        "Delt_2024_01_01.html.gz": {"url": "https://delt.no/c", "crawl_date": "2024-01-01 10:00:00"}}))
    (base / "Avis.json").write_text(json.dumps({
        "V1": {"title": "A", "publishing_date": "2024-08-04 09:00:00+02:00",
               "body": {"summary": ["Ingress."], "sections": [{"headline": [], "paragraphs": ["En."]},
                                                               {"headline": ["Mellomtittel"], "paragraphs": ["To."]}]}},
        "V2": {"title": "B", "body": {"summary": [], "sections": [{"headline": [], "paragraphs": ["Ny."]}]}}}))
    (base / "Delt.json").write_text(json.dumps({"V1": {"body": {"summary": ["Delt."], "sections": []}}}))
    for name in ("Avis_2026_01_06.html.gz", "Avis_2024_08_04.html.gz", "Delt_2024_01_01.html.gz"):
        (base / name).write_bytes(gzip.compress(b"<html><body><p>side</p></body></html>"))
    repo = tmp_path / "fundus"
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_fundus(gather_wider.Repo(repo), tmp_path / "out", {"Delt_2024_01_01.html.gz"}, counts)
    rows = {}
    for split in gather_wider.SPLITS:
        for line in (tmp_path / "out" / split / "news_fundus" / "ground_truth_flat.jsonl").read_text().splitlines():
            rows[json.loads(line)["file"]] = (split, json.loads(line))
    assert counts["fundus_left_out"] == 1 and set(rows) == {"test_data/no/Avis_2024_08_04.html.gz",
                                                            "test_data/no/Avis_2026_01_06.html.gz"}
    split, old = rows["test_data/no/Avis_2024_08_04.html.gz"]
    assert old["parser_version"] == "V1" and old["body_paragraphs"] == ["Ingress.", "En.", "Mellomtittel", "To."]
    assert rows["test_data/no/Avis_2026_01_06.html.gz"][1]["body_paragraphs"] == ["Ny."]
    assert split == gather_wider.split_of("fundus", "Avis_2024_08_04.html.gz")
    assert (tmp_path / "out" / split / "news_fundus" / old["file"]).is_file()


def test_gather_wider_takes_treebank_sentences_by_their_own_split(tmp_path):
    """eval/gather_wider.py --ud: a treebank's dev file to dev and its test file to heldout (its train
    file only where it has no dev file), in the table the eval reads (Danish and Swedish included)."""

    gather_wider = _gather_wider()

    from warc2corpus.quality import evaluation

    def treebank(name: str, files: dict[str, list[str]]) -> gather_wider.Repo:
        repo = tmp_path / name
        repo.mkdir()
        for file, texts in files.items():
            (repo / file).write_text("".join(f"# sent_id = {i}\n# text = {t}\n1\t_\t_\n\n" for i, t in enumerate(texts)))
        _commit_all(repo)
        return gather_wider.Repo(repo)

    danish = treebank("UD_Danish-DDT", {"da_ddt-ud-train.conllu": ["Træning."], "da_ddt-ud-dev.conllu": ["Udvikling  her."],
                                        "da_ddt-ud-test.conllu": ["Prøve."]})
    sami = treebank("UD_North_Sami-Giella", {"sme_giella-ud-train.conllu": ["Oahppat."],
                                              "sme_giella-ud-test.conllu": ["Geahččalit."]})
    counts: dict = {}
    named = gather_wider.gather_ud([danish, sami], tmp_path / "out", counts)
    assert set(named) == {"UD_Danish-DDT", "UD_North_Sami-Giella"}
    assert evaluation.ud_sentences(tmp_path / "out" / "dev") == [("dan", "Udvikling her."), ("sme", "Oahppat.")]
    assert evaluation.ud_sentences(tmp_path / "out" / "heldout") == [("dan", "Prøve."), ("sme", "Geahččalit.")]
    assert counts == {"ud_da_dev": 1, "ud_da_heldout": 1, "ud_se_dev": 1, "ud_se_heldout": 1}
    with pytest.raises(SystemExit, match="no treebank"):
        gather_wider.gather_ud([treebank("elsewhere", {"readme.conllu": ["Nei."]})], tmp_path / "out2", {})


def test_gather_wider_takes_the_treebanks_news_sentences_outside_ud_dev_and_test(tmp_path):
    """eval/gather_wider.py --norne: the newspaper documents' sentences (not the blogs' or parliament's),
    joined as written, less those in UD's dev and test files, each file's sentences in one half."""

    gather_wider = _gather_wider()

    from warc2corpus.quality import evaluation

    def conll(*sentences: list[str]) -> str:
        return "\n".join("".join(f"{i}\t{form}\t_\t_\n" for i, form in enumerate(forms, 1))
                         for forms in sentences) + "\n"

    repo = tmp_path / "norne"
    (repo / "ndt" / "nob").mkdir(parents=True)
    (repo / "ndt" / "nno").mkdir(parents=True)
    (repo / "ud" / "nob").mkdir(parents=True)
    (repo / "ndt" / "nob" / "ap001_0000.conll").write_text(conll(
        ["Regjeringen", "la", "fram", "budsjettet", "(", "i", "går", ")", "."], ["Dette", "er", "i", "UD", "."],
        ["Overskrift", "|"]), encoding="utf-8")
    (repo / "ndt" / "nno" / "firda-nn001_0000.conll").write_text(conll(["Det", "er", "«", "fint", "»", "."]),
                                                                  encoding="utf-8")
    (repo / "ndt" / "nob" / "blogg-bm001_0000.conll").write_text(conll(["Ein", "blogg", "."]), encoding="utf-8")
    # Dagbladet's documents carry a letter after their number.
    (repo / "ndt" / "nob" / "db001b_0003.conll").write_text(conll(["Folk", "synes", "det", "er", "kult", "."]),
                                                             encoding="utf-8")
    (repo / "ud" / "nob" / "no_bokmaal-ud-test.conllu").write_text(
        "# sent_id = 1\n# text = Dette er i UD.\n1\t_\t_\n\n", encoding="utf-8")
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_norne(gather_wider.Repo(repo), tmp_path / "out", counts)
    found = {split: evaluation.ndt_news_sentences(tmp_path / "out" / split) for split in gather_wider.SPLITS}
    ap = "dev" if ("nob", "Overskrift") in found["dev"] else "heldout"
    assert [("nob", "Regjeringen la fram budsjettet (i går)."), ("nob", "Overskrift")] == \
        [row for row in found[ap] if row[0] == "nob" and row[1] != "Folk synes det er kult."]
    assert ("nno", "Det er «fint».") in found["dev"] + found["heldout"]
    assert ("nob", "Folk synes det er kult.") in found["dev"] + found["heldout"]
    assert sum(counts.values()) == 4
    assert not any("blogg" in text or "UD" in text for half in found.values() for _, text in half)
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "ndt" / "nob").mkdir(parents=True)
    (elsewhere / "ndt" / "nob" / "blogg-bm001_0000.conll").write_text(conll(["Ein", "blogg", "."]), encoding="utf-8")
    _commit_all(elsewhere)
    with pytest.raises(SystemExit, match="no newspaper document"):
        gather_wider.gather_norne(gather_wider.Repo(elsewhere), tmp_path / "out2", {})


def test_trafilatura_evaluation_pages_are_gathered_and_scored_by_their_snippets(tmp_path, capsys):
    """eval/gather_wider.py --trafilatura: each page of trafilatura's evaluation (tests/cache, else
    tests/eval; a name git would quote included) in its half with its snippets; ``warc2corpus eval``
    scores them as trafilatura's evaluation does: snippets found or missed, over all pages."""

    gather_wider = _gather_wider()

    body = " ".join(["Kommunestyret vedtok budsjettet for neste år etter en lang debatt i salen."] * 8)
    page = ("<html><head><title>Budsjett</title></head><body><nav>Meny Forside Sport Kultur</nav>"
            f"<article><h1>Budsjett</h1><p>{body}</p><p>Ordføreren var fornøyd med resultatet.</p></article>"
            "<footer>Kontakt oss</footer></body></html>")
    repo = tmp_path / "trafilatura"
    (repo / "tests" / "eval").mkdir(parents=True)
    (repo / "tests" / "cache").mkdir()
    (repo / "tests" / "eval" / "avis.html").write_text(page)
    (repo / "tests" / "cache" / "bladet-æøå.html").write_text(page)
    (repo / "tests" / "evaldata.json").write_text(json.dumps({
        "https://avis.example.no/budsjett": {"file": "avis.html", "with": ["Ordføreren var fornøyd", "vedtok  budsjettet"],
                                             "without": ["Kontakt oss", "Ikke på siden"]},
        "https://bladet.example.no/budsjett": {"file": "bladet-æøå.html", "with": ["Ordføreren var fornøyd"],
                                               "without": ["Meny Forside"]},
        "https://borte.example.no/": {"file": "borte.html", "with": ["x"], "without": ["y"]}}))
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_trafilatura(gather_wider.Repo(repo), tmp_path / "out", counts)
    assert counts["trafilatura_page_missing"] == 1
    assert counts["trafilatura_dev"] + counts["trafilatura_heldout"] == 2
    for name in ("avis.html", "bladet-æøå.html"):
        split = gather_wider.split_of("trafilatura", name)
        assert (tmp_path / "out" / split / "extraction_trafilatura_eval" / "html" / name).read_text() == page

    # Both pages in one folder, to score: 3 "with" snippets all found, 3 "without" snippets none found.
    samples = tmp_path / "samples" / "extraction_trafilatura_eval"
    (samples / "html").mkdir(parents=True)
    rows = {}
    for split in gather_wider.SPLITS:
        folder = tmp_path / "out" / split / "extraction_trafilatura_eval"
        rows.update(json.loads((folder / "evaldata.json").read_text()))
        for html in (folder / "html").iterdir():
            (samples / "html" / html.name).write_bytes(html.read_bytes())
    (samples / "evaldata.json").write_text(json.dumps(rows))
    cli.main(["eval", "--samples", str(tmp_path / "samples"), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures == {"body.trafilatura_eval.snippet_precision": 1.0, "body.trafilatura_eval.snippet_recall": 1.0,
                       "body.trafilatura_eval.snippet_f1": 1.0}
    # A snippet the text lacks is a false negative; one it holds that it must not, a false positive.
    rows["https://avis.example.no/budsjett"]["with"].append("Ikke på siden heller")
    rows["https://avis.example.no/budsjett"]["without"].append("Ordføreren var")
    (samples / "evaldata.json").write_text(json.dumps(rows))
    cli.main(["eval", "--samples", str(tmp_path / "samples"), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures == {"body.trafilatura_eval.snippet_precision": 0.75, "body.trafilatura_eval.snippet_recall": 0.75,
                       "body.trafilatura_eval.snippet_f1": 0.75}


def test_l3s_news_pages_are_gathered_with_their_full_text_and_scored(tmp_path, capsys):
    """eval/gather_wider.py --l3s: each L3S-GN1 page as crawled, in its half, with the text its assessors
    marked full text (the label of a text node is its nearest labelled ancestor's: a block marked not
    content inside full text is left out, full text inside it counted); a page whose <title> is never
    closed (this copy lost part of it), one without full text and one without a marked-up copy are left
    out; ``warc2corpus eval`` scores the pages as it scores the article-extraction benchmark's."""
    import gzip

    gather_wider = _gather_wider()

    body = "The council passed the budget for next year after a long debate in the chamber."
    crawled = ("<html><head><title>Budget</title></head><body><div>Home News Sport</div>"
               f"<div><p>{body}</p><p>The mayor was pleased with the result of the vote.</p></div>"
               "<div>Comment by reader: great news</div></body></html>")
    annotated = ("<html><body><span class='x-nc-sel0'>Home News Sport</span>"
                 f"<span class='x-nc-sel2'>{body.replace('budget', '<a>budget</a>')}</span>"
                 "<span class='x-nc-sel2'>The mayor was pleased <span class='x-nc-sel0'>Advertisement</span>"
                 "with the result</span><span class='x-nc-sel0'>x <span class='x-nc-sel2'>of the vote.</span></span>"
                 "<span class='x-nc-sel5'>Comment by reader: great news</span><script>var x = 1;</script></body></html>")
    folder = tmp_path / "page-signal" / gather_wider.L3S_FOLDER
    for kind in ("original", "annotated"):
        (folder / kind).mkdir(parents=True)
    pages = {"a1": (crawled, annotated), "b2": (crawled.replace("</title>", ""), annotated),
             "c3": (crawled, annotated.replace("x-nc-sel2", "x-nc-sel3")), "d4": (crawled, None)}
    for name, (page, marked) in pages.items():
        (folder / "original" / f"{name}.html").write_text(page)
        if marked is not None:
            (folder / "annotated" / f"{name}.html").write_text(marked)
    repo = tmp_path / "page-signal"
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_l3s(gather_wider.Repo(repo), tmp_path / "out", counts)
    assert counts["l3s_title_never_closed"] == 1 and counts["l3s_without_full_text"] == 1
    assert counts["l3s_not_assessed"] == 1
    split = gather_wider.split_of("l3s", "a1")
    assert counts[f"l3s_{split}"] == 1
    out = tmp_path / "out" / split / "extraction_l3s_gn1"
    truth = json.loads((out / "ground-truth.json").read_text())
    assert truth == {"a1": {"articleBody": f"{body}\nThe mayor was pleased\nwith the result\nof the vote.", "url": None}}
    assert gzip.decompress((out / "html" / "a1.html.gz").read_bytes()).decode() == crawled

    cli.main(["eval", "--samples", str(tmp_path / "out" / split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert set(figures) == {"body.l3s_gn1.precision", "body.l3s_gn1.recall", "body.l3s_gn1.f1"}
    assert figures == {"body.l3s_gn1.precision": 1.0, "body.l3s_gn1.recall": 1.0, "body.l3s_gn1.f1": 1.0}
    # Text the assessors marked that the page does not give is missed: recall 25 of 34 tokens.
    truth["a1"]["articleBody"] += "\nEight words the crawled page never held at all."
    (out / "ground-truth.json").write_text(json.dumps(truth))
    cli.main(["eval", "--samples", str(tmp_path / "out" / split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures["body.l3s_gn1.precision"] == 1.0 and figures["body.l3s_gn1.recall"] == round(25 / 34, 4)


def test_l3s_pages_are_scored_in_the_characters_their_truth_was_saved_in():
    """L3S-GN1's assessors saved their pages in ISO-8859-1: a character it lacks is "?" in the truth
    ("Armenia&#8217;s" on the page, "Armenia?s" in the annotated file), and every text is scored as
    ISO-8859-1 writes it, ours and trafilatura's alike; "£" and "é", which it has, stay as they are."""
    truth = "Armenia?s Levon Aronian won for ?the last time? at £5 a café seat."
    text = "Armenia\u2019s Levon Aronian won for \u201cthe last time\u201d at £5 a café seat."
    page = evaluation.Page("a1", None, "<html></html>", body=truth)
    report = evaluation.Report()
    evaluation._body(report, "l3s_gn1", [page], [evaluation.Result(text, None)],
                     [evaluation.Result(text.replace("café", "cafe"), None)])
    figures = {f.name: (f.ours, f.trafilatura) for f in report.figures}
    # trafilatura's text is scored the same way: only its "cafe" (1 of 13 tokens) differs.
    assert figures["body.l3s_gn1.f1"] == (1.0, pytest.approx(12 / 13))
    assert evaluation.as_latin1(text) == truth
    # Any other set is scored on the characters as they are: the quotes would cost three tokens.
    other = evaluation.Report()
    evaluation._body(other, "scrapinghub", [page], [evaluation.Result(text, None)], [evaluation.Result(text, None)])
    assert {f.name: f.ours for f in other.figures}["body.scrapinghub.f1"] < 0.9


def test_utomo_pages_are_split_by_site_and_scored_on_their_ascii(tmp_path, capsys):
    """eval/gather_wider.py --utomo: Big9's pages go to a half by their site (each page's site is the one
    of the nine it names most), Chaos' by their own name; the headline on the gold's first line is left
    out (not a first line that reads as a sentence), a gold file in Windows-1252 is read; ``warc2corpus
    eval`` scores these sets on the ASCII characters of both texts, as their gold was written."""
    import gzip

    gather_wider = _gather_wider()

    story = ("The council passed the budget for next year after a long debate in the chamber on Tuesday. "
             "The mayor said the vote was a fair one.")
    page = ("<html><head><title>Budget passes</title></head><body><div>Home News Sport</div>"
            f"<article><h1>Budget passes</h1><p>{story.replace('fair one', 'fair one—for once')}</p></article>"
            "<div>{site}.com</div></body></html>")
    repo = tmp_path / "ir-research-data"
    sites = {"big5-05": ["cnn", "bbc", "cnn"], "big5-17": ["yahoo"]}
    for folder, named in sites.items():
        for i, site in enumerate(named):
            (repo / "Extraction" / folder / "html").mkdir(parents=True, exist_ok=True)
            (repo / "Extraction" / folder / "gold").mkdir(parents=True, exist_ok=True)
            (repo / "Extraction" / folder / "html" / f"p ({i}).htm").write_text(page.replace("{site}", site))
            (repo / "Extraction" / folder / "gold" / f"p ({i}).txt").write_text(
                f"Budget passes\n\n{story.replace('fair one', 'fair onefor once')}\n")
    (repo / "Extraction" / "chaos-all" / "html").mkdir(parents=True)
    (repo / "Extraction" / "chaos-all" / "gold").mkdir(parents=True)
    (repo / "Extraction" / "chaos-all" / "html" / "q (1).htm").write_text(page.replace("{site}", "example"))
    (repo / "Extraction" / "chaos-all" / "gold" / "q (1).txt").write_bytes(
        f"{story} Caf\u2019s.\n".encode("cp1252"))
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_utomo(gather_wider.Repo(repo), tmp_path / "out", counts)
    halves = counts["big9_sites"]
    assert sorted(halves["dev"] + halves["heldout"]) == ["bbc", "cnn", "yahoo"]
    for split in gather_wider.SPLITS:
        truth = json.loads((tmp_path / "out" / split / "extraction_big9" / "ground-truth.json").read_text())
        assert {row["site"] for row in truth.values()} <= set(halves[split])
        assert len(truth) == sum(named.count(site) for named in sites.values() for site in halves[split])
    chaos_split = gather_wider.split_of("chaos", "chaos-all/q (1)")
    chaos = json.loads((tmp_path / "out" / chaos_split / "extraction_chaos" / "ground-truth.json").read_text())
    # A first line that reads as a sentence stays: it is no headline. Windows-1252 is read as such.
    assert chaos["chaos-all_q (1)"]["articleBody"] == f"{story} Caf\u2019s."
    big9_split = "dev" if "cnn" in halves["dev"] else "heldout"
    folder = tmp_path / "out" / big9_split / "extraction_big9"
    truth = json.loads((folder / "ground-truth.json").read_text())
    assert truth["big5-05_p (0)"]["articleBody"] == story.replace("fair one", "fair onefor once")
    assert gzip.decompress((folder / "html" / "big5-05_p (0).html.gz").read_bytes()).decode() == page.replace(
        "{site}", "cnn")

    # Scored on ASCII: "one—for" in the page is the gold's "onefor". Without that, it would miss a token.
    cli.main(["eval", "--samples", str(tmp_path / "out" / big9_split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures["body.big9.recall"] == 1.0 and figures["body.big9.precision"] == 1.0
    assert {label for label, scored in evaluation.TRUTH_CHARACTERS.items()
            if scored is evaluation.ascii_only} == {"big9", "chaos"}
    text, gold = "a fair one—for once", "a fair onefor once"
    assert evaluation.token_prf(text, gold)[2] < 1.0  # scored on all characters, the dash would cost
    # Sets the shared samples lack are never pinned.
    assert all(name.startswith(evaluation.UNPINNED) for name in figures)


def test_dragnet_pages_are_gathered_with_their_article_and_scored(tmp_path, capsys):
    """eval/gather_wider.py --dragnet: each Dragnet page in its half with the article its person copied
    out of it, the comments after Dragnet's dividing line left out, a copy in Windows-1252 read as such;
    a page whose copy holds no text is left out; ``warc2corpus eval`` scores the set (never pinned)."""
    import gzip

    gather_wider = _gather_wider()
    story = ("The council passed the budget for next year after a long debate in the chamber on Tuesday. "
             "The mayor said the vote was a fair one \u2013 for once.")
    page = ("<html><head><title>Budget passes</title></head><body><div>Home News Sport</div>"
            f"<article><p>{story}</p></article></body></html>")
    golds = {"11": f"\r\n  {story}  \r\n\r\n".encode("utf-8") + gather_wider.DRAGNET_COMMENTS
             + b"\r\nReader: I disagree with all of it.\r\n",
             "12": story.encode("cp1252"), "13": b"\r\n \r\n"}
    repo = _cleaning_datasets_clone(tmp_path, gather_wider.DRAGNET_FOLDER, {name: (page, gold) for name, gold in golds.items()})

    counts: dict = {}
    gather_wider.gather_dragnet(repo, tmp_path / "out", counts)
    assert counts["dragnet_without_text"] == 1
    assert counts["dragnet_dev"] + counts["dragnet_heldout"] == 2
    for name in ("11", "12"):
        folder = tmp_path / "out" / gather_wider.split_of("dragnet", name) / "extraction_dragnet"
        truth = json.loads((folder / "ground-truth.json").read_text())
        assert truth[name] == {"articleBody": story, "url": None}
        assert gzip.decompress((folder / "html" / f"{name}.html.gz").read_bytes()).decode() == page

    split = gather_wider.split_of("dragnet", "11")
    cli.main(["eval", "--samples", str(tmp_path / "out" / split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures["body.dragnet.precision"] == 1.0 and figures["body.dragnet.recall"] == 1.0
    assert all(name.startswith(evaluation.UNPINNED) for name in figures)


def test_cleanportaleval_pages_are_gathered_by_site_without_their_headline(tmp_path, capsys):
    """eval/gather_wider.py --dragnet also takes CleanPortalEval from the same clone: each page's gold file
    read as CleanEval writes it (a URL line, ``<h>``/``<p>``/``<l>`` blocks over wrapped lines, HTML
    entities), the headline block left out, a site's pages kept in one half; ``warc2corpus eval`` scores
    the set (never pinned)."""
    import gzip

    gather_wider = _gather_wider()
    first = "The council passed the budget for next year after a long debate in the chamber on Tuesday."
    second = "The mayor said the \u201cvote was fair\u201d and that the town would build a new school."
    gold = ("\nURL: http://news.example.com/2012/budget\n<h>Budget passes\n\n<p>The council passed the budget for\n"
            " next year after a long debate in the chamber on Tuesday.\n\n<p>The mayor said the &#8220;vote was"
            " fair&#8221;\n and that the town would build a new school.\n")
    page = ("<html><head><title>Budget passes</title></head><body><div>Home News Sport</div><article>"
            f"<h1>Budget passes</h1><p>{first}</p><p>{second}</p></article></body></html>")
    pages = {name: (page, gold.encode()) for name in ("news.example.com_news_01", "news.example.com_news_02",
                                                       "blog.example.org_blog1_3")}
    pages["other.example.net_news_04"] = (page, b"URL: http://other.example.net/\n<h>Only a headline\n")
    repo = _cleaning_datasets_clone(tmp_path, gather_wider.CLEANPORTALEVAL_FOLDER, pages)

    counts: dict = {}
    gather_wider.gather_cleanportaleval(repo, tmp_path / "out", counts)
    assert counts["cleanportaleval_without_text"] == 1
    halves = counts["cleanportaleval_sites"]
    assert sorted(halves["dev"] + halves["heldout"]) == ["blog.example.org", "news.example.com"]
    assert halves["dev"] and halves["heldout"]  # two sites: one in each half
    split = next(half for half, sites in halves.items() if "news.example.com" in sites)
    folder = tmp_path / "out" / split / "extraction_cleanportaleval"
    truth = json.loads((folder / "ground-truth.json").read_text())
    assert set(truth) == {"news.example.com_news_01", "news.example.com_news_02"}
    assert truth["news.example.com_news_01"] == {"articleBody": f"{first}\n{second}",
                                                  "url": "http://news.example.com/2012/budget",
                                                  "site": "news.example.com"}
    assert gzip.decompress((folder / "html" / "news.example.com_news_01.html.gz").read_bytes()).decode() == page

    cli.main(["eval", "--samples", str(tmp_path / "out" / split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert figures["body.cleanportaleval.precision"] == 1.0 and figures["body.cleanportaleval.recall"] == 1.0
    assert all(name.startswith(evaluation.UNPINNED) for name in figures)


def test_nordicdsl_sentences_are_split_and_measured_unpinned(tmp_path, capsys):
    """eval/gather_wider.py --nordicdsl: the Wikipedia test sentences of Bokmål, Nynorsk, Danish ("dk")
    and Swedish go to a file per language in the half their hash names (Faroese and Icelandic are left
    out); ``warc2corpus eval`` measures them as a sentence set, never pinned."""
    gather_wider = _gather_wider()
    sentences = {"dk": ["de fleste af dem bor ved grænsen og der bor mindre grupper i de andre provinser nu"],
                 "nb": ["han har ikke vært hjemme på mange år og vet ikke hva som skjer i bygda nå"],
                 "nn": ["ho har ikkje vore heime på mange år og veit ikkje kva som skjer i bygda no"],
                 "sv": ["han har inte varit hemma på många år och vet inte vad som händer i byn nu"],
                 "fo": ["nú er sparkivøllur á staðnum har sum kørini hjá smoltstøðini stóðu"]}
    repo = tmp_path / "NordicDSL"
    (repo / "data" / "wikipedia").mkdir(parents=True)
    (repo / "data" / "wikipedia" / "test.csv").write_text(
        "language,sentence\n" + "".join(f"{code},{s}  \n" for code, rows in sentences.items() for s in rows))
    _commit_all(repo)

    counts: dict = {}
    gather_wider.gather_nordicdsl(gather_wider.Repo(repo), tmp_path / "out", counts, commit="HEAD")
    found = {}
    for split in gather_wider.SPLITS:
        found[split] = evaluation.nordicdsl_sentences(tmp_path / "out" / split)
    assert sorted(found["dev"] + found["heldout"]) == sorted(
        (code, rows[0]) for code, rows in (("dan", sentences["dk"]), ("nob", sentences["nb"]),
                                           ("nno", sentences["nn"]), ("swe", sentences["sv"])))
    for code, key in (("dan", "da"), ("nob", "nb")):
        text = dict((c, s) for c, s in found["dev"] + found["heldout"])[code]
        assert (code, text) in found[gather_wider.half_of(f"nordicdsl:{key}.txt:{text}")]
    assert sum(v for k, v in counts.items()) == 4

    split = "dev" if found["dev"] else "heldout"
    cli.main(["eval", "--samples", str(tmp_path / "out" / split), "--no-pins", "--json"])
    figures = json.loads(capsys.readouterr().out.splitlines()[-1])["figures"]
    assert "lang.nordicdsl_short.scandinavian_errors" in figures
    assert "lang.nordicdsl_short.scandinavian_errors".startswith(evaluation.UNPINNED)
