"""How natural a paragraph reads: a bigram language model per language, length-normalised.

    log P(w1 … wn) ≈ log P(w1) + Σ log P(wi | wi-1),   score = that sum / n

Unigrams start from the word-frequency lists the language identifier already holds (gielladetect's
word models, no extra download or memory) and grow, with the bigrams, from text the project itself
accepted: :func:`train` learns from the paragraphs of the corpus's most recent documents (each under
its paragraph's language, else its document's), which ``store.naturalness_models.refresh`` reads
whenever the corpus has grown by :data:`RETRAIN_GROWTH` since the last training, and stores in
PostgreSQL, where every extraction worker finds the model it must use. This module is pure: no database. Until the corpus holds
:data:`MIN_TRAINING_PARAGRAPHS` paragraphs the seed model (word lists only) is used. Bigrams are smoothed towards the unigram (Dirichlet),
unigrams towards a tiny probability that depends on the word's *shape*: an unseen ordinary word is
rare, an unseen mix of letters, digits and code symbols is far rarer.

A paragraph is scored under the languages whose word lists know most of its words and keeps its best
score (the first language in which it reads as natural ends the search). It is dropped
(``unnatural``) when most of its tokens have the shapes of code, tracking strings or URLs, or, when
its best language knows enough of its words to judge, when the score is below :data:`THRESHOLD`
(lists of names or links, keyword salad). Before that, what a researcher wants kept even though it
scores low is protected: dates ("15. april 2017", "2017-04-15", with "Publisert"/"Oppdatert" and the
like) and user names ("@kari_n", "Skrevet av: ola88").
"""

from __future__ import annotations

import gzip
import math
import re
from collections import Counter
from functools import lru_cache
from typing import Iterable

import msgspec

MODEL_LANGUAGES = ("nob", "nno", "sme", "smj", "sma", "smn", "sms", "fkv", "dan", "swe", "fin", "isl",
                   "fao", "eng", "deu")
THRESHOLD = -6.5        # mean log10 probability per token below which a judged paragraph is unnatural
MIN_KNOWN = 0.5         # share of tokens the best language must know before its score counts
MIN_TOKENS = 4          # shorter paragraphs are judged by their shapes only
MAX_JUDGED_TOKENS = 60  # ... and so are longer ones: lists of names or links are short, running text long
SCORED_LANGUAGES = 3    # a paragraph is scored under the languages whose word lists know most of its start
MAX_LEARNT = 1_000_000  # tokens learnt per language and training (bounds the model's size)
TRAINING_DOCUMENTS = 20_000     # a training reads the paragraphs of this many most recent documents
MIN_TRAINING_PARAGRAPHS = 1_000  # no trained model before the corpus holds this many paragraphs
RETRAIN_GROWTH = 0.25   # ... and a new one each time the corpus has grown by this share
MAX_BIGRAMS = 300_000   # word pairs kept per language in a trained model (memory of every extraction worker)
JUNK_SHARE = 0.5        # share of junk-shaped tokens that makes a paragraph unnatural whatever its language
CODE_CHARACTERS = "{}[]<>=;|\\^~`$#"
CODE_SHARE = 0.08       # share of code characters among the non-space ones that makes a paragraph code
_TABLE_ROW = re.compile(r"\|(?:\s.*)?\s\|\s*$")  # "| Ap | 25,3 | +1,1 |", "| |": a table row as trafilatura writes it
_CELL_BORDER = re.compile(r"(?<!\\)\|")  # trafilatura writes a "|" within a cell as "\|"
DATA_ROW_CELLS = 3      # a table row of this many filled cells (few empty) is data: its borders are no junk
BIGRAM_PRIOR = 2.0      # Dirichlet weight of the unigram in the bigram estimate

_TOKEN = re.compile(r"[^\W_]+(?:[-'’.][^\W_]+)*|[{}\[\]<>=;|\\/_#$%&*+^~`@]+")
MONTHS = (r"jan(uar|uary)?|feb(ruar|ruary)?|mar(s|ch)?|apr(il)?|mai|may|jun(i|e)?|jul(i|y)?|aug(ust)?|"
          r"sep(t|tember)?|okt(ober)?|oct(ober)?|nov(ember)?|des(ember)?|dec(ember)?")
DATE = re.compile(
    r"\b\d{1,2}\.?\s*(" + MONTHS + r")\.?\s+\d{4}\b|\b(19|20)\d\d-\d\d-\d\d\b|\b\d{1,2}\.\d{1,2}\.(19|20)?\d\d\b|"
    r"\b(" + MONTHS + r")\.?\s+\d{1,2},?\s+\d{4}\b|\b(publisert|oppdatert|sist endret|published|updated)\b",
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
    if re.fullmatch(r"\d+([.,:/-]\d+)+", token) or re.fullmatch(r"\d+([.,]\d+)?[^\W\d_]{1,3}", token):
        return 1e-5                     # 3,5  12:30  2017-04-15  3D  20km  2.41hrs
    if token in ("$", "%"):
        return 1e-5                     # a price's, a share's sign
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


@lru_cache(maxsize=4)
def _seed_index(languages: tuple[str, ...]) -> dict[str, int]:
    """Every word of the languages' seed word lists -> a bit mask of the languages that list it. Built with
    set operations, a word at a time only where a language shares it with one before (348,000 words of 15
    lists: 0.13 s a process, where adding each list's words one by one took 0.34)."""
    from warc2corpus.text import language

    models = language.classifier().wmodels
    index: dict[str, int] = {}
    for bit, lang in enumerate(languages):
        frequencies = models[lang].freq
        listed = frequencies.keys() if all(frequencies.values()) else {w for w, n in frequencies.items() if n}
        shared = listed & index.keys()
        for word in shared:
            index[word] |= 1 << bit
        index.update(dict.fromkeys(listed - shared, 1 << bit))
    return index


def is_table_row(paragraph: str) -> bool:
    """Is the paragraph a table row as trafilatura writes it ("| Ap | 25,3 |")?"""
    return _TABLE_ROW.match(paragraph) is not None


def table_cells(row: str) -> list[str]:
    """The cells of a table row as trafilatura writes it ("| Ap | 25,3 |"), each stripped."""
    return [cell.strip() for cell in _CELL_BORDER.split(row.strip()[1:-1])]


def _data_row(row: str) -> bool:
    """A table row of data: three filled cells or more, and few empty ones (a menu set in a table
    leaves cells empty between its items: "| Home | | | | UK | | | | Business |")."""
    cells = table_cells(row)
    filled = sum(1 for cell in cells if cell)
    return filled >= DATA_ROW_CELLS and 2 * (len(cells) - filled) < filled


class Model:
    def __init__(self, languages: tuple[str, ...] = MODEL_LANGUAGES, seed: bool = True):
        self.languages = languages
        self.unigrams: dict[str, Counter] = {lang: Counter() for lang in languages}
        self.bigrams: dict[str, Counter] = {lang: Counter() for lang in languages}
        self.totals: Counter = Counter()
        self.seed: dict[str, tuple[dict, float]] = {}
        if seed:
            from warc2corpus.text import language

            models = language.classifier().wmodels
            for lang in languages:
                if lang in models:
                    frequencies = models[lang].freq
                    self.seed[lang] = (frequencies, float(sum(frequencies.values()) or 1))
            _seed_index(tuple(self.seed))  # built now, with the model, not by the first paragraph judged

    # --- learning -------------------------------------------------------------------------------

    def learn(self, paragraph: str, lang: str) -> bool:
        """Count the paragraph's words and word pairs under its language; False when the model has
        no such language or has learnt :data:`MAX_LEARNT` tokens of it."""
        if lang not in self.unigrams or self.totals[lang] >= MAX_LEARNT:
            return False
        words = [t.lower() for t in tokens_of(paragraph)]
        self.unigrams[lang].update(words)
        self.totals[lang] += len(words)
        self.bigrams[lang].update(zip(words, words[1:]))
        return True

    def to_bytes(self) -> bytes:
        data = {"unigrams": {lang: dict(c) for lang, c in self.unigrams.items() if c},
                "bigrams": {lang: {f"{a} {b}": n for (a, b), n in c.items()} for lang, c in self.bigrams.items() if c}}
        # msgspec and zlib's level 3, as staging: json at level 9 dominated the training step's time;
        # level 3 compresses a model of the held-out pages' 12,000 paragraphs in 82 ms instead of
        # level 6's 206, into 9 % more bytes. Any JSON in gzip reads back (older models too).
        return gzip.compress(msgspec.json.encode(data), compresslevel=3, mtime=0)

    @classmethod
    def from_bytes(cls, blob: bytes) -> "Model":
        model = cls()
        data = msgspec.json.decode(gzip.decompress(blob))
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
        """The ``n`` languages whose seed word lists know most of the first tokens (a cheap guess;
        ties in the model's language order)."""
        languages = tuple(self.seed)
        index = _seed_index(languages)
        if not languages:
            return list(self.languages[:n])
        known = [0] * len(languages)
        for token in raw_tokens[:12]:
            mask = index.get(token, 0) | index.get(token.lower(), 0)
            while mask:
                lowest = mask & -mask
                known[lowest.bit_length() - 1] += 1
                mask ^= lowest
        ranked = sorted(range(len(languages)), key=lambda i: -known[i])
        return [languages[i] for i in ranked[:n]]

    def best_language(self, raw_tokens: list[str], good_enough: float = math.inf) -> tuple[str, float, float]:
        """(language, mean log10 probability per token, share of tokens known) of the best-scoring of
        the likely languages; the first scoring at least ``good_enough`` ends the search."""
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
                if mean >= good_enough:
                    break
        return best

    def judge(self, paragraph: str) -> str | None:
        """None when the paragraph is natural (or protected), else the reason it is not."""
        if protected(paragraph):
            return None
        raw = tokens_of(paragraph)
        if not raw:
            return None
        row = is_table_row(paragraph)
        data = row and _data_row(paragraph)
        judged = [token for token in raw if token != "|"] if data else raw  # a data row's cell borders are no junk
        if judged and sum(map(is_junk, judged)) / len(judged) >= JUNK_SHARE:
            return "unnatural"
        code = sum(paragraph.count(ch) for ch in CODE_CHARACTERS)
        if row:
            code -= paragraph.count("|")  # the cell borders trafilatura writes a table row with
        if code >= 3 and code / max(1, len(paragraph) - paragraph.count(" ")) >= CODE_SHARE:
            return "unnatural"
        if len(raw) < MIN_TOKENS or len(raw) > MAX_JUDGED_TOKENS:
            return None
        _, mean, known = self.best_language(raw, good_enough=THRESHOLD)  # natural in one language is enough
        if known >= MIN_KNOWN and mean < THRESHOLD:
            return "unnatural"
        return None

    def filter(self, paragraphs: list[str],
               removed: list[tuple[str, str]] | None = None) -> tuple[list[str], Counter]:
        """The natural (or protected) paragraphs, and the dropped ones counted by reason (and, when
        ``removed`` is given, appended to it with their reason)."""
        kept, dropped = [], Counter()
        for paragraph in paragraphs:
            reason = self.judge(paragraph)
            if reason:
                dropped[reason] += 1
                if removed is not None:
                    removed.append((reason, paragraph))
            else:
                kept.append(paragraph)
        return kept, dropped


@lru_cache(maxsize=1)
def seed_model() -> Model:
    """The model of word lists alone: what extraction uses before the corpus has trained one."""
    return Model()


def train(paragraphs: Iterable[tuple[str, str]]) -> tuple[Model, int]:
    """A model trained on (paragraph, language) pairs, most recent first; and the number of paragraphs
    learnt. The rarest word pairs beyond MAX_BIGRAMS per language are cut off."""
    model, learnt = Model(), 0
    for text, lang in paragraphs:
        learnt += model.learn(text, lang)
    for bigrams in model.bigrams.values():
        prune(bigrams, MAX_BIGRAMS)
    return model, learnt


def prune(counts: Counter, limit: int) -> None:
    """Drop the rarest entries (count 1, then 2, ...) until at most ``limit`` are left (a count
    cut-off: a pair seen once is then scored like an unseen one, from its words)."""
    cutoff = 1
    while len(counts) > limit:
        for key in [key for key, n in counts.items() if n <= cutoff]:
            del counts[key]
        cutoff += 1
