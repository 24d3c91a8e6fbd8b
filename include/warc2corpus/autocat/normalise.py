"""Text as autoCat reads it: bytes decoded, mojibake and entities undone, control characters and odd
spaces folded; a page bounded to its head and tail.
"""

from __future__ import annotations

import html as html_lib
import re
import unicodedata

from warc2corpus.autocat.vocabulary import SPACES


MAX_HTML_CHARS = 3_000_000  # of a page: its first 2 MB and its last 1 MB
HEAD_CHARS = 2_000_000


def _mojibake_table() -> dict[str, str]:
    table = {}
    for char in "æøåÆØÅáÁàéÉèóÓôöÖäÄüÜčČđĐŋŊšŠŧŦžŽïí":
        raw = char.encode("utf-8")
        for codec in ("cp1252", "latin-1"):
            try:
                table[raw.decode(codec)] = char
            except UnicodeDecodeError:
                pass
    return table


_MOJIBAKE = _mojibake_table()
_MOJIBAKE_RE = re.compile("|".join(sorted(map(re.escape, _MOJIBAKE), key=len, reverse=True)))


def fix_mojibake(text: str) -> str:
    """UTF-8 read as Windows-1252/Latin-1 ("redaktÃ¸r") back to what it was ("redaktør")."""
    if "Ã" not in text and "Ä" not in text and "Å" not in text:
        return text
    return _MOJIBAKE_RE.sub(lambda m: _MOJIBAKE[m.group(0)], text)


# Characters that only hint at how to break or join a word, and show nothing: a soft hyphen (&shy;, which sites
# and hyphenation scripts put into long words: "Ansvarlig redak&shy;tør" was no declaration) and the zero-width
# joiners. Left out, so that the word reads whole.
INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200c\u200d\u2060"))


def clean_text(text: str) -> str:
    if "&" in text:
        text = html_lib.unescape(text)  # entities written twice (&amp;oslash;) or left in scripts
    text = fix_mojibake(unicodedata.normalize("NFC", text.translate(INVISIBLE)))
    return SPACES.sub(" ", text).strip()


def clean_lines(lines: list[str]) -> list[str]:
    """``[clean_text(line) for line in lines]``, with the lines that hold no entity cleaned in one pass
    (normalisation, mojibake and spaces never cross a newline; an entity may decode to one)."""
    cleaned = list(lines)
    plain = [i for i, line in enumerate(lines) if "&" not in line]
    if plain:
        text = "\n".join(lines[i] for i in plain).translate(INVISIBLE)
        text = SPACES.sub(" ", fix_mojibake(unicodedata.normalize("NFC", text)))
        for i, line in zip(plain, text.split("\n")):
            cleaned[i] = line.strip()
    for i, line in enumerate(lines):
        if "&" in line:
            cleaned[i] = clean_text(line)
    return cleaned


def decode(raw: bytes) -> str:
    """A page's bytes as the pipeline decodes them (``reading.charsets.decode_html``), so that autoCat's
    eval and its library callers read what the pipeline's autoCat reads."""
    from warc2corpus.reading.charsets import decode_html

    return decode_html(raw)


def bounded(html: str) -> tuple[str, bool]:
    if len(html) <= MAX_HTML_CHARS:
        return html, False
    return html[:HEAD_CHARS] + "\n" + html[-(MAX_HTML_CHARS - HEAD_CHARS):], True


def lower(text: str) -> str:
    """Lowercase without changing the length (U+0130 is the one letter whose lowercase is longer)."""
    return text.replace("\u0130", "I").lower()
