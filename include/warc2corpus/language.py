"""Language of a text with gielladetect (TextCat with Sámi and Kven models, from the National Library).

Only the models of languages likely in a Norwegian web archive are loaded: all 52 would cost
~430 MB and ~0.8 s per process. TextCat ranks languages by character n-grams, then re-ranks the
close ones with word models. Those word models pull text in a language we have no model for
(Portuguese, say) towards Nynorsk, whose word list holds "a", "e", "de", "i", "o": so the word
models may only choose among the character model's top candidates.
"""

from __future__ import annotations

from functools import lru_cache

# ISO 639-3 codes as gielladetect names them.
LANGUAGES = (
    "nob", "nno", "sme", "smj", "sma", "smn", "sms", "fkv",
    "dan", "swe", "isl", "fao", "fin", "kal",
    "eng", "deu", "fra", "spa", "ita", "pol", "rus", "est", "ron", "tur", "som", "ara", "fas", "urd",
)
UNDETERMINED = "und"
MIN_WORDS = 10          # fewer words than this and TextCat guesses: call it undetermined
MAX_CHARS = 2000        # a text's language is clear from its start; this bounds the cost
WORD_MODEL_CHOICES = 3  # the word models choose among this many best character-model candidates


@lru_cache(maxsize=1)
def classifier():
    from gielladetect.text_cat import Classifier

    return Classifier(langs=list(LANGUAGES))


def identify(text: str) -> str:
    """The ISO 639-3 code of the text's language, or ``und`` for text too short to tell."""
    words = [w for w in text.split() if any(ch.isalpha() for ch in w)]
    if len(words) < MIN_WORDS:
        return UNDETERMINED
    return rank(text[:MAX_CHARS])[0]


def rank(text: str) -> list[str]:
    """Languages from most to least likely (TextCat's two-step ranking, word step bounded)."""
    from gielladetect.text_cat import CharModel

    model = classifier()
    sample = CharModel().of_text(text)
    distances = sorted((m.compare(sample), lang) for lang, m in model.cmodels.items())
    best = distances[0][0]
    close = [lang for distance, lang in distances[:WORD_MODEL_CHOICES] if distance <= best * model.DROP_RATIO]
    char_distance = dict((lang, d) for d, lang in distances)
    if len(close) > 1:
        close.sort(key=lambda lang: char_distance[lang]
                   - model.wmodels[lang].compare_tc(text, char_distance[lang]))
    return close + [lang for _, lang in distances if lang not in close]
