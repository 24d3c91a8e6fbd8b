"""How natural a paragraph reads: a bigram language model per language, length-normalised.

    log P(w1 … wn) ≈ log P(w1) + Σ log P(wi | wi-1),   score = that sum / n

Unigrams start from the word-frequency lists the language identifier already holds (gielladetect's
word models, no extra download or memory) and grow, with the bigrams, from text the project itself
accepts: :meth:`Model.learn` takes paragraphs (the extraction stage feeds it every paragraph it
keeps, so a process learns its crawl as it goes, up to :data:`MAX_LEARNT` tokens per language;
:func:`from_corpus` trains on paragraphs already in the corpus, and :meth:`Model.save` to
:func:`model_path` makes that the model every later process starts from). Bigrams are smoothed towards the unigram (Dirichlet), unigrams towards a tiny
probability that depends on the word's *shape*: an unseen ordinary word is rare, an unseen mix of
letters, digits and code symbols is far rarer.

A paragraph is scored under every language model and keeps its best score. It is dropped
(``unnatural``) when most of its tokens have the shapes of code, tracking strings or URLs, or, when
its best language knows enough of its words to judge, when the score is below :data:`THRESHOLD`
(lists of names or links, keyword salad). Before that, what a researcher wants kept even though it
scores low is protected: dates ("15. april 2017", "2017-04-15", with "Publisert"/"Oppdatert" and the
like) and user names ("@kari_n", "Skrevet av: ola88").
"""

from __future__ import annotations

import gzip
import json
import math
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

MODEL_LANGUAGES = ("nob", "nno", "sme", "smj", "sma", "smn", "sms", "fkv", "dan", "swe", "fin", "isl",
                   "fao", "eng", "deu")
THRESHOLD = -6.5        # mean log10 probability per token below which a judged paragraph is unnatural
MIN_KNOWN = 0.5         # share of tokens the best language must know before its score counts
MIN_TOKENS = 4          # shorter paragraphs are judged by their shapes only
MAX_JUDGED_TOKENS = 60  # ... and so are longer ones: lists of names or links are short, running text long
SCORED_LANGUAGES = 3    # a paragraph is scored under the languages whose word lists know most of its start
MAX_LEARNT = 2_000_000  # tokens learnt per language and process (bounds memory)
JUNK_SHARE = 0.5        # share of junk-shaped tokens that makes a paragraph unnatural whatever its language
CODE_CHARACTERS = "{}[]<>=;|\\^~`$#"
CODE_SHARE = 0.08       # share of code characters among the non-space ones that makes a paragraph code
BIGRAM_PRIOR = 2.0      # Dirichlet weight of the unigram in the bigram estimate

_TOKEN = re.compile(r"[^\W_]+(?:[-'’.][^\W_]+)*|[{}\[\]<>=;|\\/_#$%&*+^~`@]+")
_MONTHS = (r"jan(uar|uary)?|feb(ruar|ruary)?|mar(s|ch)?|apr(il)?|mai|may|jun(i|e)?|jul(i|y)?|aug(ust)?|"
           r"sep(t|tember)?|okt(ober)?|oct(ober)?|nov(ember)?|des(ember)?|dec(ember)?")
DATE = re.compile(
    r"\b\d{1,2}\.?\s*(" + _MONTHS + r")\.?\s+\d{4}\b|\b(19|20)\d\d-\d\d-\d\d\b|\b\d{1,2}\.\d{1,2}\.(19|20)?\d\d\b|"
    r"\b(" + _MONTHS + r")\.?\s+\d{1,2},?\s+\d{4}\b|\b(publisert|oppdatert|sist endret|published|updated)\b",
    re.IGNORECASE)
USER_NAME = re.compile(r"(^|\s)@[\w.]{2,}|^(skrevet av|av|by|posted by|innlegg av|bruker|user)\s*:?\s*\S+",
                       re.IGNORECASE)


def shape_probability(token: str) -> float:
    """The probability of an unseen token of this shape."""
    if token.isdigit():
        return 1e-5
    if token.isalpha():
        return 1e-6
    if re.fullmatch(r"[^\W\d_]+([-'’.][^\W\d_]+)+", token):
        return 1e-6                     # compounds and abbreviations: "NRK-sjefen", "d.d."
    if re.fullmatch(r"\d+([.,:/-]\d+)+", token) or re.fullmatch(r"\d+[^\W\d_]{1,3}", token):
        return 1e-5                     # 3,5  12:30  2017-04-15  3D  20km
    if any(ch.isdigit() for ch in token) and re.search(r"[A-Za-z]", token):
        return 1e-9                     # a8f3k2, x123 (digits with Latin letters; "42日間" is ordinary)
    if token.isalnum():
        return 1e-6
    return 1e-10                        # code symbols


def is_junk(token: str) -> bool:
    return shape_probability(token) <= 1e-9


def tokens_of(paragraph: str) -> list[str]:
    return _TOKEN.findall(paragraph)


def protected(paragraph: str) -> str | None:
    """Why a paragraph is kept whatever its score: ``date``, ``user_name``, or None."""
    if len(paragraph.split()) <= 25 and DATE.search(paragraph):
        return "date"
    if len(paragraph.split()) <= 12 and USER_NAME.search(paragraph):
        return "user_name"
    return None


class Model:
    def __init__(self, languages: tuple[str, ...] = MODEL_LANGUAGES, seed: bool = True):
        self.languages = languages
        self.unigrams: dict[str, Counter] = {lang: Counter() for lang in languages}
        self.bigrams: dict[str, Counter] = {lang: Counter() for lang in languages}
        self.totals: Counter = Counter()
        self.seed: dict[str, tuple[dict, float]] = {}
        if seed:
            from warc2corpus import language

            models = language.classifier().wmodels
            for lang in languages:
                if lang in models:
                    frequencies = models[lang].freq
                    self.seed[lang] = (frequencies, float(sum(frequencies.values()) or 1))

    # --- learning -------------------------------------------------------------------------------

    def learn(self, paragraph: str, lang: str | None = None) -> None:
        """Count the paragraph's words and word pairs, under its language or its best-scoring one."""
        raw = tokens_of(paragraph)
        if not raw:
            return
        lang = lang if lang in self.unigrams else self.likeliest_language(raw)
        if self.totals[lang] >= MAX_LEARNT:
            return
        words = [t.lower() for t in raw]
        self.unigrams[lang].update(words)
        self.totals[lang] += len(words)
        self.bigrams[lang].update(zip(words, words[1:]))

    def save(self, path: Path) -> None:
        data = {"unigrams": {lang: dict(c) for lang, c in self.unigrams.items() if c},
                "bigrams": {lang: {f"{a} {b}": n for (a, b), n in c.items()} for lang, c in self.bigrams.items() if c}}
        with gzip.open(path, "wt", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False)

    @classmethod
    def load(cls, path: Path) -> "Model":
        model = cls()
        with gzip.open(path, "rt", encoding="utf-8") as stream:
            data = json.load(stream)
        for lang, counts in data.get("unigrams", {}).items():
            if lang in model.unigrams:
                model.unigrams[lang].update(counts)
                model.totals[lang] += sum(counts.values())
        for lang, counts in data.get("bigrams", {}).items():
            if lang in model.bigrams:
                model.bigrams[lang].update({tuple(k.split(" ", 1)): n for k, n in counts.items()})
        return model

    # --- scoring --------------------------------------------------------------------------------

    def _unigram(self, lang: str, word: str, raw: str) -> tuple[float, bool]:
        """P(word) under the language and whether the language knows the word."""
        learnt = self.unigrams[lang]
        seed, seed_total = self.seed.get(lang, ({}, 1.0))
        count = seed.get(raw) or seed.get(word) or seed.get(word.capitalize()) or 0
        total = seed_total
        if learnt:
            learnt_total = self.totals[lang]
            count_learnt = learnt.get(word, 0)
            if count_learnt:
                return (count_learnt + count) / (learnt_total + total), True
        if count:
            return count / total, True
        return shape_probability(raw), False

    def score(self, paragraph: str) -> tuple[str, float, float]:
        """(language, mean log10 probability per token, share of tokens it knows) under the language
        that scores the paragraph best."""
        return self.best_language(tokens_of(paragraph))

    def likely_languages(self, raw_tokens: list[str], n: int = 1) -> list[str]:
        """The ``n`` languages whose seed word lists know most of the first tokens (a cheap guess)."""
        sample = raw_tokens[:12]
        known = {lang: sum(bool(seed.get(t) or seed.get(t.lower())) for t in sample)
                 for lang, (seed, _) in self.seed.items()}
        ranked = sorted(known, key=lambda lang: -known[lang])
        return ranked[:n] if ranked else list(self.languages[:n])

    def likeliest_language(self, raw_tokens: list[str]) -> str:
        return self.likely_languages(raw_tokens, 1)[0]

    def best_language(self, raw_tokens: list[str]) -> tuple[str, float, float]:
        best = (self.languages[0], -math.inf, 0.0)
        if not raw_tokens:
            return best
        for lang in self.likely_languages(raw_tokens, SCORED_LANGUAGES):
            total, known, previous = 0.0, 0, None
            counts_prev = Counter()
            for raw in raw_tokens:
                word = raw.lower()
                p_uni, seen = self._unigram(lang, word, raw)
                known += seen
                if previous is not None and self.bigrams[lang]:
                    pair = self.bigrams[lang].get((previous, word), 0)
                    context = counts_prev.get(previous)
                    if context is None:
                        context = self.unigrams[lang].get(previous, 0)
                        counts_prev[previous] = context
                    p = (pair + BIGRAM_PRIOR * p_uni) / (context + BIGRAM_PRIOR)
                else:
                    p = p_uni
                total += math.log10(p)
                previous = word
            mean = total / len(raw_tokens)
            if mean > best[1]:
                best = (lang, mean, known / len(raw_tokens))
        return best

    def judge(self, paragraph: str) -> str | None:
        """None when the paragraph is natural (or protected), else the reason it is not."""
        if protected(paragraph):
            return None
        raw = tokens_of(paragraph)
        if not raw:
            return None
        if sum(map(is_junk, raw)) / len(raw) >= JUNK_SHARE:
            return "unnatural"
        code = sum(paragraph.count(ch) for ch in CODE_CHARACTERS)
        if code >= 3 and code / max(1, len(paragraph) - paragraph.count(" ")) >= CODE_SHARE:
            return "unnatural"
        if len(raw) < MIN_TOKENS or len(raw) > MAX_JUDGED_TOKENS:
            return None
        _, mean, known = self.best_language(raw)
        if known >= MIN_KNOWN and mean < THRESHOLD:
            return "unnatural"
        return None

    def filter(self, paragraphs: list[str]) -> tuple[list[str], Counter]:
        """The natural (or protected) paragraphs, and the dropped ones counted by reason."""
        kept, dropped = [], Counter()
        for paragraph in paragraphs:
            reason = self.judge(paragraph)
            if reason:
                dropped[reason] += 1
            else:
                kept.append(paragraph)
        return kept, dropped


def from_corpus(conn, limit: int = 200_000) -> Model:
    """A model trained on paragraphs already accepted into the corpus (with their document's language)."""
    model = Model()
    rows = conn.execute(
        "SELECT p.text, d.language FROM paragraphs p JOIN documents d USING (doc_id) "
        "ORDER BY d.harvest_time DESC LIMIT %s", (limit,))
    for text, lang in rows:
        model.learn(text, lang)
    return model


def model_path() -> Path:
    from warc2corpus import settings

    return settings.project_home() / "var" / "naturalness.json.gz"


@lru_cache(maxsize=1)
def default_model() -> Model:
    """The saved model (``var/naturalness.json.gz``) when there is one, else the seed model."""
    path = model_path()
    if path.exists():
        try:
            return Model.load(path)
        except (OSError, ValueError):
            pass
    return Model()
