"""Language of a text with gielladetect (TextCat with Sámi and Kven models, from the National Library).

Only the models of languages that occur in Norwegian web archives are loaded: all 52 would cost
~430 MB and ~0.8 s per process; this set ~80 MB.
"""

from __future__ import annotations

from functools import lru_cache

# ISO 639-3 codes as gielladetect names them.
LANGUAGES = (
    "nob", "nno", "sme", "smj", "sma", "smn", "sms", "fkv",
    "dan", "swe", "isl", "fao", "fin", "eng", "deu", "fra", "spa", "rus", "pol", "kal",
)
UNDETERMINED = "und"
MIN_WORDS = 10       # fewer words than this and TextCat guesses: call it undetermined
MAX_CHARS = 5000     # a long text's language is clear from its start; this bounds the cost


@lru_cache(maxsize=1)
def classifier():
    from gielladetect.text_cat import Classifier

    return Classifier(langs=list(LANGUAGES))


def identify(text: str) -> str:
    """The ISO 639-3 code of the text's language, or ``und`` for text too short to tell."""
    words = [w for w in text.split() if any(ch.isalpha() for ch in w)]
    if len(words) < MIN_WORDS:
        return UNDETERMINED
    return classifier().classify(text[:MAX_CHARS])
