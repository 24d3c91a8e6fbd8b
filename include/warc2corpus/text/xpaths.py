"""trafilatura's XPaths, made cheaper and read as trafilatura reads them.

trafilatura keeps its XPaths in one module (``trafilatura.xpaths``); what this project does to them
is kept here: their regular-expression tests guarded by the attribute they read (:func:`guarded`,
applied to all of them in place by :func:`guard_all`), the ones that go through every page's tree
(and those that go through every element in a pass with fallbacks) made walks over the elements of
their tags (:func:`walk_xpaths`), and its author and author-discard XPaths
tested in one walk over a page's elements (:func:`author_walk`, for ``metadata.author_of``).
"""

from __future__ import annotations

import re
from functools import lru_cache, partial

_EXSLT = {"re": "http://exslt.org/regular-expressions"}
# An EXSLT regular-expression test of attributes in an XPath: re:test(@class, 'pattern'[, 'flags']).
_RE_TEST = re.compile(r"re:test\((@[\w-]+(?:\|@[\w-]+)*),\s*'([^']*)'(?:,\s*'([a-z]*)')?\)")


def guarded(expression):
    """An XPath whose EXSLT regular-expression tests of attributes first ask whether the element has
    such an attribute at all: ``re:test(@class, 'p')`` becomes ``(@class and re:test(@class, 'p'))``.
    lxml runs each test as a call into Python's ``re`` for every element it meets, with the attribute
    or without; XPath's ``and`` leaves the test out where the attribute is missing, which is the case
    for most elements. Where it is missing the test reads an empty string, which a pattern that cannot
    match one never matches, so the XPath finds the same elements (a pattern that can is left as it
    is)."""
    from lxml import etree

    def guard(test: re.Match) -> str:
        attributes, pattern, flags = test.groups()
        if re.search(pattern, "", re.IGNORECASE if flags and "i" in flags else 0):
            return test.group(0)
        return f"(({' or '.join(attributes.split('|'))}) and {test.group(0)})"

    path = _RE_TEST.sub(guard, expression.path)
    return etree.XPath(path, namespaces=_EXSLT) if path != expression.path else expression


def guard_all() -> None:
    """trafilatura's XPaths (its ``xpaths`` module: content, discard, comment, author, title lists),
    :func:`guarded`, in place: every module that reads them holds the same lists. About 8 % of
    trafilatura's two passes and the metadata on the dev halves' news pages, the same texts and
    metadata (``tests/test_extract.py``)."""
    from trafilatura import xpaths as theirs

    for name, value in vars(theirs).items():
        if name.isupper() and isinstance(value, list):
            value[:] = [guarded(item) if isinstance(getattr(item, "path", None), str) else item for item in value]


def _collapsed(path: str) -> str:
    return " ".join(path.split())


def _shape(path: str) -> str:
    """An XPath's text, spaces collapsed, each regular expression it tests with (:data:`_RE_TEST`) as
    '…'; a test's flags stay (the walks are written for tests without)."""
    def shape(test: re.Match) -> str:
        attributes, _, flags = test.groups()
        return f"re:test({attributes}, '…'" + (f", '{flags}')" if flags is not None else ")")
    return _RE_TEST.sub(shape, _collapsed(path))


def _first(attributes, a: str, a_value: str | None, b: str, b_value: str | None) -> str:
    """``@a|@b`` as XPath reads it where one string is wanted: the value of whichever of the two
    attributes (with their values, None where missing) comes first in the element's tag, "" when it
    has neither."""
    if a_value is None:
        return b_value or ""
    if b_value is None:
        return a_value
    return next(value for name, value in attributes.items() if name == a or name == b)


def _follow_up_articles(id_scroll, class_scroll, id_zox, class_zox):
    """Infinite-scroll containers of follow-up articles (Zox News' "mvp-post-add")."""
    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants("div", "section", "aside"):
            ident, cls = element.get("id") or "", element.get("class") or ""
            if (id_scroll.search(ident) or class_scroll.search(cls)) and (
                    id_zox.search(ident) or class_zox.search(cls)
                    or next(element.iterdescendants("h1"), None) is None):
                found.append(element)
        return found
    return find


def _share_buttons():
    """Elementor's share buttons."""
    def find(tree) -> list:
        return [element for element in tree.iterdescendants("div", "section", "aside")
                if "elementor-share-buttons" in (element.get("class") or "")]
    return find


def _comments(id_comments, class_comments, id_list, class_list):
    """Comment sections, and lists of comments."""
    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants("div", "list", "section", "details", "ol", "ul"):
            ident, cls = element.get("id") or "", element.get("class") or ""
            if (id_comments.search(ident) or class_comments.search(cls)) and (
                    (element.tag != "ol" and element.tag != "ul") or id_list.search(ident) or class_list.search(cls)):
                found.append(element)
        return found
    return find


def _boilerplate_blocks(first_cookie, id_tokens, class_tokens):
    """Blocks named as navigation, sharing, ads, consent, bylines ... (its first discard XPath)."""
    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants("div", "item", "list", "p", "section", "span"):
            attributes = element.attrib
            if not attributes:
                continue
            get = attributes.get
            ident, cls = get("id"), get("class")
            if ("data-lp-replacement-content" in attributes
                    or "nav" in (get("role") or "").replace("N", "n")
                    or "MostPopularStories" in (get("data-component") or "")
                    or first_cookie.search(_first(attributes, "id", ident, "class", cls))
                    or id_tokens.search(ident or "") or class_tokens.search(cls or "")):
                found.append(element)
        return found
    return find


def _hidden_blocks(first_hidden, id_tokens, class_tokens):
    """Hidden elements, replies and comment titles (its second discard XPath)."""
    from lxml import etree

    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants(etree.Element):
            attributes = element.attrib
            if not attributes:
                continue
            get = attributes.get
            ident, cls, style = get("id"), get("class"), get("style")
            if (cls == "comments-title" or _first(attributes, "id", ident, "class", cls).startswith("reply-")
                    or first_hidden.search(_first(attributes, "id", ident, "style", style))
                    or (style is not None and ("display:none" in style or "display: none" in style))
                    or id_tokens.search(ident or "") or class_tokens.search(cls or "")
                    or get("aria-hidden") == "true"):
                found.append(element)
        return found
    return find


def _article_bodies(id_tokens, class_tokens):
    """Blocks named as an article's body, each the first such among its siblings (its first body
    XPath ends in ``[1]``), one by one: trafilatura takes the first."""
    def find(tree):
        parents = set()
        for element in tree.iterdescendants("article", "div", "main", "section"):
            get = element.attrib.get
            cls, ident = get("class"), get("id")
            if (cls == "post" or cls == "entry" or get("itemprop") == "articleBody" or ident == "articleContent"
                    or id_tokens.search(ident or "") or class_tokens.search(cls or "")):
                parent = element.getparent()
                if parent not in parents:
                    parents.add(parent)
                    yield element
    return find


def _first_of(tags: tuple[str, ...], matches):
    """A body XPath of the form ``(.//*[tags][test])[1]``: the first element of the tags that
    ``matches``, found lazily (trafilatura takes the first find)."""
    def find(tree):
        for element in tree.iterdescendants(*tags):
            if matches(element):
                yield element
                return
    return find


_BODY_TAGS = ("article", "div", "main", "section")
_STORY_CLASSES = frozenset(("postarea", "art-postcontent", "text", "cell", "story"))


def _story_body(id_tokens, class_fulltext, class_tokens):
    """Blocks named as a story (its third body XPath)."""
    def matches(element) -> bool:
        get = element.attrib.get
        cls, ident = get("class") or "", get("id") or ""
        return (get("role") == "article" or ident == "article" or ident == "story" or cls in _STORY_CLASSES
                or bool(id_tokens.search(ident) or class_fulltext.search(cls) or class_tokens.search(cls)))
    return _first_of(_BODY_TAGS, matches)


def _content_body(id_tokens, class_tokens):
    """Blocks named as the page's content (its fourth body XPath)."""
    def matches(element) -> bool:
        get = element.attrib.get
        cls, ident = get("class") or "", get("id") or ""
        return (ident == "content" or cls == "content" or bool(id_tokens.search(ident) or class_tokens.search(cls))
                or "main-content" in ident.replace("C", "c").replace("M", "m")
                or "main-content" in cls.replace("C", "c").replace("M", "m")
                or "page-content" in cls.replace("C", "c").replace("P", "p"))
    return _first_of(_BODY_TAGS, matches)


def _named_blocks(word: str, case: str = ""):
    """Blocks whose id or class holds ``word`` (with the capitals in ``case`` read as lower case, as
    XPath's ``translate`` reads them): teasers, captions."""
    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants("div", "item", "list", "p", "section", "span"):
            get = element.attrib.get
            ident, cls = get("id") or "", get("class") or ""
            for upper in case:
                ident, cls = ident.replace(upper, upper.lower()), cls.replace(upper, upper.lower())
            if word in ident or word in cls:
                found.append(element)
        return found
    return find


_CLEANED_TAGS = frozenset(("aside", "fencedframe", "footer", "script", "style", "svg", "template"))


def _basic_clean(class_consent, id_consent):
    """Asides, footers, scripts, styles, drawings, templates and cookie-consent blocks (its baseline's
    cleaning, a union of XPaths: each element once, in document order)."""
    from lxml import etree

    def find(tree) -> list:
        found = []
        for element in tree.iterdescendants(etree.Element):
            tag = element.tag
            if tag in _CLEANED_TAGS:
                found.append(element)
                continue
            attributes = element.attrib
            if not attributes:
                continue
            get = attributes.get
            cls, ident = get("class"), get("id")
            if ((tag == "div" and "footer" in _first(attributes, "class", cls, "id", ident))
                    or class_consent.search(cls or "") or id_consent.search(ident or "")):
                found.append(element)
        return found
    return find


# trafilatura's XPaths (2.3.1) that every page's tree goes through, each pass, and those of its
# passes with fallbacks over every element: their shapes (spaces collapsed, the regular expressions they
# test with as '…', a test's flags kept: those are read from trafilatura's text, as its version has
# them), by the module that reads them, name and place in its list (None: no list), and the walks that
# find what they find. Its raw-tree prunes (RAW_TREE_PRUNE_XPATH, REMOVE_COMMENTS_AND_LISTS_XPATH) run
# on the whole tree before anything is cleaned out of it; the discard XPaths and the body XPaths on the
# cleaned tree (the third and fourth where the ones before find nothing); its baseline's cleaning on
# the raw tree in a pass with fallbacks (its measure of how much text a page holds, and jusText's input).
_XPATHS, _BASELINE = "trafilatura.xpaths", "trafilatura.baseline"
_WALKS = {
    (_XPATHS, "RAW_TREE_PRUNE_XPATH", 0): (
        ".//*[self::div or self::section or self::aside][ re:test(@id, '…') or re:test(@class, '…')][ not(.//h1) or "
        "re:test(@id, '…') or re:test(@class, '…')]", _follow_up_articles),
    (_XPATHS, "RAW_TREE_PRUNE_XPATH", 1): (
        ".//*[self::div or self::section or self::aside][contains(@class, 'elementor-share-buttons')]", _share_buttons),
    (_XPATHS, "REMOVE_COMMENTS_AND_LISTS_XPATH", 0): (
        ".//*[self::div or self::list or self::section or self::details or self::ol or self::ul][ re:test(@id, '…') or "
        "re:test(@class, '…')][ not(self::ol or self::ul) or re:test(@id, '…') or re:test(@class, '…')]", _comments),
    (_XPATHS, "OVERALL_DISCARD_XPATH", 0): (
        ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
        "@data-lp-replacement-content or contains(translate(@role, 'N', 'n'), 'nav') or "
        "contains(@data-component, 'MostPopularStories') or re:test(@id|@class, '…') or re:test(@id, '…') or "
        "re:test(@class, '…')]", _boilerplate_blocks),
    (_XPATHS, "OVERALL_DISCARD_XPATH", 1): (
        ".//*[@class='comments-title' or starts-with(@id|@class, 'reply-') or re:test(@id|@style, '…') or "
        "contains(@style, 'display:none') or contains(@style, 'display: none') or re:test(@id, '…') or "
        "re:test(@class, '…') or @aria-hidden='true']", _hidden_blocks),
    (_XPATHS, "BODY_XPATH", 0): (
        ".//*[self::article or self::div or self::main or self::section][ @class='post' or @class='entry' or "
        "@itemprop='articleBody' or @id='articleContent' or re:test(@id, '…') or re:test(@class, '…') ][1]",
        _article_bodies),
    (_XPATHS, "BODY_XPATH", 2): (
        "(.//*[self::article or self::div or self::main or self::section][ @role='article' or @id='article' or "
        "@id='story' or @class='postarea' or @class='art-postcontent' or @class='text' or @class='cell' or "
        "@class='story' or re:test(@id, '…') or re:test(@class, '…', 'i') or re:test(@class, '…') ])[1]",
        _story_body),
    (_XPATHS, "BODY_XPATH", 3): (
        "(.//*[self::article or self::div or self::main or self::section][ @id='content' or @class='content' or "
        "re:test(@id, '…') or re:test(@class, '…') or contains(translate(@id, 'CM','cm'), 'main-content') or "
        "contains(translate(@class, 'CM','cm'), 'main-content') or contains(translate(@class, 'CP','cp'), "
        "'page-content') ])[1]", _content_body),
    (_XPATHS, "TEASER_DISCARD_XPATH", 0): (
        ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
        "contains(translate(@id, 'T', 't'), 'teaser') or contains(translate(@class, 'T', 't'), 'teaser')]",
        partial(_named_blocks, "teaser", "T")),
    (_XPATHS, "DISCARD_IMAGE_ELEMENTS", 0): (
        ".//*[self::div or self::item or self::list or self::p or self::section or self::span][ "
        "contains(@id, 'caption') or contains(@class, 'caption')]", partial(_named_blocks, "caption")),
    (_BASELINE, "BASIC_CLEAN_XPATH", None): (
        ".//aside|.//div[contains(@class|@id, 'footer')]|.//fencedframe|.//footer|.//script|.//style|.//svg|"
        ".//template|.//*[re:test(@class, '…', 'i') or re:test(@id, '…', 'i')]", _basic_clean),
}


class Walk:
    """One of trafilatura's XPaths as a walk: called on a tree as trafilatura calls its XPaths, it
    finds the same elements in document order (``tests/test_extract.py``) by lxml's own iteration
    over the elements of the XPath's tags, each attribute read once, where libxml2's XPath engine
    visits every node and calls into Python's ``re`` for each regular-expression test."""

    __slots__ = ("replaces", "find")

    def __init__(self, replaces: str, find):
        self.replaces, self.find = replaces, find

    def __call__(self, tree):
        return self.find(tree)


def walk_xpaths() -> None:
    """trafilatura's XPaths in :data:`_WALKS` replaced, in place, by :class:`Walk` objects, each made
    with the regular expressions its XPath holds (compiled as lxml compiles them: ignoring case where
    the test's flags hold "i"); an XPath whose shape is not the one its walk was written for stays as it
    is. Before :func:`guard_all`, which leaves walks alone."""
    import importlib

    for (module, name, index), (shape, walk) in _WALKS.items():
        holder = getattr(importlib.import_module(module), name)
        if index is not None and index >= len(holder):
            continue
        path = getattr(holder if index is None else holder[index], "path", None)
        if isinstance(path, str) and _shape(path) == shape:
            patterns = [re.compile(pattern, re.IGNORECASE if "i" in flags else 0)
                        for _, pattern, flags in _RE_TEST.findall(path)]
            if not any(pattern.search("") for pattern in patterns):  # (the walks pass over bare elements)
                if index is None:
                    setattr(importlib.import_module(module), name, Walk(_collapsed(path), walk(*patterns)))
                else:
                    holder[index] = Walk(_collapsed(path), walk(*patterns))


# trafilatura's AUTHOR_XPATHS and AUTHOR_DISCARD_XPATHS (2.3.1), spaces collapsed: what author_walk tests
# (tests/test_extract.py holds the two equal on pages made of every value they test).
_AUTHOR_XPATHS = (
    "//*[self::a or self::address or self::div or self::link or self::p or self::span or self::strong][ "
    "@rel='author' or @id='author' or @class='author' or @itemprop='author name' or rel='me' or "
    "@data-testid='AuthorCard' or @data-testid='AuthorURL' or re:test(@class, 'author-?name|AuthorName|authorName')]"
    "|//author",
    "//*[self::a or self::div or self::h3 or self::h4 or self::p or self::span][ @class='byline' or "
    "@class='username' or @class='byl' or @class='BBL' or contains(@itemprop, 'author') or "
    "re:test(@id, 'author|zuozhe|bianji|xiaobian') or re:test(@class, "
    "'author|channel-name|zuozhe|bianji|xiaobian|submitted-by|posted-by|journalist-name')]",
    "//*[ contains(@data-component, 'Byline') or contains(@itemprop, 'author') or re:test(@id, '[Aa]uthor') or "
    "re:test(@class, '[Aa]uthor|screenname|writer|[Bb]yline')]",
)
_AUTHOR_DISCARD_XPATHS = (
    ".//*[self::a or self::div or self::section or self::span][ @id='comments' or @class='comments' or "
    "@class='title' or @class='date' or re:test(@id, '^comments|comment-?list|ProductReviews') or "
    "re:test(@class, '^[Cc]omments|commentlist|comments-list|sidebar|is-hidden|quote|embedly-instagram|"
    "article-(?:share|support)|print|category|meta-date|meta-reviewer') or contains(@data-component, 'Figure')]",
    "//time|//figure",
)


@lru_cache(maxsize=1)
def author_xpaths_unchanged() -> bool:
    """Whether trafilatura's author XPaths are the ones :func:`author_walk` tests, as its version holds
    them or as :func:`guard_all` has rewritten them."""
    from lxml import etree
    from trafilatura.xpaths import AUTHOR_DISCARD_XPATHS, AUTHOR_XPATHS

    def text(paths) -> tuple[str, ...]:
        return tuple(_collapsed(path) for path in paths)

    known = _AUTHOR_XPATHS + _AUTHOR_DISCARD_XPATHS
    rewritten = text(guarded(etree.XPath(path, namespaces=_EXSLT)).path for path in known)
    return text(x.path for x in AUTHOR_XPATHS + AUTHOR_DISCARD_XPATHS) in (known, rewritten)


# The regular expressions of those XPaths, in their order.
_CLASS_1, _ID_2, _CLASS_2, _ID_3, _CLASS_3, _ID_DISCARD, _CLASS_DISCARD = map(re.compile, (
    "author-?name|AuthorName|authorName", "author|zuozhe|bianji|xiaobian",
    "author|channel-name|zuozhe|bianji|xiaobian|submitted-by|posted-by|journalist-name",
    "[Aa]uthor", "[Aa]uthor|screenname|writer|[Bb]yline", "^comments|comment-?list|ProductReviews",
    "^[Cc]omments|commentlist|comments-list|sidebar|is-hidden|quote|embedly-instagram|"
    "article-(?:share|support)|print|category|meta-date|meta-reviewer"))
# An attribute missing or empty: none of its tests is true (no pattern matches an empty string).
_NO_CLASS, _NO_ID = (False,) * 4, (False,) * 3


@lru_cache(maxsize=20_000)
def _class_tests(value: str) -> tuple[bool, bool, bool, bool]:
    """The class tests of the three author XPaths and the discard XPath (a page repeats its classes)."""
    return (bool(_CLASS_1.search(value)), bool(_CLASS_2.search(value)), bool(_CLASS_3.search(value)),
            bool(_CLASS_DISCARD.search(value)))


@lru_cache(maxsize=20_000)
def _id_tests(value: str) -> tuple[bool, bool, bool]:
    return bool(_ID_2.search(value)), bool(_ID_3.search(value)), bool(_ID_DISCARD.search(value))


_TAGS_1 = frozenset(("a", "address", "div", "link", "p", "span", "strong"))
_TAGS_2 = frozenset(("a", "div", "h3", "h4", "p", "span"))
_TAGS_DISCARD = frozenset(("a", "div", "section", "span"))


def author_walk(tree) -> tuple[tuple[list, list, list], set] | None:
    """What each of trafilatura's author XPaths finds in ``tree`` (an element or an element tree; in
    document order), and what its author-discard XPaths remove, as ``extract_author`` runs them on a
    copy of ``tree``: ``//`` reads the copy's root and below, and the root is never removed
    (``delete_element`` leaves an element without a parent where it is). None when the tree holds a
    ``<rel>`` element: the first XPath tests a ``<rel>`` child's text (``rel='me'``), which the walk
    does not."""
    from lxml import etree

    root = tree.getroot() if isinstance(tree, etree._ElementTree) else tree
    first: list = []
    second: list = []
    third: list = []
    removed = set()
    for element in root.iter(etree.Element):
        tag, get = element.tag, element.get
        if tag == "rel":
            return None
        if (tag == "time" or tag == "figure") and element is not root:
            removed.add(element)
        cls, ident, itemprop, component = get("class"), get("id"), get("itemprop") or "", get("data-component") or ""
        class_1, class_2, class_3, class_discard = _class_tests(cls) if cls else _NO_CLASS
        id_2, id_3, id_discard = _id_tests(ident) if ident else _NO_ID
        if tag == "author" or (tag in _TAGS_1 and (
                get("rel") == "author" or ident == "author" or cls == "author" or itemprop == "author name"
                or get("data-testid") in ("AuthorCard", "AuthorURL") or class_1)):
            first.append(element)
        if tag in _TAGS_2 and (cls in ("byline", "username", "byl", "BBL") or "author" in itemprop or id_2 or class_2):
            second.append(element)
        if "Byline" in component or "author" in itemprop or id_3 or class_3:
            third.append(element)
        if tag in _TAGS_DISCARD and element is not root and (
                ident == "comments" or cls in ("comments", "title", "date") or id_discard or class_discard
                or "Figure" in component):
            removed.add(element)
    return (first, second, third), removed
