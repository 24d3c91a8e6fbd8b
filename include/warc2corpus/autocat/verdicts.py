"""autoCat's weights and verdicts: the weight of each evidence item, the score a page's items make, the
status a score means, and a host's verdict over time (its pages day by day; the latest day decides).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date, datetime


ACCEPT_AT = 0.75
UNCERTAIN_AT = 0.3

WEIGHTS = {
    "named_declaration": 1.0,
    "declaration_label": 0.5,
    "named_editor": 0.45,
    "editor_word": 0.3,
    "code_link": 0.5,
    "code_commitment": 0.5,
    "code_mention": 0.3,
    "press_body_link": 0.3,
}
EDITOR_ITEMS = ("named_declaration", "declaration_label", "named_editor", "editor_word")
ETHICS_ITEMS = ("code_link", "code_commitment", "code_mention", "press_body_link")
# Items that read the same in Danish: worth nothing on a Danish/Swedish page.
DANISH_AMBIGUOUS = ("named_editor", "editor_word")
FOREIGN_PAGE_CAP = 0.5  # a page in Danish or Swedish is never accepted on its own
FOREIGN_LANGUAGES = ("da", "sv")


@dataclass
class PageScore:
    score: float
    evidence: dict = field(default_factory=dict)

    @property
    def status(self) -> str:
        return status_for(self.score)

    @property
    def editors(self) -> list[str]:
        return list(self.evidence.get("editors", []))


def status_for(score: float) -> str:
    if score >= ACCEPT_AT:
        return "accepted"
    if score >= UNCERTAIN_AT:
        return "uncertain"
    return "rejected"


def host_verdict(page_scores: list[float]) -> tuple[float, str]:
    """autoCat2: (mean score, status) of a host from the scores of its front pages."""
    mean = sum(page_scores) / len(page_scores)
    return mean, status_for(mean)


@dataclass
class HostAssessment:
    score: float
    status: str
    editors: list[str]
    foreign: list[dict]
    reason: str
    periods: list[dict]
    front_pages: int
    pages: int


def _day(value) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    return datetime.fromisoformat(str(value).replace("Z", "+00:00")).date()


def _period(day: date, pages: list[dict]) -> dict:
    fronts = [p for p in pages if p["kind"] == "front"]
    caps = [p["evidence"].get("cap", 1.0) for p in pages]

    def combined(group):
        editor = max((p["evidence"].get("parts", {}).get("editor", 0.0) for p in group), default=0.0)
        ethics = max((p["evidence"].get("parts", {}).get("ethics", 0.0) for p in group), default=0.0)
        return round(min(1.0, editor + ethics, min(caps, default=1.0)), 4), editor, ethics

    front_score, _, _ = combined(fronts)
    score, editor, ethics = combined(pages)
    contributing = sorted((p for p in pages if p["score"] > 0), key=lambda p: (-p["score"], p["kind"] != "front",
                                                                                  p.get("url") or ""))
    editors = Counter(n for p in pages for n in p["evidence"].get("editors", []))
    foreign = []
    for p in pages:
        for entry in p["evidence"].get("foreign", []):
            if entry not in foreign:
                foreign.append(entry)
    return {
        "day": day.isoformat(),
        "score": score,
        "status": status_for(score),
        "front_score": front_score if fronts else None,
        "editor_weight": editor,
        "ethics_weight": ethics,
        "front_pages": len(fronts),
        "pages": len(pages),
        "editors": [n for n, _ in editors.most_common(6)],
        "foreign": foreign[:6],
        "not_news": sorted({sign for p in pages for sign in p["evidence"].get("not_news", [])}),
        "from_other_pages": bool(fronts) and score > front_score or not fronts,
        "evidence": [{"url": p.get("url"), "kind": p["kind"], "score": p["score"],
                      "explanation": p["evidence"].get("explanation", "")} for p in contributing[:5]],
    }


NOT_NEWS = "declares_editor_not_news"


def not_news_signs(host: str | None, period: dict) -> list[str]:
    """Why a host that declares a responsible editor may not be edited news: its name, and the type
    its pages give their organisation (``vocabulary.NOT_NEWS_HOSTS``, ``NOT_NEWS_TYPES``)."""
    from warc2corpus.autocat.vocabulary import NOT_NEWS_HOSTS

    signs = [f"{what} (host {host})" for pattern, what in NOT_NEWS_HOSTS if host and pattern.search(host)]
    return signs + [sign for sign in period.get("not_news", []) if sign not in signs]


def assess_host(pages: list[dict], host: str | None = None) -> HostAssessment:
    """A host's verdict from every page of it autoCat has read (front pages and supporting pages).

    Pages are grouped by harvest day. Within a day the strongest editor evidence and the strongest
    ethics evidence of all the host's pages are added up, so a silent front page is helped by the
    same crawl's "om oss" page or article footers. Over time the most recent day decides; days with
    only non-front pages count only when they prove a declaration (they never prove its absence),
    unless the host has no front page at all. A host that was accepted and whose latest front page
    no longer declares anything goes to a person (uncertain) instead of out of the corpus. A host
    that declares an editor but looks like a body that is not edited news (``not_news_signs``) is
    ``declares_editor_not_news``: a person decides, it is not accepted on autoCat's word.
    """
    by_day: dict[date, list[dict]] = {}
    for page in pages:
        by_day.setdefault(_day(page["harvest_time"]), []).append(page)
    periods = [_period(day, by_day[day]) for day in sorted(by_day)]
    has_front = any(p["front_pages"] for p in periods)
    deciding = [p for p in periods if p["front_pages"] or p["status"] == "accepted" or not has_front]
    latest = deciding[-1]
    status, score = latest["status"], latest["score"]
    accepted_days = [p["day"] for p in deciding if p["status"] == "accepted"]
    foreign = []
    for p in periods:
        for entry in p["foreign"]:
            if entry not in foreign:
                foreign.append(entry)
    if status == "accepted":
        source = "the front page" if latest["front_score"] is not None and not latest["from_other_pages"] \
            else "other pages of the host" if latest["front_score"] is None else "front page and other pages"
        names = f' naming {", ".join(latest["editors"])}' if latest["editors"] else ""
        reason = f"declaration{names} on {source} on {latest['day']} ({score:g})"
        signs = not_news_signs(host, latest)
        if signs:
            status = NOT_NEWS
            reason = f"{reason}, but {'; '.join(signs)}: is it edited news? A person decides"
    elif accepted_days:
        status = "uncertain"
        reason = (f"declared until {accepted_days[-1]}; not seen on {latest['day']} ({score:g}): "
                  "has the site dropped its declaration?")
    elif foreign and latest["editor_weight"] < WEIGHTS["declaration_label"]:
        langs = sorted({f["language"] for f in foreign})
        reason = (f"only {'/'.join(langs)} editor lines ({foreign[0]['label']}): not a Norwegian declaration"
                  f" ({score:g})")
    elif status == "uncertain":
        reason = f"weak evidence only on {latest['day']} ({score:g}): " + (
            latest["evidence"][0]["explanation"] if latest["evidence"] else "")
    else:
        reason = f"no declaration on {latest['pages']} page(s) on {latest['day']} ({score:g})"
    editors = latest["editors"] or next((p["editors"] for p in reversed(periods) if p["editors"]), [])
    return HostAssessment(
        score=score, status=status, editors=editors, foreign=foreign[:6], reason=reason, periods=periods,
        front_pages=sum(p["front_pages"] for p in periods), pages=sum(p["pages"] for p in periods),
    )
