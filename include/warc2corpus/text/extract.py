"""Turning a page's HTML into a clean document: text as paragraphs, title, author, publication date,
page type, and what was dropped from the text and why.

The page is parsed once (lxml, through trafilatura's loader) and the tree serves everything: the
title, author and date are read from it (``metadata``: trafilatura's readers and htmldate, without
the site name, categories, tags and licence it would also look for), trafilatura extracts the text
from it, the page type and the link texts are read from it, and the site template (``template``) is
built from it. trafilatura runs first without its fallback extractors (readability, jusText: ``fast``)
and without its recall escalation, and again with both only when that text is short (under
``FALLBACK_BELOW`` words) or reads like a menu (lines of three words or fewer): on the benchmark pages
those are the only pages the fallbacks improve, and they cost a third of trafilatura's time on every page.
When the rules below leave an article's text under ``RESCUE_BELOW`` words, having dropped more of it as links
or other stories than they kept, trafilatura took a list of other stories for the text: it extracts again in
its recall mode, and that text, cleaned alike, is taken when it keeps more (not on a front page or a listing).
trafilatura writes a table row as one line and each of its cells flattened; a row with a cell of prose
(``LAYOUT_CELL_WORDS`` words or more) is the page's layout, not a table of data (pages of the 2000s set
the article, the menu and the comments side by side in the cells of one table), so its cells are read
as blocks of their own, their paragraphs as paragraphs.

trafilatura's paragraphs are then cleaned by general rules (the phrases they look for: ``phrases``), each
dropped paragraph counted by reason:
``title`` (the headline repeated among the first three paragraphs the rules keep: the page's title, the text
of one of its ``<h1>``, most of a title that adds the site's name, or a part of one that adds its sections
too, "Headline - Soccer - Sport - Breaking News"; it is stored as the title), ``masthead`` (above that
headline, the page's furniture: lines of eight words at most that are no sentence, "Latest News", "Soccer"),
``repeated`` (a short paragraph the page shows twice or more: placeholders, consent prompts; not a question,
which an interview series asks each guest; a sentence of six words or more, and any paragraph longer than
that, is kept once: a page that shows its story twice, as WSJ's gave a print copy, keeps it once; nor the
fields of a list of records, three lines or more that each recur the same number of times, three or more:
a table of players, a review's sections), ``date`` (a line that only dates the page:
"Publisert 12.03.2023 kl. 14:05", "Last Updated: Monday, 14 January 2008, 17:52 GMT", "7:51pm Tuesday 1st
January 2008", "14/01/2008 1:40:00 PM.", "29 December, 2007", a clock's time alone: "3:47 PM"; the date is
stored as the document's; two dates without such a label are a span of time, which stays), ``links`` (a
paragraph that is almost all link text: teasers, "read more" lists, a menu's row whose cells are links),
``credit`` (photo credits, and a byline of twelve words at most: "By Ben Grossman -- Broadcasting & Cable",
"Av Kari Hansen og Ola Nordmann"; the page's metadata gives the author; an agency or a staff writer alone:
"Associated Press", "Staff and agencies", "Washington Post Staff Writer", "Brought to you by AAP"),
``boilerplate`` (short interface phrases and labels: newsletter, sharing, printing and mailing prompts, "Tags:
…", "Filed Under: …", a reading time, a tip line, the site's notes on browsers, feeds, its app and
advertising, its disclosures up to 80 words long — "we may receive a small commission", "Disclosure: …" —,
and subscription, cookie, advertising, copyright, sign-up and log-in prompts, which name their subject early in
a sentence or speak to the reader: a news sentence about a subscription's price stays), ``template`` (text the
site's pages have in common, see ``template``),
``comments`` (a comment section's heading, "2 comments", "Skriv en kommentar", after the article's first fifty
words and with less text after it than before, or after it comments signed with a name and a place, and
everything after it: readers' comments, which pages of the 2000s set below the story unmarked), ``related``
(the same for a heading over other stories, "Top stories", "Mest lest"; a list of teasers whatever its length,
a run of three teasers or more that ends the text with no heading over it, and the lines of a box of teasers
set as pairs, a headline's link then a line about its story, three pairs or more in a row, nothing kept
between them), ``legal`` (a site's legal notice among the text's last paragraphs, in its own voice: "Use of
this site is governed by our Terms of Service and Privacy Policy", "Copyright © 2005 The Associated Press. All
rights reserved. …"; and a disclaimer above the story: "The opinions expressed are those of the writer."),
``sign_off`` (the story's sign-off among them: "This article was originally published on page 28 of …",
"icScotland™ is a trade mark of …"), ``layout`` (the rows of a layout table that end or begin the text, one or
two filled cells each: a site's furniture above and below the story on pages of the 2000s; a table of data,
three cells or more, stays), ``unnatural`` (see ``naturalness``) and ``other_article`` (the text blocks of
articles the page carries besides the one it names, removed before extraction: see ``articles``). When
trafilatura finds no text, the page's own content blocks that are not template (see ``template``) are the
fallback text.

The article's lead (the ingress, standfirst or dek), which publishers set above the body where
trafilatura's choice of the body leaves it out, becomes the text's first paragraph when the page's
description repeats it and its element is named a lead (:func:`lead`).
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache

from warc2corpus.text import tokens, xpaths
from warc2corpus.text.prefilter import Prefiltered
from warc2corpus.text.template import text_key
from warc2corpus.text.naturalness import is_table_row, table_cells
from warc2corpus.text.phrases import (ACCOUNT, BOILERPLATE, BOILERPLATE_TOPIC, BYLINE, CLOCK, COMMENT_POLICY,
                                      COMMENTS_HEADING, CREDIT, DATE_AGO, DATE_LABEL, DATE_LINE_WORDS, DISCLAIMER,
                                      DISCLOSURE, LEAD_CLASS, LEGAL, LINE_DATE, RELATED_HEADING, SHARING_NAMES,
                                      SIGN_OFF, SIGNED, SITE_VOICE, TO_THE_READER)

log = logging.getLogger(__name__)


@dataclass
class Extracted:
    title: str | None = None
    author: str | None = None
    published: str | None = None  # YYYY-MM-DD
    paragraphs: list[str] = field(default_factory=list)
    page_type: str | None = None
    dropped: dict[str, int] = field(default_factory=dict)  # paragraphs dropped, by reason
    source: str | None = None      # "trafilatura", "template" (the fallback), or None: no text
    # The paragraphs of trafilatura's text that were dropped, as (reason, paragraph), in order: every
    # count of ``dropped`` but ``other_article`` (whole articles removed from the page before extraction).
    dropped_paragraphs: list[tuple[str, str]] = field(default_factory=list)


LAYOUT_CELL_WORDS = 25  # a table cell holding a paragraph of prose makes its row layout


def _text(document) -> str:
    """trafilatura's text of an extraction, the rows of layout tables read as blocks (see the module
    docstring): their cells become paragraphs in trafilatura's own serialisation, which then keeps
    the paragraphs and line breaks inside them as lines (in the extraction's tree, which serves nothing
    after this)."""
    from trafilatura.xml import xmltotxt

    if document is None:
        return ""
    body = document.body
    rows = [] if body is None else [
        row for row in body.iter("row")
        if any(len(" ".join(cell.itertext()).split()) >= LAYOUT_CELL_WORDS for cell in row.iterchildren("cell"))]
    if not rows:
        return document.text or ""
    for row in rows:
        for cell in row.iterchildren("cell"):
            cell.tag = "p"
            cell.attrib.clear()
    return xmltotxt(body, False)


# The characters ftfy's patterns name beyond its categories (``ftfy.badness.BADNESS_RE``).
MOJIBAKE_SPELLED = "ÂÃÎÐŒœ€Šš¢£Ÿž®©°·»–—´×²³ØÙµà¹¼½¾√±∂†≠™≤≥¥ø≈‚ÄìîïòôúùûπâóäêвЂВГРСўβΆΒΓΞΟā\xa0\xad"


@lru_cache(maxsize=1)
def _mojibake_suspect() -> re.Pattern:
    """Where ftfy's heuristic may find text bad: a C1 control, "Œ", "œ", "Ã" or "Â" (its patterns of one
    character beyond ASCII), or two of the characters its patterns name side by side (each of its other
    patterns holds such a pair), found at every position (overlapping)."""
    from ftfy.badness import MOJIBAKE_CATEGORIES

    named = "".join(MOJIBAKE_CATEGORIES.values()).replace("]", "\\]").replace("^", "\\^") + re.escape(MOJIBAKE_SPELLED)
    return re.compile(f"(?=[\\x80-\\x9f\u0152\u0153\u00c3\u00c2]|[{named}]{{2}})")


MOJIBAKE_REACH = 8  # characters: ftfy's longest pattern ("ГўВЂВ.[A-Za-z ]") and then some
MOJIBAKE_PLACES_PER_SCAN = 20  # a look around one place costs what a scan of this many characters does


def looks_like_mojibake(text: str) -> bool:
    """``ftfy.badness.is_bad(text)``, looked for only around the places it can match (:func:`_mojibake_suspect`),
    where it scans the whole text: Norwegian text seldom holds one ("…»", "«Å"), nor text in a script those
    characters are not of (2 µs a Norwegian sentence, where the heuristic took 20). tests/test_extract.py
    holds the two equal."""
    from ftfy.badness import BADNESS_RE

    places = [match.start() for match in _mojibake_suspect().finditer(text)]
    if len(places) * MOJIBAKE_PLACES_PER_SCAN > len(text):  # German's "öß", "äß": one scan costs less
        return BADNESS_RE.search(text) is not None
    search, reach = BADNESS_RE.search, MOJIBAKE_REACH
    return any(search(text, max(0, at - reach), at + reach + 1) for at in places)


def mend_mojibake(texts: list[str]) -> list[str]:
    """The texts with their mojibake mended (ftfy's ``fix_encoding``): UTF-8 that was read as windows-1252
    or latin-1 somewhere before the page was archived ("brÃ¸d" for "brød", "â€“" for "–", a C1 control
    for a dash), as a CMS that encodes twice writes it — in the page's own bytes, where no decoding of
    ours can undo it. ftfy changes only text its heuristic finds bad: it is asked about the texts one by
    one only on a page where they hold mojibake together (:func:`looks_like_mojibake`)."""
    joined = "\n".join(texts)
    if not looks_like_mojibake(joined):
        return texts
    from ftfy import fix_encoding

    return [fix_encoding(text) for text in texts]


def split_paragraphs(text: str | None) -> list[str]:
    if not text:
        return []
    return [" ".join(line.split()) for line in text.split("\n") if line.strip()]


@lru_cache(maxsize=1)
def _loader():
    """trafilatura's loader, with the XPaths every page goes through made walks (:func:`xpaths.walk_xpaths`),
    the others guarded (:func:`xpaths.guard_all`), its fallbacks' jusText paragraphs made cheaper
    (:mod:`justext_paragraphs`), its removal of control characters looking for them
    first (:class:`ControlCharacters`), and its parser
    giving every element lxml.html's ``HtmlElement`` through lxml's C-level class lookup instead of
    lxml.html's own lookup, a Python function that lxml calls for each element it hands to Python (5
    million calls, 4 % of ``warc2corpus run`` on the bench's WARC). That lookup gives forms and their
    fields classes of their own, which nothing reading the tree uses: the texts and metadata come out
    the same (``tests/test_extract.py``)."""
    from trafilatura import utils

    from warc2corpus.text import justext_paragraphs

    utils.HTML_PARSER.set_element_class_lookup(_element_classes())
    if ControlCharacters.stands_in_for(utils.INVALID_XML_CHARS):
        utils.INVALID_XML_CHARS = ControlCharacters(utils.INVALID_XML_CHARS)
    xpaths.walk_xpaths()
    xpaths.guard_all()
    justext_paragraphs.install()
    return utils.load_html


class ControlCharacters:
    """trafilatura's ``INVALID_XML_CHARS`` (the C0 control characters but tab, line feed and carriage
    return, and U+FFFE, U+FFFF: what libxml2 refuses), which its loader removes from every page it parses
    with one scan of the whole text by the regular expression (0.9 ms a page of the held-out WARC, where
    one page in 564 holds any), looked for first: the control characters in the text's UTF-8 bytes,
    where deleting them is a C loop over bytes (a control character is its own byte in UTF-8, and no
    other character's bytes are one), the other two by ``in`` (0.3 ms a page together). A text that
    holds none comes back as it is, which is what the expression's ``sub`` gives it."""

    PATTERN = r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]"
    _CONTROL_BYTES = bytes(set(range(0x20)) - {0x09, 0x0A, 0x0D})

    __slots__ = ("expression",)

    def __init__(self, expression: re.Pattern):
        self.expression = expression

    @classmethod
    def stands_in_for(cls, expression) -> bool:
        """Whether ``expression`` is the one this class was written for (trafilatura 2.3.1's)."""
        return isinstance(expression, re.Pattern) and expression.pattern == cls.PATTERN and not expression.flags & ~re.UNICODE

    def holds_any(self, text: str) -> bool:
        encoded = text.encode("utf-8", "surrogatepass")
        return (len(encoded.translate(None, self._CONTROL_BYTES)) != len(encoded)
                or "\ufffe" in text or "\uffff" in text)

    def sub(self, replacement, text, count=0):
        if isinstance(text, str) and not self.holds_any(text):
            return text
        return self.expression.sub(replacement, text, count)


# A page stitched together from several documents (a weather box's or an ad's own <html> ... </html> set
# into a cell of the page) ends, for libxml2, at the first </body> or </html>: it drops what follows, the
# article with it. An HTML5 parser, as browsers parse, ignores those end tags and reads on into the body;
# without them libxml2 reads on too (a page with nothing after them parses as before).
_DOCUMENT_END = re.compile(r"</(?:body|html)\s*>", re.IGNORECASE)


def read_on(html: str) -> str:
    """The page without its </body> and </html> end tags, which HTML5 parsers ignore and libxml2 ends at."""
    return _DOCUMENT_END.sub("", html)


def parse(html: str):
    """The page's lxml tree (trafilatura's loader), or None when it is not HTML at all. A page nested
    deeper than libxml2 parses by default is parsed again, and flattened (:func:`_parse_deep`)."""
    load_html = _loader()
    if not html or not html.strip():
        return None
    html = read_on(html)
    try:
        tree = load_html(html)
    except (TypeError, ValueError):
        return None
    if tree is not None and _stopped_at_depth_limit():
        deep = _parse_deep(html)
        return tree if deep is None else deep
    return tree


# libxml2 stops parsing a page at 256 nested elements unless told otherwise (XML_PARSE_HUGE), and
# what follows is lost without a word: a page that leaves tags open — a <font> or a <div> a line or a
# post, never closed — goes that deep (a forum thread of 600 posts so written kept 253; a news page
# inside 250 <div>s, nothing). Such a page is parsed again without that limit (lxml's ``huge_tree``:
# 2,048 levels) and flattened below FLAT_DEPTH, since the code that reads the tree, trafilatura's and
# ours, recurses through it and has only ever been given trees under 256 levels. (None of the 5,142
# pages of the eval sets, shared and wider, goes that deep.)
FLAT_DEPTH = 200
FLAT_SLACK = 50
# Below FLAT_DEPTH, these elements are kept (text blocks, and what trafilatura reads inside them);
# every other one (div, span, font, section, table, list ...) gives way to its content.
FLAT_KEPT = frozenset(("p", "h1", "h2", "h3", "h4", "h5", "h6", "li", "pre", "blockquote", "br", "a", "img"))
_DEEP_TAGS = re.compile(r"</?(?!(?:p|h[1-6]|li|pre|blockquote|br|a|img|html|head|body|title|meta|link|script|style)\b)"
                        r"[A-Za-z][^\s/>]*[^>]*>", re.IGNORECASE)


def _stopped_at_depth_limit(parser=None) -> bool:
    """Did the last parse by ``parser`` (trafilatura's) stop at libxml2's depth limit?"""
    if parser is None:
        from trafilatura import utils

        parser = utils.HTML_PARSER
    return any(entry.type_name == "ERR_RESOURCE_LIMIT" and "depth" in entry.message for entry in parser.error_log)


def _element_classes():
    """lxml.html's element classes by lxml's C-level lookup (see :func:`_loader`)."""
    from lxml import etree, html

    return etree.ElementDefaultClassLookup(element=html.HtmlElement, comment=html.HtmlComment,
                                           pi=html.HtmlProcessingInstruction, entity=html.HtmlEntity)


@lru_cache(maxsize=1)
def _deep_parser():
    """trafilatura's parser (the same options and element classes) without libxml2's depth limit."""
    from lxml import etree

    parser = etree.HTMLParser(collect_ids=False, default_doctype=False, encoding="utf-8", remove_comments=True,
                              remove_pis=True, huge_tree=True)
    parser.set_element_class_lookup(_element_classes())
    return parser


def _parse_deep(html: str):
    """The page parsed by trafilatura's loader without libxml2's usual depth limit and flattened below
    FLAT_DEPTH levels (see FLAT_KEPT); a page deeper still than that parser allows loses its wrapper tags
    (all but FLAT_KEPT's and the document's own) first. A notice (``lxml``) says what was done."""
    from trafilatura import utils

    saved, utils.HTML_PARSER = utils.HTML_PARSER, _deep_parser()
    how = "parsed again without it"
    try:
        tree = utils.load_html(html)
        if tree is not None and _stopped_at_depth_limit(utils.HTML_PARSER):
            how = "parsed again without it and without its wrapper tags (deeper than 2,048 levels)"
            tree = utils.load_html(_DEEP_TAGS.sub(" ", html))
    except (TypeError, ValueError):
        return None
    finally:
        utils.HTML_PARSER = saved
    if tree is None:
        return None
    unwrapped = _flatten(tree)
    logging.getLogger("lxml").warning("a page nested deeper than libxml2's limit of 256 elements: %s; %d "
                                      "elements below %d levels unwrapped", how, unwrapped, FLAT_DEPTH)
    return tree


def _flatten(tree) -> int:
    """The tree below FLAT_DEPTH levels made shallower, keeping what can be kept, in steps taken only
    while it is still deeper than FLAT_DEPTH + FLAT_SLACK levels: (1) wrappers give way to their content
    — an element with no attribute and no text whose one child is of its own tag, which adds a level and
    nothing else (a page wrapped in hundreds of bare <div>s); (2) an element of its parent's tag (unclosed
    <font>s or <div>s, a line each) but FLAT_KEPT's; (3) every element but FLAT_KEPT's; (4) every
    element. Returns how many elements gave way."""
    from lxml import etree

    deep = tree.xpath("/*" * FLAT_DEPTH)
    if not deep:
        return 0

    def still_too_deep() -> bool:
        return bool(tree.xpath("/*" * (FLAT_DEPTH + FLAT_SLACK)))

    def below() -> list:
        return [d for element in deep for d in element.iterdescendants()]

    before = len(below())
    for step in ("wrappers", "same_tag", "kept", "all"):
        if not still_too_deep():
            break
        if step == "wrappers":
            for d in below():
                if not d.attrib and not (d.text or "").strip() and len(d) == 1 and d[0].tag == d.tag \
                        and not (d[0].tail or "").strip():
                    d.drop_tag()
        elif step == "same_tag":
            for d in below():
                parent = d.getparent()
                if d.tag not in FLAT_KEPT and parent is not None and parent.tag == d.tag:
                    d.drop_tag()
        else:
            for element in deep:
                etree.strip_tags(element, *({d.tag for d in element.iterdescendants() if d.tag not in FLAT_KEPT}
                                            if step == "kept" else ("*",)))
    return before - len(below())


# ---------------------------------------------------------------------------------------------
# Cleaning rules (the phrases and patterns they look for: ``phrases``)
# ---------------------------------------------------------------------------------------------

_BULLET = re.compile(r"^[-•*·]\s+(?=\S)")  # list markers; not "–", the dialogue dash
_LETTERS = re.compile(r"[^\W\d_]+")


def _factored(pattern: re.Pattern) -> tuple[re.Pattern, Prefiltered]:
    """The same test as one expression of many alternatives, in two that the engine runs far faster: the
    alternatives anchored at the start (``^…``), tried once by ``match``, and the others with their
    leading ``\\b`` factored out, so that a position inside a word is left at once instead of trying
    every alternative there (on 6,646 short dev paragraphs 0.64 → 0.17 s; the same answer on all 15,358
    of them and on every test's phrase), and only in a paragraph that holds one of their words."""
    alternatives = tokens.alternatives(pattern.pattern)
    at_start = [a[1:] for a in alternatives if a.startswith("^")]
    in_words = [a[2:] for a in alternatives if a.startswith("\\b")]
    others = [a for a in alternatives if not a.startswith(("^", "\\b"))]
    anywhere = "|".join([r"\b(?:" + "|".join(in_words) + ")", *others])
    return re.compile("|".join(at_start), pattern.flags), Prefiltered(re.compile(anywhere, pattern.flags))


_BOILERPLATE_AT_START, _BOILERPLATE_ANYWHERE = _factored(BOILERPLATE)
# Searched for in every short paragraph (or every one), which they seldom match: behind the words any of their
# matches holds (``prefilter``). As the rules call them on the dev pages' paragraphs (timed with a wrapper's
# microsecond a call): DISCLOSURE 277 -> 28 ms, _BOILERPLATE_ANYWHERE 182 -> 75, CREDIT 99 -> 39, SHARING_NAMES
# 30 -> 13, SIGNED 16 -> 10, SIGN_OFF 8 -> 5 (COMMENT_POLICY 24 -> 20 and LEGAL, seldom called, left as they are).
CREDIT, DISCLOSURE, SHARING_NAMES, SIGNED, SIGN_OFF = map(Prefiltered, (CREDIT, DISCLOSURE, SHARING_NAMES, SIGNED, SIGN_OFF))

# A sentence's first four words (the separator looked behind, so that a four-word match ending in "Inbox:"
# leaves the next sentence, "Sign up for …", its own start); a line's cells between "|" count as sentences.
_SENTENCE_START = re.compile(r"(?:^|(?<=[.!?:|])\s+)((?:\S+\s+){0,3}\S*)")
FALLBACK_BELOW = 250  # words: a shorter text from trafilatura's fast pass gets its fallbacks (module docstring)
MENU_SHARE = 0.6      # ... and so does one whose lines are mostly of three words or fewer (a menu)
_SENTENCE_END = re.compile(r"[.!?…][\"'»”’)]*$")
_QUESTION = re.compile(r"\w\W{0,3}\?\W{0,3}$")  # a question an interview asks each guest is content, not a prompt
SHORT = 25  # words: only paragraphs up to this long can be boilerplate, credits, repeats or link lists
BYLINE_WORDS = 12  # words: a byline (phrases.BYLINE) is this long at most
RECORD_FIELDS, RECORD_TIMES = 3, 3  # lines recurring alike that make a list of records (see clean_paragraphs)
LEGAL_WORDS = 80  # words: a legal notice, a disclosure or a sign-off is this long at most (phrases.LEGAL)
HEAD_SENTENCE_WORDS = 8  # a disclaimer above the story comes before a sentence this long (phrases.DISCLAIMER)
COMMENT_POLICY_WORDS = 60   # the rules over a comment section (phrases.COMMENT_POLICY) are this long at most
END_HEADING_WORDS = 8   # a heading that ends the text is this long at most ...
END_AFTER_WORDS = 50    # ... and comes after at least this many words of text
END_READINGS = 3        # the end of the text is read again once cut, this many readings at most


TITLE_PART_WORDS = 3  # a paragraph the title holds is its headline with this many words or more ...
TITLE_PART_SHARE = 0.5  # ... that make this share of the title at least ("Headline (From The Bolton News)")


# A title's parts: "Chelsea hoping to sign Anelka before weekend - Soccer - Sport - Breaking News - Belfast
# Telegraph", "F1 News: Heidfeld 'very excited' about new BMW", "Plane's engines 'failed to respond' | UK Latest".
_TITLE_SEPARATOR = re.compile(r"\s+[-|–—·»:]+\s+|:\s+")


def _title_parts(title: str | None) -> frozenset[str]:
    """The normalised parts of the page's title between its separators, of TITLE_PART_WORDS words or more."""
    return frozenset(key for key in map(text_key, _TITLE_SEPARATOR.split(title or ""))
                     if key.count(" ") + 1 >= TITLE_PART_WORDS)


def _in_title(key: str, title_key: str, parts: frozenset[str] = frozenset()) -> bool:
    """Is the paragraph (normalised) most of the page's title, which adds the site's name to it, or one of
    its parts (the headline, when the title adds the site's sections and name too)?"""
    return bool(title_key) and key.count(" ") + 1 >= TITLE_PART_WORDS and (
        (key in title_key and len(key) >= TITLE_PART_SHARE * len(title_key)) or key in parts)


def headlines(tree) -> set[str]:
    """The normalised texts of the page's ``<h1>`` elements (see :func:`clean_paragraphs`)."""
    return {key for key in (text_key(h1.text_content()) for h1 in tree.iter("h1")) if key}


LEAD_MIN_WORDS = 8  # a description shorter than this is no lead
LEAD_DEPTH = 3  # the lead's text may sit this many elements below the lead element (<p><span><b>…)
_LEAD_TAGS = frozenset(("p", "div", "h2", "span", "section"))
_NOT_LEAD_PLACES = frozenset(("li", "a", "nav", "footer", "form", "button"))
_DESCRIPTION_NAMES = ("description", "og:description", "twitter:description")  # in this order of trust


def description(tree) -> str | None:
    """The page's description of itself of LEAD_MIN_WORDS words or more (``<meta name="description">``,
    else ``og:description``, else ``twitter:description``: a site may fill the first with a stub), or None."""
    found: dict[str, str] = {}
    for meta in tree.xpath("//meta[@content][@name or @property]"):
        name = meta.get("name") or meta.get("property")
        if name in _DESCRIPTION_NAMES and len(re.findall(r"\w+", meta.get("content"))) >= LEAD_MIN_WORDS:
            found.setdefault(name, meta.get("content"))
    return next((found[name] for name in _DESCRIPTION_NAMES if name in found), None)


def lead(tree, described: str | None) -> str | None:
    """The article's lead as the page gives it in its body, or None. Publishers set the lead (the
    ingress, standfirst or dek) apart from the article's body, above it, where trafilatura's choice of
    the body leaves it out; their description (:func:`description`) repeats it. The lead is an element
    whose whole text is the description (LEAD_MIN_WORDS words or more) and which it or one of its two
    nearest ancestors names as a lead (:data:`LEAD_CLASS`), outside lists, links, menus, footers and
    sharing widgets (which hold the description too). It is looked for around the elements whose own
    text holds the description's longest word: one XPath over the page's text, not a walk."""
    words = re.findall(r"\w+", described or "")
    if len(words) < LEAD_MIN_WORDS:
        return None
    key = text_key(described)
    for holder in tree.xpath("//*[text()[contains(., $word)]]", word=max(words, key=len)):
        element = holder
        for _ in range(LEAD_DEPTH + 1):
            if element is None:
                break
            if element.tag in _LEAD_TAGS and _is_lead(element, key):
                return " ".join(element.text_content().split())
            element = element.getparent()
    return None


def _is_lead(element, key: str) -> bool:
    parent = element.getparent()
    named = (element, parent, None if parent is None else parent.getparent())
    if not any(e is not None and _names_lead(e.get("class") or "", e.get("id") or "") for e in named):
        return False
    if text_key(element.text_content()) != key:
        return False
    return not any(e.tag in _NOT_LEAD_PLACES or "share" in (e.get("class") or "")
                   for e in (element, *element.iterancestors()))


@lru_cache(maxsize=20_000)
def _names_lead(css_class: str, element_id: str) -> bool:
    return bool(LEAD_CLASS.search(css_class) or LEAD_CLASS.search(element_id))


@dataclass
class _Links:
    keys: set[str]        # normalised texts of links of two words or more (not bare URLs, not in-page)
    single: set[str]      # ... and of one word: a menu's items, read only as the cells of a row
    words: int            # words inside links on the page
    headlines: int        # links whose text reads like a headline (4+ words)
    texts: dict = field(default_factory=dict)  # each link element -> its text


_HEADINGS = frozenset(("h1", "h2", "h3", "h4", "h5", "h6"))


def _links(tree) -> _Links:
    """The page's links, read once (trafilatura leaves the tree as it found it)."""
    links = _Links(set(), set(), 0, 0)
    for anchor in tree.iter("a"):
        text = anchor.text_content() if len(anchor) or anchor.text else ""
        links.texts[anchor] = text
        n = len(text.split())
        links.words += n
        links.headlines += n >= 4
        key = text_key(text)
        # A link within the page ("#section": a table of contents, a heading's own anchor) points at
        # the article's own headings, which are no less content for it; a heading's named anchor
        # (<h3><a name="sprung2">…</a></h3>: no href, no script to follow) is the heading, not a link.
        href = anchor.get("href")
        if href is None and not anchor.get("onclick") and anchor.getparent() is not None \
                and anchor.getparent().tag in _HEADINGS:
            continue
        if key and not re.match(r"\s*(https?:|www\.)", text) and not (href or "").lstrip().startswith("#"):
            (links.keys if " " in key else links.single).add(key)
    return links


LISTED_TEASERS_MIN = 3      # a list of teasers in the page: this many items or more under one element ...
LISTED_BLURB_WORDS = 60     # ... each a headline link and at most this many words of text beside it
_TEASER_ITEMS = frozenset(("li", "div", "article", "section", "p"))
_PICTURE = re.compile(r"\.(?:jpe?g|png|gif|webp)(?:[?#].*)?$", re.IGNORECASE)


def teaser_blurbs_in_page(tree, title: str | None = None, own: set[str] | None = None,
                          link_texts: dict | None = None) -> set[str]:
    """The normalised texts (:func:`template.text_key`) of the blurbs of a list of teasers: LISTED_TEASERS_MIN items
    or more under one element, each holding another story's headline as a link of three words or
    more (not within running text: outside a paragraph, or a paragraph's whole text) and a paragraph
    or two (``<p>``) about it, LISTED_BLURB_WORDS words at most beside its links; or a paragraph that
    opens with such a link and a line break before its blurb ("<p><a>FA Cup 3rd round replays …</a>
    <br>Follow all the action …</p>"). trafilatura drops such a headline as a link and may keep its
    blurb, which then reads as the story's own text (a list of a site's other stories above the
    article: "More than 60,000 South Sudanese have entered Sudan …"). A teaser of the page's own
    story (its headline the page's ``<h1>`` or ``title``: a site's list of its latest stories
    includes it) is none: its blurb is the story's lead; nor is a picture's link (an image inside
    it, or an image's address). ``own``: the page's :func:`headlines`, ``link_texts`` each link
    element's text (``_Links.texts``), when read already. The
    paragraph-level twin, for boxes whose links trafilatura left as lines: :func:`_teaser_blurbs`."""
    own = headlines(tree) if own is None else own
    title_key = text_key(title or "")
    linked: dict = {}   # each link's words
    unlinked: dict = {}     # an element's words outside its links

    def words_beside_links(element) -> int:
        if element not in unlinked:
            unlinked[element] = len(element.text_content().split()) - sum(map(linked.__getitem__, element.iter("a")))
        return unlinked[element]

    headlines_at = []   # the headline links outside running text
    headed: dict = {}   # the paragraphs that open with a headline link and a line break -> what follows
    for anchor in tree.iter("a"):
        text = link_texts.get(anchor) if link_texts is not None else None
        if text is None:
            text = anchor.text_content() if len(anchor) or anchor.text else ""
        linked[anchor] = len(text.split())
        if anchor.get("href") is None or linked[anchor] < 3 or _PICTURE.search(anchor.get("href")) \
                or next(anchor.iter("img", "figcaption"), None) is not None:
            continue    # no headline: a picture's link, its caption the link's text
        key = text_key(text)
        if key in own or key == title_key or _in_title(key, title_key):
            continue
        paragraph = next(anchor.iterancestors("p"), None)
        if paragraph is None or text_key(paragraph.text_content()) == key:  # a link in running text is none
            headlines_at.append(anchor)
        elif anchor.getparent() is paragraph and not (paragraph.text or "").strip() and paragraph.index(anchor) == 0 \
                and anchor.getnext() is not None and anchor.getnext().tag == "br" and not (anchor.tail or "").strip():
            # "<p><a>Headline</a><br>Blurb</p>": a teaser set in one paragraph, its blurb after the line break
            headed[paragraph] = paragraph.text_content()[len(text):]
    teasers = {paragraph for paragraph in headed if words_beside_links(paragraph) <= LISTED_BLURB_WORDS}
    for anchor in headlines_at:     # the elements around a headline with few words beside its links
        for ancestor in anchor.iterancestors():
            if ancestor in teasers:
                break   # walked up from there before
            if ancestor.tag in _TEASER_ITEMS:
                if words_beside_links(ancestor) > LISTED_BLURB_WORDS:
                    break   # the words beside its links only grow with the ancestors
                teasers.add(ancestor)
    items = Counter(teaser.getparent() for teaser in teasers)
    listed = {teaser for teaser in teasers if items[teaser.getparent()] >= LISTED_TEASERS_MIN}
    if not listed:
        return set()
    blurbs = {text_key(text) for paragraph, text in headed.items() if paragraph in listed}
    for paragraph in tree.iter("p"):
        if paragraph not in headed and any(ancestor in listed for ancestor in paragraph.iterancestors()) \
                and words_beside_links(paragraph):  # not read above, nor a link alone
            blurbs.add(text_key(paragraph.text_content()))
    return blurbs


def _linked_share(paragraph: str, key: str, anchors: set[str], long_anchors: list[str], link_words: set[str]) -> float:
    """The share of the paragraph's text (``key``: :func:`template.text_key`) that is link text, as a whole or, where
    "|" parts it, cell by cell, whichever is more: a menu's row of links ("| Home | | UK | | Guardian
    Weekly |") is links, its one-word items (``link_words``) too, and so is one link whose text holds a
    "|". ``long_anchors``: the anchors of 12 characters or more, longest first (then alphabetical), so
    that the same page gives the same share in every process (a set's order changes with Python's hash
    seed)."""
    if not key:
        return 0.0
    whole = _linked_chars(key, anchors, long_anchors) / len(key)
    # "|" stands between a table row's cells, a menu's items.
    cells = [cell for cell in map(text_key, paragraph.split("|")) if cell] if "|" in paragraph else []
    if len(cells) < 2:
        return whole
    linked = sum(len(cell) if cell in link_words else _linked_chars(cell, anchors, long_anchors) for cell in cells)
    return max(whole, linked / sum(map(len, cells)))


def _linked_chars(key: str, anchors: set[str], long_anchors: list[str]) -> int:
    """How many characters of a text (:func:`template.text_key`) are link text: all when it is an anchor's, else
    those of the long anchors it holds."""
    if key in anchors:
        return len(key)
    covered = 0
    rest = key
    for anchor in long_anchors:
        if anchor in rest:
            covered += len(anchor)
            rest = rest.replace(anchor, " ")
    return covered


def _prune_nested_articles(tree) -> None:
    """Articles inside an article are related stories, teasers or comments (HTML5: a nested article
    is content related to the outer one): remove them before extraction, as long as the page keeps
    enough text of its own without them. A nested article that holds most of its outer article's
    text is that article's content (some sites wrap the story so), never removed."""
    nested = tree.xpath("//article[ancestor::article][not(ancestor::article[ancestor::article])]")
    nested = [a for a in nested
              if len(a.text_content().split()) < 0.5 * len(a.xpath("ancestor::article[1]")[0].text_content().split())]
    if not nested:
        return
    body = tree.find(".//body")
    total = len((body if body is not None else tree).text_content().split())
    if total - sum(len(a.text_content().split()) for a in nested) >= 100:
        for article in nested:
            article.drop_tree()


_DATE_LINE_MAX_WORDS = 16  # a table row's borders are no words
_DIGIT = re.compile(r"\d")


def _words_within_cells(paragraph: str) -> int:
    """The paragraph's words, a table row's cell borders ("|") not counted."""
    words = paragraph.split()
    return len(words) - words.count("|")


def _is_date_line(paragraph: str) -> bool:
    """A line that only dates the page (see the module docstring)."""
    if len(paragraph) <= 60 and DATE_AGO.match(paragraph):
        return True
    if not _DIGIT.search(paragraph) or _words_within_cells(paragraph) > _DATE_LINE_MAX_WORDS:
        return False
    dates = [m for m in LINE_DATE.finditer(paragraph) if any(ch.isdigit() for ch in m.group())]
    if (not dates and not CLOCK.search(paragraph)) or (len(dates) > 1 and not DATE_LABEL.search(paragraph)):
        return False  # "29 November 2018 | 20 January 2019": a span of time
    return not re.search(r"[^\W\d_]{2,}", DATE_LINE_WORDS.sub(" ", paragraph))


SHARING_NAMES_MIN, SHARING_SHARE = 3, 0.6


def _is_sharing_row(paragraph: str) -> bool:
    names = len(SHARING_NAMES.findall(paragraph))
    return names >= SHARING_NAMES_MIN and names >= SHARING_SHARE * _words_within_cells(paragraph)


def _is_boilerplate(paragraph: str) -> bool:
    if _BOILERPLATE_AT_START.match(paragraph) or _BOILERPLATE_ANYWHERE.search(paragraph) \
            or (ACCOUNT.search(paragraph) and TO_THE_READER.search(paragraph)) \
            or _is_sharing_row(paragraph):
        return True
    return any(BOILERPLATE_TOPIC.search(start) for start in _SENTENCE_START.findall(paragraph))


def _end_of_text(paragraphs: list[str], anchors: set[str] = frozenset()) -> tuple[int, str] | None:
    """Where the article's text ends, and why: the index of the first heading of a comment section
    (``comments``; or of its rules, COMMENT_POLICY, a paragraph of COMMENT_POLICY_WORDS at most) or
    of a list of other stories (``related``) that comes after the text's first
    END_AFTER_WORDS words, with less text after it than before (see phrases.COMMENTS_HEADING and
    phrases.RELATED_HEADING). Cutting never drops more than it keeps: a page may give its comments first
    and the story after them, or set a box of other stories inside the story; nor does a list's heading
    that the story's own sentences follow at once (:func:`_story_goes_on`). A list of other
    stories may be longer than the story, though, when its items are teasers (:func:`_teasers`),
    and readers' comments when they are signed (:func:`_comment_thread`): then they go whatever
    their length. So does a run of TEASER_ITEMS_MIN teasers or more at the text's end with no heading
    (each paragraph opening with a link's text: :func:`_opens_with_link`), after END_AFTER_WORDS words,
    and a thread of signed comments with no heading, from its first line that says who posted."""
    words = [len(paragraph.split()) for paragraph in paragraphs]
    following: dict[str, list[int]] = {}  # how many of the paragraphs from each index on are teasers, signatures

    def share_after(index: int, kind: str) -> tuple[int, int]:
        """(how many of the paragraphs after ``index`` are of the kind, how many there are): counted
        once a reading, read for every heading (a page of many headings was quadratic)."""
        if kind not in following:
            test = (lambda p: _opens_with_link(p, anchors)) if kind == "teasers" else _signed_or_signature
            counts = [0] * (len(paragraphs) + 1)
            for i in range(len(paragraphs) - 1, -1, -1):
                counts[i] = counts[i + 1] + bool(test(paragraphs[i]))
            following[kind] = counts
        return following[kind][index + 1], len(paragraphs) - index - 1

    before, after = 0, sum(words)
    for index, paragraph in enumerate(paragraphs):
        after -= words[index]
        if END_AFTER_WORDS <= before and after < before and words[index] <= COMMENT_POLICY_WORDS \
                and COMMENT_POLICY.search(paragraph):
            return index, "comments"
        if END_AFTER_WORDS <= before and words[index] <= END_HEADING_WORDS:
            if COMMENTS_HEADING.match(paragraph) and (after < before or _comment_thread(*share_after(index, "signed"))):
                return index, "comments"
            if RELATED_HEADING.match(paragraph) and (after < before or _teasers(*share_after(index, "teasers"))) \
                    and not _story_goes_on(paragraphs[index + 1:index + 1 + STORY_ON_PARAGRAPHS], anchors):
                return index, "related"
        before += words[index]
    start = len(paragraphs)  # a run of teasers with no heading over them ends the text too
    while start > 0 and _opens_with_link(paragraphs[start - 1], anchors):
        start -= 1
    if len(paragraphs) - start >= TEASER_ITEMS_MIN and sum(words[:start]) >= END_AFTER_WORDS:
        return start, "related"
    # ... and so do readers' comments with no heading over them, from the first line that says who posted
    signed = [index for index, paragraph in enumerate(paragraphs)
              if words[index] <= SIGNED_LINE_WORDS and SIGNED.search(paragraph)]
    if len(signed) >= THREAD_SIGNATURES_MIN and sum(words[:signed[0]]) >= END_AFTER_WORDS \
            and _comment_thread(*share_after(signed[0] - 1, "signed")):
        return signed[0], "comments"
    return None


LAYOUT_ROW_CELLS = 2  # a table row before or after the text with this many filled cells at most is the page's layout


def _layout_rows_at_start(paragraphs: list[str]) -> int:
    """How many rows of a layout table begin the text (0 unless END_AFTER_WORDS words of text or more
    follow them): table rows as trafilatura writes them ("| … |") of one or two filled cells. Pages of
    the 2000s set their furniture in the table they are laid out with, above and below the story:
    "| Publishers of the Morris Daily Herald | About Us - Contact Us |", "| Author : Subhash K Jha |",
    "| A publication by the Path Publishing Group. |", "| | Latest Football Stories |". A row of three
    filled cells or more is a table of data, which stays; so do rows within the text, and a text of
    rows alone. Read on the paragraphs reversed, it counts the rows that end the text."""
    rows = 0
    while rows < len(paragraphs) and _is_layout_row(paragraphs[rows]):
        rows += 1
    return rows if sum(len(p.split()) for p in paragraphs[rows:]) >= END_AFTER_WORDS else 0


def _is_layout_row(paragraph: str) -> bool:
    return is_table_row(paragraph) and sum(1 for cell in table_cells(paragraph) if cell) <= LAYOUT_ROW_CELLS


THREAD_SIGNATURES_MIN = 3      # readers' comments are signed: this many signatures at least ...
THREAD_SIGNATURES_SHARE = 0.25  # ... and this share of the paragraphs
SIGNATURE_WORDS = 6
SIGNED_LINE_WORDS = 15  # "Posted by: akminstral | January 14, 2008 11:04 PM"


def _comment_thread(signatures: int, paragraphs: int) -> bool:
    """Are paragraphs of which this many are signatures readers' comments: at least
    THREAD_SIGNATURES_MIN signatures, and they a THREAD_SIGNATURES_SHARE of the paragraphs? A story's
    text is sentences."""
    return signatures >= THREAD_SIGNATURES_MIN and signatures >= THREAD_SIGNATURES_SHARE * paragraphs


def _signed_or_signature(paragraph: str) -> bool:
    """A comment's signature: a line that says who posted, or a short line that is no sentence (a name
    and a place)."""
    return bool(SIGNED.search(paragraph)) or _signature_line(paragraph)


def _signature_line(paragraph: str) -> bool:
    """A line of SIGNATURE_WORDS words at most, opening with a capital and ending in no sentence mark."""
    text = paragraph.strip()
    return 0 < len(text.split()) <= SIGNATURE_WORDS and text[0].isupper() and text[-1] not in ".!?:;\"'”»"


TEASER_ITEMS_MIN = 3        # a list of teasers has this many items at least ...
TEASER_ITEMS_SHARE = 0.75   # ... and this share of them opens with a link of TEASER_LINK_WORDS words or more
TEASER_LINK_WORDS = 3  # (a headline's link holds at most TEASER_LINK_MAX words: longer openings are not read)
TEASER_LINK_MAX = 40


STORY_ON_PARAGRAPHS = 2  # a heading over other stories followed at once by this many paragraphs ...
STORY_ON_WORDS = 20      # ... of this many words or more, each a sentence, is a label left of a box of links


def _story_goes_on(following: list[str], anchors: set[str]) -> bool:
    """Does the story go on right after a heading over other stories? The STORY_ON_PARAGRAPHS paragraphs
    that follow it (``following``: the caller's slice) are sentences of STORY_ON_WORDS words or more,
    neither opening with a link's text: the box's links went with the page's furniture and left its
    heading in the story ("Related stories", then the story's next paragraphs), which is then no end of
    the text but a label."""
    return len(following) == STORY_ON_PARAGRAPHS and all(
        len(p.split()) >= STORY_ON_WORDS and _SENTENCE_END.search(p) and not _opens_with_link(p, anchors)
        for p in following)


def _teasers(opening: int, paragraphs: int) -> bool:
    """Are paragraphs of which this many open with the text of a link on the page (another story's
    headline, then its first lines) a list of teasers: TEASER_ITEMS_MIN or more, most of them
    opening so? The rest of a story does not."""
    return paragraphs >= TEASER_ITEMS_MIN and opening >= TEASER_ITEMS_SHARE * paragraphs


def _opens_with_link(paragraph: str, anchors: set[str]) -> bool:
    """Does the paragraph open with the text of a link on the page (TEASER_LINK_WORDS words or more)?"""
    key = text_key(paragraph).split(" ")[:TEASER_LINK_MAX]
    return any(" ".join(key[:n]) in anchors for n in range(TEASER_LINK_WORDS, len(key) + 1))


def _head_notices(paragraphs: list[str]) -> dict[int, str]:
    """The disclaimers above the story (``legal``, see phrases.DISCLAIMER), by index: read from the start, past
    headings, labels and captions, to the story's first sentence (HEAD_SENTENCE_WORDS words or more, a
    sentence's end) that is none."""
    found: dict[int, str] = {}
    for index, paragraph in enumerate(paragraphs):
        n_words = len(paragraph.split())
        if n_words <= LEGAL_WORDS and DISCLAIMER.search(paragraph):
            found[index] = "legal"
        elif n_words > SHORT or (n_words >= HEAD_SENTENCE_WORDS and _SENTENCE_END.search(paragraph)):
            break
    return found


def _tail_notices(paragraphs: list[str]) -> dict[int, str]:
    """The paragraphs at the text's end that are a site's legal notice (``legal``, see ``phrases.LEGAL_KINDS``: two
    kinds in one paragraph, or one in each of two paragraphs side by side, "Terms under which this service
    is provided to you." above "Read our privacy guidelines.") or the story's sign-off (``sign_off``, see
    phrases.SIGN_OFF), by index: read from the end, past lines of END_HEADING_WORDS words at most and a layout
    table's rows (which go as ``layout``), to the first longer paragraph that is neither."""
    def kinds(index: int) -> set[str]:
        if not 0 <= index < len(paragraphs) or len(paragraphs[index].split()) > LEGAL_WORDS \
                or not SITE_VOICE.search(paragraphs[index]):
            return set()
        return {match.lastgroup for match in LEGAL.finditer(paragraphs[index])}

    found: dict[int, str] = {}
    for index in range(len(paragraphs) - 1, -1, -1):
        paragraph = paragraphs[index]
        n_words = len(paragraph.split())
        own = kinds(index)
        if len(own) >= 2 or (own and any(kinds(side) - own for side in (index - 1, index + 1))):
            found[index] = "legal"
        elif n_words <= LEGAL_WORDS and SIGN_OFF.search(paragraph):
            found[index] = "sign_off"
        elif n_words > END_HEADING_WORDS and not _is_layout_row(paragraph):
            break
    return found


def verbatim_lines(tree) -> frozenset[str]:
    """The normalised texts (:func:`template.text_key`) of the lines of the page's ``<pre>`` blocks: program
    code and its output, a log, a table set in type. There a line that recurs ("updating to branch default")
    or gives only a date and time ("2020-08-01 18:00:00+00 │ 200 │ 4084") is the block's content, which the
    rules' reading of lines as a page's furniture cut to pieces (Readability's test pages: a technical blog's
    SQL results lost 98 lines as dates and 211 as repeated)."""
    keys = set()
    for block in tree.iter("pre"):
        keys.update(text_key(line) for line in block.text_content().splitlines() if line.strip())
    keys.discard("")
    return frozenset(keys)


def clean_paragraphs(paragraphs: list[str], *, title: str | None, anchors: set[str],
                     dropped: Counter, removed: list[tuple[str, str]] | None = None,
                     headlines: set[str] = frozenset(), link_words: set[str] = frozenset(),
                     blurbs: set[str] = frozenset(), verbatim: set[str] = frozenset()) -> list[str]:
    """The general rules of the module docstring; ``dropped`` counts what went, by reason, and
    ``removed`` (when given) receives each paragraph that went with its reason. ``anchors``: the
    normalised texts (:func:`template.text_key`) of the page's links of two words or more, ``link_words`` of its
    one-word links; ``headlines``: of its ``<h1>`` elements; ``blurbs``: of its teasers' blurbs
    (:func:`teaser_blurbs_in_page`); ``verbatim``: of the lines of its ``<pre>`` blocks (:func:`verbatim_lines`),
    which no rule drops as ``repeated`` or ``date``."""
    paragraphs = [_BULLET.sub("", p) for p in paragraphs]
    # Read again once cut: a list of other stories under a heading, itself longer than the text before
    # it, may have been followed by a second one ("B.C. Headlines" …, "Canada Headlines" …).
    cut_off: list[tuple[str, str]] = []
    for _ in range(END_READINGS):
        if (end := _end_of_text(paragraphs, anchors)) is None:
            break
        dropped[end[1]] += len(paragraphs) - end[0]
        cut_off[:0] = [(end[1], paragraph) for paragraph in paragraphs[end[0]:]]
        paragraphs = paragraphs[:end[0]]
    if removed is not None:
        removed.extend(cut_off)
    # A layout table's rows go only once the end of the text is found (their words count as text
    # there, as they always did): those before the text now, before the rules read it (the headline is
    # then among its first paragraphs); those after it once the rules have dropped what they drop (a
    # copyright line below them would keep them otherwise).
    start = _layout_rows_at_start(paragraphs)
    if start:
        dropped["layout"] += start
        if removed is not None:
            removed.extend(("layout", paragraph) for paragraph in paragraphs[:start])
        paragraphs = paragraphs[start:]
    keys = [text_key(p) for p in paragraphs]
    counts = Counter(keys)
    title_key, parts = text_key(title or ""), _title_parts(title)
    long_anchors = sorted((a for a in anchors if len(a) >= 12), key=lambda a: (-len(a), a))
    notices = _head_notices(paragraphs) | _tail_notices(paragraphs)
    # The fields of a list of records: RECORD_FIELDS lines or more that each recur the same number of
    # times, RECORD_TIMES or more (a table of players, a review's sections, a list's refrain).
    recurring = Counter(n for n in counts.values() if n >= RECORD_TIMES)
    records = {key for key, n in counts.items() if n >= RECORD_TIMES and recurring[n] >= RECORD_FIELDS}
    menu = _menu_lines(paragraphs, keys, anchors, link_words)
    reasons: list[str | None] = []
    kept_keys: set[str] = set()
    kept_so_far = 0  # the headline is among the first three paragraphs the rules keep
    for index, (paragraph, key) in enumerate(zip(paragraphs, keys)):
        n_words = len(paragraph.split())
        if not key:
            reason = "empty"
        elif kept_so_far < 3 and (key == title_key or key in headlines or _in_title(key, title_key, parts)):
            reason = "title"
        elif n_words <= SHORT and counts[key] > 1 and key not in records and not _QUESTION.search(paragraph) \
                and (key in kept_keys or n_words < 6 or not _SENTENCE_END.search(paragraph)) and key not in verbatim:
            reason = "repeated"
        elif n_words > SHORT and key in kept_keys and key not in verbatim:
            reason = "repeated"  # a longer paragraph kept already: the page gives the story twice
        elif key not in verbatim and _is_date_line(paragraph):
            reason = "date"
        elif (n_words <= SHORT and CREDIT.search(paragraph)) or (n_words <= BYLINE_WORDS and BYLINE.match(paragraph)):
            reason = "credit"
        elif (n_words <= SHORT and _is_boilerplate(paragraph)) \
                or (n_words <= LEGAL_WORDS and DISCLOSURE.search(paragraph)):
            reason = "boilerplate"
        elif n_words <= END_HEADING_WORDS and RELATED_HEADING.match(paragraph):
            reason = "boilerplate"  # a heading over other stories alone, where it does not end the text: a label
        elif index in menu or (n_words <= 40 and _linked_share(paragraph, key, anchors, long_anchors, link_words) >= 0.75):
            reason = "links"
        elif key in blurbs:
            reason = "related"
        elif index in notices:
            reason = notices[index]
        else:
            reason = None
            kept_keys.add(key)
            kept_so_far += 1
        reasons.append(reason)
    for index in _teaser_blurbs(paragraphs, reasons):
        reasons[index] = "related"
    # Above the headline, the page's furniture: short lines that are no sentence ("Latest News", "Soccer")
    headline_at = next((index for index, reason in enumerate(reasons) if reason == "title"), None)
    for index in range(headline_at or 0):
        if reasons[index] is None and len(paragraphs[index].split()) <= END_HEADING_WORDS \
                and not _SENTENCE_END.search(paragraphs[index]):
            reasons[index] = "masthead"
    kept_at = [index for index, reason in enumerate(reasons) if reason is None]
    for index in kept_at[len(kept_at) - _layout_rows_at_start([paragraphs[i] for i in reversed(kept_at)]):]:
        reasons[index] = "layout"
    kept = []
    for paragraph, reason in zip(paragraphs, reasons):
        if reason is None:
            kept.append(paragraph)
            continue
        dropped[reason] += 1
        if removed is not None:
            removed.append((reason, paragraph))
    return kept


TEASER_PAIRS_MIN = 3    # a list of teasers set as a link, then its blurb: this many pairs in a row ...
BLURB_WORDS = 30        # ... each blurb this long at most


MENU_LINES_MIN = 3      # a menu set a link to a line: this many lines or more in a row ...
MENU_LINE_WORDS = 3     # ... each the whole text of a link, this many words at most


def _menu_lines(paragraphs: list[str], keys: list[str], anchors: set[str], link_words: set[str]) -> set[int]:
    """The indices of a menu's items set a link to a line: MENU_LINES_MIN lines or more in a row, each
    of MENU_LINE_WORDS words at most and the whole text of one of the page's links, one-word links
    included (".NET ·", "AJAX ·", "ECLIPSE ·"; alone such a line may be a heading that links).
    ``keys``: the paragraphs' :func:`template.text_key`."""
    found: set[int] = set()
    run: list[int] = []
    for index, (paragraph, key) in enumerate(zip([*paragraphs, ""], [*keys, ""])):
        if key and len(paragraph.split()) <= MENU_LINE_WORDS and (key in anchors or key in link_words):
            run.append(index)
            continue
        if len(run) >= MENU_LINES_MIN:
            found.update(run)
        run = []
    return found


def _teaser_blurbs(paragraphs: list[str], reasons: list[str | None]) -> list[int]:
    """The indices of the blurbs of a list of teasers set as pairs of paragraphs: another story's
    headline as a link (dropped as ``links``, maybe with other dropped lines: "Full Story"), then a
    line or two about it, BLURB_WORDS words at most, TEASER_PAIRS_MIN pairs or more in a row with
    nothing kept between them (a sidebar's "Don't miss" box of 2008: "Video: Waxing Lyrical" / "Liam
    Neeson bids a fond farewell to Belfast theatre")."""
    found: list[int] = []
    run: list[int] = []     # the blurbs of the pairs in a row so far
    linked = False          # a link among the dropped lines since the last kept paragraph
    for index, reason in enumerate(reasons):
        if reason is not None:
            linked = linked or reason == "links"
            continue
        if linked and len(paragraphs[index].split()) <= BLURB_WORDS:
            run.append(index)
        else:
            found.extend(run if len(run) >= TEASER_PAIRS_MIN else ())
            run = []
        linked = False
    found.extend(run if len(run) >= TEASER_PAIRS_MIN else ())
    return found


# ---------------------------------------------------------------------------------------------
# The extraction
# ---------------------------------------------------------------------------------------------

def _pruned_copy(tree):
    """A copy of the page's tree as trafilatura's cascade first prunes it (comments off): the
    containers of appended articles, sharing buttons and comment sections removed (not on a forum's
    thread, whose posts are its content)."""
    from copy import copy

    from trafilatura import core
    from trafilatura.htmlprocessing import prune_unwanted_nodes

    work = copy(tree)
    is_forum = core._forum_thread_page(work)
    work = prune_unwanted_nodes(work, core.RAW_TREE_PRUNE_XPATH)
    if not is_forum:
        work = prune_unwanted_nodes(work, core.REMOVE_COMMENTS_AND_LISTS_XPATH)
    return work


def _fast_pass(tree, url: str | None):
    """trafilatura's fast pass (``bare_extraction(fast=True)``, comments and images off) without its recall
    escalation, and with one copy of the page's tree where ``bare_extraction`` makes three: the tree it
    prunes (the caller's stays whole), that one again before cleaning it (the uncleaned one serves its
    rescue of a text under ``MIN_EXTRACTED_SIZE`` characters, made from a fresh copy here, as such a short
    text is rare) and the cleaned one before converting its tags (read only by the fallbacks, which the
    fast pass leaves out). The copies were a fifth of the pass (0.70–0.85 of its time on the held-out
    WARC's pages); the same text and body on every page tests hold (``tests/test_extract.py``).

    The recall escalation extracts again in recall mode (and measures the whole page's text to decide)
    when the text is short for the page; a short text gets the full pass, escalation included, anyway
    (it cost 7 % of a run on the bench WARC, the dev halves' texts came out the same but for one fundus
    page, F1 0.9385 -> 0.9382). Returns trafilatura's ``Document`` (its ``text`` and ``body``), or None
    where ``bare_extraction`` gives none."""
    from lxml.etree import strip_tags
    from trafilatura.baseline import baseline
    from trafilatura.htmlprocessing import convert_tags, tree_cleaning
    from trafilatura.main_extractor import extract_content
    from trafilatura.metadata import Document
    from trafilatura.settings import Extractor
    from trafilatura.xml import xmltotxt

    options = Extractor(fast=True, comments=False, images=False, url=url)
    try:
        cleaned = convert_tags(tree_cleaning(_pruned_copy(tree), options), options, url)
        body, text = extract_content(cleaned, options)
        if len(text) < options.min_extracted_size:
            rescued, rescued_text, rescued_length = baseline(_pruned_copy(tree))
            if rescued_length > len(text):
                body, text = rescued, rescued_text
    except (TypeError, ValueError):  # as bare_extraction: no text
        return None
    if options.max_tree_size and len(body) > options.max_tree_size:
        strip_tags(body, "hi")
        if len(body) > options.max_tree_size:
            return None
    if len(text) < options.min_output_size:
        return None
    document = Document()
    document.text, document.body = xmltotxt(body, options.formatting), body
    return document


# An article's text this short once cleaned, when the rules dropped more of trafilatura's text as links or other
# stories than they kept, is extracted again in trafilatura's recall mode (and taken when it keeps more).
RESCUE_BELOW = 50  # words


def _words(paragraphs: list[str]) -> int:
    return sum(len(paragraph.split()) for paragraph in paragraphs)


def _needs_fallbacks(document) -> bool:
    """Is trafilatura's fast pass (no fallback extractors) to be run again with its fallbacks? When
    its text is short, or reads like a menu: the cases where the fallbacks find the article."""
    lines = [line for line in (document.text or "").split("\n") if line.strip()] if document is not None else []
    if _words(lines) < FALLBACK_BELOW:
        return True
    return sum(len(line.split()) <= 3 for line in lines) >= MENU_SHARE * len(lines)


def extract(html: str, url: str | None = None, *, tree=None, template=None, naturalness=None) -> Extracted:
    """The main text and metadata of a page; an empty result when the page has no main text.

    ``tree``: the page already parsed (see :func:`parse`); ``template``: the site's template
    (``template.SiteTemplate``), whose common paragraphs are removed and whose non-template blocks
    are the fallback text; ``naturalness``: a ``naturalness.Model`` (default: the seed model), or
    False to keep unnatural paragraphs.
    """
    import trafilatura

    from warc2corpus.text import articles, metadata, pagetype

    tree = parse(html) if tree is None else tree
    if tree is None:
        return Extracted()
    _prune_nested_articles(tree)
    dropped: Counter = Counter()
    dropped["other_article"] = articles.keep_named_article(tree).paragraphs
    links = _links(tree)
    found = metadata.of_page(tree, url)
    described = description(tree)
    document = _fast_pass(tree, url)
    if _needs_fallbacks(document):
        document = trafilatura.bare_extraction(tree, url=url, include_comments=False, include_images=False)
    title = found.title
    paragraphs = split_paragraphs(_text(document))
    source = "trafilatura" if paragraphs else None
    removed: list[tuple[str, str]] = []
    page_headlines = headlines(tree)
    blurbs = teaser_blurbs_in_page(tree, title, page_headlines, links.texts)

    verbatim = verbatim_lines(tree)

    def cleaned(paragraphs: list[str], dropped: Counter, removed: list) -> list[str]:
        return clean_paragraphs(paragraphs, title=title, anchors=links.keys, link_words=links.single, dropped=dropped,
                                removed=removed, headlines=page_headlines, blurbs=blurbs, verbatim=verbatim)

    paragraphs = cleaned(paragraphs, dropped, removed)
    if _words(paragraphs) < RESCUE_BELOW and not pagetype.is_listing(url) \
            and _words([p for reason, p in removed if reason in ("links", "related")]) > _words(paragraphs):
        # trafilatura took a list of other stories for the text, and the rules dropped it (not on a front
        # page or a listing, which are lists of other stories: the cost of a pass saved)
        rescue_dropped, rescue_removed = Counter(other_article=dropped["other_article"]), []
        rescued = cleaned(split_paragraphs(_text(trafilatura.bare_extraction(
            tree, url=url, favor_recall=True, include_comments=False, include_images=False))),
            rescue_dropped, rescue_removed)
        if _words(rescued) > _words(paragraphs):
            paragraphs, dropped, removed, source = rescued, rescue_dropped, rescue_removed, "trafilatura"
    if described and paragraphs and text_key(described) not in text_key(" ".join(paragraphs)):
        page_lead = lead(tree, described)
        if page_lead:
            paragraphs.insert(0, page_lead)

    if template is not None:
        kept = []
        for paragraph in paragraphs:
            if template.is_template_text(paragraph):
                removed.append(("template", paragraph))
            else:
                kept.append(paragraph)
        dropped["template"] += len(paragraphs) - len(kept)
        paragraphs = kept
        if not paragraphs and source is None:
            paragraphs = template.content_text(tree)
            source = "template" if paragraphs else None

    if naturalness is not False and paragraphs:
        from warc2corpus.text import naturalness as natural

        model = naturalness or natural.seed_model()
        paragraphs, unnatural = model.filter(paragraphs, removed)
        dropped.update(unnatural)

    paragraphs = mend_mojibake(paragraphs)
    # Size in words; scripts without spaces between words (Chinese, Japanese) count a word per 5 characters.
    n_words = max(sum(len(p.split()) for p in paragraphs), sum(len(p) for p in paragraphs) // 5)
    title, author = mend_mojibake([title or "", found.author or ""])
    return Extracted(
        title=title or None,
        author=author or None,
        published=found.published,
        paragraphs=paragraphs,
        page_type=pagetype.of_page(tree, url, title, n_words, links.words, links.headlines),
        dropped={k: v for k, v in dropped.items() if v},
        source=source if paragraphs else None,
        dropped_paragraphs=removed,
    )


class PageExtractor:
    """Extraction of the pages of one WARC file, in order, with the sites' templates built as it goes.

    Each page is parsed once; its items are counted for its host (``template.FileTemplates``: this
    file's pages so far, nothing else), and the host's template of that moment is subtracted from its
    text. Paragraphs are judged by ``naturalness``, the model the file must be judged by
    (``store.naturalness_models.for_file`` picks it: the same file always gives the same texts);
    by default the seed model.
    """

    def __init__(self, naturalness=None):
        from warc2corpus.text import naturalness as natural, template

        self.templates = template.FileTemplates()
        self.naturalness = naturalness or natural.seed_model()

    def __call__(self, html: str, url: str | None, host: str | None = None, *, tree=None) -> Extracted:
        """The page's extraction; ``tree``: the page already parsed (:func:`parse`; it is pruned here), or
        a function that gives it parsed once (``stages.pages.Page.parsed``: None, not HTML, is not parsed
        again here)."""
        from warc2corpus.text import dedup, template

        host = host or (dedup.host_and_path(url)[0] if url else "")
        tree = tree() if callable(tree) else parse(html) if tree is None else tree
        if tree is None:
            self.templates.seen(host)  # as a page left unextracted is (skip)
            return Extracted()
        items = template.page_items(tree)
        longest = sorted((item.text for item in items), key=len, reverse=True)[:3]
        self.templates.observe(host, items, "\n".join(longest))
        return extract(html, url, tree=tree, template=self.templates.template(host), naturalness=self.naturalness)

    def skip(self, host: str) -> None:
        """A page of the host left unextracted (its host held back: ``stages.pages.SkipHeldBackHost``). The
        file's templates follow at most ``template.MAX_HOSTS`` hosts, the one seen longest ago forgotten
        first: the host counts as seen, as its extraction would have made it, so that which hosts are
        forgotten — and so every other host's texts — does not depend on which hosts were held back when
        the file was extracted."""
        self.templates.seen(host)
