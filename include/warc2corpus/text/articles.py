"""Pages that carry more than one article: keep the one the page names.

News sites that scroll without end put the next article (or several) below the first, each a
complete article of its own with its own headline; stored whole, one such page held 1,300 words
for a 407-word article. The page itself names its article: the canonical link, ``og:url``, the
JSON-LD ``NewsArticle`` and its ``headline``, ``og:title``, ``<title>``. When a page holds two or
more article containers (``<article>``, ``role="article"`` or an ``itemtype`` of schema.org's
Article family, not inside one another) that each have their own ``<h1>``, the one whose headline
the page names is kept and the others are removed from the tree before extraction. When no
container is named, or more than one is (the same article marked up twice), nothing is removed;
nor when the named one is a teaser: a list of stories beside the article may hold one that gives
the page's own headline over a line of text (ESPN's news feed), while the article, with a headline
of its own, holds the text (the named container must hold at least TEASER_SHARE of the text of
the longest other one).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import islice

SAME_HEADLINE = 0.6  # share of the headline's words a container's <h1> must hold to be the named one
TEASER_SHARE = 0.25  # a named container with less text than this share of another's is a teaser
_WORD = re.compile(r"\w+")
_CONTAINERS = ("//article | //*[@role='article'] | "
               "//*[contains(@itemtype, 'schema.org/') and contains(@itemtype, 'Article')]")
_BLOCKS = ("p", "li", "h2", "h3", "h4", "h5", "h6", "blockquote", "figcaption")


@dataclass(frozen=True, slots=True)
class Removed:
    articles: int    # article containers removed
    paragraphs: int  # their text blocks (p, li, h2-h6, blockquote, figcaption)


def _words(text: str | None) -> set[str]:
    return set(_WORD.findall((text or "").casefold()))


def headlines(tree) -> list[set[str]]:
    """The words of each headline the page gives its article: JSON-LD ``headline``/``name`` of an
    Article, ``og:title``, ``twitter:title``, then ``<title>`` (which often ends with the site's name)."""
    found: list[str] = []
    for script in tree.xpath("//script[@type='application/ld+json']"):
        try:
            data = json.loads(script.text or "")
        except ValueError:
            continue
        stack = [data]
        while stack:
            item = stack.pop()
            if isinstance(item, list):
                stack.extend(item)
            elif isinstance(item, dict):
                kind = item.get("@type")
                kinds = kind if isinstance(kind, list) else [kind]
                if any(isinstance(k, str) and k.endswith("Article") for k in kinds):
                    found += [item[key] for key in ("headline", "name") if isinstance(item.get(key), str)]
                stack.extend(v for v in item.values() if isinstance(v, (list, dict)))
    found += tree.xpath("//meta[@property='og:title' or @name='og:title' or @name='twitter:title']/@content")
    found += [title.text_content() for title in tree.xpath("//head/title")]
    return [words for words in map(_words, found) if words]


def _named(h1_words: set[str], names: list[set[str]]) -> bool:
    """Does this <h1> say what one of the page's headlines says (most words in common)?"""
    return bool(h1_words) and any(
        len(h1_words & name) >= SAME_HEADLINE * min(len(name), len(h1_words)) for name in names)


def keep_named_article(tree) -> Removed:
    """Remove the article containers the page does not name (see the module docstring); what went."""
    if len(list(islice(tree.iter("h1"), 2))) < 2:
        # Two containers, neither within the other, each holding an <h1>: two <h1> at least. Most pages
        # have one, and counting is a quarter of the containers' XPath (0.14 against 0.54 ms a page).
        return Removed(0, 0)
    containers = [c for c in tree.xpath(_CONTAINERS) if c.xpath(".//h1")]
    if len(containers) < 2:
        return Removed(0, 0)
    top = [c for c in containers if not any(a in containers for a in c.iterancestors())]
    if len(top) < 2:
        return Removed(0, 0)
    names = headlines(tree)
    named = [c for c in top if _named(_words(c.xpath(".//h1")[0].text_content()), names)]
    if len(named) != 1:
        return Removed(0, 0)
    others = [c for c in top if c is not named[0]]
    if len(named[0].text_content()) < TEASER_SHARE * max(len(c.text_content()) for c in others):
        return Removed(0, 0)
    paragraphs = sum(1 for c in others for element in c.iter(*_BLOCKS) if (element.text_content() or "").strip())
    for container in others:
        container.drop_tree()
    return Removed(len(others), paragraphs)
