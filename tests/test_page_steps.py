"""The extract stage's per-page steps (stages/pages.py) and the one rejection writer: a page turned
away stops at the step that turned it away, is written once with that step's stage and reason, and
each step counts what it saw."""

from __future__ import annotations

from warc2corpus.reading.warcs import Record
from warc2corpus.records import Document, Rejection
from warc2corpus.stages import pages
from warc2corpus.stages.rejections import RejectionWriter
from warc2corpus.text.extract import PageExtractor

HTML = """<html><head><title>Ferja er innstilt</title></head><body><article><h1>Ferja er innstilt</h1>
<p>Ferja mellom Fjordvik og Nesøy ble innstilt i går på grunn av sterk vind, opplyser rederiet.</p>
<p>Passasjerene ble sendt med buss rundt fjorden, og turen tok nesten to timer lenger enn vanlig.</p>
<p>Rederiet venter at ferja går som normalt igjen fra i morgen tidlig, dersom vinden løyer.</p>
</article></body></html>"""


class Collected(list):
    def write(self, row: dict) -> None:
        self.append(row)


def record(offset: int, url: str, **kwargs) -> Record:
    return Record(warc_file="x.warc.gz", offset=offset, length=100, record_type="response",
                  record_id=f"<urn:uuid:{offset}>", url=url, harvest_time="2024-05-01T12:00:00Z", **kwargs)


def test_pages_go_step_by_step_and_every_rejection_goes_through_one_writer():
    staged = Collected()
    rejections = RejectionWriter(staged)
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), pages.ScoreAutocat(),
             pages.Bounded([pages.Extract(PageExtractor()), pages.Build("demo")], 30, "x.warc.gz")]
    pipeline = pages.PagePipeline(steps, rejections)
    records = [
        record(0, "https://www.fjordvik.no/nyheter/ferja", http_status=200, content_type="text/html; charset=utf-8",
               body=HTML.encode()),
        record(100, "https://www.fjordvik.no/robots.txt", skip_reason="not_html"),
        record(200, "https://web.archive.org/web/20240501120000/https://www.fjordvik.no/", http_status=404,
               skip_reason="http_status"),
        record(300, "https://www.fjordvik.no/tom", http_status=200, content_type="text/html", body=b""),
        record(400, "https://www.fjordvik.no/dns", skip_reason="not_a_response"),
    ]
    documents = list(pipeline.run(pages.Page(r) for r in records))

    # an empty page is a document too (deduplicate drops it as empty_text)
    assert [(type(d), d.record_offset, d.n_paragraphs) for d in documents] == [(Document, 0, 3), (Document, 300, 0)]
    assert documents[0].language == "nob" and documents[0].host == "www.fjordvik.no"
    # every page turned away is counted by reason; all but the crawl's own non-responses are written, once
    assert dict(rejections.by_reason) == {"not_html": 1, "wayback_not_found": 1, "not_a_response": 1}
    assert [(r["record_offset"], r["stage"], r["reason"], r["host"]) for r in staged] == [
        (100, "read", "not_html", "www.fjordvik.no"), (200, "read", "wayback_not_found", "web.archive.org")]
    assert all(list(r) == list(Rejection.keys()) for r in staged)
    # each step counts the pages it saw and what it turned away; a page stops where it was turned away
    stats = pipeline.stats()
    assert stats["screen"] == {"pages": 5, "not_html": 1, "wayback_not_found": 1, "not_a_response": 1}
    assert stats["decode"] == stats["restore"] == stats["extract"] == stats["build"] == {"pages": 2}


def test_a_held_back_hosts_pages_are_read_by_autocat_and_turned_away_before_extraction():
    """Pages of a host held back (rejected, uncertain, declaring an editor but maybe no news) when the file's
    extraction began: autoCat reads them (a new declaration can turn the verdict), then they go as the filter
    would turn their documents away, unextracted; other hosts' pages are extracted as before."""
    staged = Collected()
    autocat_step, extractor = pages.ScoreAutocat(), PageExtractor()
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), autocat_step,
             pages.SkipHeldBackHost({"www.fjordvik.no": "rejected", "www.ukeblad.no": "uncertain"}, extractor),
             pages.Bounded([pages.Extract(extractor), pages.Build("demo")], 30, "x.warc.gz")]
    pipeline = pages.PagePipeline(steps, RejectionWriter(staged))
    page = dict(http_status=200, content_type="text/html; charset=utf-8", body=HTML.encode())
    records = [record(0, "https://www.fjordvik.no/", **page), record(100, "https://www.fjordvik.no/nyheter/ferja", **page),
               record(200, "https://www.nesoy.no/nyheter/ferja", **page), record(300, "https://www.ukeblad.no/ferja", **page)]
    documents = list(pipeline.run(pages.Page(r) for r in records))

    assert [(d.host, d.record_offset) for d in documents] == [("www.nesoy.no", 200)]
    assert [(r["record_offset"], r["stage"], r["reason"], r["host"]) for r in staged] == [
        (0, "filter", "host_rejected", "www.fjordvik.no"), (100, "filter", "host_rejected", "www.fjordvik.no"),
        (300, "filter", "host_uncertain", "www.ukeblad.no")]
    assert [p["url"] for p in autocat_step.scored] == [r.url for r in records]  # the held-back hosts' too
    stats = pipeline.stats()
    assert stats["held_back_host"] == {"pages": 4, "host_rejected": 2, "host_uncertain": 1}
    assert stats["extract"] == {"pages": 1}


def test_autocat_hands_each_page_it_scores_on_at_once_and_keeps_none():
    """The extract stage gives autoCat its staging writer: each page scored is written as it is scored,
    so a file of many hosts holds none of them in memory (the writer counts them for the file's summary)."""
    written = Collected()
    autocat_step = pages.ScoreAutocat(written.write)
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), autocat_step]
    pipeline = pages.PagePipeline(steps, RejectionWriter(Collected()))
    page = dict(http_status=200, content_type="text/html; charset=utf-8", body=HTML.encode())
    records = [record(100 * n, f"https://www.host{n}.no/", **page) for n in range(3)]
    seen = []
    for _ in pipeline.run(pages.Page(r) for r in records):
        seen.append(len(written))   # written by the time its page leaves the steps
    assert seen == [1, 2, 3] and [p["url"] for p in written] == [r.url for r in records]
    assert autocat_step.scored == []


def test_a_page_is_parsed_once_when_autocat_or_the_extraction_first_reads_it(monkeypatch):
    """autoCat and the extraction read one tree; a rejected host's page is parsed only when autoCat reads it
    and finds a trigger in it (autoCat here reads no article page)."""
    from warc2corpus import autocat
    from warc2corpus.text import extract

    monkeypatch.setitem(autocat.SUPPORTING_PAGES_PER_HOST, "article", 0)
    parsed: list[str] = []
    parse = extract.parse
    monkeypatch.setattr(extract, "parse", lambda html: parsed.append(html) or parse(html))
    autocat_step, extractor = pages.ScoreAutocat(), PageExtractor()
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), autocat_step,
             pages.SkipHeldBackHost({"www.fjordvik.no": "rejected"}, extractor),
             pages.Bounded([pages.Extract(extractor), pages.Build("demo")], 30, "x.warc.gz")]
    pipeline = pages.PagePipeline(steps, RejectionWriter(Collected()))
    declared = HTML.replace("</article>", "</article><footer><p>Ansvarlig redaktør: Kari Nordvik</p></footer>")
    pages_of = {"https://www.fjordvik.no/": declared,            # read by autoCat, a trigger in it: parsed
                "https://www.fjordvik.no/nyheter/ferja": HTML,   # not read by autoCat, not extracted
                "https://www.fjordvik.no/om-oss": HTML,          # read by autoCat, no trigger: not parsed
                "https://www.nesoy.no/": declared.replace("Fjordvik", "Nesvik").replace("Kari Nordvik", "Per Nes")}
    # (the last: read by autoCat, a trigger in it, and extracted: parsed once)
    records = [record(100 * n, url, http_status=200, content_type="text/html", body=html.encode())
               for n, (url, html) in enumerate(pages_of.items())]
    documents = list(pipeline.run(pages.Page(r) for r in records))

    assert [d.record_offset for d in documents] == [300] and documents[0].n_paragraphs == 3
    assert [p["url"] for p in autocat_step.scored] == ["https://www.fjordvik.no/", "https://www.fjordvik.no/om-oss",
                                                       "https://www.nesoy.no/"]
    assert [("Kari Nordvik" in html, "Per Nes" in html) for html in parsed] == [(True, False), (False, True)]


def test_other_hosts_texts_do_not_depend_on_which_hosts_were_skipped(monkeypatch):
    """The file's site templates follow a bounded number of hosts, the one seen longest ago forgotten first:
    a rejected host's page left unextracted counts as seen, so another host is forgotten (or not) at the
    same page, and its texts are the same, whether the rejected host's pages were extracted or skipped."""
    from warc2corpus.text import template

    monkeypatch.setattr(template, "MAX_HOSTS", 2)
    footer = ("<p>Denne saken er laget av journalistene i Fjordvik-posten, som dekker hele regionen hver dag"
              " med nyheter, sport og kultur.</p>")

    def page(n: int) -> bytes:
        return HTML.replace("</article>", f"<p>Sak nummer {n} handler om noe helt annet enn de andre sakene "
                            f"den uken, og {n * 7} lesere har allerede delt den.</p>{footer}</article>").encode()

    urls = ["https://www.fjordvik.no/1", "https://www.fjordvik.no/2", "https://www.avvist.no/1",
            "https://www.nesoy.no/1", "https://www.fjordvik.no/3"]
    records = [record(100 * n, url, http_status=200, content_type="text/html", body=page(n))
               for n, url in enumerate(urls)]

    def texts(held_back: dict[str, str], tell_the_extractor: bool = True) -> dict[str, list[str]]:
        extractor = PageExtractor()
        skip = pages.SkipHeldBackHost(held_back, extractor if tell_the_extractor else PageExtractor())
        steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), skip,
                 pages.Bounded([pages.Extract(extractor), pages.Build("demo")], 30, "x.warc.gz")]
        documents = pages.PagePipeline(steps, RejectionWriter(Collected())).run(pages.Page(r) for r in records)
        return {d.url: [p.text for p in d.paragraphs] for d in documents}

    extracted, skipped = texts({}), texts({"www.avvist.no": "rejected"})
    assert "https://www.avvist.no/1" in extracted and "https://www.avvist.no/1" not in skipped
    assert skipped == {url: text for url, text in extracted.items() if url != "https://www.avvist.no/1"}
    # (the host forgotten at nesoy's page: fjordvik's third page has no template, and keeps the footer)
    assert any("journalistene i Fjordvik-posten" in p for p in skipped["https://www.fjordvik.no/3"])
    assert not any("journalistene i Fjordvik-posten" in p for p in skipped["https://www.fjordvik.no/2"])
    # the extractor not told of the skipped page: fjordvik is not forgotten, and its third page loses the footer
    assert texts({"www.avvist.no": "rejected"}, tell_the_extractor=False)["https://www.fjordvik.no/3"] \
        != extracted["https://www.fjordvik.no/3"]


def test_a_page_that_is_not_html_is_parsed_once(monkeypatch):
    """autoCat's tree and the extraction's are one: a page whose parse gives no tree is not parsed again."""
    from warc2corpus.text import extract

    parsed: list[str] = []
    parse = extract.parse
    monkeypatch.setattr(extract, "parse", lambda html: parsed.append(html) or parse(html))
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), pages.ScoreAutocat(),
             pages.Bounded([pages.Extract(PageExtractor()), pages.Build("demo")], 30, "x.warc.gz")]
    pipeline = pages.PagePipeline(steps, RejectionWriter(Collected()))
    documents = list(pipeline.run([pages.Page(record(0, "https://www.fjordvik.no/liste", http_status=200,
                                                     content_type="text/html", body=b"a;b;c\n1;2;3\n"))]))

    assert [d.n_paragraphs for d in documents] == [0] and len(parsed) == 1


def test_one_page_that_breaks_a_step_never_stops_the_others(monkeypatch):
    """A URL no host can be read from is bad_url; a step that raises on a page turns it away as page_error
    (logged with the step); autoCat failing on a page costs it nothing. Each had ended the file's extraction
    with a traceback (a crawler's capture of "http://[www.fjordvik.no/..." lost every page of the file)."""
    from warc2corpus import autocat
    from warc2corpus.reading import charsets

    def page(offset: int, url: str) -> pages.Page:
        return pages.Page(record(offset, url, http_status=200, content_type="text/html; charset=utf-8",
                                 body=HTML.replace("Ferja", f"Ferja {offset}").encode()))

    decode = charsets.decode_html

    def fragile_decode(body, content_type):
        if b"Ferja 200" in body:
            raise RuntimeError("a fault nobody foresaw")
        return decode(body, content_type)

    def failing_autocat(*args, **kwargs):
        raise RuntimeError("autoCat's own fault")

    monkeypatch.setattr(charsets, "decode_html", fragile_decode)
    monkeypatch.setattr(autocat, "score_page", failing_autocat)
    staged = Collected()
    rejections = RejectionWriter(staged)
    scorer = pages.ScoreAutocat()
    steps = [pages.Screen(), pages.Decode(), pages.Restore(), pages.Host(), scorer,
             pages.Bounded([pages.Extract(PageExtractor()), pages.Build("demo")], 30, "x.warc.gz")]
    pipeline = pages.PagePipeline(steps, rejections)
    documents = list(pipeline.run([page(0, "https://www.fjordvik.no/"), page(100, "http://[www.fjordvik.no/ferja"),
                                   page(200, "https://www.fjordvik.no/nyheter/b"),
                                   page(300, "https://www.fjordvik.no/nyheter/c")]))
    assert [d.record_offset for d in documents] == [0, 300]
    assert [(r["record_offset"], r["stage"], r["reason"], r["host"]) for r in staged] == [
        (100, "read", "bad_url", None), (200, "read", "page_error", "www.fjordvik.no")]
    stats = pipeline.stats()
    assert stats["host"]["bad_url"] == 1 and stats["decode"]["page_error"] == 1
    assert stats["autocat"]["autocat_error"] == 2 and not scorer.scored  # the front page and a page of its host
