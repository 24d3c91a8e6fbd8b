"""Reading a page: its visible text line by line, links, ``<meta>`` tags, JSON-LD and strings inside
scripts, walked without recursion and within bounds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from warc2corpus.autocat.normalise import clean_lines, clean_text, lower
from warc2corpus.autocat.vocabulary import (
    BLOCK_TAGS, EDITOR_LABEL, HIDDEN_TAGS, HTML_TAG, JS_ESCAPE, MAIN_LABEL, SCRIPT_GATE,
)


MAX_SCRIPT_CHARS = 1_500_000  # script text examined per page, all scripts together
MAX_JSONLD_CHARS = 300_000  # per JSON-LD block
MAX_JSON_NODES = 20_000
MAX_ELEMENTS = 300_000
MAX_LINE = 4_000  # longer text runs are cut into pieces of this length

MAX_LINKS = 20_000
SHARED_TREE_MAX_DEPTH = 200  # a tree parsed without huge_tree this deep may have lost its deeper parts


@dataclass
class Page:
    lines: list[str] = field(default_factory=list)  # visible text, block by block
    script_lines: list[str] = field(default_factory=list)  # strings inside scripts and meta content
    links: list[tuple[str, str]] = field(default_factory=list)  # (href, text)
    jsonld: list[str] = field(default_factory=list)
    script_text: list[str] = field(default_factory=list)
    lang: str | None = None
    notes: list[str] = field(default_factory=list)


def _add_text(parts: list[str], text: str | None) -> None:
    if text:
        parts.append(text)


def lines_from(parts: list[str]) -> list[str]:
    raw_lines = [raw for raw in "".join(parts).split("\n") if raw and not raw.isspace()]
    cleaned = clean_lines(raw_lines)
    lines = []
    for line in cleaned:
        start = 0
        while len(line) - start > MAX_LINE:
            cut = line.rfind(" ", start, start + MAX_LINE)
            cut = cut if cut > start + MAX_LINE // 2 else start + MAX_LINE
            lines.append(line[start:cut].strip())
            start = cut
        if line[start:].strip():
            lines.append(line[start:].strip())
    return lines


def _is_main_region(element) -> bool:
    if element.tag in ("article", "main"):
        return True
    role = element.get("role")
    if role and role.lower() in ("main", "article"):
        return True
    itemprop = element.get("itemprop")
    return bool(itemprop) and itemprop.lower() == "articlebody"


def read(html: str, *, boilerplate_only: bool, tree=None) -> Page:
    """The page as text blocks, links, JSON-LD and script text (no recursion, bounded)."""
    import lxml.html
    from lxml import etree

    from warc2corpus.text.extract import read_on

    page = Page()
    root = tree
    if root is None:
        parser = lxml.html.HTMLParser(recover=True, huge_tree=True, remove_comments=True, remove_pis=True)
        try:
            root = lxml.html.document_fromstring(read_on(html), parser=parser)
        except (etree.ParserError, ValueError, TypeError) as exc:
            page.notes.append(f"unparsable HTML ({type(exc).__name__}); read as flat text")
            page.lines = _flat_lines(html)
            return page

    lang = root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang")
    parts: list[str] = []
    hidden = 0  # depth inside script/style/…
    in_main = 0  # depth inside article/main (skipped when only boilerplate is read)
    depth = max_depth = elements = 0
    script_budget = MAX_SCRIPT_CHARS
    main_regions: list[bool] = []  # per open element: whether it is a main region (read once, at its start)
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag
        if tag.__class__ is not str:  # a comment, processing instruction or entity
            tag = ""
        if event == "start":
            elements += 1
            depth += 1
            max_depth = max(max_depth, depth)
            if elements > MAX_ELEMENTS:
                page.notes.append(f"stopped after {MAX_ELEMENTS} elements")
                break
            if tag in HIDDEN_TAGS:
                hidden += 1
                if tag == "script" and script_budget > 0:
                    text = (element.text or "")[:script_budget]
                    script_budget -= len(text)
                    kind = (element.get("type") or "").lower()
                    if "ld+json" in kind:
                        page.jsonld.append(text[:MAX_JSONLD_CHARS])
                    elif _may_hold_evidence(text):
                        page.script_text.append(text)
            elif tag == "meta":
                _meta(element, page)
                if lang is None and (element.get("http-equiv") or "").lower() == "content-language":
                    lang = element.get("content")
                if lang is None and (element.get("property") or "").lower() == "og:locale":
                    lang = element.get("content")
            elif tag == "a" or tag == "area":
                if len(page.links) < MAX_LINKS:
                    page.links.append((element.get("href") or "", _link_text(element)))
            main = _is_main_region(element)
            main_regions.append(main)
            if main:
                in_main += 1
            if not hidden and not (boilerplate_only and in_main):
                if tag in BLOCK_TAGS:
                    parts.append("\n")
                elif tag:
                    parts.append(" ")
                if tag:
                    _add_text(parts, element.text)
        else:
            depth -= 1
            if tag in HIDDEN_TAGS:
                hidden -= 1
            visible = not hidden and not (boilerplate_only and in_main)
            if visible and tag:
                parts.append("\n" if tag in BLOCK_TAGS else " ")
            if main_regions.pop():
                in_main -= 1
            if not hidden and not (boilerplate_only and in_main):
                _add_text(parts, element.tail)
    if tree is not None and max_depth >= SHARED_TREE_MAX_DEPTH:
        # The extraction's parser stops at libxml2's default depth (256) and drops what lies deeper:
        # read the page from its own, deeper parse instead.
        return read(html, boilerplate_only=boilerplate_only)
    page.lines = lines_from(parts)
    if max_depth >= 2000:
        page.notes.append("nested deeper than the parser follows; the rest read as flat text")
        page.lines += _flat_lines(html)
    page.lang = (lang or "").strip().lower().replace("_", "-").split("-")[0] or None
    page.script_lines = lines_of_scripts(page.script_text) + page.script_lines
    return page


def _may_hold_evidence(script: str) -> bool:
    low = script.lower()
    return any(word in low for word in SCRIPT_GATE)


def _link_text(element) -> str:
    pieces: list[str] = []
    size = 0
    for text in element.itertext():
        pieces.append(text)
        size += len(text)
        if size > 300:
            break
    for attribute in ("title", "aria-label"):
        if element.get(attribute):
            pieces.append(" " + element.get(attribute))
    for image in element.iterfind(".//img"):
        if image.get("alt"):
            pieces.append(" " + image.get("alt"))
        break
    return clean_text(" ".join(pieces))[:300]


def _meta(element, page: Page) -> None:
    name = (element.get("name") or element.get("property") or element.get("itemprop") or "").strip()
    content = element.get("content")
    if not content or len(page.script_lines) > 5000:
        return
    content = content[:2000]
    label = re.sub(r"[-_:.]+", " ", name).strip()
    if MAIN_LABEL.fullmatch(lower(label)) or label.lower() in ("responsible editor", "responsibleeditor"):
        # <meta name="ansvarlig-redaktor" content="Kari Nordmann">: a declaration in the head
        page.script_lines.append(f"Ansvarlig redaktør: {content}")
    elif EDITOR_LABEL.fullmatch(lower(label)) or label.lower() == "editor":
        # <meta name="editor" content="Kari Nordmann">: an editor, not said to be responsible
        page.script_lines.append(f"Redaktør: {content}")
    else:
        page.script_lines.extend(lines_from([content]))


def _js_unescape(match: re.Match) -> str:
    if match.group(1) or match.group(2):
        code = int(match.group(1) or match.group(2), 16)
        return "\u2033" if code == 0x22 else ("\n" if code < 0x20 else chr(code))
    if match.group(3):
        return "\n"
    return "/"


def strip_tags(text: str) -> str:
    return HTML_TAG.sub(lambda m: "\n" if (m.group(2) or "").lower() in BLOCK_TAGS else " ", text)


def lines_of_scripts(scripts: list[str]) -> list[str]:
    """String values inside scripts (JSON state, inline HTML), one line each; object keys skipped.

    Linear: escapes are undone first, then the text is split at double quotes, whose odd pieces
    are the strings.
    """
    values: list[str] = []
    for script in scripts:
        text = JS_ESCAPE.sub(_js_unescape, script.replace('\\"', "\u2033"))
        pieces = text.split('"')
        for index in range(1, len(pieces) - 1, 2):
            value = pieces[index]
            if not value.strip() or pieces[index + 1].lstrip()[:1] == ":":
                continue  # empty, or an object key
            if "<" in value:
                value = strip_tags(value)
            values.append(value.replace("\u2033", '"'))
    return lines_from(["\n".join(values)])  # the same lines as value by value: no line crosses a newline


def _flat_lines(html: str) -> list[str]:
    text = re.sub(r"<(script|style)\b[^<>]{0,2000}>[^<]*", " ", html, flags=re.IGNORECASE)
    return lines_from([strip_tags(text)])
