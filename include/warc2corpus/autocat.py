"""autoCat: does a host declare a responsible editor? (The National Library's autoCat2 rules.)

A front page (URL path empty or "/") is scored over its HTML, case-insensitively:
0.5 if the main pattern matches, else 0.25 if the alternative one does, plus 0.5 for a link to the
press-ethics codes; at most 1. A host's score is the mean over its front pages:
>= 0.75 accepted, >= 0.3 uncertain (a person decides), below that rejected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

OE = r"(?:ø|&oslash;|&#248;|&#xf8;)"  # ø as written in HTML source

MAIN_PATTERN = re.compile(
    "|".join(
        (
            rf"Ansvarlig redakt{OE}r",
            rf"Ansvarleg redakt{OE}r",
            rf"Ansv\.?\s*redakt{OE}r",
            r"Ansv\.?\s*red\.",
            r"Ansvarlig red\.",
            r"Ansvarleg red\.",
            rf"Sjefsredakt{OE}r",
            r"Sjefsred\.?",
            rf"Sjefredakt{OE}r",
            r"Sjefred\.?",
            r"V(?:á|&aacute;|&#225;)ldodoaimmaheaddji",
        )
    ),
    re.IGNORECASE,
)
ALTERNATIVE_PATTERN = re.compile(rf"Konstituert redakt{OE}r|Redakt{OE}r", re.IGNORECASE)
LINK_PATTERN = re.compile(
    r"""href\s*=\s*["']?(?:https?:)?//(?:www\.)?(?:"""
    r"nored\.no/Redaktoeransvar"
    r"|nored\.no/Redaktoerplakaten"
    r"|presse\.no/pfu/etiske-regler"
    r"|presse\.no/Etisk-regelverk"
    r"|no\.wikipedia\.org/wiki/V%C3%A6r_Varsom-plakaten"
    r")[^\"'\s>]*",
    re.IGNORECASE,
)

SKIPPED_HOST_LABELS = {"samtykke", "samtykker", "stilling", "stillinger", "personvern"}
ACCEPT_AT = 0.75
UNCERTAIN_AT = 0.3


@dataclass
class PageScore:
    score: float
    evidence: dict = field(default_factory=dict)


def is_front_page(url: str | None) -> bool:
    return bool(url) and urlsplit(url).path in ("", "/")


def host_is_skipped(host: str) -> bool:
    return host.split(".", 1)[0] in SKIPPED_HOST_LABELS


def score_page(html: str) -> PageScore:
    """Score one front page; the evidence names what matched."""
    evidence: dict = {}
    score = 0.0
    main = MAIN_PATTERN.search(html)
    if main:
        score += 0.5
        evidence["main"] = main.group(0)
    else:
        alternative = ALTERNATIVE_PATTERN.search(html)
        if alternative:
            score += 0.25
            evidence["alternative"] = alternative.group(0)
    link = LINK_PATTERN.search(html)
    if link:
        score += 0.5
        evidence["link"] = link.group(0).split("=", 1)[1].strip("\"' ")
    return PageScore(min(score, 1.0), evidence)


def status_for(score: float) -> str:
    if score >= ACCEPT_AT:
        return "accepted"
    if score >= UNCERTAIN_AT:
        return "uncertain"
    return "rejected"


def host_verdict(page_scores: list[float]) -> tuple[float, str]:
    """(mean score, status) of a host from the scores of its front pages."""
    mean = sum(page_scores) / len(page_scores)
    return mean, status_for(mean)
