"""Near-duplicate signatures, pure: a document's words in shingles, their MinHash (datasketch, fixed seed
and scheme, so the same text always gets the same signature), its LSH band keys, and the estimated
Jaccard similarity of two signatures. The tables that keep them: :mod:`warc2corpus.store.near_duplicates`.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable

import numpy as np
from datasketch import MinHash

SHINGLE_WORDS = 5        # words per shingle
NUM_PERM = 128           # MinHash values per document
BANDS, ROWS = 42, 3      # LSH: 42 bands of 3 values (the first 126): a pair of similarity 0.5 shares a
                         # band with probability 0.996, one of 0.2 with 0.29 (then the estimate decides)
THRESHOLD = 0.5          # estimated Jaccard similarity of a near-duplicate pair
MIN_SHINGLES = 10        # fewer distinct shingles: signed, never compared (too short to judge)
SEED = 1                 # datasketch's permutation seed: changing it means signing everything again
SCHEME = "affine32"
_TEMPLATE = MinHash(num_perm=NUM_PERM, seed=SEED, scheme=SCHEME)


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # what str.isalnum() accepts: \w without the underscore


def words(token_lists: Iterable[list[str]]) -> list[str]:
    """The document's words in order, lowercased: tokens holding a letter or digit (no punctuation)."""
    return [t.lower() for tokens in token_lists for t in tokens if t.isalnum() or _LETTER_OR_DIGIT.search(t)]


def shingles(word_list: list[str]) -> set[bytes]:
    """The distinct runs of ``SHINGLE_WORDS`` words (a shorter text is one shingle)."""
    if len(word_list) <= SHINGLE_WORDS:
        return {" ".join(word_list).encode()} if word_list else set()
    return {" ".join(word_list[i:i + SHINGLE_WORDS]).encode()
            for i in range(len(word_list) - SHINGLE_WORDS + 1)}


def signature(shingle_set: set[bytes]) -> np.ndarray:
    """The MinHash values (uint32) of a set of shingles."""
    minhash = MinHash(num_perm=NUM_PERM, seed=SEED, scheme=SCHEME, permutations=_TEMPLATE.permutations)
    minhash.update_batch(list(shingle_set))  # a minimum: the order does not matter
    return minhash.hashvalues.astype("<u4")


def band_keys(values: np.ndarray) -> list[int]:
    """One signed 64-bit key per band: a hash of the band's number and its values."""
    return [int.from_bytes(hashlib.blake2b(band.to_bytes(2, "little") + values[band * ROWS:(band + 1) * ROWS]
                                           .tobytes(), digest_size=8).digest(), "little", signed=True)
            for band in range(BANDS)]


def similarity(a: np.ndarray, b: np.ndarray) -> float:
    """The estimated Jaccard similarity of two signatures: the share of equal values."""
    return float(np.count_nonzero(a == b)) / NUM_PERM


def is_pair(a: np.ndarray, b: np.ndarray) -> tuple[bool, float]:
    """What refresh stores: a candidate (a band in common) whose estimated similarity reaches THRESHOLD."""
    keys_a, keys_b = band_keys(a), band_keys(b)
    estimate = similarity(a, b)
    return any(x == y for x, y in zip(keys_a, keys_b)) and estimate >= THRESHOLD, estimate
