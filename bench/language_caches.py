"""Worst-case memory of the language readings' caches: a process's RSS as made-up words fill them to their caps.

A long WARC meets ever more distinct words; each is cached as it is first read: its character n-grams'
ids (``language._word_gram_ids``, 200,000 words; the ids themselves ``language._gram_ids``, given anew
past 1,000,000 n-grams) and the spelling dictionaries' answer (``language._accepts``, 200,000 words).
Made-up words (4 to 14 random letters) are harder on them than real text, whose n-grams recur: what
this prints bounds what a worker's caches can add to its peak RSS however long the file.

Run: ``.venv/bin/python bench/language_caches.py``
"""

from __future__ import annotations

import random

import psutil

from warc2corpus.text import language

LETTERS = "abcdefghijklmnopqrstuvwxyzæøå"
STEP = 50_000


def main() -> None:
    process = psutil.Process()

    def rss() -> float:
        return process.memory_info().rss / 2**20

    language.preload()
    language._char_table()
    language._dictionary("nob")
    start = rss()
    print(f"after the models' loading: {start:.0f} MB")
    made_up = random.Random(1)

    def word() -> str:
        return "".join(made_up.choice(LETTERS) for _ in range(made_up.randint(4, 14)))

    # Until the n-gram ids are given anew (their cap reached) or stop growing (these letters' 1- to 4-grams
    # all met: about 785,000), as a long file's paragraphs read them (``char_distances_of_many`` keeps
    # the ids bounded before each document).
    n, peak, ids = 0, start, -1
    while len(language._gram_ids()) > ids:
        ids = len(language._gram_ids())
        language._keep_gram_ids_bounded()
        for _ in range(STEP):
            language._word_gram_ids(word())
        n += STEP
        peak = max(peak, rss())
        print(f"{n:>9,} words read: {len(language._gram_ids()):>9,} n-gram ids, "
              f"{language._word_gram_ids.cache_info().currsize:>7,} words' ids cached, RSS {rss():.0f} MB")
    cap = language._accepts.cache_info().maxsize
    for n in range(STEP, cap + 2 * STEP, STEP):
        for _ in range(STEP):
            language._accepts("nob", word())
        peak = max(peak, rss())
        print(f"{n:>9,} words spelled: {language._accepts.cache_info().currsize:>7,} answers cached, RSS {rss():.0f} MB")
    print(f"the caches at their caps add at most {peak - start:.0f} MB to the {start:.0f} MB of the models "
          "(the Bokmål dictionary included)")


if __name__ == "__main__":
    main()
