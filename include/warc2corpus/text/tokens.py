"""Tokens with nb-tokenizer (the National Library's tokenizer), with their character offsets."""

from __future__ import annotations

import nb_tokenizer


def tokenize(paragraph: str) -> tuple[list[str], list[int]]:
    """Tokens of one paragraph and where each starts in it (same tokens as nb_tokenizer.tokenize)."""
    tokens, starts = [], []
    for match in nb_tokenizer.regex.finditer(paragraph):
        tokens.append(match.group(0))
        starts.append(match.start())
    return tokens, starts
