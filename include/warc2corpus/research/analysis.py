"""Frequencies, trends, concordances and collocations over the research index.

Documents are found through the GIN index of `research_fts.fts`; counts of a word come from the
per-document `terms`/`counts` arrays; everything positional (phrases, bigrams, windows) is read
from the token-id sequences (`seq`) with numpy, a few hundred documents at a time.
"""

from __future__ import annotations

import math

import numpy as np

from warc2corpus.research import store
from warc2corpus.research.corpora import scope_ids
from warc2corpus.research.matching import item_sets, match
from warc2corpus.research.query import BadRequest, FullText, Pattern, is_word, parse_pattern, plain_text, tsquery
from warc2corpus.text.tokens import tokenize

MAX_WINDOW = 25
MAX_LINES = 1000
MAX_TERMS = 20
BATCH = 500
COMMON_SHARE = 0.2      # a word occurring more than 0.2 times per document: trends read every row


def _int(value, param: str, lo: int, hi: int | None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        try:
            value = int(str(value))
        except ValueError:
            raise BadRequest(param, f"not an integer: {value!r}") from None
    if value < lo or hi is not None and value > hi:
        raise BadRequest(param, f"must lie between {lo} and {hi}, not {value}" if hi is not None
                         else f"must be at least {lo}, not {value}")
    return value


def _seed(seed) -> int | None:
    return None if seed is None else _int(seed, "seed", -2**31, 2**31 - 1)


def _batches(rows, size: int = BATCH):
    """Rows (doc_id, seq, *extra) as (rows, concatenated array with -1 between documents, starts)."""
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield _concat(batch)
            batch = []
    if batch:
        yield _concat(batch)


def _concat(batch):
    parts, starts, at = [], [], 0
    sep = np.array([-1], dtype=np.int32)
    for row in batch:
        arr = np.frombuffer(row[1], dtype="<i4")
        starts.append(at)
        parts.append(arr)
        parts.append(sep)
        at += len(arr) + 1
    return batch, np.concatenate(parts), np.asarray(starts, dtype=np.int64)


class _Accumulator:
    """Counts of non-negative ids, growing as needed."""

    def __init__(self):
        self.counts = np.zeros(0, dtype=np.int64)

    def add(self, ids: np.ndarray) -> None:
        if len(ids) == 0:
            return
        found = np.bincount(ids)
        if len(found) > len(self.counts):
            self.counts = np.pad(self.counts, (0, len(found) - len(self.counts)))
        self.counts[:len(found)] += found

    def get(self, i: int) -> int:
        return int(self.counts[i]) if i < len(self.counts) else 0


# ---------------------------------------------------------------------------------------------
# Concordances
# ---------------------------------------------------------------------------------------------

def _count_hits(conn, pattern: Pattern, sets, scope) -> int:
    if len(sets) == 1:
        ids = sets[0].tolist()
        if scope is None:
            return sum(store.collection_counts(conn, ids).values())
        return store.sum_counts(conn, scope, ids, tsquery(pattern))
    total = 0
    with store.stream_seqs(conn, scope, FullText.of(pattern)) as rows:
        for _, arr, _ in _batches(rows):
            total += len(match(arr, sets))
    return total


def _window(text: str, tokens: list[str], starts: list[int], i: int, k: int, before: int, after: int):
    """left, hit, right around tokens i..i+k-1 of one paragraph, `before`/`after` words wide."""
    j, words = i, 0
    while j > 0 and words < before:
        j -= 1
        words += is_word(tokens[j])
    last = i + k - 1
    hit_end = starts[last] + len(tokens[last])
    m, words = last, 0
    while m < len(tokens) - 1 and words < after:
        m += 1
        words += is_word(tokens[m])
    left = text[starts[j]:starts[i]].strip() if j < i else ""
    right = text[hit_end:starts[m] + len(tokens[m])].strip() if m > last else ""
    return left, text[starts[i]:hit_end], right


def concordance(conn, query, *, corpus=None, before=10, after=10, limit=50, offset=0, seed=None) -> dict:
    """Keyword in context. Lines follow the documents by date (then id), hits in text order; with a
    seed, documents come in an order drawn from the seed and each one's hits too (a random
    sample that pages like the rest). The window never leaves the hit's paragraph."""
    before = _int(before, "before", 0, MAX_WINDOW)
    after = _int(after, "after", 0, MAX_WINDOW)
    limit = _int(limit, "limit", 1, MAX_LINES)
    offset = _int(offset, "offset", 0, None)
    seed = _seed(seed)
    pattern = parse_pattern(query, "query")
    if before + after + pattern.words() > MAX_WINDOW:
        raise BadRequest("window", f"before + after + the hit's {pattern.words()} word(s) come to "
                                   f"{before + after + pattern.words()}, more than {MAX_WINDOW} words")
    scope = scope_ids(conn, corpus)
    sets = item_sets(conn, pattern, "query")
    if sets is None:
        return {"total": 0, "lines": []}
    total = _count_hits(conn, pattern, sets, scope)
    picks, skip = [], offset
    with store.stream_seqs(conn, scope, FullText.of(pattern),
                           order="date" if seed is None else "random", seed=seed) as rows:
        for doc_id, seq in rows:
            arr = np.frombuffer(seq, dtype="<i4")
            hits = match(arr, sets)
            if seed is not None:
                hits = np.random.default_rng([seed & 0xFFFFFFFF, doc_id & 0xFFFFFFFF]).permutation(hits)
            if len(hits) <= skip:
                skip -= len(hits)
                continue
            taken = hits[skip:skip + limit - len(picks)]
            skip = 0
            separators = np.flatnonzero(arr == -1)
            for pos in taken.tolist():
                para = int(np.searchsorted(separators, pos))
                start = int(separators[para - 1]) + 1 if para else 0
                picks.append((doc_id, para, pos - start))
            if len(picks) >= limit:
                break
    meta, paragraphs = store.line_sources(conn, sorted({p[0] for p in picks}))
    lines = []
    for doc_id, para, i in picks:
        text, tokens, starts = paragraphs[doc_id][para]
        left, hit, right = _window(text, tokens, starts, i, pattern.words(), before, after)
        m = meta[doc_id]
        lines.append({"doc_id": doc_id, "title": m["title"], "publication": m["publication"],
                      "published": m["published"], "harvest_time": m["harvest_time"],
                      "left": left, "hit": hit, "right": right})
    return {"total": total, "lines": lines}


# ---------------------------------------------------------------------------------------------
# Frequencies
# ---------------------------------------------------------------------------------------------

def _bigram_keys(arr: np.ndarray) -> np.ndarray:
    a, b = arr[:-1], arr[1:]
    ok = (a >= 0) & (b >= 0)
    return (a[ok].astype(np.int64) << 32) | b[ok].astype(np.int64)


def _requested(conn, words, ngram: int) -> tuple[list[str], dict[str, int]]:
    """The requested words (or "w1 w2" bigrams) lowercased, and the key of each one known."""
    if not isinstance(words, (list, tuple)) or not all(isinstance(w, str) and w.strip() for w in words):
        raise BadRequest("words", "a list of non-empty strings is expected")
    wanted = [" ".join(plain_text(w, "words").lower().split()) for w in words]
    for w in wanted:
        if len(w.split()) != ngram:
            raise BadRequest("words", f"{w!r} is not a {'word' if ngram == 1 else 'pair of words'}")
        tokens = tokenize(w)[0]
        if len(tokens) != ngram or not all(is_word(t) for t in tokens):
            # "NRK's" is three tokens (nrk ' s), which no frequency list counts as one: it counted 0
            raise BadRequest("words", f"{w!r} is the tokens {' '.join(tokens)!r}, not a "
                                      f"{'word' if ngram == 1 else 'pair of words'} (a concordance counts it)")
    ids = store.word_ids(conn, sorted({part for w in wanted for part in w.split()}))
    keys = {}
    for w in wanted:
        parts = w.split()
        if all(p in ids for p in parts):
            keys[w] = ids[parts[0]] if ngram == 1 else (ids[parts[0]] << 32) | ids[parts[1]]
    return wanted, keys


def _key_word(key: int, ngram: int, names: dict[int, str]) -> str:
    if ngram == 1:
        return names[key]
    return names[key >> 32] + " " + names[key & 0xFFFFFFFF]


def _per_million(count: int, total: int) -> float:
    return count / total * 1e6 if total else 0.0


def frequencies(conn, *, corpus=None, n=100, words=None, ngram=1, per_document=False) -> list[dict]:
    """Unigram or bigram counts (bigrams: two adjacent words, no punctuation between them) of a
    corpus or, with corpus=None, of the whole collection; the top n or the given words. Per
    million: per million words of the corpus (of the document, per document)."""
    n = _int(n, "n", 1, 100_000)
    ngram = _int(ngram, "ngram", 1, 2)
    scope = scope_ids(conn, corpus)
    wanted, keys = _requested(conn, words, ngram) if words is not None else (None, None)

    if ngram == 1 and scope is None and not per_document:
        total = store.collection_words(conn)
        if wanted is not None:
            counts = store.collection_counts(conn, list(keys.values()))
            return [{"word": w, "count": counts.get(keys.get(w), 0),
                     "per_million": _per_million(counts.get(keys.get(w), 0), total)} for w in wanted]
        return [{"word": word, "count": count, "per_million": _per_million(count, total)}
                for _, word, count in store.collection_top(conn, n)]

    total, found = _count_scope(conn, scope, ngram)
    if wanted is not None:
        selected = [(w, keys.get(w)) for w in wanted]
    else:
        top = sorted(found.items(), key=lambda kv: -kv[1])[:n]
        names = store.words_of(conn, sorted({i for k, _ in top for i in ((k,) if ngram == 1 else (k >> 32, k & 0xFFFFFFFF))}))
        selected = [(_key_word(k, ngram, names), k) for k, _ in top]
    if not per_document:
        return [{"word": w, "count": found.get(k, 0), "per_million": _per_million(found.get(k, 0), total)}
                for w, k in sorted(selected, key=lambda wk: (-found.get(wk[1], 0), wk[0]))]
    return _per_document(conn, scope, ngram, selected)


def _count_scope(conn, scope, ngram: int) -> tuple[int, dict[int, int]]:
    """Words of the scope, and the count of every unigram or bigram key in it."""
    words, acc, keys, key_counts = 0, _Accumulator(), [], []
    with store.stream_seqs(conn, scope, None) as rows:
        for _, arr, _ in _batches(rows):
            ids = arr[arr >= 0]
            words += len(ids)
            if ngram == 1:
                acc.add(ids)
            else:
                k, c = np.unique(_bigram_keys(arr), return_counts=True)
                keys.append(k)
                key_counts.append(c)
    if ngram == 1:
        nz = np.flatnonzero(acc.counts)
        return words, dict(zip(nz.tolist(), acc.counts[nz].tolist()))
    if not keys:
        return words, {}
    k, c = np.concatenate(keys), np.concatenate(key_counts)
    order = np.argsort(k, kind="stable")
    k, c = k[order], c[order]
    firsts = np.flatnonzero(np.r_[True, k[1:] != k[:-1]])
    return words, dict(zip(k[firsts].tolist(), np.add.reduceat(c, firsts).tolist()))


def _per_document(conn, scope, ngram: int, selected: list[tuple[str, int | None]]) -> list[dict]:
    known = [(w, k) for w, k in selected if k is not None]
    if not known:
        return []
    wanted = np.asarray(sorted(k for _, k in known), dtype=np.int64)
    name = {k: w for w, k in known}
    out = []
    with store.stream_seqs(conn, scope, None, order="date") as rows:
        for doc_id, seq in rows:
            arr = np.frombuffer(seq, dtype="<i4")
            words = int((arr >= 0).sum())
            keys = arr[arr >= 0].astype(np.int64) if ngram == 1 else _bigram_keys(arr)
            k, c = np.unique(keys[np.isin(keys, wanted)], return_counts=True)
            for key, count in sorted(zip(k.tolist(), c.tolist()), key=lambda kc: (-kc[1], name[kc[0]])):
                out.append({"doc_id": doc_id, "word": name[key], "count": count,
                            "per_million": _per_million(count, words)})
    return out


# ---------------------------------------------------------------------------------------------
# Trends
# ---------------------------------------------------------------------------------------------

PERIOD_FORMATS = {"year": "%Y", "month": "%Y-%m"}


def trend(conn, terms, *, corpus=None, period="year", date_field="published", split=None) -> list[dict]:
    """Per period (and split value): occurrences of each term, the words of that period, and per
    million. Documents without the date (no publication date found) are not counted."""
    if isinstance(terms, str):
        terms = [terms]
    if not isinstance(terms, (list, tuple)) or not terms or len(terms) > MAX_TERMS:
        raise BadRequest("terms", f"one to {MAX_TERMS} words, prefixes or phrases are expected")
    if period not in PERIOD_FORMATS:
        raise BadRequest("period", f"'year' or 'month', not {period!r}")
    if date_field not in ("published", "harvest"):
        raise BadRequest("date_field", f"'published' or 'harvest', not {date_field!r}")
    if split not in (None, "publication", "language"):
        raise BadRequest("split", f"'publication', 'language' or nothing, not {split!r}")
    patterns = [(term, parse_pattern(term, "terms")) for term in terms]
    scope = scope_ids(conn, corpus)
    totals = None
    per_term = []
    for term, pattern in patterns:
        counts: dict[tuple, int] = {}
        sets = item_sets(conn, pattern, "terms")
        if sets is not None and len(sets) == 1:
            ids = sets[0].tolist()
            common = store.is_common(conn, ids, COMMON_SHARE)
            for p, s, c, words in store.trend_counts(conn, ids, tsquery(pattern), scope, period, date_field,
                                                     split, common):
                counts[(p, s)] = int(c or 0)
                if common and totals is None:
                    totals = {}
                if common and words is not None:
                    totals.setdefault((p, s), int(words))
        elif sets is not None:
            extra = (date_field,) + ((split,) if split else ())
            with store.stream_seqs(conn, scope, FullText.of(pattern), extra=extra) as rows:
                for doc_id, seq, when, *rest in rows:
                    if when is None:
                        continue
                    hits = len(match(np.frombuffer(seq, dtype="<i4"), sets))
                    if hits:
                        key = (when.strftime(PERIOD_FORMATS[period]), rest[0] if rest else None)
                        counts[key] = counts.get(key, 0) + hits
        per_term.append((term, counts))
    if totals is None:
        totals = {(p, s): int(w) for p, s, w in store.trend_totals(conn, scope, period, date_field, split)}
    out = []
    for term, counts in per_term:
        for (p, s), words in sorted(totals.items(), key=lambda kv: (kv[0][0], kv[0][1] or "")):
            row = {"term": term, "period": p}
            if split:
                row[split] = s
            count = counts.get((p, s), 0)
            row.update(count=count, total_words=words, per_million=_per_million(count, words))
            out.append(row)
    return out


# ---------------------------------------------------------------------------------------------
# Collocations
# ---------------------------------------------------------------------------------------------

def _log_likelihood(a: int, b: int, c: int, d: int) -> float:
    """Dunning's log-likelihood of a word seen a times in c words and b times in d (Rayson's form),
    negative when the word is relatively rarer in the first."""
    e1 = c * (a + b) / (c + d)
    e2 = d * (a + b) / (c + d)
    ll = 0.0
    if a:
        ll += a * math.log(a / e1)
    if b:
        ll += b * math.log(b / e2)
    return 2 * ll if a / c >= b / d else -2 * ll


def collocations(conn, query, *, corpus=None, before=5, after=5, reference="collection", sample=None,
                 seed=None, n=100) -> list[dict]:
    """Words within `before`/`after` words of each hit (never across a paragraph, punctuation not
    counted), over the corpus or a seeded sample of `sample` of its documents holding the query.

    count: occurrences in the windows (W in all); reference_count: in the reference (R words);
    relative = (count / W) / (reference_count / R); log_likelihood: Dunning's G² of count in W
    against reference_count in R, negative when the word is rarer in the windows; pmi = log2(count * N / (hits * f * (before + after))), N the words
    of the documents read and f the word's count in them. Sorted by log_likelihood."""
    before = _int(before, "before", 0, MAX_WINDOW)
    after = _int(after, "after", 0, MAX_WINDOW)
    if before + after == 0:
        raise BadRequest("window", "before and after are both 0: the window is empty")
    if before + after > MAX_WINDOW:
        raise BadRequest("window", f"before + after come to {before + after}, more than {MAX_WINDOW} words")
    n = _int(n, "n", 1, 10_000)
    sample = None if sample is None else _int(sample, "sample", 1, 100_000)
    seed = _seed(seed)
    pattern = parse_pattern(query, "query")
    scope = scope_ids(conn, corpus)
    if reference != "collection" and not isinstance(reference, str):
        raise BadRequest("reference", "'collection' or a saved corpus id is expected")
    ref_scope = None if reference == "collection" else scope_ids(conn, reference, param="reference")
    sets = item_sets(conn, pattern, "query")
    if sets is None:
        return []
    # The windows count words: a hit's punctuation (NRK's) is no word of it, nor of a window.
    lead = next(j for j, item in enumerate(pattern.items) if not item.punct)  # the hit's first word
    span = sum(not item.punct for item in pattern.items)                     # and its words
    offsets = np.r_[np.arange(-before, 0), np.arange(span, span + after)]
    coll, freq, words, hits_total = _Accumulator(), _Accumulator(), 0, 0
    with store.stream_seqs(conn, scope, FullText.of(pattern), sample=sample, seed=seed) as rows:
        for _, arr, _ in _batches(rows):
            ids = arr[arr >= 0]
            words += len(ids)
            freq.add(ids)
            hits = match(arr, sets)
            if not len(hits):
                continue
            hits_total += len(hits)
            keep = (arr >= 0) | (arr == -1)            # words and separators: windows count words
            w = arr[keep]
            where = np.cumsum(keep) - 1
            para = np.cumsum(w == -1)
            h = where[hits + lead]
            idx = h[:, None] + offsets[None, :]
            inside = (idx >= 0) & (idx < len(w))
            idx = np.clip(idx, 0, len(w) - 1)
            inside &= (w[idx] >= 0) & (para[idx] == para[h][:, None])
            coll.add(w[idx[inside]])
    found = np.flatnonzero(coll.counts)
    if not len(found):
        return []
    window_total = int(coll.counts.sum())
    ids = found.tolist()
    if ref_scope is None:
        ref_counts, ref_total = store.collection_counts(conn, ids), store.collection_words(conn)
    else:
        ref_total, ref_found = _count_scope(conn, ref_scope, 1)
        ref_counts = {i: ref_found.get(i, 0) for i in ids}
    rows = []
    for i in ids:
        count, ref = int(coll.counts[i]), int(ref_counts.get(i, 0))
        rows.append({
            "word_id": i, "count": count, "reference_count": ref,
            "relative": (count / window_total) / (ref / ref_total) if ref and ref_total else None,
            "log_likelihood": _log_likelihood(count, ref, window_total, ref_total) if ref_total else None,
            "pmi": math.log2(count * words / (hits_total * freq.get(i) * (before + after))),
        })
    rows.sort(key=lambda r: (-(r["log_likelihood"] or 0), -r["count"], r["word_id"]))
    rows = rows[:n]
    names = store.words_of(conn, [r["word_id"] for r in rows])
    return [{"word": names[r.pop("word_id")], **r} for r in rows]
