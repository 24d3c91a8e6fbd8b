"""The National Library's autoCat2 rules over the raw HTML, kept as the baseline ``autocat-eval`` prints
beside ours.
"""

from __future__ import annotations

from warc2corpus.autocat.normalise import MAX_HTML_CHARS, decode
from warc2corpus.autocat.verdicts import PageScore
from warc2corpus.autocat.vocabulary import ALTERNATIVE_PATTERN, LINK_PATTERN, MAIN_PATTERN


def score_page_autocat2(html: str) -> PageScore:
    """The autoCat2 baseline over one front page's raw HTML; the evidence names what matched."""
    html = html[:MAX_HTML_CHARS] if isinstance(html, str) else decode(html)[:MAX_HTML_CHARS]
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
