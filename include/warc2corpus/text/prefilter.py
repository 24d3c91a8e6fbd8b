"""A regular expression behind a test that is far cheaper than it: the words of which any match must
hold one, looked for all at once by an Aho-Corasick automaton (ahocorasick_rs) in the text's lower
case. A text that holds none of them cannot match, and the expression is not run on it.

The cleaning rules run expressions of many alternatives over every short paragraph, and most
paragraphs match none: Python's engine tries each alternative at each position (``DISCLOSURE``
took 21 µs a paragraph), where one pass of the automaton takes about 1 µs. The words are read
from the expression itself (its parse by Python's own ``re`` parser), never written beside it, so
they cannot fall out of step with it; an expression that has an alternative without such a word
is never skipped (:attr:`Prefiltered.words` is then None).

The test gives the same answer as the expression on every text, never a different one: a text
that matches holds one of the words as the expression's case rules compare characters. Without
``re.IGNORECASE`` that is the word itself. With it, ``re`` compares characters by their simple
lower case (which ``str.lower`` gives for every character but U+0130, İ, whose lower case is
two characters: İ is made "i" first, as ``re`` compares it) or as one of the few pairs it also
takes for one letter (``re._casefix``); of those, "ı"/"i" and "ſ"/"s" are made one letter here,
and a word holding any other such character is not used (none of the cleaning rules' words does).
"""

from __future__ import annotations

import re

try:  # Python's own parser of regular expressions (3.11+)
    from re import _casefix, _constants, _parser
except ImportError:  # pragma: no cover - an older or other Python: every expression runs as it is
    _casefix = _constants = _parser = None

# Two letters of the pairs ``re`` also takes for one letter under IGNORECASE; the others
# (µ/μ, Greek and Cyrillic letters, …) make a word unusable (:func:`_usable`).
_SAME_LETTER = {"ı": "i", "ſ": "s"}


def fold(text: str) -> str:
    """The text as the words are looked for in it under IGNORECASE (see the module docstring)."""
    if "\u0130" in text:
        text = text.replace("\u0130", "i")
    text = text.lower()
    for other, letter in _SAME_LETTER.items():
        if other in text:
            text = text.replace(other, letter)
    return text


def _usable(word: str) -> bool:
    """Whether ``fold`` brings every character ``re`` would take for one of the (folded) word's
    characters to that character."""
    return all(len(char.lower()) == 1 and (char in "is" or ord(char) not in _casefix._EXTRA_CASES)
               for char in word)


def required_words(expression: re.Pattern) -> frozenset[str] | None:
    """Words of which every match of ``expression`` holds one (folded when it ignores case), or None
    when some alternative needs none (or the expression cannot be read)."""
    if _parser is None or not isinstance(expression.pattern, str):
        return None
    try:
        parsed = _parser.parse(expression.pattern, expression.flags)
    except Exception:  # pragma: no cover - whatever compiled parses; a guard is never worth a failure
        return None
    ignore_case = bool(parsed.state.flags & re.IGNORECASE)
    words = _required(parsed.data)
    if words is None:
        return None
    if ignore_case:
        words = frozenset(fold(word) for word in words)
        if not all(_usable(word) for word in words):
            return None
    return words


def _required(items) -> frozenset[str] | None:
    """Of a parsed sequence: the strongest set of words any match of it holds one of (the set whose
    shortest word is longest), or None. Literal characters in a row make a word; a group, an
    alternation (each alternative must need a word: their union) and a repeat of at least one time
    offer the words their contents need; anything else ends a word."""
    C = _constants
    offered: list[frozenset[str]] = []
    run: list[str] = []

    def end_word() -> None:
        if run:
            offered.append(frozenset(["".join(run)]))
            run.clear()

    for op, value in items:
        if op is C.LITERAL:
            run.append(chr(value))
            continue
        end_word()
        if op is C.SUBPATTERN:
            _, add_flags, del_flags, sub = value
            if not (add_flags or del_flags):  # a scoped flag would change how its letters compare
                found = _required(sub.data)
                if found:
                    offered.append(found)
        elif op is C.BRANCH:
            each = [_required(branch.data) for branch in value[1]]
            if all(each):
                offered.append(frozenset().union(*each))
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
            least, _, sub = value
            if least >= 1:
                found = _required(sub.data)
                if found:
                    offered.append(found)
    end_word()
    if not offered:
        return None
    return max(offered, key=lambda words: (min(map(len, words)), -len(words)))


class Prefiltered:
    """``expression`` (a compiled pattern) with the methods the cleaning rules call (``search``,
    ``findall``, ``finditer``), each answering at once, as the expression would, that a text holding
    none of its :attr:`words` has no match."""

    def __init__(self, expression: re.Pattern):
        import ahocorasick_rs

        self.expression = expression
        self.words = required_words(expression)
        self._ignore_case = bool(expression.flags & re.IGNORECASE)
        self._searcher = None if self.words is None else ahocorasick_rs.AhoCorasick(sorted(self.words))

    def may_match(self, text) -> bool:
        if self._searcher is None or not isinstance(text, str):
            return True
        return bool(self._searcher.find_matches_as_indexes(fold(text) if self._ignore_case else text))

    def search(self, text, *args):
        return self.expression.search(text, *args) if self.may_match(text) else None

    def findall(self, text, *args):
        return self.expression.findall(text, *args) if self.may_match(text) else []

    def finditer(self, text, *args):
        return self.expression.finditer(text, *args) if self.may_match(text) else iter(())

    def __repr__(self) -> str:
        return f"Prefiltered({self.expression!r})"
