"""Site-template subtraction: what a site's pages have in common is its template, the rest is content.

A page is a set of *items*: "DOM tag path + text" of each block-level element (its own text and its
inline descendants'), e.g. ``html/body/div/h2 + "Les også"``; ids and classes are ignored, since
sites generate them freely. Nodes are numbered in depth-first order, so the items that remain after
subtraction come back as blocks in page order (paragraph boundaries), not loose strings.

The template is built as a stream: every page of a host is *observed* once (a page whose main text
was seen before on the host, e.g. an AMP copy, is not counted again), and from the second page on the
template is the set of items on at least :data:`COMMON_SHARE` of the host's pages, with at least
:data:`MIN_PAGES` pages seen (a robust "common": one page without the menu does not empty it, as a
strict intersection would). The counts live in PostgreSQL (``template_pages``, ``template_items``,
per host and WARC file), so they persist across runs and parallel workers add up; a page already counted
(by its main text) is not counted again, whichever file holds it; a WARC processed again replaces its
own counts. An extraction stage keeps them in memory (:class:`TemplateStats`) and
writes its increments when the file is done.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from dataclasses import dataclass

MIN_PAGES = 2          # a template exists from the second page of a host on
COMMON_SHARE = 0.6     # an item on at least this share of the host's pages is template
MIN_BLOCK_WORDS = 4    # fallback content blocks shorter than this are left out

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


def text_key(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


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
    """The template of one host at one moment: item keys and texts common to its pages."""

    def __init__(self, keys: set[int], texts: set[str], pages: int):
        self.keys, self.texts, self.pages = keys, texts, pages

    def __bool__(self) -> bool:
        return bool(self.keys)

    def is_template_text(self, paragraph: str) -> bool:
        return bool(self.texts) and text_key(paragraph) in self.texts

    def content_items(self, items: list[Item]) -> list[Item]:
        return [item for item in items if item.key not in self.keys]

    def content_text(self, tree) -> list[str]:
        """The page's non-template blocks, in page order: the fallback text."""
        return [item.text for item in self.content_items(page_items(tree))
                if len(item.text.split()) >= MIN_BLOCK_WORDS]


class TemplateStats:
    """Per-host page and item counts: what the database holds for each host (loaded when the host is
    first seen) plus what this process observed, which :meth:`flush` writes for its WARC file."""

    def __init__(self, conn=None, warc_file: str | None = None):
        self.conn, self.warc_file = conn, warc_file
        self.base_pages: Counter = Counter()
        self.base_items: dict[str, Counter] = {}
        self.new_pages: Counter = Counter()
        self.new_items: dict[str, Counter] = {}
        self.texts: dict[str, dict[int, str]] = {}
        self.seen: dict[str, set[int]] = {}
        self.new_page_keys: dict[str, list[int]] = {}

    def _load(self, host: str) -> None:
        if host in self.base_items:
            return
        self.base_items[host] = Counter()
        self.new_items[host] = Counter()
        self.texts[host] = {}
        self.seen[host] = set()
        self.new_page_keys[host] = []
        if self.conn is None:
            return
        # Counts of other WARC files only: this file's own earlier counts are replaced at flush.
        # A page already counted by another file (the same article captured again) is not counted twice.
        self.seen[host] = {row[0] for row in self.conn.execute(
            "SELECT DISTINCT page FROM template_pages WHERE host = %s AND warc_file IS DISTINCT FROM %s",
            (host, self.warc_file))}
        self.base_pages[host] = len(self.seen[host])
        for key, pages, text in self.conn.execute(
                "SELECT item, sum(pages), min(text) FROM template_items WHERE host = %s"
                " AND warc_file IS DISTINCT FROM %s GROUP BY item", (host, self.warc_file)):
            self.base_items[host][key] = int(pages)
            self.texts[host][key] = text

    def pages(self, host: str) -> int:
        self._load(host)
        return self.base_pages[host] + self.new_pages[host]

    def observe(self, host: str, items: list[Item], page_key: str) -> bool:
        """Count a page of the host (once per distinct main text); False when it was seen already."""
        self._load(host)
        page = item_key("page", page_key)
        if page in self.seen[host]:
            return False
        self.seen[host].add(page)
        self.new_page_keys[host].append(page)
        self.new_pages[host] += 1
        keys = {}
        for item in items:
            keys.setdefault(item.key, item.text)
        self.new_items[host].update(keys.keys())
        for key, text in keys.items():
            self.texts[host].setdefault(key, text)
        return True

    def template(self, host: str) -> SiteTemplate | None:
        """The host's template now, or None before it has MIN_PAGES pages."""
        pages = self.pages(host)
        if pages < MIN_PAGES:
            return None
        needed = max(2, COMMON_SHARE * pages)
        base, new = self.base_items[host], self.new_items[host]
        keys = {k for k in set(base) | set(new) if base.get(k, 0) + new.get(k, 0) >= needed}
        texts = {text_key(self.texts[host][k]) for k in keys if k in self.texts[host]}
        return SiteTemplate(keys, texts - {""}, pages)

    def flush(self, conn=None) -> int:
        """Write this file's counts, replacing any earlier ones of the same file; the number of item rows."""
        conn = conn or self.conn
        if conn is None or self.warc_file is None:
            return 0
        rows = 0
        with conn.cursor() as cur:
            cur.execute("DELETE FROM template_pages WHERE warc_file = %s", (self.warc_file,))
            cur.execute("DELETE FROM template_items WHERE warc_file = %s", (self.warc_file,))
            with cur.copy("COPY template_pages (host, warc_file, page) FROM STDIN") as copy:
                for host, pages in self.new_page_keys.items():
                    for page in pages:
                        copy.write_row((host, self.warc_file, page))
            with cur.copy("COPY template_items (host, warc_file, item, pages, text) FROM STDIN") as copy:
                for host, counts in self.new_items.items():
                    for key, pages in counts.items():
                        copy.write_row((host, self.warc_file, key, pages, self.texts[host].get(key, "")[:500]))
                        rows += 1
        return rows
