"""text.prefilter: an expression behind the words any of its matches holds, and the same answers."""

import random
import re

import pytest

from warc2corpus.text import extract, phrases
from warc2corpus.text.prefilter import Prefiltered, fold, required_words


def test_the_words_are_read_from_the_expression():
    # each alternative gives the longest of the words it needs; a group, a repeat of one time or more
    # and a nested alternation give theirs; an optional part gives none
    assert required_words(re.compile(r"\bfoo\s+ba|qu+ux(?:es)?|(?:alpha|beta)\d")) == {"foo", "ux", "alpha", "beta"}
    assert required_words(re.compile(r"\bfoo\s+bar|bazq(?:ux)?")) == {"foo", "bazq"}
    assert required_words(re.compile(r"x(?:alpha|beta)+y")) == {"alpha", "beta"}
    assert required_words(re.compile(r"Sign\s+UP", re.IGNORECASE)) == {"sign"}


@pytest.mark.parametrize("pattern", [
    r"\d+|abc",              # an alternative that needs no word
    r"(?:abc)?\d",           # the only word optional
    r"(?i:abc)|def",         # a scoped flag changes how its letters compare
    r"abc|",                 # the empty alternative
])
def test_an_expression_with_an_alternative_that_needs_no_word_is_never_skipped(pattern):
    guarded = Prefiltered(re.compile(pattern))
    assert guarded.words is None
    assert guarded.may_match("nothing here")


def test_a_word_with_a_letter_that_re_pairs_with_another_is_not_used():
    assert required_words(re.compile("µm", re.IGNORECASE)) is None  # µ and μ are one letter to re
    assert required_words(re.compile("µm")) == {"µm"}  # case-sensitive: the character itself


@pytest.mark.parametrize("text", ["DISCLOSURE: ", "Dİsclosure: ", "dısclosure: ", "diſclosure: ", "DISCLOſURE: "])
def test_ignoring_case_it_finds_what_re_finds(text):
    expression = re.compile(r"^\W*disclosure\s*:", re.IGNORECASE)
    assert expression.search(text)
    assert Prefiltered(expression).search(text)
    assert fold(text).startswith("disclosure")


def test_it_skips_a_text_that_holds_none_of_the_words():
    guarded = extract.DISCLOSURE
    assert isinstance(guarded, Prefiltered) and guarded.words
    assert not guarded.may_match("Regjeringen la fram statsbudsjettet for 2024 torsdag.")
    assert guarded.search("Regjeringen la fram statsbudsjettet for 2024 torsdag.") is None
    assert guarded.may_match("Some links are affiliate links.")


EXAMPLES = [
    "We may earn a commission when you buy through links on our site.",
    "Disclosure: the author holds no shares.", "Foto: NTB scanpix", "Photo: AFP", "© 2019 Aftenposten",
    "Share this article", "Tips oss: 22 00 00 00", "Powered by {{ site.name }}", "Lenke til artikkelen",
    "Digg Facebook Twitter Reddit", "Posted by Kari", "Ola skrev:", "All rights reserved. Copyright 2019",
    "This article was originally published on page 28 of the print edition.",
    "Comments are moderated and will appear after approval.", "Use of this site constitutes acceptance of our User Agreement and Privacy Policy.",
]


def _texts(words: list[str], seed: int) -> list[str]:
    """Texts of the expression's own words and filler, and the examples, each in every case and with the
    letters re pairs (ı for i, ſ for s, İ for I) put in."""
    rng = random.Random(seed)
    filler = ["the", "we", "may", "earn", "a", "by", "photo", "©", "2019", "is", "|", ":", "%", "{{", "}}",
              "news", "Nyheter", "abonnement", "K", "İ", "ı", "ſ", "µ", "\n", "-", "(AP)", "AFP", "NTB"]
    texts = [" ".join(rng.choice(words + filler) for _ in range(rng.randint(1, 9))) for _ in range(2000)]
    texts += [example for example in EXAMPLES for _ in range(30)]
    paired = {"i": "ı", "s": "ſ", "I": "İ"}
    varied = []
    for text in texts:
        style = rng.random()
        if style < 0.2:
            text = text.upper()
        elif style < 0.4:
            text = "".join(ch.upper() if rng.random() < 0.5 else ch.lower() for ch in text)
        elif style < 0.7:
            text = "".join(paired[ch] if ch in paired and rng.random() < 0.3 else ch for ch in text)
        varied.append(text)
    return varied


@pytest.mark.parametrize("name", ["CREDIT", "DISCLOSURE", "_BOILERPLATE_ANYWHERE", "SHARING_NAMES", "SIGNED", "SIGN_OFF"])
def test_the_cleaning_rules_expressions_answer_as_before(name):
    guarded = getattr(extract, name)
    expression = guarded.expression
    assert guarded.words, "the expression has a word for every alternative"
    matched = 0
    for text in _texts(sorted(guarded.words), seed=len(name)):
        expected = list(expression.finditer(text))
        assert [m.span() for m in guarded.finditer(text)] == [m.span() for m in expected], text
        assert bool(guarded.search(text)) == bool(expected), text
        matched += bool(expected)
    assert matched >= 30  # the texts test matches, not only their absence
