"""Values as PostgreSQL can keep them."""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(value):
    """``value`` (a text, or lists and dicts of them) as PostgreSQL can keep it: its text cannot hold NUL
    characters, nor UTF-8 a lone surrogate (JSON's "\\ud800" decodes to one); broken pages hold both. NULs
    are left out, a lone surrogate is U+FFFD."""
    if isinstance(value, str):
        if "\x00" in value:
            value = value.replace("\x00", "")
        return _SURROGATE.sub("\ufffd", value) if not value.isascii() and _SURROGATE.search(value) else value
    if isinstance(value, list):
        return [storable(v) for v in value]
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    return value
