"""Finding evidence in a page's lines, links and JSON-LD, and scoring the page (:func:`score_page`).
"""

from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from warc2corpus.autocat.names import lead_in_ok, parse_names
from warc2corpus.autocat.normalise import HEAD_CHARS, MAX_HTML_CHARS, bounded, clean_text, decode, lower
from warc2corpus.autocat.urls import page_kind
from warc2corpus.autocat.verdicts import (
    DANISH_AMBIGUOUS, EDITOR_ITEMS, ETHICS_ITEMS, FOREIGN_LANGUAGES, FOREIGN_PAGE_CAP, PageScore,
    WEIGHTS, status_for,
)
from warc2corpus.autocat.vocabulary import (
    CODE_HOSTS, CODE_HREF_WORDS, CODE_NAME, CODE_NAME_ANYCASE, CODE_PATHS, CODE_URL_IN_TEXT, COMMITMENT,
    CONTROL, CO_TITLE, EDITOR_LABEL, EDITOR_WORD, FOREIGN_LABELS, MAIN_LABEL, NOT_NEWS_TYPES, PATTERN_GATES,
    QUALIFIER, RESPONSIBLE_EDITOR_BYTES, SUPPORTING_TRIGGER_BYTES, TRIGGER_BYTES, TRIGGER_UNLESS_ALL,
)
from warc2corpus.autocat.walker import MAX_JSON_NODES, Page, lines_from, lines_of_scripts, read, strip_tags


MAX_MATCHES = 200  # per pattern and page

MAX_ITEMS_KEPT = 12  # evidence items of one kind kept in the evidence


class _Findings:
    def __init__(self) -> None:
        self.items: dict[str, list[dict]] = {}
        self.foreign: list[dict] = []
        self.not_news: set[str] = set()  # signs of a body that is not edited news (vocabulary.NOT_NEWS_TYPES)

    def add(self, kind: str, **details) -> None:
        found = self.items.setdefault(kind, [])
        key = json.dumps(details, sort_keys=True, ensure_ascii=False)
        if len(found) < MAX_ITEMS_KEPT and all(json.dumps(f, sort_keys=True, ensure_ascii=False) != key
                                               for f in found):
            found.append(details)

    def add_foreign(self, entry: dict) -> None:
        if entry not in self.foreign and len(self.foreign) < MAX_ITEMS_KEPT:
            self.foreign.append(entry)


def _line_index(offsets: list[int], position: int) -> int:
    return bisect_right(offsets, position) - 1


def _names_before(before: str, after: str) -> list[str]:
    """The name that comes before a label ("Kari Nordmann, ansvarlig redaktør", "Kari Nordmann –
    ansvarlig redaktør og daglig leder"): the whole text since the last separator is one name, the
    label is set off from it by a comma or a dash, and nothing but a second role or punctuation
    follows it (so "Kari Nordmann, ansvarlig redaktør i Avisa, sier at …" in a story is no declaration)."""
    head = before.rstrip()
    if not head or head[-1] not in ",–—-":
        return []
    head = head[:-1].rstrip()
    cut = max((head.rfind(mark) for mark in "|·•;:\n"), default=-1)
    head = head[cut + 1:].strip()
    rest = after
    for pattern in (QUALIFIER, CO_TITLE):
        found = pattern.match(rest)
        if found:
            rest = rest[found.end():]
    if rest.strip(" .,;:|·•–—-"):
        return []
    names, consumed, clean = parse_names(head)
    return names if len(names) == 1 and clean and consumed >= len(head.rstrip(",. ")) else []


def _names_after(label_end: int, line: str, next_lines: list[str]) -> tuple[list[str], str]:
    """The names a label at ``line[:label_end]`` introduces: on its line, or in the next element."""
    rest = line[label_end:]
    qualifier = QUALIFIER.match(rest)
    if qualifier:
        rest = rest[qualifier.end():]
    co_title = CO_TITLE.match(rest)
    if co_title:
        rest = rest[co_title.end():]
    separator = re.match(r"\s*(?:[:：]|[–—-](?=\s)|\ber\b|\bis\b)\s*", rest, re.IGNORECASE)
    explicit = bool(separator)
    if separator:
        rest = rest[separator.end():]
    if rest.strip(" :.-–—"):
        names, _, clean = parse_names(rest)
        if names and (explicit or clean):
            return names, "same element"
        return [], ""
    # The label ends its element: the name is in the next one ("Ansvarlig redaktør" | "Kari Nordmann").
    for following in next_lines[:2]:
        if not following.strip(" :.-–—|·•"):
            continue
        names, _, clean = parse_names(following.lstrip(" :-–—"))
        if names and clean:
            return names, "next element"
        break
    return [], ""


class _Match:
    """A match found in the lowercased text, read back from the original text."""

    __slots__ = ("_start", "_end", "_text")

    def __init__(self, start: int, end: int, text: str):
        self._start, self._end, self._text = start, end, text

    def start(self) -> int:
        return self._start

    def end(self) -> int:
        return self._end

    def group(self, _index: int = 0) -> str:
        return self._text[self._start:self._end]


def _matches(pattern: re.Pattern, low: str, text: str, *, boundary: bool = True):
    """Up to MAX_MATCHES matches of a lowercase pattern, each starting a word when ``boundary``."""
    gate = PATTERN_GATES.get(pattern)
    if gate and not any(word in low for word in gate):
        return  # none of the words every match of the pattern holds: no need to run it
    found = 0
    for match in pattern.finditer(low):
        if boundary and match.start() > 0 and (low[match.start() - 1].isalnum() or low[match.start() - 1] in "_."):
            continue
        yield _Match(match.start(), match.end(), text)
        found += 1
        if found >= MAX_MATCHES:
            return


def _scan(lines: list[str], source: str, findings: _Findings, *, full: bool) -> None:
    if not lines:
        return
    text = "\n".join(lines)
    low = lower(text)
    offsets, position = [], 0
    for line in lines:
        offsets.append(position)
        position += len(line) + 1
    declared_at: set[int] = set()
    label_spans: list[tuple[int, int]] = []

    def context(index: int) -> tuple[str, int, list[str], list[str]]:
        return lines[index], offsets[index], lines[index + 1:index + 3], lines[max(0, index - 1):index]

    # Norwegian and Sámi responsible-editor labels
    for match in _matches(MAIN_LABEL, low, text):
        index = _line_index(offsets, match.start())
        line, start, following, previous = context(index)
        label = match.group(0)
        label_spans.append((match.start(), match.end()))
        before = line[:match.start() - start]
        names, where = [], ""
        if lead_in_ok(before):
            names, where = _names_after(match.end() - start, line, following)
            if not names and source == "script" and previous and not line[match.end() - start:].strip(" :"):
                found, _, clean = parse_names(previous[0])  # {"name": "Kari", "jobTitle": "Ansvarlig redaktør"}
                if found and clean:
                    names, where = found, "previous string"
        if not names:
            names = _names_before(before, line[match.end() - start:])
            where = "before the label" if names else where
        if names:
            findings.add("named_declaration", label=_tidy_label(label), names=names, source=source, where=where)
            declared_at.add(index)
        else:
            findings.add("declaration_label", label=_tidy_label(label), source=source,
                         context=line[max(0, match.start() - start - 40):match.end() - start + 40])

    # Foreign (Danish, Swedish, German, English) editor lines: recorded, never counted
    foreign_langs = set()
    for language, pattern in FOREIGN_LABELS:
        for match in _matches(pattern, low, text):
            index = _line_index(offsets, match.start())
            line, start, following, _ = context(index)
            names, _ = _names_after(match.end() - start, line, following)
            if names or language in ("sv", "da"):
                findings.add_foreign({"language": language, "label": _tidy_label(match.group(0)), "names": names,
                                      "source": source})
                foreign_langs.add(language)

    # "Redaktør: Kari Nordmann", and the bare word
    for match in _matches(EDITOR_LABEL, low, text):
        index = _line_index(offsets, match.start())
        if index in declared_at:
            continue
        line, start, following, _ = context(index)
        if MAIN_LABEL.search(lower(line[max(0, match.start() - start - 25):match.end() - start])):
            continue  # part of a responsible-editor label
        before = line[:match.start() - start]
        names = []
        if lead_in_ok(before):
            names, where = _names_after(match.end() - start, line, following)
        if names:
            findings.add("named_editor", label=_tidy_label(match.group(0)), names=names, source=source)
    for match in _matches(EDITOR_WORD, low, text, boundary=False):
        if len(findings.items.get("editor_word", [])) >= MAX_ITEMS_KEPT:
            break
        front = match.start()
        while front > 0 and match.start() - front < 20 and (low[front - 1].isalnum() or low[front - 1] == "-"):
            front -= 1
        word = low[front:match.end()]
        if re.match(r"(?:sjefs?|chef)", word) or any(a <= match.start() < b for a, b in label_spans[:MAX_MATCHES]):
            continue  # a chief editor, or part of a responsible-editor label already counted
        findings.add("editor_word", word=word.lower(), source=source)

    # The codes named in the text: a commitment ("Vi arbeider etter Vær Varsom-plakaten") or a mention
    for match in _matches(CODE_NAME, low, text, boundary=False):
        index = _line_index(offsets, match.start())
        line, start, _, _ = context(index)
        window = line[max(0, match.start() - start - 80):match.start() - start]
        kind = "code_commitment" if COMMITMENT.search(window) else "code_mention"
        findings.add(kind, text=line[max(0, match.start() - start - 60):match.end() - start + 30], source=source)

    if full:  # code URLs written out in scripts or text
        for match in _matches(CODE_URL_IN_TEXT, low, text, boundary=False):
            kind = _classify_href(match.group(0))
            if kind:
                findings.add(kind, href=match.group(0), source=source)


def _tidy_label(label: str) -> str:
    return " ".join(label.split())


def _classify_href(href: str) -> str | None:
    """'code_link' for a code's home, 'press_body_link' for a press body's front door, else None."""
    href = href.strip()
    if href.startswith("//"):
        href = "https:" + href
    try:
        parts = urlsplit(href)
        host = (parts.hostname or "").lower()
    except ValueError:
        return None
    host = host[4:] if host.startswith("www.") else host
    path = unquote(parts.path or "") + ("?" + parts.query if parts.query else "")
    if host in CODE_HOSTS:
        return "code_link" if CODE_PATHS.search(path) else "press_body_link"
    if host.endswith("wikipedia.org") and CODE_PATHS.search(path):
        return "code_link"
    return None


def _scan_links(links: list[tuple[str, str]], findings: _Findings) -> None:
    for href, text in links:
        if CODE_NAME_ANYCASE.search(text):
            findings.add("code_link", href=href[:300], text=text[:80], by="link text")
            continue
        kind = _classify_href(href) if href and any(host in href.lower() for host in CODE_HREF_WORDS) else None
        if kind:
            findings.add(kind, href=href[:300], text=text[:80], by="link target")


def _scan_jsonld(blocks: list[str], findings: _Findings) -> list[str]:
    """People with a responsible-editor job title, and ethics policies naming the codes."""
    lines: list[str] = []
    for block in blocks:
        try:
            data = json.loads(block.strip().rstrip(";"), strict=False)
        except (ValueError, RecursionError):
            lines.extend(lines_of_scripts([block]))
            continue
        stack, seen = [data], 0
        while stack and seen < MAX_JSON_NODES:
            node = stack.pop()
            seen += 1
            if isinstance(node, dict):
                kinds = node.get("@type")
                for kind in (kinds if isinstance(kinds, list) else [kinds])[:10]:
                    if isinstance(kind, str) and kind in NOT_NEWS_TYPES:
                        findings.not_news.add(f"{NOT_NEWS_TYPES[kind]} (JSON-LD {kind})")
                title = node.get("jobTitle") or node.get("roleName") or node.get("hasOccupation")
                name = node.get("name")
                if isinstance(title, dict):
                    title = title.get("name")
                if isinstance(title, str) and isinstance(name, str):
                    title_clean = clean_text(title)
                    names, _, clean = parse_names(clean_text(name))
                    if names and clean and MAIN_LABEL.fullmatch(lower(title_clean)):
                        findings.add("named_declaration", label=title_clean, names=names, source="json-ld",
                                     where="jobTitle")
                    elif names and clean and EDITOR_LABEL.fullmatch(lower(title_clean)):
                        findings.add("named_editor", label=title_clean, names=names, source="json-ld")
                # schema.org "editor" of a work or an organisation: an editor, not said to be responsible
                editors = node.get("editor")
                for editor in (editors if isinstance(editors, list) else [editors])[:20]:
                    if isinstance(editor, dict) and isinstance(editor.get("name"), str) \
                            and not editor.get("jobTitle") and not editor.get("roleName"):
                        names, _, clean = parse_names(clean_text(editor["name"]))
                        if names and clean:
                            findings.add("named_editor", label="editor", names=names, source="json-ld", where="editor")
                for key in ("publishingPrinciples", "ethicsPolicy", "masthead"):
                    value = node.get(key)
                    values = value if isinstance(value, list) else [value]
                    for item in values[:20]:
                        target = item.get("url") or item.get("@id") or item.get("name") if isinstance(item, dict) \
                            else item
                        if isinstance(target, str):
                            kind = _classify_href(target) or ("code_link" if CODE_NAME_ANYCASE.search(target) else None)
                            if kind:
                                findings.add(kind, href=target[:300], source="json-ld", by=key)
                for key, value in node.items():
                    if isinstance(value, (dict, list)):
                        stack.append(value)
                    elif isinstance(value, str) and key not in ("@context", "@type", "url", "@id", "image"):
                        lines.extend(lines_from([strip_tags(value[:5000])]))
            elif isinstance(node, list):
                stack.extend(reversed(node[:2000]))
    return lines


def _triggered(html: str, kind: str = "front") -> bool:
    """Whether the page holds a trigger (a front or about page: any of TRIGGER_BYTES; an article page:
    any of SUPPORTING_TRIGGER_BYTES, or "responsible editor" as a meta's name may write it), a "redakt"
    counting only where more of them than of TRIGGER_UNLESS_ALL's "redaktion" are found."""
    lowered = html.encode("utf-8", "surrogatepass").lower()
    patterns, searcher = _trigger_searcher()
    found = Counter(patterns[index] for index, _, _ in searcher.find_matches_as_indexes(lowered, overlapping=True))
    holds = [trigger for trigger in found if trigger in TRIGGER_BYTES and found[trigger] > found[
        TRIGGER_UNLESS_ALL.get(trigger, b"")]]
    if kind == "front":
        return bool(holds)
    return (any(trigger in SUPPORTING_TRIGGER_BYTES for trigger in holds)
            or b"editor" in holds and b"responsible" in found and RESPONSIBLE_EDITOR_BYTES.search(lowered) is not None)


@lru_cache(maxsize=1)
def _trigger_searcher():
    """The triggers, and the words their reading depends on, all found in one pass over the page
    (Aho-Corasick: 17 searches of the page, one after another, took 2.5 ms of a 200 kB page), every
    occurrence counted, overlapping ones too."""
    import ahocorasick_rs

    patterns = TRIGGER_BYTES + tuple(TRIGGER_UNLESS_ALL.values()) + (b"responsible",)
    return patterns, ahocorasick_rs.BytesAhoCorasick(patterns)


def score_page(html: str | bytes | None, url: str | None = None, *, kind: str | None = None,
               tree=None) -> PageScore:
    """Score one page. ``kind`` 'front' and 'about' read the whole page; 'article' reads only what
    lies outside the article itself (header, footer, asides, scripts, meta), so a story that
    quotes somebody's title is never taken for the site's own declaration. ``tree``: the page as
    the extraction stage parsed it (``extract.parse``), read instead of parsing it again, or a function
    that parses it, called only when the page holds a trigger (most pages hold none: unparsed)."""
    try:
        return _score_page(html, url, kind, tree)
    except RecursionError:
        return PageScore(0.0, {"notes": ["page too deeply nested to read"]})


def _score_page(html, url, kind, tree=None) -> PageScore:
    kind = kind or (page_kind(url) if url else "front")
    if html is None:
        return PageScore(0.0, {})
    if isinstance(html, (bytes, bytearray)):
        html = decode(bytes(html[:MAX_HTML_CHARS + HEAD_CHARS]))
    html, truncated = bounded(html)
    # (no trigger holds a control character: checked before they are blanked)
    if not _triggered(html, kind):
        return PageScore(0.0, {"notes": ["truncated"]} if truncated else {})
    html = CONTROL.sub(" ", html)
    if truncated:
        tree = None
    elif callable(tree):  # an lxml element is not callable
        tree = tree()
    page = read(html, boilerplate_only=(kind == "article"), tree=tree)
    findings = _Findings()
    _scan(page.lines, "text", findings, full=True)
    script_lines = page.script_lines + _scan_jsonld(page.jsonld, findings)
    _scan(script_lines, "script", findings, full=True)
    _scan_links(page.links, findings)
    return _weigh(findings, page, truncated)


def _weigh(findings: _Findings, page: Page, truncated: bool) -> PageScore:
    notes = list(page.notes) + (["truncated: head and tail read"] if truncated else [])
    foreign_langs = {f["language"] for f in findings.foreign}
    foreign_page = page.lang in FOREIGN_LANGUAGES
    discounted = []
    if foreign_page or foreign_langs & set(FOREIGN_LANGUAGES):
        for kind in DANISH_AMBIGUOUS:
            if findings.items.pop(kind, None):
                discounted.append(kind)
        if discounted:
            notes.append("the Danish-Swedish words " + ", ".join(discounted) + " not counted: "
                         + (f"page language {page.lang}" if foreign_page else "Danish/Swedish editor line"))
    editor = max((WEIGHTS[k] for k in EDITOR_ITEMS if findings.items.get(k)), default=0.0)
    ethics = max((WEIGHTS[k] for k in ETHICS_ITEMS if findings.items.get(k)), default=0.0)
    score = min(1.0, editor + ethics)
    cap = 1.0
    if foreign_page:
        cap = FOREIGN_PAGE_CAP
        if score > cap:
            notes.append(f"page language {page.lang}: never accepted on its own")
        score = min(score, cap)
    score = round(score, 4)

    evidence: dict = {}
    editors = _editors(findings.items.get("named_declaration", []))
    declaration = (findings.items.get("named_declaration") or findings.items.get("declaration_label") or [None])[0]
    if declaration:
        evidence["main"] = declaration["label"]
    elif findings.items.get("named_editor") or findings.items.get("editor_word"):
        first = (findings.items.get("named_editor") or findings.items.get("editor_word"))[0]
        evidence["alternative"] = first.get("label") or first.get("word")
    link = (findings.items.get("code_link") or [None])[0]
    if link:
        evidence["link"] = link.get("href") or link.get("text")
    if editors:
        evidence["editors"] = editors
    if findings.items:
        evidence["items"] = {k: v for k, v in sorted(findings.items.items(), key=lambda kv: -WEIGHTS[kv[0]])}
        evidence["parts"] = {"editor": editor, "ethics": ethics}
    if findings.foreign:
        evidence["foreign"] = findings.foreign
    if findings.not_news:
        evidence["not_news"] = sorted(findings.not_news)
    if cap < 1.0:
        evidence["cap"] = cap
    if page.lang:
        evidence["lang"] = page.lang
    if notes:
        evidence["notes"] = notes
    if findings.items or findings.foreign:
        evidence["explanation"] = explain(findings.items, findings.foreign, score)
    return PageScore(score, evidence)


def _editors(declarations: list[dict]) -> list[str]:
    counted = Counter(name for d in declarations for name in d.get("names", []))
    return [name for name, _ in counted.most_common(6)]


def explain(items: dict, foreign: list[dict], score: float) -> str:
    """One sentence a person can check: what was found and what it weighs."""
    said = []
    for kind in EDITOR_ITEMS + ETHICS_ITEMS:
        for item in items.get(kind, [])[:1]:
            what = {
                "named_declaration": lambda i: f'"{i["label"]}: {", ".join(i["names"])}" ({i["source"]})',
                "declaration_label": lambda i: f'"{i["label"]}" without a name ({i["source"]})',
                "named_editor": lambda i: f'"{i["label"]}: {", ".join(i["names"])}" ({i["source"]})',
                "editor_word": lambda i: f'the word "{i["word"]}"',
                "code_link": lambda i: f'a link to the press-ethics codes ({i.get("text") or i.get("href")})',
                "code_commitment": lambda i: "a commitment to the press-ethics codes in the text",
                "code_mention": lambda i: "the press-ethics codes mentioned",
                "press_body_link": lambda i: f'a bare link to a press body ({i.get("href")})',
            }[kind](item)
            said.append(f"{what} [{kind} {WEIGHTS[kind]}]")
    for entry in foreign[:2]:
        names = ": " + ", ".join(entry["names"]) if entry["names"] else ""
        said.append(f'{entry["language"]} editor line "{entry["label"]}{names}" [not Norwegian, not counted]')
    return f"{status_for(score)} ({score:g}): " + ("; ".join(said) if said else "nothing found")
