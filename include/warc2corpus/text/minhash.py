"""Near-duplicate signatures, pure: a document's words in shingles, their MinHash (fixed seed and scheme,
so the same text always gets the same signature), its LSH band keys, and the estimated Jaccard similarity
of two signatures. The tables that keep them: :mod:`warc2corpus.store.near_duplicates`.

The MinHash is datasketch's (2.0.0, scheme ``affine32``, seed 1) computed here in a few lines of numpy,
value for value (``tests/test_near_duplicates.py`` compares the two on thousands of sets): datasketch's
import brings scipy with its LSH classes, which are not used (the LSH index is PostgreSQL's), and took
0.30 s of every process that signs (1.3 s of start-up in all), with scipy's 100 MB in every install.
"""

from __future__ import annotations

import hashlib
import re
from typing import Iterable

import numpy as np

SHINGLE_WORDS = 5        # words per shingle
NUM_PERM = 128           # MinHash values per document
BANDS, ROWS = 42, 3      # LSH: 42 bands of 3 values (the first 126): a pair of similarity 0.5 shares a
                         # band with probability 0.996, one of 0.2 with 0.29 (then the estimate decides)
THRESHOLD = 0.5          # estimated Jaccard similarity of a near-duplicate pair
MIN_SHINGLES = 10        # fewer distinct shingles: signed, never compared (too short to judge)
SEED = 1                 # the permutations' seed: changing it (or the scheme below) means signing everything again


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
    """MurmurHash3's 32-bit finalizer, which datasketch applies to each hash before the permutations."""
    values = values ^ (values >> np.uint32(16))
    values = values * np.uint32(0x85EBCA6B)
    values = values ^ (values >> np.uint32(13))
    values = values * np.uint32(0xC2B2AE35)
    return values ^ (values >> np.uint32(16))


_LETTER_OR_DIGIT = re.compile(r"[^\W_]")  # what str.isalnum() accepts: \w without the underscore


def words(token_lists: Iterable[list[str]]) -> list[str]:
    """The document's words in order, lowercased: tokens holding a letter or digit (no punctuation)."""
    return [t.lower() for tokens in token_lists for t in tokens if t.isalnum() or _LETTER_OR_DIGIT.search(t)]


def shingles(word_list: list[str]) -> set[bytes]:
    """The distinct runs of ``SHINGLE_WORDS`` words, each its words' UTF-8 joined by spaces (a shorter
    text is one shingle). Each word is encoded once and the runs joined from ``zip``'s tuples, rather
    than a slice joined and encoded per run: 0.29 -> 0.17 s for the held-out WARC's 563 documents."""
    if len(word_list) <= SHINGLE_WORDS:
        return {" ".join(word_list).encode()} if word_list else set()
    encoded = [word.encode() for word in word_list]
    return set(map(b" ".join, zip(*(encoded[i:] for i in range(SHINGLE_WORDS)))))


def signature(shingle_set: set[bytes]) -> np.ndarray:
    """The MinHash values (uint32, little-endian) of a set of shingles: for each permutation, the least
    permuted hash (a shingle's hash: the first four bytes of its SHA-1, little-endian); all ones when empty."""
    if not shingle_set:
        return np.full(NUM_PERM, _EMPTY, dtype="<u4")
    digests = b"".join(hashlib.sha1(shingle).digest()[:4] for shingle in shingle_set)
    hashes = _fmix32(np.frombuffer(digests, dtype="<u4").astype(np.uint32)).reshape(-1, 1)
    return (hashes * _A + _B).min(axis=0).astype("<u4")


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
