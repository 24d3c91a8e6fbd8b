"""How natural a paragraph reads: a bigram language model per language, length-normalised.

    log P(w1 … wn) ≈ log P(w1) + Σ log P(wi | wi-1),   score = that sum / n

Unigrams start from the word-frequency lists the language identifier already holds (gielladetect's
word models, no extra download or memory) and grow, with the bigrams, from text the project itself
accepted: :func:`refresh` trains a model on the paragraphs of the corpus's most recent documents
(each under its paragraph's language, else its document's) whenever the corpus has grown by
:data:`RETRAIN_GROWTH` since the last training, and stores it in PostgreSQL (``naturalness_models``),
where every extraction worker finds the newest (:func:`latest`) and records which one it used
(``warc_files.naturalness_model``); a file extracted before is judged again by the model it recorded
(:func:`for_file`), so the same file always gives the same text. Until the corpus holds
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
import json
import math
import re
from collections import Counter
from functools import lru_cache

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


@lru_cache(maxsize=4)
def _seed_index(languages: tuple[str, ...]) -> dict[str, int]:
    """Every word of the languages' seed word lists -> a bit mask of the languages that list it."""
    from warc2corpus.text import language

    models = language.classifier().wmodels
    index: dict[str, int] = {}
    for bit, lang in enumerate(languages):
        for word, count in models[lang].freq.items():
            if count:
                index[word] = index.get(word, 0) | (1 << bit)
    return index


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
        return gzip.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), mtime=0)

    @classmethod
    def from_bytes(cls, blob: bytes) -> "Model":
        model = cls()
        data = json.loads(gzip.decompress(blob))
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
        if sum(map(is_junk, raw)) / len(raw) >= JUNK_SHARE:
            return "unnatural"
        code = sum(paragraph.count(ch) for ch in CODE_CHARACTERS)
        if code >= 3 and code / max(1, len(paragraph) - paragraph.count(" ")) >= CODE_SHARE:
            return "unnatural"
        if len(raw) < MIN_TOKENS or len(raw) > MAX_JUDGED_TOKENS:
            return None
        _, mean, known = self.best_language(raw, good_enough=THRESHOLD)  # natural in one language is enough
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


# ---------------------------------------------------------------------------------------------
# The trained model in PostgreSQL
# ---------------------------------------------------------------------------------------------

_LOCK = "warc2corpus.naturalness"  # an advisory lock's key: kept when the module moved
_loaded: dict[int, Model] = {}  # stored models already read by this process, by id


@lru_cache(maxsize=1)
def seed_model() -> Model:
    """The model of word lists alone: what extraction uses before the corpus has trained one."""
    return Model()


def train(conn, documents: int = TRAINING_DOCUMENTS) -> tuple[Model, int]:
    """A model trained on the paragraphs of the corpus's most recent documents (not withdrawn),
    each under its paragraph's language, else its document's; and the number of paragraphs learnt."""
    model, learnt = Model(), 0
    rows = conn.execute(
        """SELECT p.text, coalesce(nullif(p.language, 'und'), d.language)
             FROM (SELECT doc_id, language, harvest_time FROM documents WHERE NOT withdrawn
                    ORDER BY harvest_time DESC, doc_id LIMIT %s) d
             JOIN paragraphs p USING (doc_id)
            ORDER BY d.harvest_time DESC, d.doc_id, p.seq""", (documents,))
    for text, lang in rows:
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


def corpus_paragraphs(conn) -> int:
    return conn.execute("SELECT coalesce(sum(n_paragraphs), 0) FROM documents WHERE NOT withdrawn").fetchone()[0]


def refresh(conn, *, force: bool = False) -> dict:
    """Train and store a new model when the corpus has grown enough since the newest (or ``force``).
    Commits. Returns what it found and did; parallel callers train once (advisory lock)."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (_LOCK,))
    paragraphs = corpus_paragraphs(conn)
    newest = conn.execute(
        "SELECT id, corpus_paragraphs FROM naturalness_models ORDER BY id DESC LIMIT 1").fetchone()
    due = paragraphs >= MIN_TRAINING_PARAGRAPHS and (
        newest is None or paragraphs >= newest[1] * (1 + RETRAIN_GROWTH))
    if not (due or force and paragraphs):
        conn.commit()
        return {"trained": False, "model": newest[0] if newest else None, "corpus_paragraphs": paragraphs}
    model, learnt = train(conn)
    tokens = {lang: n for lang, n in model.totals.items() if n}
    model_id = conn.execute(
        """INSERT INTO naturalness_models (corpus_paragraphs, learnt_paragraphs, tokens, model)
           VALUES (%s, %s, %s, %s) RETURNING id""",
        (paragraphs, learnt, json.dumps(tokens), model.to_bytes())).fetchone()[0]
    conn.commit()
    return {"trained": True, "model": model_id, "corpus_paragraphs": paragraphs, "learnt_paragraphs": learnt,
            "tokens": tokens}


# Ledger states of a file whose paragraphs a model has judged (a quarantined file had none).
EXTRACTED = ("extracted", "loaded", "partial")


def for_file(conn, warc_file: str | None) -> tuple[int | None, Model]:
    """The model that judges a WARC file's paragraphs, and its id: the one its ledger row records when
    the file was extracted before (NULL: the seed model), so that processing it again (a rerun, crash
    recovery, ``reprocess``, readmission) cannot change its text; the newest for a file never extracted."""
    row = conn.execute("SELECT status, naturalness_model FROM warc_files WHERE path = %s",
                       (warc_file,)).fetchone() if warc_file else None
    if row and row[0] in EXTRACTED:
        return row[1], stored(conn, row[1])
    return latest(conn)


def latest(conn) -> tuple[int | None, Model]:
    """The newest stored model and its id; the seed model (id None) when none is stored."""
    row = conn.execute("SELECT max(id) FROM naturalness_models").fetchone()
    model_id = row[0] if row else None
    return model_id, stored(conn, model_id)


def stored(conn, model_id: int | None) -> Model:
    """The stored model of this id (the seed model for None), read once per process."""
    if model_id is None:
        return seed_model()
    if model_id not in _loaded:
        blob = conn.execute("SELECT model FROM naturalness_models WHERE id = %s", (model_id,)).fetchone()[0]
        _loaded.clear()  # one stored model in memory at a time
        _loaded[model_id] = Model.from_bytes(bytes(blob))
    return _loaded[model_id]
