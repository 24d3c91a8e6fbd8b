"""Site-template subtraction: what a site's pages have in common is its template, the rest is content.

A page is a set of *items*: "DOM tag path + text" of each block-level element (its own text and its
inline descendants'), e.g. ``html/body/div/h2 + "Les også"``; ids and classes are ignored, since
sites generate them freely. Nodes are numbered in depth-first order, so the items that remain after
subtraction come back as blocks in page order (paragraph boundaries), not loose strings.

The template is built per WARC file, as a stream in the file's order, from that file's pages alone
(:class:`FileTemplates`): the same file always gives the same texts, however often and in whatever
order files are processed, whatever was processed before, so a rerun, a crash recovery or a
``reprocess`` cannot change a document's text or id. Every page of a host is *observed* once (a page
whose main text was seen shortly before on the host, e.g. an AMP copy, is not counted again), and
from the second page on the template is the set of items on at least :data:`COMMON_SHARE` of the
host's pages so far, with at least :data:`MIN_PAGES` pages seen (a robust "common": one page without
the menu does not empty it, as a strict intersection would).

Memory does not grow with the file. Item keys are counted per host by lossy counting (Manku and
Motwani, "Approximate frequency counts over data streams", 2002): every :data:`BUCKET_PAGES` pages of a
host the items seen too seldom to become template are forgotten, so a host holds its template
candidates plus the items of its last few pages, whatever its number of pages. An item's count is
exact as long as it was never forgotten; one that was is counted again from its return, so it is
template only if it is common from then on (never wrongly template). Texts are kept only as 64-bit
hashes of :func:`text_key`, and only for items seen on two pages or more. At most :data:`MAX_HOSTS`
hosts are followed (the one seen longest ago is forgotten first and starts afresh when it returns),
and per host the last :data:`RECENT_PAGES` distinct pages are remembered for not counting a page twice.
"""

from __future__ import annotations

import hashlib
import re
from collections import OrderedDict
from dataclasses import dataclass

MIN_PAGES = 2          # a template exists from the second page of a host on
COMMON_SHARE = 0.6     # an item on at least this share of the host's pages is template
MIN_BLOCK_WORDS = 4    # fallback content blocks shorter than this are left out
BUCKET_PAGES = 5       # lossy counting's bucket (error share 1/5): items are forgotten every 5 pages of a host
RECENT_PAGES = 256     # distinct pages per host remembered, so that a page captured again is not counted twice
MAX_HOSTS = 500        # hosts followed at once in a file
RECOMPUTE_EVERY = 10   # pages of a host between two computations of its template (after the first 20)

BLOCK_TAGS = frozenset("""
    address article aside blockquote body caption dd details dialog div dl dt fieldset figcaption figure
    footer form h1 h2 h3 h4 h5 h6 header hgroup html li main nav ol p pre section summary table tbody td
    tfoot th thead tr ul
""".split())
SKIP_TAGS = frozenset("script style noscript template svg iframe object embed select option button head".split())


@dataclass(frozen=True)
class Item:
    node: int      # depth-first number of the block element
    path: str      # tag path from the root, e.g. html/body/div/p
    text: str      # whitespace-normalised text

    @property
    def key(self) -> int:
        return item_key(self.path, self.text)


def normalise(text: str) -> str:
    return " ".join(text.split())


def item_key(path: str, text: str) -> int:
    """A signed 63-bit hash of path + text (a PostgreSQL bigint)."""
    digest = hashlib.blake2b(f"{path}\x1f{text.casefold()}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


_WORD = re.compile(r"\w+")


def text_key(text: str) -> str:
    """A text for comparisons: its letters and digits only, in lower case (the template's texts, the
    extraction's links, headlines and blurbs)."""
    return " ".join(_WORD.findall(text.casefold()))


def text_hash(text: str) -> int | None:
    """A 63-bit hash of the text's :func:`text_key` (None when it has no letters or digits): how a
    template remembers its texts."""
    key = text_key(text)
    return item_key("text", key) if key else None


def page_items(tree) -> list[Item]:
    """The page's items in depth-first order: each block element's own text with its inline
    descendants (nested blocks make their own items), with its tag path."""
    items: list[Item] = []
    counter = 0

    def tag_of(element) -> str | None:
        tag = element.tag
        return tag.lower() if isinstance(tag, str) else None

    def walk(element, path: str) -> None:
        nonlocal counter
        counter += 1
        number = counter
        parts: list[str] = [element.text or ""]
        for child in element:
            tag = tag_of(child)
            if tag is None or tag in SKIP_TAGS:
                pass
            elif tag in BLOCK_TAGS:
                walk(child, f"{path}/{tag}")
            else:
                parts.append(inline_text(child))
            parts.append(child.tail or "")
        text = normalise("".join(parts))
        if text and any(ch.isalnum() for ch in text):
            items.append(Item(number, path, text))

    def inline_text(element) -> str:
        nonlocal counter
        counter += 1
        parts = [element.text or ""]
        for child in element:
            tag = tag_of(child)
            if tag is not None and tag not in SKIP_TAGS:
                parts.append(" " + inline_text(child) + " " if tag in BLOCK_TAGS else inline_text(child))
            parts.append(child.tail or "")
        return "".join(parts)

    root = tree.getroottree().getroot() if hasattr(tree, "getroottree") else tree
    walk(root, tag_of(root) or "html")
    items.sort(key=lambda item: item.node)
    return items


class SiteTemplate:
    """The template of one host at one moment: item keys and text hashes common to its pages."""

    def __init__(self, keys: set[int], texts: set[int], pages: int):
        self.keys, self.texts, self.pages = keys, texts, pages

    def is_template_text(self, paragraph: str) -> bool:
        return bool(self.texts) and text_hash(paragraph) in self.texts

    def content_items(self, items: list[Item]) -> list[Item]:
        return [item for item in items if item.key not in self.keys]

    def content_text(self, tree) -> list[str]:
        """The page's non-template blocks, in page order: the fallback text."""
        return [item.text for item in self.content_items(page_items(tree))
                if len(item.text.split()) >= MIN_BLOCK_WORDS]


class HostCounts:
    """One host's pages in one file, by lossy counting: per item key the pages showing it since it was
    last (re)counted, the pages it may have been missed on before (lossy counting's delta), and, once
    seen on two pages, the hash of its text."""

    def __init__(self):
        self.pages = 0
        self.counts: dict[int, int] = {}
        self.deltas: dict[int, int] = {}   # only items counted again after being forgotten
        self.texts: dict[int, int] = {}    # item key -> text_hash, items seen on two pages or more
        self.recent: OrderedDict[int, None] = OrderedDict()  # the last RECENT_PAGES distinct pages
        self.cached: SiteTemplate | None = None

    def observe(self, items: list[Item], page: int) -> bool:
        if page in self.recent:
            return False
        self.recent[page] = None
        if len(self.recent) > RECENT_PAGES:
            self.recent.popitem(last=False)
        self.pages += 1
        bucket = -(-self.pages // BUCKET_PAGES)  # the current bucket, numbered from 1
        counts, texts = self.counts, self.texts
        for key, item in {item.key: item for item in items}.items():
            count = counts.get(key)
            if count is None:
                counts[key] = 1
                if bucket > 1:
                    self.deltas[key] = bucket - 1
            else:
                counts[key] = count + 1
                if count == 1:
                    text = text_hash(item.text)
                    if text is not None:
                        texts[key] = text
        if self.pages % BUCKET_PAGES == 0:  # the end of a bucket: forget what cannot be frequent
            for key in [key for key, count in counts.items() if count + self.deltas.get(key, 0) <= bucket]:
                del counts[key]
                self.deltas.pop(key, None)
                texts.pop(key, None)
        return True

    def template(self) -> SiteTemplate | None:
        """The template now (recomputed while the host is small, then every RECOMPUTE_EVERY pages),
        or None before MIN_PAGES pages."""
        if self.pages < MIN_PAGES:
            return None
        if self.cached is None or self.pages < 20 or self.pages % RECOMPUTE_EVERY == 0:
            needed = max(2, COMMON_SHARE * self.pages)
            keys = {key for key, count in self.counts.items() if count >= needed}
            self.cached = SiteTemplate(keys, {self.texts[key] for key in keys if key in self.texts}, self.pages)
        return self.cached


class FileTemplates:
    """The site templates of one WARC file as it is read: :meth:`observe` each page of a host in file
    order, then :meth:`template` is the host's template of that moment."""

    def __init__(self):
        self.hosts: OrderedDict[str, HostCounts] = OrderedDict()  # least recently seen first

    def _host(self, host: str) -> HostCounts:
        counts = self.hosts.get(host)
        if counts is None:
            counts = self.hosts[host] = HostCounts()
            if len(self.hosts) > MAX_HOSTS:
                self.hosts.popitem(last=False)
        else:
            self.hosts.move_to_end(host)
        return counts

    def seen(self, host: str) -> None:
        """A page of the host passed by without being counted (not HTML, or not extracted): the host is
        followed from here as if it had been, so which hosts are forgotten does not depend on it."""
        self._host(host)

    def pages(self, host: str) -> int:
        counts = self.hosts.get(host)
        return counts.pages if counts else 0

    def observe(self, host: str, items: list[Item], page_key: str) -> bool:
        """Count a page of the host (once per distinct main text); False when it was seen already."""
        return self._host(host).observe(items, item_key("page", page_key))

    def template(self, host: str) -> SiteTemplate | None:
        counts = self.hosts.get(host)
        return counts.template() if counts else None
