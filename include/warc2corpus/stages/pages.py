"""A page's way from WARC record to document, in small steps, as DataTrove's ``PipelineStep`` does
it (without its executors: Airflow is ours):

    screen -> decode -> restore -> host -> autocat -> held_back_host -> bounded(extract -> build)

Each step is an object with its own ``stats`` (pages seen, and rejections by reason). It takes the
:class:`Page` on its way, fills in what it makes, and returns None to pass it on or a reason to turn
it away; :class:`PagePipeline` then hands the page's record to the one rejection writer with the
step's stage and that reason. The page is parsed when autoCat or the extraction first reads it
(:meth:`Page.parsed`). The extract stage (``per_file.extract``) feeds it the records of one WARC and
stages the documents that come out.
"""

from __future__ import annotations

import dataclasses
import json
import logging
import unicodedata
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator

from warc2corpus import autocat
from warc2corpus.reading import charsets, warcs, wayback
from warc2corpus.reading.limits import TimeLimitExceeded, time_limit
from warc2corpus.records import Document, Paragraph, Stage
from warc2corpus.stages.rejections import RejectionWriter
from warc2corpus.text import dedup, extract, language, tokens

log = logging.getLogger(__name__)


@dataclass(slots=True)
class Page:
    """One record on its way to a document."""

    record: warcs.Record
    html: str | None = None
    record_url: str | None = None  # the Wayback URL of a restored capture
    host: str | None = None
    tree: Any = None  # see parsed()
    is_parsed: bool = False
    extracted: extract.Extracted | None = None
    document: Document | None = None

    def parsed(self):
        """The page's tree (``extract.parse``; None when it is not HTML at all), parsed when first asked
        for, once for autoCat and the extraction: a held-back host's page that autoCat does not read, or
        reads and finds no trigger in, is never parsed."""
        if not self.is_parsed:
            self.tree, self.is_parsed = extract.parse(self.html), True
        return self.tree


class Step:
    """A step of the way; ``stage`` is where its rejections are recorded (``rejections.stage``)."""

    name = "step"
    stage = Stage.READ

    def __init__(self):
        self.stats: Counter = Counter()

    def __call__(self, page: Page) -> str | None:
        raise NotImplementedError


class Screen(Step):
    """Records that are not HTML pages to extract (the reader says why: ``Record.skip_reason``)."""

    name = "screen"

    def __call__(self, page: Page) -> str | None:
        record = page.record
        if not record.skip_reason:
            return None
        # Wayback's own redirect and not-found responses are not documents.
        if record.skip_reason == "http_status" and wayback.parse_url(record.url) is not None:
            if record.http_status == 404:
                return "wayback_not_found"
            if record.http_status and 300 <= record.http_status < 400:
                return "wayback_redirect"
        return record.skip_reason


class Decode(Step):
    """The body as text: HTTP charset, then the page's, then UTF-8, windows-1252 or detection."""

    name = "decode"

    def __call__(self, page: Page) -> str | None:
        page.html = charsets.decode_html(page.record.body, page.record.content_type)
        return None


class Restore(Step):
    """A Wayback capture becomes the original page, captured when Wayback says."""

    name = "restore"

    def __call__(self, page: Page) -> str | None:
        record = page.record
        restored = wayback.unwrap(page.html, record.url, record.http_status)
        if restored.kind != "page":
            return f"wayback_{restored.kind}"
        page.html = restored.html
        if restored.capture:
            page.record_url = record.url
            page.record = dataclasses.replace(record, url=restored.url,
                                              harvest_time=warcs.iso_utc(restored.capture.capture_time))
        return None


class Host(Step):
    """The page's host (its URL's, restored: a Wayback capture's is the original's). A URL that names no
    host one can read ("http://[www.example.no/a", a crawler's capture of a broken link) or a host longer
    than any (253 characters, DNS's limit: a crawler's garbage) is ``bad_url``: its page belongs to no
    publication."""

    name = "host"

    def __call__(self, page: Page) -> str | None:
        try:
            page.host, _ = dedup.host_and_path(page.record.url)
        except ValueError:
            return "bad_url"
        if len(page.host) > dedup.MAX_HOST_CHARS:
            return "bad_url"
        return None


class ScoreAutocat(Step):
    """autoCat reads every front page, and a few other pages per host and file ("om oss", "kontakt",
    article footers) for hosts whose front page is silent (``autocat.assess_host``). It never turns a
    page away; each page it keeps a score of goes to ``out`` as it is scored (the extract stage's
    staging writer: a file of many hosts holds none of them in memory), or else to :attr:`scored`."""

    name = "autocat"

    def __init__(self, out: Callable[[dict], object] | None = None):
        super().__init__()
        self.scored: list[dict] = []  # the pages scored (front and supporting pages), when no ``out`` takes them
        self.out = out or self.scored.append
        self.pages: Counter = Counter()  # (host, kind, "read"/"stored") -> pages

    def __call__(self, page: Page) -> str | None:
        host, record = page.host, page.record
        if autocat.host_is_skipped(host):
            return None
        kind = autocat.page_kind(record.url)
        stored, read = self.pages[host, kind, "stored"], self.pages[host, kind, "read"]
        if kind == "front" or (stored < autocat.SUPPORTING_PAGES_PER_HOST[kind]
                               and read < 10 * autocat.SUPPORTING_PAGES_PER_HOST[kind]):
            try:
                scored = autocat.score_page(page.html, record.url, kind=kind, tree=page.parsed)
            except Exception as exc:  # autoCat's reading of one page never costs the page its text
                log.warning("autoCat failed on %s at %s:%d: %r", record.url, record.warc_file, record.offset, exc)
                self.stats["autocat_error"] += 1
                return None
            self.pages[host, kind, "read"] += 1
            if kind == "front" or scored.evidence.get("items") or not stored:
                self.pages[host, kind, "stored"] += 1
                self.out({**record.provenance(), "host": host, "kind": kind,
                          "score": scored.score, "evidence": scored.evidence})
        return None


class SkipHeldBackHost(Step):
    """A page of a host held back when the file's extraction began — its status in force (a person's
    decision, the register's, autoCat's) rejected, uncertain or declares_editor_not_news
    (``publications.held_back_hosts``) — is not extracted: autoCat has read it, and the filter would turn
    its document away, to be extracted again should the host be accepted. It is turned away here as the
    filter would (``host_<status>``, stage filter), so that the load's readmission check
    (``publications.flag_readmissions``) finds it: when the host is accepted, the file is flagged and the
    next run extracts it. Nothing is lost; a national archive's pages are mostly other hosts', and this is
    most of their cost. The extractor is told of the page (``PageExtractor.skip``), so that the other
    hosts' texts are the ones they would have been."""

    name = "held_back_host"
    stage = Stage.FILTER

    def __init__(self, statuses: dict[str, str], extractor: extract.PageExtractor):
        super().__init__()
        self.statuses, self.extractor = statuses, extractor

    def __call__(self, page: Page) -> str | None:
        status = self.statuses.get(page.host)
        if status is None:
            return None
        self.extractor.skip(page.host)
        return f"host_{status}"


class Extract(Step):
    """The main text, cleaned (this file's templates, the naturalness model), with its metadata."""

    name = "extract"
    stage = Stage.EXTRACT

    def __init__(self, extractor: extract.PageExtractor):
        super().__init__()
        self.extractor = extractor

    def __call__(self, page: Page) -> str | None:
        page.extracted = self.extractor(page.html, page.record.url, tree=page.parsed)
        return None


def build_document(record, extracted: extract.Extracted, crawl_job: str) -> Document:
    """The staged form of one extracted page: provenance, metadata, paragraphs with tokens and languages."""
    paragraphs = [unicodedata.normalize("NFC", p) for p in extracted.paragraphs]
    tokenised = [tokens.tokenize(p) for p in paragraphs]
    host, path = dedup.host_and_path(record.url)
    sha1 = dedup.text_sha1(paragraphs)
    languages = language.of_paragraphs(paragraphs, [len(t) for t, _ in tokenised])
    dropped = extracted.dropped
    return Document(
        **record.provenance(),
        crawl_job=crawl_job,
        doc_id=dedup.document_id(sha1, host, path),
        text_sha1=sha1,
        host=host,
        url_path=path,
        title=extracted.title and unicodedata.normalize("NFC", extracted.title),
        author=extracted.author and unicodedata.normalize("NFC", extracted.author),
        published=extracted.published,
        language=languages.language,
        n_paragraphs=len(paragraphs),
        n_tokens=sum(len(t) for t, _ in tokenised),
        paragraphs=[Paragraph(p, t, s, lang) for p, (t, s), lang in zip(paragraphs, tokenised, languages.paragraphs)],
        page_type=extracted.page_type,
        mixed_language=languages.mixed,
        language_shares=json.dumps(languages.shares),
        dropped=json.dumps(dropped, sort_keys=True),
        text_source=extracted.source,
        # Every paragraph dropped: the document is rejected, with the reason most paragraphs went for.
        rejected=(f"all_paragraphs_dropped_{max(sorted(dropped), key=dropped.get)}"
                  if not paragraphs and dropped else None),
    )


class Build(Step):
    """The document: tokens and languages per paragraph, identity, provenance. A page whose every
    paragraph was dropped is turned away with the reason most of them went for."""

    name = "build"
    stage = Stage.EXTRACT

    def __init__(self, crawl_job: str):
        super().__init__()
        self.crawl_job = crawl_job

    def __call__(self, page: Page) -> str | None:
        document = build_document(page.record, page.extracted, self.crawl_job)
        if document.rejected:
            return document.rejected
        document.record_url = page.record_url
        document.payload_digest = page.record.payload_digest
        document.digest_ok = page.record.digest_ok
        document.truncated = page.record.truncated
        page.document = document
        return None


class Bounded(Step):
    """Steps run under one time limit per page; a page that outruns it, or on which a step fails, is
    turned away (``timeout``, ``extraction_error``): one bad page never stops the file."""

    name = "bounded"
    stage = Stage.EXTRACT

    def __init__(self, steps: list[Step], seconds: float, warc_file: str):
        super().__init__()
        self.steps, self.seconds, self.warc_file = steps, seconds, warc_file

    def __call__(self, page: Page) -> str | None:
        record = page.record
        try:
            with time_limit(self.seconds):
                return run_steps(self.steps, page)[1]
        except TimeLimitExceeded:
            log.warning("extraction of %s at %s:%d took longer than %g s: skipped", record.url, self.warc_file,
                        record.offset, self.seconds)
            return "timeout"
        except StepFailed as failed:
            log.warning("extraction failed for %s at %s:%d: %r", record.url, self.warc_file, record.offset,
                        failed.__cause__)
            return "extraction_error"


class StepFailed(Exception):
    """A step raised (its exception is the cause): the page is turned away, the file goes on."""

    def __init__(self, step: Step):
        super().__init__(step.name)
        self.step = step


def run_steps(steps: list[Step], page: Page) -> tuple[Step | None, str | None]:
    """Run the page through the steps; the step that turned it away and why, or (None, None). A step that
    raises raises :class:`StepFailed` (a time limit, a BaseException, goes through as it is)."""
    for step in steps:
        step.stats["pages"] += 1
        try:
            reason = step(page)
        except Exception as exc:
            raise StepFailed(step) from exc
        if reason:
            step.stats[reason] += 1
            return step, reason
    return None, None


class PagePipeline:
    """The steps, in order, and the rejection writer every page turned away goes to."""

    def __init__(self, steps: list[Step], rejections: RejectionWriter):
        self.steps, self.rejections = steps, rejections

    def run(self, pages: Iterable[Page]) -> Iterator[Document]:
        """The documents of the pages; every page turned away goes to the rejection writer. A step that
        fails on a page (a fault of ours, or of a library, on a page nobody foresaw) turns it away as
        ``page_error``, logged with the step and the fault: one page never stops the file."""
        for page in pages:
            try:
                step, reason = run_steps(self.steps, page)
            except StepFailed as failed:
                record = page.record
                log.warning("the %s step failed on %s at %s:%d: %r", failed.step.name, record.url, record.warc_file,
                            record.offset, failed.__cause__)
                step, reason = failed.step, "page_error"
                step.stats[reason] += 1
            if reason:
                self.rejections.reject(page.record.provenance(), step.stage, reason)
            else:
                yield page.document

    def stats(self) -> dict[str, dict]:
        every = list(self.steps)
        for step in self.steps:
            every.extend(getattr(step, "steps", []))
        return {step.name: dict(step.stats) for step in every}


# The youngest generation's threshold: a page allocates tens of thousands of objects, and at Python's 700
# the collector ran over a thousand times on the held-out WARC's 564 pages, nine of them full collections
# (0.47 s of the 25 s its pages took; 0.26-0.34 s with 20,000 to 100,000, two full collections).
GC_YOUNGEST = 20_000


@lru_cache(maxsize=1)
def freeze_long_lived_objects() -> None:
    """Once per process: load the language models, then move everything alive (modules, models) out
    of the cyclic garbage collector's sight, so that its full collections walk only what pages
    allocate (about 0.3 s in 20 on the bench's WARC), and let it run less often (GC_YOUNGEST)."""
    import gc

    language.preload()
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNGEST, *gc.get_threshold()[1:])
