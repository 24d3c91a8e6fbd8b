"""autoCat: does a host declare a responsible editor?

Two classifiers live here.

* :func:`score_page_autocat2` is the National Library's autoCat2 baseline, kept for comparison
  (``warc2corpus autocat-eval`` prints both): 0.5 for the main pattern in the raw HTML, else 0.25 for
  "Redaktør", plus 0.5 for a link to the press-ethics codes.
* :func:`score_page` is ours. It reads a page as a person does, from its **text and structure**, not
  from the raw HTML: the visible text block by block (a label and its name may sit in separate
  elements, with or without a colon), entities and mojibake undone, link texts and targets,
  ``<meta>`` tags, JSON-LD and strings inside scripts. Each finding is an evidence item with a weight:

  ====================  ======  ==============================================================
  item                  weight  what it is
  ====================  ======  ==============================================================
  named_declaration     1.0     "Ansvarlig redaktør: Kari Nordmann" (and every variant below)
                                naming a person: strong evidence on its own
  declaration_label     0.5     the same label where no name can be tied to it
  named_editor          0.45    "Redaktør: Kari Nordmann" (an editor, not said to be responsible)
  editor_word           0.3     an isolated "redaktør" / "redaktøren" / role titles (weak)
  code_link             0.5     a link whose text names Vær Varsom-plakaten or Redaktørplakaten
                                (wherever it points), or a link to a code's home
  code_commitment       0.5     "Vi arbeider etter Vær Varsom-plakaten" in the text
  code_mention          0.3     the codes named without a link or a commitment (weak)
  press_body_link       0.3     a bare link to presse.no / nored.no / pfu.no (weak)
  ====================  ======  ==============================================================

  A page's score is the strongest editor item plus the strongest ethics item, at most 1; >= 0.75
  accepted, >= 0.3 uncertain (a person looks), below rejected. Danish, Swedish (and German,
  English) editor lines ("Ansvarig utgivare", "ansv. chefredaktør", "Chefredaktör") are recorded
  as ``foreign`` declarations and never count; on a page that carries one, or whose language is
  Danish or Swedish, the words shared with Danish ("redaktør") count for nothing and the page is
  never accepted on them.

Work is bounded whatever the input: at most :data:`MAX_HTML_CHARS` characters of a page are read
(its head and its tail, where the footer is), every regular expression is linear, matches and
script text are capped, and the tree is walked without recursion.
"""

from __future__ import annotations

import html as html_lib
import json
import re
import unicodedata
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime
from urllib.parse import unquote, urlsplit

# ---------------------------------------------------------------------------------------------
# Thresholds, weights, bounds
# ---------------------------------------------------------------------------------------------

ACCEPT_AT = 0.75
UNCERTAIN_AT = 0.3

WEIGHTS = {
    "named_declaration": 1.0,
    "declaration_label": 0.5,
    "named_editor": 0.45,
    "editor_word": 0.3,
    "code_link": 0.5,
    "code_commitment": 0.5,
    "code_mention": 0.3,
    "press_body_link": 0.3,
}
EDITOR_ITEMS = ("named_declaration", "declaration_label", "named_editor", "editor_word")
ETHICS_ITEMS = ("code_link", "code_commitment", "code_mention", "press_body_link")
# Items that read the same in Danish: worth nothing on a Danish/Swedish page.
DANISH_AMBIGUOUS = ("named_editor", "editor_word")
FOREIGN_PAGE_CAP = 0.5  # a page in Danish or Swedish is never accepted on its own
FOREIGN_LANGUAGES = ("da", "sv")

MAX_HTML_CHARS = 3_000_000  # of a page: its first 2 MB and its last 1 MB
HEAD_CHARS = 2_000_000
MAX_SCRIPT_CHARS = 1_500_000  # script text examined per page, all scripts together
MAX_JSONLD_CHARS = 300_000  # per JSON-LD block
MAX_JSON_NODES = 20_000
MAX_ELEMENTS = 300_000
MAX_LINE = 4_000  # longer text runs are cut into pieces of this length
MAX_MATCHES = 200  # per pattern and page
MAX_LINKS = 20_000
SHARED_TREE_MAX_DEPTH = 200  # a tree parsed without huge_tree this deep may have lost its deeper parts
MAX_ITEMS_KEPT = 12  # evidence items of one kind kept in the evidence

# Supporting pages: how many of a host's non-front pages each WARC file contributes (see tasks).
SUPPORTING_PAGES_PER_HOST = {"about": 5, "article": 3}
# A page whose raw HTML holds none of these cannot have evidence: it is not parsed at all.
TRIGGERS = ("redakt", "doaimmaheaddji", "ansv", "sjefred", "sjefsred", "varsom", "presse.no", "nored.no", "pfu.no", "plakat", "utgivare",
            "chefred", "editor", "ã¸")

SKIPPED_HOST_LABELS = {"samtykke", "samtykker", "stilling", "stillinger", "personvern"}

# ---------------------------------------------------------------------------------------------
# The baseline: the National Library's autoCat2 rules over the raw HTML
# ---------------------------------------------------------------------------------------------

OE = r"(?:ø|&oslash;|&#248;|&#xf8;)"  # ø as written in HTML source

MAIN_PATTERN = re.compile(
    "|".join(
        (
            rf"Ansvarlig redakt{OE}r",
            rf"Ansvarleg redakt{OE}r",
            rf"Ansv\.?\s*redakt{OE}r",
            r"Ansv\.?\s*red\.",
            r"Ansvarlig red\.",
            r"Ansvarleg red\.",
            rf"Sjefsredakt{OE}r",
            r"Sjefsred\.?",
            rf"Sjefredakt{OE}r",
            r"Sjefred\.?",
            r"V(?:á|&aacute;|&#225;)ldodoaimmaheaddji",
        )
    ),
    re.IGNORECASE,
)
ALTERNATIVE_PATTERN = re.compile(rf"Konstituert redakt{OE}r|Redakt{OE}r", re.IGNORECASE)
LINK_PATTERN = re.compile(
    r"""href\s*=\s*["']?(?:https?:)?//(?:www\.)?(?:"""
    r"nored\.no/Redaktoeransvar"
    r"|nored\.no/Redaktoerplakaten"
    r"|presse\.no/pfu/etiske-regler"
    r"|presse\.no/Etisk-regelverk"
    r"|no\.wikipedia\.org/wiki/V%C3%A6r_Varsom-plakaten"
    r")[^\"'\s>]*",
    re.IGNORECASE,
)


@dataclass
class PageScore:
    score: float
    evidence: dict = field(default_factory=dict)

    @property
    def status(self) -> str:
        return status_for(self.score)

    @property
    def editors(self) -> list[str]:
        return list(self.evidence.get("editors", []))


def score_page_autocat2(html: str) -> PageScore:
    """The autoCat2 baseline over one front page's raw HTML; the evidence names what matched."""
    html = html[:MAX_HTML_CHARS] if isinstance(html, str) else _decode(html)[:MAX_HTML_CHARS]
    evidence: dict = {}
    score = 0.0
    main = MAIN_PATTERN.search(html)
    if main:
        score += 0.5
        evidence["main"] = main.group(0)
    else:
        alternative = ALTERNATIVE_PATTERN.search(html)
        if alternative:
            score += 0.25
            evidence["alternative"] = alternative.group(0)
    link = LINK_PATTERN.search(html)
    if link:
        score += 0.5
        evidence["link"] = link.group(0).split("=", 1)[1].strip("\"' ")
    return PageScore(min(score, 1.0), evidence)


# ---------------------------------------------------------------------------------------------
# Pages, hosts
# ---------------------------------------------------------------------------------------------

ABOUT_SEGMENTS = re.compile(
    r"(?:om|om-?oss|om-(?:avisa|avisen|avis|nettavisen|nettavisa|nettstedet|redaksjonen|bloggen|tidsskriftet|oss-\S*)"
    r"|kontakt|kontakt-?oss|kontakt-\S+|kontaktinfo|kontakt-informasjon|about|about-?us|redaksjon|redaksjonen"
    r"|redaksjonelt|ansatte|medarbeidere|presseetikk|etikk|etiske-retningslinjer|redaktoransvar|ansvarlig-redaktor"
    r"|impressum|info|informasjon|oss)"
)


def is_front_page(url: str | None) -> bool:
    return bool(url) and urlsplit(url).path in ("", "/")


def page_kind(url: str | None) -> str:
    """'front' (path empty or /), 'about' (om oss, kontakt, redaksjonen …) or 'article' (anything else)."""
    if is_front_page(url):
        return "front"
    try:
        path = urlsplit(url or "").path
    except ValueError:
        return "article"
    segments = [s for s in unquote(path).lower().split("/") if s]
    if segments:
        last = re.sub(r"\.(?:html?|php|aspx?|jsp)$", "", segments[-1])
        if len(segments) <= 3 and ABOUT_SEGMENTS.fullmatch(last):
            return "about"
    return "article"


def host_is_skipped(host: str) -> bool:
    return host.split(".", 1)[0] in SKIPPED_HOST_LABELS


def host_domain(host: str) -> str:
    """The publication domain of a host: www., m., mobil. and amp. in front are not part of it."""
    host = (host or "").lower().rstrip(".")
    return re.sub(r"^(?:www\d?|m|mobil|mobile|amp)\.(?=[^.]+\.[^.]+)", "", host)


def status_for(score: float) -> str:
    if score >= ACCEPT_AT:
        return "accepted"
    if score >= UNCERTAIN_AT:
        return "uncertain"
    return "rejected"


def host_verdict(page_scores: list[float]) -> tuple[float, str]:
    """autoCat2: (mean score, status) of a host from the scores of its front pages."""
    mean = sum(page_scores) / len(page_scores)
    return mean, status_for(mean)


# ---------------------------------------------------------------------------------------------
# Text normalisation
# ---------------------------------------------------------------------------------------------

def _mojibake_table() -> dict[str, str]:
    table = {}
    for char in "æøåÆØÅáÁàéÉèóÓôöÖäÄüÜčČđĐŋŊšŠŧŦžŽïí":
        raw = char.encode("utf-8")
        for codec in ("cp1252", "latin-1"):
            try:
                table[raw.decode(codec)] = char
            except UnicodeDecodeError:
                pass
    return table


_MOJIBAKE = _mojibake_table()
_MOJIBAKE_RE = re.compile("|".join(sorted(map(re.escape, _MOJIBAKE), key=len, reverse=True)))
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_SPACES = re.compile(r"[ \t\r\f\v\u00a0\u2000-\u200b\u202f\u205f\u3000\ufeff]+")


def fix_mojibake(text: str) -> str:
    """UTF-8 read as Windows-1252/Latin-1 ("redaktÃ¸r") back to what it was ("redaktør")."""
    if "Ã" not in text and "Ä" not in text and "Å" not in text:
        return text
    return _MOJIBAKE_RE.sub(lambda m: _MOJIBAKE[m.group(0)], text)


def _clean(text: str) -> str:
    if "&" in text:
        text = html_lib.unescape(text)  # entities written twice (&amp;oslash;) or left in scripts
    text = fix_mojibake(unicodedata.normalize("NFC", text))
    return _SPACES.sub(" ", text).strip()


def _clean_lines(lines: list[str]) -> list[str]:
    """``[_clean(line) for line in lines]``, with the lines that hold no entity cleaned in one pass
    (normalisation, mojibake and spaces never cross a newline; an entity may decode to one)."""
    cleaned = list(lines)
    plain = [i for i, line in enumerate(lines) if "&" not in line]
    if plain:
        text = _SPACES.sub(" ", fix_mojibake(unicodedata.normalize("NFC", "\n".join(lines[i] for i in plain))))
        for i, line in zip(plain, text.split("\n")):
            cleaned[i] = line.strip()
    for i, line in enumerate(lines):
        if "&" in line:
            cleaned[i] = _clean(line)
    return cleaned


def _decode(raw: bytes) -> str:
    head = raw[:4096]
    match = re.search(rb"""charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)""", head, re.IGNORECASE)
    for encoding in ([match.group(1).decode("ascii", "replace")] if match else []) + ["utf-8"]:
        try:
            return raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            continue
    return raw.decode("cp1252", errors="replace")


def _bounded(html: str) -> tuple[str, bool]:
    if len(html) <= MAX_HTML_CHARS:
        return html, False
    return html[:HEAD_CHARS] + "\n" + html[-(MAX_HTML_CHARS - HEAD_CHARS):], True


# ---------------------------------------------------------------------------------------------
# Patterns over normalised text
# ---------------------------------------------------------------------------------------------

_KONST = r"(?:(?:konstituert|konst\.?|fungerende|fung\.)\s*)"
_RED_O = r"(?:ø|oe|o)"
# These run over lowercased text (see _matches): no IGNORECASE and no look-behind in front, so
# the regex engine can skip ahead to candidate positions; the left word boundary is checked in code.
MAIN_LABEL = re.compile(
    rf"(?:{_KONST})?"
    r"(?:"
    rf"ansvarle?ge?\s+redakt{_RED_O}r(?:er|ar|ane|ene)?"
    rf"|ansvarlige?\s+redakt{_RED_O}r(?:er|ar|ane|ene)?"
    r"|ansvarle?i?g\s+red\."
    rf"|ansv\.\s*redakt{_RED_O}r|ansv\s+redakt{_RED_O}r|ansvredakt{_RED_O}r"
    r"|ansv\.\s*red\.?|ansv\s+red\."
    rf"|sjefs?redakt{_RED_O}r(?:er)?"
    r"|sjefs?red\.?"
    r"|v[aá]ldodoaimmaheaddji"
    r")(?!\w)"
    r"(?:\s*\(\s*(?:konst|konstituert|fung|fungerende)\.?\s*\))?",
)
EDITOR_LABEL = re.compile(rf"(?:{_KONST})?(?:redaktør|doaimmaheaddji)(?!\w)")
EDITOR_WORD = re.compile(r"redaktør(?:en|er|ar|ane|ene)?(?!\w)")  # the compound's front is found in code
FOREIGN_LABELS = (
    ("sv", re.compile(r"(?:ansvarig\s+utgivare|chefredaktör(?:er)?|ansvarig\s+redaktör|publisher\s+och\s+"
                      r"chefredaktör)(?!\w)")),
    ("da", re.compile(r"(?:ansvarshavende\s+(?:chef)?redaktør|ansvh?\.?\s*chefredaktør|chefredaktør"
                      r"|ansvarshavende)(?!\w)")),
    ("de", re.compile(r"(?:chefredakteur(?:in)?|chefredaktion|v\.\s?i\.\s?s\.\s?d\.\s?p\.|verantwortlich"
                      r"(?:e|er)?\s+redakteur(?:in)?)(?!\w)")),
    ("en", re.compile(r"(?:editor[- ]in[- ]chief|responsible\s+editor|managing\s+editor)(?!\w)")),
)
CODE_NAME = re.compile(r"v(?:æ|ae|a)r[\s-]*varsom|redakt(?:ø|oe|o)r[\s-]*plakat")
CODE_NAME_ANYCASE = re.compile(CODE_NAME.pattern, re.IGNORECASE)
COMMITMENT = re.compile(
    r"(?:arbeider|arbeidar|jobber|jobbar|følger|følgjer|fylgjer|bundet|bunden|forplikt\w*|tilslutt\w*|etter"
    r"|respekterer|holder\s+seg\s+til|held\s+seg\s+til|etterlever|underlagt|i\s+tråd\s+med|basert\s+på"
    r"|bygger\s+på|slutter\s+oss\s+til|ansvar)",
    re.IGNORECASE,
)
# What may follow a label before the name: "(konst.)", "og adm. direktør", "/ daglig leder".
CO_TITLE_WORDS = (r"adm\.?|administrerende|dir\.?|direktør|daglig|dagleg|leiar|leder|publisher|ceo|utgiver|utgjevar"
                  r"|konsernsjef|nyhetssjef|nyheitssjef|redaksjonssjef|konst\.?|konstituert|fungerende|ansvarlig"
                  r"|ansvarleg|redaktør|sjefredaktør|nettredaktør|nyhetsredaktør|digitalredaktør|i|for|avisa|avisen"
                  r"|administrerande|styreleder|eier|eigar|og")
CO_TITLE = re.compile(rf"\s*(?:og|&|/|,|\+)\s*(?:(?:{CO_TITLE_WORDS})(?!\w)\s*)+", re.IGNORECASE)
QUALIFIER = re.compile(r"\s*\([^()\n]{0,40}\)")

NOT_NAMES = {
    "nettsjef", "ansvarlig", "ansvarleg", "redaktør", "sjefredaktør", "nyhetsredaktør", "daglig", "dagleg",
    "leder", "telefon", "tlf", "tlf.", "e-post", "epost", "email", "e-mail", "adresse", "kontakt", "org",
    "org.nr", "org.nr.", "postadresse", "besøksadresse", "sentralbord", "tips", "mail", "redaksjonen",
    "annonse", "annonser", "personvern", "copyright", "alle", "vi", "les", "her", "se", "om", "når", "the",
    "og", "nyheter", "sport", "kultur", "abonnement", "kundeservice", "utgiver", "utgitt", "publisert",
    "oppdatert", "foto", "faksimile", "nettavisen", "avisa", "avisen", "redaksjon", "vaktsjef", "desk",
    "politisk", "publisher", "ceo", "adm", "adm.", "direktør", "administrerende", "konstituert", "konst.",
    "fungerende", "nrk", "as", "asa", "ansv", "ansv.", "red", "red.", "sjefred", "sjefred.", "mer", "mobil",
    "ved", "hos", "til", "fra", "for", "med", "av", "i", "på", "is", "er", "editor", "chief", "press",
    "presse", "redaktørplakaten", "vær", "varsom", "varsom-plakaten", "meny", "forsiden", "logg", "inn",
    "søk", "kontaktinformasjon", "informasjon", "kontakt:", "ansvarlige", "redaktører",
    # navigation and press bodies, which follow a label in a footer more often than a person does
    "min", "side", "oss", "abonner", "annonsere", "cookies", "cookie", "innstillinger", "e-avis", "eavis",
    "arkiv", "vilkår", "sitemap", "rss", "facebook", "twitter", "instagram", "linkedin", "youtube", "tiktok",
    "snapchat", "jobb", "ledige", "stillinger", "pressemeldinger", "hjem", "forside", "norsk", "norske",
    "presseforbund", "presseforbundet", "pfu", "faglige", "utvalg", "redaktørforening", "redaktørforeningen",
    "landslaget", "lokalaviser", "fagpressen", "mediebedriftene", "medietilsynet", "personvernerklæring",
    "nyhetsbrev", "podkast", "video", "tv", "radio", "debatt", "meninger", "lokalt", "været", "været:",
}
ORGANISATION_WORDS = {"as", "asa", "ab", "a/s", "gmbh", "ag", "ltd", "inc", "llc", "sa", "verlag", "forlag", "media",
                      "medier", "mediehus", "group", "gruppen", "konsern", "stiftelse", "stiftelsen", "avis",
                      "avisa", "avisen", "redaksjon", "redaksjonen", "news", "nyheter", "tidende", "kommune"}
PARTICLES = {"von", "van", "de", "der", "den", "af", "da", "di", "du", "la", "le", "ter", "dos", "del", "bin"}
_INITIAL = re.compile(r"[^\W\d_]\.(?:[^\W\d_]\.)*")
_NAME_TOKEN = re.compile(r"[^\W\d_][^\W\d_'’\-.]*(?:[-'’][^\W\d_]+)*\.?")

# Links and URLs of the codes.
CODE_HOSTS = ("presse.no", "nored.no", "redaktor.no", "redaktorforeningen.no", "pfu.no")
CODE_PATHS = re.compile(
    r"v(?:ae|æ|%c3%a6)r[-_ ]?varsom|redakt(?:o|oe|ø|%c3%b8)r[-_ ]?plakat|redakt(?:o|oe|ø)r[-_ ]?ansvar"
    r"|etiske?[-_ ]regl|etisk[-_ ]regelverk|presseetikk|pfu/etisk",
    re.IGNORECASE,
)
CODE_URL_IN_TEXT = re.compile(
    r"(?:https?:)?//(?:www\.)?(?:presse\.no|nored\.no|redaktor\.no|pfu\.no|no\.wikipedia\.org)/[^\s\"'<>]{0,200}",
)

BLOCK_TAGS = {
    "address", "article", "aside", "blockquote", "body", "br", "center", "dd", "details", "dialog", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header",
    "hr", "html", "li", "main", "menu", "nav", "ol", "option", "p", "pre", "section", "summary", "table",
    "tbody", "td", "tfoot", "th", "thead", "title", "tr", "ul", "button", "select", "label", "legend",
}
HIDDEN_TAGS = {"script", "style", "template", "svg", "math", "head", "iframe", "object", "noembed"}
_HTML_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9]{0,10})\b[^<>]{0,2000}>|<!--[^<>]{0,2000}-->")


# ---------------------------------------------------------------------------------------------
# Reading a page: text lines, links, meta, scripts
# ---------------------------------------------------------------------------------------------

@dataclass
class _Page:
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


def _lines_from(parts: list[str]) -> list[str]:
    raw_lines = [raw for raw in "".join(parts).split("\n") if raw and not raw.isspace()]
    cleaned = _clean_lines(raw_lines)
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


def _read(html: str, *, boilerplate_only: bool, tree=None) -> _Page:
    """The page as text blocks, links, JSON-LD and script text (no recursion, bounded)."""
    import lxml.html
    from lxml import etree

    page = _Page()
    root = tree
    if root is None:
        parser = lxml.html.HTMLParser(recover=True, huge_tree=True, remove_comments=True, remove_pis=True)
        try:
            root = lxml.html.document_fromstring(html, parser=parser)
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
    for event, element in etree.iterwalk(root, events=("start", "end")):
        tag = element.tag if isinstance(element.tag, str) else ""
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
            if _is_main_region(element):
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
            if _is_main_region(element):
                in_main -= 1
            if not hidden and not (boilerplate_only and in_main):
                _add_text(parts, element.tail)
    if tree is not None and max_depth >= SHARED_TREE_MAX_DEPTH:
        # The extraction's parser stops at libxml2's default depth (256) and drops what lies deeper:
        # read the page from its own, deeper parse instead.
        return _read(html, boilerplate_only=boilerplate_only)
    page.lines = _lines_from(parts)
    if max_depth >= 2000:
        page.notes.append("nested deeper than the parser follows; the rest read as flat text")
        page.lines += _flat_lines(html)
    page.lang = (lang or "").strip().lower().replace("_", "-").split("-")[0] or None
    page.script_lines = _script_lines(page.script_text) + page.script_lines
    return page


# Every pattern _scan looks for contains one of these (lowercase): a script without any is not read.
SCRIPT_GATE = ("ansv", "redakt", "sjefred", "sjefsred", "doaimmaheaddji", "utgivare", "editor", "varsom",
               "presse.no", "nored.no", "pfu.no", "wikipedia.org", "v.i.s.d.p", "v. i. s. d. p")


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
    return _clean(" ".join(pieces))[:300]


def _meta(element, page: _Page) -> None:
    name = (element.get("name") or element.get("property") or element.get("itemprop") or "").strip()
    content = element.get("content")
    if not content or len(page.script_lines) > 5000:
        return
    content = content[:2000]
    label = re.sub(r"[-_:.]+", " ", name).strip()
    if MAIN_LABEL.fullmatch(_lower(label)) or label.lower() in ("responsible editor", "responsibleeditor"):
        # <meta name="ansvarlig-redaktor" content="Kari Nordmann">: a declaration in the head
        page.script_lines.append(f"Ansvarlig redaktør: {content}")
    elif EDITOR_LABEL.fullmatch(_lower(label)):
        page.script_lines.append(f"Redaktør: {content}")
    else:
        page.script_lines.extend(_lines_from([content]))


_JS_ESCAPE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|([nrt])|(/))")


def _js_unescape(match: re.Match) -> str:
    if match.group(1) or match.group(2):
        code = int(match.group(1) or match.group(2), 16)
        return "\u2033" if code == 0x22 else ("\n" if code < 0x20 else chr(code))
    if match.group(3):
        return "\n"
    return "/"


def _strip_tags(text: str) -> str:
    return _HTML_TAG.sub(lambda m: "\n" if (m.group(2) or "").lower() in BLOCK_TAGS else " ", text)


def _script_lines(scripts: list[str]) -> list[str]:
    """String values inside scripts (JSON state, inline HTML), one line each; object keys skipped.

    Linear: escapes are undone first, then the text is split at double quotes, whose odd pieces
    are the strings.
    """
    values: list[str] = []
    for script in scripts:
        text = _JS_ESCAPE.sub(_js_unescape, script.replace('\\"', "\u2033"))
        pieces = text.split('"')
        for index in range(1, len(pieces) - 1, 2):
            value = pieces[index]
            if not value.strip() or pieces[index + 1].lstrip()[:1] == ":":
                continue  # empty, or an object key
            if "<" in value:
                value = _strip_tags(value)
            values.append(value.replace("\u2033", '"'))
    return _lines_from(["\n".join(values)])  # the same lines as value by value: no line crosses a newline


def _flat_lines(html: str) -> list[str]:
    text = re.sub(r"<(script|style)\b[^<>]{0,2000}>[^<]*", " ", html, flags=re.IGNORECASE)
    return _lines_from([_strip_tags(text)])


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------

def _is_name_token(token: str) -> bool:
    if _INITIAL.fullmatch(token):
        return token[0].isupper()
    if not _NAME_TOKEN.fullmatch(token) or len(token.rstrip(".")) < 2:
        return False
    if token.lower().rstrip(".") in NOT_NAMES or token.lower() in NOT_NAMES:
        return False
    return token[0].isupper() and not token.endswith(".")


def parse_names(text: str) -> tuple[list[str], int, bool]:
    """Person names at the start of ``text``: ("Kari Nordmann og Ola Hansen, ..." -> both names).

    Returns (names, characters consumed, clean end): a clean end is the end of the text, a
    punctuation mark or the next "Label:", never a running sentence ("Kari Nordmann sier at …").
    """
    names: list[str] = []
    current: list[str] = []
    consumed = 0
    clean = True
    after_mark = False  # the last name was closed by a comma: what follows need not be a name

    def close() -> bool:
        while current and current[-1].lower() in PARTICLES:
            current.pop()
        words = [w for w in current if w.lower() not in PARTICLES]
        full = [w for w in words if not _INITIAL.fullmatch(w)]
        ok = (2 <= len(words) <= 6 and bool(full) and not _INITIAL.fullmatch(words[-1])
              and not any(w.lower().rstrip(".") in ORGANISATION_WORDS for w in words))
        if ok:
            names.append(" ".join(current))
        current.clear()
        return ok

    for match in re.finditer(r"\S+", text[:300]):
        token = match.group(0)
        if len(token) > 1 and token.endswith(":"):  # "Nettsjef:": the next label begins
            break
        core = token.strip("\"'«»()[]")
        trailing = ""
        while core and core[-1] in ",;|·•.!?" and not _INITIAL.fullmatch(core):
            trailing, core = core[-1], core[:-1]
        if not core:  # "|", "–", "·": a separator ends the names
            break
        lower = core.lower()
        if lower in ("og", "&", "and", "+", "samt", "/"):
            if current and close():
                consumed = match.end()
                after_mark = False
                continue
            clean = after_mark or not current
            break
        if _is_name_token(core) or (current and lower in PARTICLES) or (
                core.isupper() and len(core) > 1 and core.isalpha() and lower not in NOT_NAMES):
            current.append(core.title() if core.isupper() and len(core) > 2 else core)
            consumed = match.end()
            after_mark = False
            if trailing:
                if not close():
                    clean = False
                    break
                if trailing != ",":
                    break
                after_mark = True
            continue
        clean = after_mark
        break
    if current:
        close()
    return names, consumed, clean


_LEAD_WORDS = {"kontakt", "vår", "vårt", "var", "our"}
_SEPARATORS = set(".|·•,;:–—-(/»«\"'[]>*!?")


def _lead_in_ok(before: str) -> bool:
    """A declaration starts its element, or follows a separator ("Avisa · Ansvarlig redaktør: …")."""
    before = before.rstrip()
    if not before or before[-1] in _SEPARATORS:
        return True
    words = before.rsplit(None, 1)
    if words[-1].lower() in _LEAD_WORDS:
        rest = words[0].rstrip() if len(words) > 1 else ""
        return not rest or rest[-1] in _SEPARATORS
    return False


# ---------------------------------------------------------------------------------------------
# Finding evidence in lines
# ---------------------------------------------------------------------------------------------

class _Findings:
    def __init__(self) -> None:
        self.items: dict[str, list[dict]] = {}
        self.foreign: list[dict] = []

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


def _lower(text: str) -> str:
    """Lowercase without changing the length (U+0130 is the one letter whose lowercase is longer)."""
    return text.replace("\u0130", "I").lower()


def _matches(pattern: re.Pattern, low: str, text: str, *, boundary: bool = True):
    """Up to MAX_MATCHES matches of a lowercase pattern, each starting a word when ``boundary``."""
    gate = _PATTERN_GATES.get(pattern)
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


# For each pattern, words one of which every match holds (checked before the pattern runs).
_PATTERN_GATES = {
    MAIN_LABEL: ("ansv", "sjef", "doaimmaheaddji"),
    EDITOR_LABEL: ("redaktør", "doaimmaheaddji"),
    EDITOR_WORD: ("redaktør",),
    CODE_NAME: ("varsom", "plakat"),
    CODE_URL_IN_TEXT: ("//",),
    **{pattern: ("ansv", "redakt", "utgivare", "editor", "v.") for _, pattern in FOREIGN_LABELS},
}


def _scan(lines: list[str], source: str, findings: _Findings, *, full: bool) -> None:
    if not lines:
        return
    text = "\n".join(lines)
    low = _lower(text)
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
        if _lead_in_ok(before):
            names, where = _names_after(match.end() - start, line, following)
            if not names and source == "script" and previous and not line[match.end() - start:].strip(" :"):
                found, _, clean = parse_names(previous[0])  # {"name": "Kari", "jobTitle": "Ansvarlig redaktør"}
                if found and clean:
                    names, where = found, "previous string"
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
        if MAIN_LABEL.search(_lower(line[max(0, match.start() - start - 25):match.end() - start])):
            continue  # part of a responsible-editor label
        before = line[:match.start() - start]
        names = []
        if _lead_in_ok(before):
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
        kind = _classify_href(href) if href and any(host in href.lower() for host in _CODE_HREF_WORDS) else None
        if kind:
            findings.add(kind, href=href[:300], text=text[:80], by="link target")


# Every link _classify_href recognises holds one of these (its host): other links are not parsed.
_CODE_HREF_WORDS = tuple(h for h in CODE_HOSTS if not h.startswith("redaktor")) + ("redaktor", "wikipedia.org")


def _scan_jsonld(blocks: list[str], findings: _Findings) -> list[str]:
    """People with a responsible-editor job title, and ethics policies naming the codes."""
    lines: list[str] = []
    for block in blocks:
        try:
            data = json.loads(block.strip().rstrip(";"), strict=False)
        except (ValueError, RecursionError):
            lines.extend(_script_lines([block]))
            continue
        stack, seen = [data], 0
        while stack and seen < MAX_JSON_NODES:
            node = stack.pop()
            seen += 1
            if isinstance(node, dict):
                title = node.get("jobTitle") or node.get("roleName") or node.get("hasOccupation")
                name = node.get("name")
                if isinstance(title, dict):
                    title = title.get("name")
                if isinstance(title, str) and isinstance(name, str):
                    title_clean = _clean(title)
                    names, _, clean = parse_names(_clean(name))
                    if names and clean and MAIN_LABEL.fullmatch(_lower(title_clean)):
                        findings.add("named_declaration", label=title_clean, names=names, source="json-ld",
                                     where="jobTitle")
                    elif names and clean and EDITOR_LABEL.fullmatch(_lower(title_clean)):
                        findings.add("named_editor", label=title_clean, names=names, source="json-ld")
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
                        lines.extend(_lines_from([_strip_tags(value[:5000])]))
            elif isinstance(node, list):
                stack.extend(reversed(node[:2000]))
    return lines


# ---------------------------------------------------------------------------------------------
# Scoring a page
# ---------------------------------------------------------------------------------------------

# The triggers as UTF-8 bytes: ASCII lowercasing of the encoded page is several times cheaper than
# str.lower() and finds the same ASCII triggers; the mojibake one ("ã¸") is looked for in both cases.
_TRIGGER_BYTES = tuple({t.encode() for t in TRIGGERS} | {t.upper().encode() for t in TRIGGERS if not t.isascii()})
# "editor" alone finds only English editor lines, which never count (a front page records them: they
# explain a rejection); on a supporting page they could not help the host, so they do not get it read,
# unless with "responsible" (<meta name="responsible-editor" content="Kari Nordmann"> is a declaration).
_SUPPORTING_TRIGGER_BYTES = tuple(t for t in _TRIGGER_BYTES if t != b"editor")


def _triggered(html: str, kind: str = "front") -> bool:
    lowered = html.encode("utf-8", "surrogatepass").lower()
    if kind == "front":
        return any(trigger in lowered for trigger in _TRIGGER_BYTES)
    return (any(trigger in lowered for trigger in _SUPPORTING_TRIGGER_BYTES)
            or b"editor" in lowered and b"responsible" in lowered)


def score_page(html: str | bytes | None, url: str | None = None, *, kind: str | None = None,
               tree=None) -> PageScore:
    """Score one page. ``kind`` 'front' and 'about' read the whole page; 'article' reads only what
    lies outside the article itself (header, footer, asides, scripts, meta), so a story that
    quotes somebody's title is never taken for the site's own declaration. ``tree``: the page as
    the extraction stage parsed it (``extract.parse``), read instead of parsing it again."""
    try:
        return _score_page(html, url, kind, tree)
    except RecursionError:
        return PageScore(0.0, {"notes": ["page too deeply nested to read"]})


def _score_page(html, url, kind, tree=None) -> PageScore:
    kind = kind or (page_kind(url) if url else "front")
    if html is None:
        return PageScore(0.0, {})
    if isinstance(html, (bytes, bytearray)):
        html = _decode(bytes(html[:MAX_HTML_CHARS + HEAD_CHARS]))
    html, truncated = _bounded(html)
    # (no trigger holds a control character: checked before they are blanked)
    if not _triggered(html, kind):
        return PageScore(0.0, {"notes": ["truncated"]} if truncated else {})
    html = _CONTROL.sub(" ", html)
    page = _read(html, boilerplate_only=(kind == "article"), tree=None if truncated else tree)
    findings = _Findings()
    _scan(page.lines, "text", findings, full=True)
    script_lines = page.script_lines + _scan_jsonld(page.jsonld, findings)
    _scan(script_lines, "script", findings, full=True)
    _scan_links(page.links, findings)
    return _weigh(findings, page, truncated)


def _weigh(findings: _Findings, page: _Page, truncated: bool) -> PageScore:
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


# ---------------------------------------------------------------------------------------------
# A host over time
# ---------------------------------------------------------------------------------------------

@dataclass
class HostAssessment:
    score: float
    status: str
    editors: list[str]
    foreign: list[dict]
    reason: str
    periods: list[dict]
    front_pages: int
    pages: int


def _day(value) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).date()


def _period(day: date, pages: list[dict]) -> dict:
    fronts = [p for p in pages if p["kind"] == "front"]
    caps = [p["evidence"].get("cap", 1.0) for p in pages]

    def combined(group):
        editor = max((p["evidence"].get("parts", {}).get("editor", 0.0) for p in group), default=0.0)
        ethics = max((p["evidence"].get("parts", {}).get("ethics", 0.0) for p in group), default=0.0)
        return round(min(1.0, editor + ethics, min(caps, default=1.0)), 4), editor, ethics

    front_score, _, _ = combined(fronts)
    score, editor, ethics = combined(pages)
    contributing = sorted((p for p in pages if p["score"] > 0), key=lambda p: (-p["score"], p["kind"] != "front",
                                                                                  p.get("url") or ""))
    editors = Counter(n for p in pages for n in p["evidence"].get("editors", []))
    foreign = []
    for p in pages:
        for entry in p["evidence"].get("foreign", []):
            if entry not in foreign:
                foreign.append(entry)
    return {
        "day": day.isoformat(),
        "score": score,
        "status": status_for(score),
        "front_score": front_score if fronts else None,
        "editor_weight": editor,
        "ethics_weight": ethics,
        "front_pages": len(fronts),
        "pages": len(pages),
        "editors": [n for n, _ in editors.most_common(6)],
        "foreign": foreign[:6],
        "from_other_pages": bool(fronts) and score > front_score or not fronts,
        "evidence": [{"url": p.get("url"), "kind": p["kind"], "score": p["score"],
                      "explanation": p["evidence"].get("explanation", "")} for p in contributing[:5]],
    }


def assess_host(pages: list[dict]) -> HostAssessment:
    """A host's verdict from every page of it autoCat has read (front pages and supporting pages).

    Pages are grouped by harvest day. Within a day the strongest editor evidence and the strongest
    ethics evidence of all the host's pages are added up, so a silent front page is helped by the
    same crawl's "om oss" page or article footers. Over time the most recent day decides; days with
    only non-front pages count only when they prove a declaration (they never prove its absence),
    unless the host has no front page at all. A host that was accepted and whose latest front page
    no longer declares anything goes to a person (uncertain) instead of out of the corpus.
    """
    by_day: dict[date, list[dict]] = {}
    for page in pages:
        by_day.setdefault(_day(page["harvest_time"]), []).append(page)
    periods = [_period(day, by_day[day]) for day in sorted(by_day)]
    has_front = any(p["front_pages"] for p in periods)
    deciding = [p for p in periods if p["front_pages"] or p["status"] == "accepted" or not has_front]
    latest = deciding[-1]
    status, score = latest["status"], latest["score"]
    accepted_days = [p["day"] for p in deciding if p["status"] == "accepted"]
    foreign = []
    for p in periods:
        for entry in p["foreign"]:
            if entry not in foreign:
                foreign.append(entry)
    if status == "accepted":
        source = "the front page" if latest["front_score"] is not None and not latest["from_other_pages"] \
            else "other pages of the host" if latest["front_score"] is None else "front page and other pages"
        names = f' naming {", ".join(latest["editors"])}' if latest["editors"] else ""
        reason = f"declaration{names} on {source} on {latest['day']} ({score:g})"
    elif accepted_days:
        status = "uncertain"
        reason = (f"declared until {accepted_days[-1]}; not seen on {latest['day']} ({score:g}): "
                  "has the site dropped its declaration?")
    elif foreign and latest["editor_weight"] < WEIGHTS["declaration_label"]:
        langs = sorted({f["language"] for f in foreign})
        reason = (f"only {'/'.join(langs)} editor lines ({foreign[0]['label']}): not a Norwegian declaration"
                  f" ({score:g})")
    elif status == "uncertain":
        reason = f"weak evidence only on {latest['day']} ({score:g}): " + (
            latest["evidence"][0]["explanation"] if latest["evidence"] else "")
    else:
        reason = f"no declaration on {latest['pages']} page(s) on {latest['day']} ({score:g})"
    editors = latest["editors"] or next((p["editors"] for p in reversed(periods) if p["editors"]), [])
    return HostAssessment(
        score=score, status=status, editors=editors, foreign=foreign[:6], reason=reason, periods=periods,
        front_pages=sum(p["front_pages"] for p in periods), pages=sum(p["pages"] for p in periods),
    )
