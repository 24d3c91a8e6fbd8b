"""trafilatura's XPaths, made cheaper and read as trafilatura reads them.

trafilatura keeps its XPaths in one module (``trafilatura.xpaths``); what this project does to them
is kept here: their regular-expression tests guarded by the attribute they read (:func:`guarded`,
applied to all of them in place by :func:`guard_all`), the three it prunes the raw tree with made walks
over the elements of their tags (:func:`walk_raw_prunes`), and its author and author-discard XPaths
tested in one walk over a page's elements (:func:`author_walk`, for ``metadata.author_of``).
"""

from __future__ import annotations

import re
from functools import lru_cache

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


# trafilatura's raw-tree prunes (2.3.1), spaces collapsed: RAW_TREE_PRUNE_XPATH (infinite-scroll containers
# of follow-up articles, Elementor's share buttons) and REMOVE_COMMENTS_AND_LISTS_XPATH (comment sections
# and comment lists), which it runs on every page's whole tree before anything is cleaned out of it.
_RAW_TREE_PRUNE = (
    ".//*[self::div or self::section or self::aside][ re:test(@id, 'mvp-post-add-(?:box|wrap)|infinite-?scroll') or "
    "re:test(@class, 'mvp-post-add-(?:box|wrap)|infinite-?scroll')][ not(.//h1) or "
    "re:test(@id, 'mvp-post-add-(?:box|wrap)') or re:test(@class, 'mvp-post-add-(?:box|wrap)')]",
    ".//*[self::div or self::section or self::aside][contains(@class, 'elementor-share-buttons')]",
)
_REMOVE_COMMENTS_AND_LISTS = (
    ".//*[self::div or self::list or self::section or self::details or self::ol or self::ul][ "
    "re:test(@id, '^(?:[Cc]omment(?!ary)|comol|disqus_thread|dsq-comments)') or "
    "re:test(@class, '^[Cc]omment(?!ary)|(?:article|post)-comments')][ not(self::ol or self::ul) or "
    "re:test(@id, '^(?:[Cc]omment(?!ary)|comol)') or re:test(@class, '^[Cc]omment(?!ary)|(?:article|post)-comments')]",
)
_SCROLL, _ZOX = re.compile("mvp-post-add-(?:box|wrap)|infinite-?scroll"), re.compile("mvp-post-add-(?:box|wrap)")
_COMMENTS_ID, _COMMENTS_CLASS = (re.compile("^(?:[Cc]omment(?!ary)|comol|disqus_thread|dsq-comments)"),
                                 re.compile("^[Cc]omment(?!ary)|(?:article|post)-comments"))
_COMMENT_LIST_ID = re.compile("^(?:[Cc]omment(?!ary)|comol)")


def _follow_up_articles(tree) -> list:
    found = []
    for element in tree.iterdescendants("div", "section", "aside"):
        ident, cls = element.get("id") or "", element.get("class") or ""
        if (_SCROLL.search(ident) or _SCROLL.search(cls)) and (
                _ZOX.search(ident) or _ZOX.search(cls) or next(element.iterdescendants("h1"), None) is None):
            found.append(element)
    return found


def _share_buttons(tree) -> list:
    return [element for element in tree.iterdescendants("div", "section", "aside")
            if "elementor-share-buttons" in (element.get("class") or "")]


def _comments(tree) -> list:
    found = []
    for element in tree.iterdescendants("div", "list", "section", "details", "ol", "ul"):
        ident, cls = element.get("id"), element.get("class")
        if not (ident or cls):
            continue
        ident, cls = ident or "", cls or ""
        if (_COMMENTS_ID.search(ident) or _COMMENTS_CLASS.search(cls)) and (
                (element.tag != "ol" and element.tag != "ul") or _COMMENT_LIST_ID.search(ident)
                or _COMMENTS_CLASS.search(cls)):
            found.append(element)
    return found


class Walk:
    """One of trafilatura's XPaths as a walk: called on a tree as trafilatura calls its XPaths, it
    returns the same elements in document order (``tests/test_extract.py``), found by lxml's own
    iteration over the elements of the XPath's tags, each attribute tested once, where libxml2's XPath
    engine visits every node and calls into Python's ``re`` for each test."""

    __slots__ = ("replaces", "find")

    def __init__(self, replaces: str, find):
        self.replaces, self.find = replaces, find

    def __call__(self, tree) -> list:
        return self.find(tree)


def walk_raw_prunes() -> None:
    """trafilatura's raw-tree prunes (``RAW_TREE_PRUNE_XPATH``, ``REMOVE_COMMENTS_AND_LISTS_XPATH``) as
    :class:`Walk` objects, in place, when its XPaths are the ones the walks were written for (as its
    version holds them or as :func:`guard_all` rewrote them; else they stay as they are). They run on
    the whole tree of every page, each of trafilatura's passes: about 2 ms a page in XPath, 0.7 as walks."""
    from lxml import etree
    from trafilatura import xpaths as theirs

    for name, known, finds in (("RAW_TREE_PRUNE_XPATH", _RAW_TREE_PRUNE, (_follow_up_articles, _share_buttons)),
                               ("REMOVE_COMMENTS_AND_LISTS_XPATH", _REMOVE_COMMENTS_AND_LISTS, (_comments,))):
        value = getattr(theirs, name)
        paths = tuple(_collapsed(item.path) for item in value if isinstance(getattr(item, "path", None), str))
        rewritten = tuple(_collapsed(guarded(etree.XPath(path, namespaces=_EXSLT)).path) for path in known)
        if len(paths) == len(value) and paths in (known, rewritten):
            value[:] = [Walk(path, find) for path, find in zip(known, finds)]


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
