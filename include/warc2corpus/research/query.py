"""The corpus filter and the full-text query language.

Queries match the lowercase tokens of the paragraphs (nb-tokenizer's tokens); only words count,
that is tokens holding a letter or a digit. The language: ``word``, ``"a phrase"``, ``prefix*``
(also inside phrases), ``AND``, ``OR``, ``NOT`` (upper case) and parentheses; terms side by side
mean AND. ``NOT`` binds tighter than ``AND``, which binds tighter than ``OR``. A term written with
punctuation in or around its word (``NRK's``, ``Oslo/Akershus``, ``#metoo``, ``50%``) is those tokens
side by side, its punctuation matched as written; a term of punctuation alone is no term.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from datetime import date

from warc2corpus.text.pagetype import PAGE_TYPES
from warc2corpus.text.tokens import tokenize

MAX_LIMIT = 100_000
DEFAULT_LIMIT = 1000
MAX_QUERY_TERMS = 50
MAX_NESTING = 20         # parentheses and NOTs within each other in a query
MAX_WORD_BYTES = 2000    # the longest word the index keeps (tsvector's lexemes end at 2,047 bytes)


class BadRequest(ValueError):
    """Bad input; ``param`` names the offending parameter."""

    def __init__(self, param: str, message: str):
        super().__init__(f"{param}: {message}")
        self.param = param
        self.message = message


class NotFound(LookupError):
    """Something asked for does not exist; ``what`` says what (its message: "not found: <what>")."""

    def __init__(self, what: str):
        super().__init__(f"not found: {what}")
        self.what = what


class QueryTimeout(RuntimeError):
    """PostgreSQL cancelled the query at the statement timeout."""


def plain_text(value: str, param: str) -> str:
    """``value`` as the corpus keeps its texts: without the characters that show nothing (a soft hyphen,
    a zero-width space or joiner, a byte order mark: the extraction leaves them out, as trafilatura does
    every character that is neither printable nor a space), and in Unicode's composed form (NFC). A word
    copied from a page whose CMS hyphenates ("redak&shy;tør"), or typed or pasted with its "å" as "a" and
    a combining ring (as macOS and some PDFs hand text on), was "not a word", and a place "Ålesund" so
    written matched nothing. Refused when it holds a NUL character: no text in the corpus can (PostgreSQL's
    text cannot), and the database would refuse the statement rather than find nothing."""
    if "\x00" in value:
        raise BadRequest(param, "holds a NUL character (\\x00), which no text in the corpus holds")
    if not value.isprintable():
        value = "".join(ch for ch in value if ch.isprintable() or ch.isspace())
    return unicodedata.normalize("NFC", value)


def is_word(token: str) -> bool:
    """A word is a token holding a letter or a digit."""
    return any(ch.isalnum() for ch in token)


# ---------------------------------------------------------------------------------------------
# The query language
# ---------------------------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Item:
    """One token of a pattern: a lowercase word, a prefix when ``prefix`` is set, or a punctuation token
    when ``punct`` is (the index has no positions of these: see :func:`tsquery`)."""
    text: str
    prefix: bool = False
    punct: bool = False


@dataclasses.dataclass(frozen=True)
class Pattern:
    """Consecutive tokens: a word, a prefix or a phrase."""
    items: tuple[Item, ...]

    def words(self) -> int:
        """Its tokens (punctuation included)."""
        return len(self.items)

    @property
    def exact(self) -> bool:
        """Whether the index's positions find it exactly (no punctuation in it)."""
        return not any(item.punct for item in self.items)


@dataclasses.dataclass(frozen=True)
class And:
    parts: tuple


@dataclasses.dataclass(frozen=True)
class Or:
    parts: tuple


@dataclasses.dataclass(frozen=True)
class Not:
    part: object


_LEX = re.compile(r'\s*(?:(?P<quote>"[^"]*"?)|(?P<paren>[()])|(?P<word>[^\s()"]+))')


def _pattern(text: str, param: str) -> Pattern:
    items = []
    for raw in text.split():
        prefix = raw.endswith("*")
        core = raw.rstrip("*")
        if "*" in core:
            raise BadRequest(param, f"'*' only ends a prefix: {raw!r}")
        toks = [t.lower() for t in tokenize(core)[0]]
        if not any(is_word(t) for t in toks):  # punctuation alone (or nothing): no term
            raise BadRequest(param, f"not a word: {raw!r}")
        if any(len(t.encode("utf-8")) > MAX_WORD_BYTES for t in toks):
            raise BadRequest(param, f"a word longer than the index keeps ({MAX_WORD_BYTES:,} bytes): "
                                    f"{raw[:40]!r}…")
        if prefix and len(toks) > 1:
            raise BadRequest(param, f"a prefix is one word: {raw!r}")
        items.extend(Item(t, punct=not is_word(t)) for t in toks[:-1])
        items.append(Item(toks[-1], prefix, punct=not is_word(toks[-1])))
    if not items:
        raise BadRequest(param, "empty phrase")
    return Pattern(tuple(items))


def parse_query(text, param: str = "text"):
    """The query as a tree of Pattern / And / Or / Not; BadRequest(param) when malformed."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(param, "an empty query")
    text = plain_text(text, param)
    tokens = []
    pos = 0
    while pos < len(text):
        m = _LEX.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
        if m.group("quote") is not None:
            q = m.group("quote")
            if len(q) < 2 or not q.endswith('"'):
                raise BadRequest(param, "a phrase's closing quote is missing")
            tokens.append(("pat", _pattern(q[1:-1], param)))
        elif m.group("paren"):
            tokens.append((m.group("paren"), None))
        else:
            w = m.group("word")
            if w in ("AND", "OR", "NOT"):
                tokens.append((w, None))
            else:
                tokens.append(("pat", _pattern(w, param)))
    if sum(1 for kind, _ in tokens if kind == "pat") > MAX_QUERY_TERMS:
        raise BadRequest(param, f"more than {MAX_QUERY_TERMS} terms")
    at = 0

    def peek():
        return tokens[at][0] if at < len(tokens) else None

    def take():
        nonlocal at
        at += 1
        return tokens[at - 1]

    # depth: the parentheses and NOTs open around the term being read
    def or_expr(depth: int):
        parts = [and_expr(depth)]
        while peek() == "OR":
            take()
            parts.append(and_expr(depth))
        return parts[0] if len(parts) == 1 else Or(tuple(parts))

    def and_expr(depth: int):
        parts = [not_expr(depth)]
        while peek() in ("AND", "NOT", "pat", "("):
            if peek() == "AND":
                take()
            parts.append(not_expr(depth))
        return parts[0] if len(parts) == 1 else And(tuple(parts))

    def deeper(depth: int) -> int:
        if depth >= MAX_NESTING:
            raise BadRequest(param, f"parentheses and NOTs nested more than {MAX_NESTING} deep")
        return depth + 1

    def not_expr(depth: int):
        if peek() == "NOT":
            take()
            return Not(not_expr(deeper(depth)))
        return atom(depth)

    def atom(depth: int):
        kind = peek()
        if kind == "pat":
            return take()[1]
        if kind == "(":
            take()
            inner = or_expr(deeper(depth))
            if peek() != ")":
                raise BadRequest(param, "a closing parenthesis is missing")
            take()
            return inner
        raise BadRequest(param, f"a term was expected, not {kind or 'the end'}")

    tree = or_expr(0)
    if at != len(tokens):
        raise BadRequest(param, f"unexpected {tokens[at][0]!r}")
    return tree


def parse_pattern(text, param: str = "query") -> Pattern:
    """A concordance, trend or collocation query: a word, prefix* or phrase (quoted or not; no AND/OR/NOT)."""
    if not isinstance(text, str) or not text.strip():
        raise BadRequest(param, "an empty query")
    text = plain_text(text, param)
    if not re.search(r'["()]|\b(AND|OR|NOT)\b', text):
        return _pattern(text, param)      # words side by side: a phrase
    tree = parse_query(text, param)
    if not isinstance(tree, Pattern):
        raise BadRequest(param, "a word, a prefix* or a phrase is expected here, not AND/OR/NOT")
    return tree


def _quote(word: str) -> str:
    return "'" + word.replace("\\", "\\\\").replace("'", "''") + "'"


def tsquery(tree) -> str:
    """The tree as PostgreSQL tsquery text (phrases with <->: adjacent positions). The index holds words
    only, each at its token's position: a punctuation token between two words is a distance (``NRK's``:
    'nrk' <2> 's', which any token there matches), one before the first word or after the last nothing, so
    that a pattern with punctuation (:attr:`Pattern.exact` false) is found through it among more documents
    than hold it, to be read word for word (``research.matching``)."""
    if isinstance(tree, Pattern):
        parts: list[str] = []
        gap = 0
        for item in tree.items:
            if item.punct:
                gap += bool(parts)
                continue
            if parts:
                parts.append(f" <{gap + 1}> " if gap else " <-> ")
            parts.append(_quote(item.text) + (":*" if item.prefix else ""))
            gap = 0
        return parts[0] if len(parts) == 1 else "(" + "".join(parts) + ")"
    if isinstance(tree, And):
        return "(" + " & ".join(tsquery(p) for p in tree.parts) + ")"
    if isinstance(tree, Or):
        return "(" + " | ".join(tsquery(p) for p in tree.parts) + ")"
    return "!" + tsquery(tree.part)


def _patterns(tree):
    """The tree's patterns, its terms."""
    if isinstance(tree, Pattern):
        yield tree
    elif isinstance(tree, Not):
        yield from _patterns(tree.part)
    else:
        for part in tree.parts:
            yield from _patterns(part)


def _has_phrase(tree) -> bool:
    return any(len(pattern.items) > 1 for pattern in _patterns(tree))


def _relaxed(tree) -> str | None:
    """A tsquery that every document holding the query matches, whatever positions its index kept: each
    phrase as its words alone; a NOT over a phrase as no condition (None), as an OR with such a part."""
    if isinstance(tree, Pattern):
        found = [tsquery(Pattern((item,))) for item in tree.items if not item.punct]
        return found[0] if len(found) == 1 else "(" + " & ".join(found) + ")"
    if isinstance(tree, Not):
        return None if _has_phrase(tree.part) else tsquery(tree)
    parts = [_relaxed(p) for p in tree.parts]
    if isinstance(tree, Or):
        return None if None in parts else "(" + " | ".join(parts) + ")"
    parts = [p for p in parts if p is not None]
    return None if not parts else parts[0] if len(parts) == 1 else "(" + " & ".join(parts) + ")"


@dataclasses.dataclass(frozen=True)
class FullText:
    """A query as the full-text index finds its documents. ``tsquery`` answers for every document whose
    index holds its words' every position (``research_fts.positions_whole``: PostgreSQL's tsvector keeps
    256 positions of a word and none past 16,383); a query with a phrase (``phrases``) must be read word for
    word in the others (``research.matching``), which ``relaxed`` narrows down (None: all of them)."""
    tsquery: str
    phrases: bool = False
    relaxed: str | None = None
    exact: bool = True  # False: a pattern with punctuation, which the index finds among more documents

    @classmethod
    def of(cls, tree) -> "FullText":
        phrases = _has_phrase(tree)
        return cls(tsquery(tree), phrases, _relaxed(tree) if phrases else None,
                   all(pattern.exact for pattern in _patterns(tree)))


@dataclasses.dataclass(frozen=True)
class IndexCondition:
    """Documents of the corpus filter's full-text condition: those the index finds through ``tsquery``
    (among the documents whose positions are whole only, when ``whole_only``), and those of ``ids``, read word
    for word. The condition is one, or several under And / Or / Not (where a pattern with punctuation is
    read: the index cannot tell its documents)."""
    tsquery: str | None = None
    whole_only: bool = False
    ids: list[int] | None = None


# ---------------------------------------------------------------------------------------------
# The corpus filter
# ---------------------------------------------------------------------------------------------


def _list(mapping, key) -> list[str]:
    value = mapping.get(key)
    if value is None or value == "":
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v.strip() for v in value):
        raise BadRequest(key, "a list of non-empty strings is expected")
    return [plain_text(v.strip(), key) for v in value]


def _date(mapping, key) -> str | None:
    value = mapping.get(key)
    if value is None or value == "":
        return None
    if isinstance(value, date):
        return value.isoformat()[:10]
    try:
        return date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise BadRequest(key, f"not an ISO date (YYYY-MM-DD): {value!r}") from None


def _int(mapping, key, default, lo, hi):
    value = mapping.get(key, default)
    if value is None or value == "":
        return default
    try:
        number = int(value)
        if isinstance(value, float) and number != value:
            raise ValueError
    except (TypeError, ValueError):
        raise BadRequest(key, f"not an integer: {value!r}") from None
    if lo is not None and number < lo or hi is not None and number > hi:
        raise BadRequest(key, f"must lie between {lo} and {hi}, not {number}")
    return number


# How a corpus takes near-duplicates (``store.near_duplicates``: wire copy republished by other papers,
# updated versions of an article, a paper's regional editions): every document, or each cluster once,
# by its representative (the earliest capture) beside every document that has no near-duplicate.
NEAR_DUPLICATES = ("all", "once")
# Whether a corpus takes texts read from captures the crawler cut (WARC-Truncated: its size or time limit, a
# dropped connection): all, or none of them (a cut text may lack its end).
TRUNCATED = ("all", "none")


@dataclasses.dataclass(frozen=True)
class CorpusFilter:
    publications: tuple[str, ...] = ()
    places: tuple[str, ...] = ()
    counties: tuple[str, ...] = ()
    languages: tuple[str, ...] = ()
    harvest_from: str | None = None
    harvest_to: str | None = None
    published_from: str | None = None
    published_to: str | None = None
    page_types: tuple[str, ...] = ("article",)
    near_duplicates: str = "all"
    truncated: str = "all"
    text: str | None = None
    limit: int = DEFAULT_LIMIT
    order: str = "date"
    seed: int | None = None

    FIELDS = ("publications", "places", "counties", "languages", "harvest_from", "harvest_to",
              "published_from", "published_to", "page_types", "near_duplicates", "truncated", "text", "limit", "order",
              "seed")

    @classmethod
    def from_params(cls, mapping) -> "CorpusFilter":
        """Validated filter from a mapping of the FIELDS; BadRequest names the bad parameter."""
        unknown = sorted(set(mapping) - set(cls.FIELDS))
        if unknown:
            raise BadRequest(unknown[0], f"unknown parameter (known: {', '.join(cls.FIELDS)})")
        page_types = _list(mapping, "page_types") or ["article"]
        for p in page_types:
            if p not in PAGE_TYPES:
                raise BadRequest("page_types", f"unknown page type {p!r} (known: {', '.join(PAGE_TYPES)})")
        text = mapping.get("text")
        if text is not None and text != "":
            if not isinstance(text, str):
                raise BadRequest("text", "a query string is expected")
            parse_query(text, "text")
        else:
            text = None
        near_duplicates = mapping.get("near_duplicates") or "all"
        if near_duplicates not in NEAR_DUPLICATES:
            raise BadRequest("near_duplicates", f"'all' or 'once', not {near_duplicates!r}")
        truncated = mapping.get("truncated") or "all"
        if truncated not in TRUNCATED:
            raise BadRequest("truncated", f"'all' or 'none', not {truncated!r}")
        order = mapping.get("order") or "date"
        if order not in ("date", "random"):
            raise BadRequest("order", f"'date' or 'random', not {order!r}")
        seed = _int(mapping, "seed", None, -2**31, 2**31 - 1)
        flt = cls(
            publications=tuple(_list(mapping, "publications")),
            places=tuple(_list(mapping, "places")),
            counties=tuple(_list(mapping, "counties")),
            languages=tuple(_list(mapping, "languages")),
            harvest_from=_date(mapping, "harvest_from"), harvest_to=_date(mapping, "harvest_to"),
            published_from=_date(mapping, "published_from"), published_to=_date(mapping, "published_to"),
            page_types=tuple(page_types), near_duplicates=near_duplicates, truncated=truncated, text=text,
            limit=_int(mapping, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT),
            order=order, seed=seed if seed is not None or order != "random" else 0,
        )
        for lo, hi in (("harvest_from", "harvest_to"), ("published_from", "published_to")):
            if getattr(flt, lo) and getattr(flt, hi) and getattr(flt, lo) > getattr(flt, hi):
                raise BadRequest(lo, f"{lo} lies after {hi}")
        return flt

    def to_dict(self) -> dict:
        """The definition as saved with a corpus (JSON-ready; from_params reads it back)."""
        out = {}
        for f in self.FIELDS:
            v = getattr(self, f)
            out[f] = list(v) if isinstance(v, tuple) else v
        return out
