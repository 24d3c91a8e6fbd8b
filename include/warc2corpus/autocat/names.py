"""Editors' names: which tokens may be a person's name, and the names that follow a label.
"""

from __future__ import annotations

import re

from warc2corpus.autocat.vocabulary import (
    INITIAL, LEAD_WORDS, NAME_TOKEN, NOT_NAMES, ORGANISATION_WORDS, PARTICLES, SEPARATORS,
)


def _is_name_token(token: str) -> bool:
    if INITIAL.fullmatch(token):
        return token[0].isupper()
    if not NAME_TOKEN.fullmatch(token) or len(token.rstrip(".")) < 2:
        return False
    if token.lower().rstrip(".") in NOT_NAMES or token.lower() in NOT_NAMES:
        return False
    return token[0].isupper() and not token.endswith(".")


def parse_names(text: str) -> tuple[list[str], int, bool]:
    """Person names at the start of ``text``: ("Kari Nordmann og Ola Hansen, ..." -> both names).

    Returns (names, characters consumed, clean end): a clean end is the end of the text, a
    punctuation mark or the next "Label:", never a running sentence ("Kari Nordmann sier at …").
    """
    names: list[str] = []
    current: list[str] = []
    consumed = 0
    clean = True
    after_mark = False  # the last name was closed by a comma: what follows need not be a name

    def close() -> bool:
        while current and current[-1].lower() in PARTICLES:
            current.pop()
        words = [w for w in current if w.lower() not in PARTICLES]
        full = [w for w in words if not INITIAL.fullmatch(w)]
        ok = (2 <= len(words) <= 6 and bool(full) and not INITIAL.fullmatch(words[-1])
              and not any(w.lower().rstrip(".") in ORGANISATION_WORDS for w in words))
        if ok:
            names.append(" ".join(current))
        current.clear()
        return ok

    for match in re.finditer(r"\S+", text[:300]):
        token = match.group(0)
        if len(token) > 1 and token.endswith(":"):  # "Nettsjef:": the next label begins
            break
        core = token.strip("\"'«»()[]")
        trailing = ""
        while core and core[-1] in ",;|·•.!?" and not INITIAL.fullmatch(core):
            trailing, core = core[-1], core[:-1]
        if not core:  # "|", "–", "·": a separator ends the names
            break
        lower = core.lower()
        if lower in ("og", "&", "and", "+", "samt", "/"):
            if current and close():
                consumed = match.end()
                after_mark = False
                continue
            clean = after_mark or not current
            break
        if _is_name_token(core) or (current and lower in PARTICLES) or (
                core.isupper() and len(core) > 1 and core.isalpha() and lower not in NOT_NAMES):
            current.append(core.title() if core.isupper() and len(core) > 2 else core)
            consumed = match.end()
            after_mark = False
            if trailing:
                if not close():
                    clean = False
                    break
                if trailing != ",":
                    break
                after_mark = True
            continue
        clean = after_mark
        break
    if current:
        close()
    return names, consumed, clean


def lead_in_ok(before: str) -> bool:
    """A declaration starts its element, or follows a separator ("Avisa · Ansvarlig redaktør: …")."""
    before = before.rstrip()
    if not before or before[-1] in SEPARATORS:
        return True
    words = before.rsplit(None, 1)
    if words[-1].lower() in LEAD_WORDS:
        rest = words[0].rstrip() if len(words) > 1 else ""
        return not rest or rest[-1] in SEPARATORS
    return False
