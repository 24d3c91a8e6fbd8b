"""jusText's paragraphs, made cheaper and read as jusText reads them.

trafilatura's fallbacks run jusText on a page whose text came out short or unclean
(``trafilatura.external.try_justext``: jusText's ``ParagraphMaker``, then its classification). The
paragraph maker opens a new ``Paragraph`` at each block tag's start and end, and every one makes its
DOM path and its XPath as strings at once, though most hold no text and are dropped (a page of the
bench gives about 1,500 of them); and a paragraph's ``text`` is joined and normalised again each time
it is read, six times in its classification. :class:`ParagraphMaker` makes the same paragraphs, each
keeping a copy of the path as it opened (the path's entries, whose tag and number never change) and
making the strings when first read; :class:`Paragraph` keeps its text until a text node is added.
:func:`install` puts them in trafilatura (``tests/test_extract.py`` holds both makers' paragraphs
alike on every page of the samples).
"""

from __future__ import annotations

from functools import cached_property

from justext.core import ParagraphMaker as JustextParagraphMaker
from justext.paragraph import Paragraph as JustextParagraph
from justext.utils import normalize_whitespace


def _normalized(text: str) -> str:
    """jusText's ``normalize_whitespace`` (each run of white space one space, or one line feed where it
    holds a line break), which has nothing to do where the text's only white space is single spaces:
    every other white-space character is one ``isprintable`` refuses."""
    if text.isprintable() and "  " not in text:
        return text
    return normalize_whitespace(text)


class Paragraph(JustextParagraph):
    """jusText's paragraph: the same attributes and answers."""

    def __init__(self, path):
        self._path = tuple(path._elements)  # (tag, number among its siblings, children) per open element
        self.text_nodes = []
        self.chars_count_in_links = 0
        self.tags_count = 0
        self.class_type = ""
        self._text, self._text_nodes = "", -1  # made at the first reading

    @cached_property
    def dom_path(self) -> str:
        return ".".join(entry[0] for entry in self._path)

    @cached_property
    def xpath(self) -> str:
        return "/" + "/".join("%s[%d]" % entry[:2] for entry in self._path)

    @property
    def text(self) -> str:
        if self._text_nodes != len(self.text_nodes):
            self._text = _normalized("".join(self.text_nodes).strip())
            self._text_nodes = len(self.text_nodes)
        return self._text

    def append_text(self, text):
        text = _normalized(text)
        self.text_nodes.append(text)
        return text


class ParagraphMaker(JustextParagraphMaker):
    """jusText's paragraph maker, making :class:`Paragraph` objects."""

    def _start_new_pragraph(self):
        # jusText's test, ``paragraph and paragraph.contains_text()``, with the text nodes looked at first:
        # a paragraph without any has no text to make
        paragraph = self.paragraph
        if paragraph is not None and paragraph.text_nodes and paragraph:
            self.paragraphs.append(paragraph)
        self.paragraph = Paragraph(self.path)


def stands_in_for(maker) -> bool:
    """Whether ``maker`` is jusText's own paragraph maker, the one this module was written for."""
    return maker is JustextParagraphMaker


def install() -> None:
    """trafilatura's fallbacks given :class:`ParagraphMaker` (where they still use jusText's own)."""
    from trafilatura import external

    if stands_in_for(external.ParagraphMaker):
        external.ParagraphMaker = ParagraphMaker
