"""Near-duplicate signatures, pure: a document's words in shingles, their MinHash (fixed seeds and scheme,
so the same text always gets the same signature), its LSH band keys, and the estimated Jaccard similarity
of two signatures. The tables that keep them: :mod:`warc2corpus.store.near_duplicates`.

A shingle is a run of ``SHINGLE_WORDS`` words, hashed to 32 bits from its words' hashes (each word's CRC-32
once, the run's a multilinear hash of them, all runs of a document at once in numpy): hashing each run's
bytes with SHA-1, as datasketch does and this module did until 2026-12-07, took 3.8 s of the held-out pages
x 7's 3,892 documents (2.85 million shingles), their hashes now 0.7-0.9 s and the signatures 0.5. The MinHash
is datasketch's scheme ``affine32`` (seed 1) over those hashes.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from typing import Iterable

import numpy as np

SHINGLE_WORDS = 5        # words per shingle
NUM_PERM = 128           # MinHash values per document
BANDS, ROWS = 42, 3      # LSH: 42 bands of 3 values (the first 126): a pair of similarity 0.5 shares a
                         # band with probability 0.996, one of 0.2 with 0.29 (then the estimate decides)
THRESHOLD = 0.5          # estimated Jaccard similarity of a near-duplicate pair
MIN_SHINGLES = 10        # fewer distinct shingles: signed, never compared (too short to judge)
SEED = 1                 # the permutations' seed: changing it (or the scheme below) means signing everything again
                         # (a migration that empties the signatures: 0015)


def _permutations(num_perm: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """datasketch's ``affine32`` permutations h -> a * h + b (mod 2^32, an odd ``a``: a bijection), drawn as
    it draws them."""
    generator = np.random.RandomState(seed)
    a = generator.randint(0, 1 << 31, num_perm, dtype=np.uint32) * np.uint32(2) + np.uint32(1)
    b = generator.randint(0, 1 << 32, num_perm, dtype=np.uint32)
    return a, b


_A, _B = _permutations(NUM_PERM, SEED)
_EMPTY = np.uint32(0xFFFFFFFF)


def _fmix32(values: np.ndarray) -> np.ndarray:
    """MurmurHash3's 32-bit finalizer (uint32 in, uint32 out)."""
    values = values ^ (values >> np.uint32(16))
    values = values * np.uint32(0x85EBCA6B)
    values = values ^ (values >> np.uint32(13))
    values = values * np.uint32(0xC2B2AE35)
    return values ^ (values >> np.uint32(16))


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # what str.isalnum() accepts: \w without the underscore


def words(token_lists: Iterable[list[str]]) -> list[str]:
    """The document's words in order, lowercased: tokens holding a letter or digit (no punctuation)."""
    return [t.lower() for tokens in token_lists for t in tokens if t.isalnum() or _LETTER_OR_DIGIT.search(t)]


# A run's hash: the sum of its words' CRC-32s times these odd 64-bit constants (mod 2^64), its two halves
# folded into 32 bits and mixed (MurmurHash3's finalizer): runs that differ in any word, or in their order,
# share a hash only by chance, as with any 32-bit hash (15 of the 406,647 distinct runs of the held-out pages'
# texts share one with another, where chance predicts 19).
_RUN_WEIGHTS = np.array([0x9E3779B97F4A7C15, 0xC2B2AE3D27D4EB4F, 0x165667B19E3779F9, 0xD6E8FEB86659FD93,
                         0xFF51AFD7ED558CCD][:SHINGLE_WORDS], dtype=np.uint64)


def shingles(word_list: list[str]) -> np.ndarray:
    """The hashes (uint32, distinct, sorted) of the runs of ``SHINGLE_WORDS`` words (a shorter text is one
    run; no words, none)."""
    if not word_list:
        return np.empty(0, dtype=np.uint32)
    word_hashes = np.fromiter(map(zlib.crc32, map(str.encode, word_list)), dtype=np.uint64, count=len(word_list))
    runs = max(1, len(word_hashes) - SHINGLE_WORDS + 1)
    total = np.zeros(runs, dtype=np.uint64)
    for position, weight in enumerate(_RUN_WEIGHTS[:len(word_hashes)]):
        total += word_hashes[position:position + runs] * weight
    folded = ((total >> np.uint64(32)) ^ total).astype(np.uint32)
    return np.unique(_fmix32(folded))


def signature(shingle_hashes: np.ndarray) -> np.ndarray:
    """The MinHash values (uint32, little-endian) of a document's shingle hashes: for each permutation, the
    least permuted hash; all ones when there are none."""
    if not len(shingle_hashes):
        return np.full(NUM_PERM, _EMPTY, dtype="<u4")
    return (shingle_hashes.reshape(-1, 1) * _A + _B).min(axis=0).astype("<u4")


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
