"""autoCat2 baseline: does a host's front page declare a responsible editor and the press-ethics codes?"""

from __future__ import annotations

import gzip

import pytest

from warc2corpus import autocat, extract


def _page(body: str) -> str:
    return f"<html><head><title>Forsiden</title></head><body><main><p>Nyheter i dag.</p></main>{body}</body></html>"


MAIN_VARIANTS = [
    "Ansvarlig redaktør: Kari Nordmann",
    "Ansvarleg redaktør: Kari Nordmann",
    "Ansv. redaktør: Kari Nordmann",
    "Ansv.redaktør Kari Nordmann",
    "Ansv.red. Kari Nordmann",
    "Ansv. red. Kari Nordmann",
    "Ansvarlig red. Kari Nordmann",
    "Ansvarleg red. Kari Nordmann",
    "Sjefredaktør og adm. dir. Kari Nordmann",
    "Sjefsredaktør Kari Nordmann",
    "Sjefred. Kari Nordmann",
    "Sjefsred. Kari Nordmann",
    "Váldodoaimmaheaddji: Máret Sara",
    "V&aacute;ldodoaimmaheaddji: Máret Sara",
    "Ansvarlig redakt&oslash;r: Kari Nordmann",
    "Ansvarlig redakt&#248;r: Kari Nordmann",
    "Ansvarlig redakt&#xf8;r: Kari Nordmann",
]

LINKS = [
    '<a href="https://www.nored.no/Redaktoeransvar/Redaktoerplakaten">Plakaten</a>',
    '<a href="//www.nored.no/Redaktoeransvar">Les om ansvaret</a>',
    "<a href='http://nored.no/Redaktoerplakaten'>Plakaten</a>",
    '<a href="https://presse.no/pfu/etiske-regler/vaer-varsom-plakaten/">Vær Varsom-plakaten</a>',
    '<a href="https://www.presse.no/Etisk-regelverk/Vaer-Varsom-plakaten">Vær Varsom</a>',
    '<a href="https://no.wikipedia.org/wiki/V%C3%A6r_Varsom-plakaten">Vær Varsom-plakaten</a>',
    '<a class="x" href = https://nored.no/Redaktoerplakaten>plakaten</a>',
]


# --- scoring -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("statement", MAIN_VARIANTS)
def test_main_pattern_alone_scores_half(statement):
    result = autocat.score_page(_page(f"<footer><p>{statement}</p></footer>"))
    assert result.score == 0.5
    assert "main" in result.evidence
    assert "alternative" not in result.evidence and "link" not in result.evidence


def test_main_evidence_names_what_matched():
    result = autocat.score_page(_page("<footer>Ansvarlig redakt&oslash;r: Kari</footer>"))
    assert result.evidence == {"main": "Ansvarlig redakt&oslash;r"}


@pytest.mark.parametrize(
    "statement, matched",
    [("Redaktør: Kari Nordmann", "Redaktør"), ("Konstituert redaktør: Ola Nordmann", "Konstituert redaktør"),
     ("Redakt&oslash;r Kari", "Redakt&oslash;r")],
)
def test_alternative_pattern_alone_scores_a_quarter(statement, matched):
    result = autocat.score_page(_page(f"<footer>{statement}</footer>"))
    assert result.score == 0.25
    assert result.evidence == {"alternative": matched}


def test_alternative_not_added_when_main_matches():
    result = autocat.score_page(_page("<footer>Ansvarlig redaktør: Kari. Redaktør: Ola. Konstituert redaktør: Per.</footer>"))
    assert result.score == 0.5
    assert "alternative" not in result.evidence


@pytest.mark.parametrize("link", LINKS)
def test_each_ethics_link_adds_half(link):
    alone = autocat.score_page(_page(f"<footer>{link}</footer>"))
    assert alone.score == 0.5
    assert "link" in alone.evidence and "main" not in alone.evidence
    with_main = autocat.score_page(_page(f"<footer>Ansvarlig redaktør: Kari {link}</footer>"))
    assert with_main.score == 1.0
    with_alternative = autocat.score_page(_page(f"<footer>Redaktør: Kari {link}</footer>"))
    assert with_alternative.score == 0.75


def test_link_evidence_is_the_href():
    result = autocat.score_page(_page(f"<footer>Ansvarlig redaktør: Kari {LINKS[0]}</footer>"))
    assert result.evidence == {
        "main": "Ansvarlig redaktør",
        "link": "https://www.nored.no/Redaktoeransvar/Redaktoerplakaten",
    }


def test_score_is_capped_at_one():
    html = _page("<footer>Ansvarlig redaktør og Sjefredaktør: Kari. Redaktør Ola. " + " ".join(LINKS) + "</footer>")
    assert autocat.score_page(html).score == 1.0


@pytest.mark.parametrize(
    "html",
    [
        _page("<footer>ANSVARLIG REDAKTØR: KARI NORDMANN</footer>"),
        _page("<footer>ansvarlig redaktør: kari nordmann</footer>"),
        _page("<footer>aNsV.ReD. Kari</footer>"),
        _page("<footer>VÁLDODOAIMMAHEADDJI Máret</footer>"),
    ],
)
def test_main_pattern_is_case_insensitive(html):
    assert autocat.score_page(html).score == 0.5


def test_link_is_case_insensitive():
    html = _page('<footer><A HREF="HTTPS://WWW.NORED.NO/REDAKTOERPLAKATEN">x</A></footer>')
    assert autocat.score_page(html).score == 0.5


@pytest.mark.parametrize(
    "html",
    [
        _page(""),
        _page("<footer>Ansvarig utgivare: Klas Granström. Chefredaktör: Klas Granström.</footer>"),
        _page('<footer><a href="https://presse.no/">Pressens Faglige Utvalg</a></footer>'),
        _page('<footer>Vi følger Vær Varsom-plakaten <a href="https://example.no/nored.no/Redaktoerplakaten">x</a></footer>'),
        _page("<footer>Responsible editor: Jane Doe</footer>"),
    ],
)
def test_pages_without_declaration_score_zero(html):
    result = autocat.score_page(html)
    assert result.score == 0.0
    assert result.evidence == {}


# --- front pages and skipped hosts -----------------------------------------------------------------


@pytest.mark.parametrize(
    "url, expected",
    [
        ("https://www.nrk.no", True),
        ("https://www.nrk.no/", True),
        ("https://www.nrk.no/?utm_source=x", True),
        ("https://www.nrk.no/nyheter", False),
        ("https://www.nrk.no/nyheter/", False),
        ("https://www.nrk.no/index.html", False),
        ("", False),
        (None, False),
    ],
)
def test_is_front_page(url, expected):
    assert autocat.is_front_page(url) is expected


@pytest.mark.parametrize("label", ["samtykke", "samtykker", "stilling", "stillinger", "personvern"])
def test_host_is_skipped_for_first_label(label):
    assert autocat.host_is_skipped(f"{label}.nrk.no") is True


@pytest.mark.parametrize(
    "host", ["www.nrk.no", "nrk.no", "www.samtykke.no", "nrk.stilling.no", "stillingsannonser.no", "personvernet.no"]
)
def test_host_is_not_skipped_for_other_labels(host):
    assert autocat.host_is_skipped(host) is False


# --- verdicts --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "score, status",
    [(1.0, "accepted"), (0.75, "accepted"), (0.74, "uncertain"), (0.5, "uncertain"), (0.3, "uncertain"),
     (0.29, "rejected"), (0.25, "rejected"), (0.0, "rejected")],
)
def test_status_for(score, status):
    assert autocat.status_for(score) == status


@pytest.mark.parametrize(
    "scores, mean, status",
    [
        ([1.0], 1.0, "accepted"),
        ([1.0, 0.5], 0.75, "accepted"),
        ([1.0, 0.5, 0.25], 0.5833333333333334, "uncertain"),
        ([0.5, 0.0], 0.25, "rejected"),
        ([0.25, 0.25, 0.5], 1 / 3, "uncertain"),
        ([0.25], 0.25, "rejected"),
        ([0.0, 0.0], 0.0, "rejected"),
    ],
)
def test_host_verdict_is_the_mean(scores, mean, status):
    got_mean, got_status = autocat.host_verdict(scores)
    assert got_mean == pytest.approx(mean)
    assert got_status == status


# --- real pages ------------------------------------------------------------------------------------


def _score(path) -> autocat.PageScore:
    return autocat.score_page(extract.decode_html(gzip.decompress(path.read_bytes())))


def test_dagbladet_page_is_accepted(samples):
    result = _score(samples / "news_fundus" / "test_data" / "no" / "Dagbladet_2024_08_04.html.gz")
    assert result.score >= 0.75
    assert autocat.status_for(result.score) == "accepted"
    assert result.evidence["main"].lower() == "ansvarlig redaktør"
    assert "nored.no/Redaktoeransvar" in result.evidence["link"]


def test_nrk_page_is_at_least_uncertain(samples):
    result = _score(samples / "news_fundus" / "test_data" / "no" / "NRK_2024_08_05.html.gz")
    assert result.score >= 0.3
    assert autocat.status_for(result.score) in ("accepted", "uncertain")
    assert result.evidence["main"].lower() == "ansvarlig redaktør"


def test_no_foreign_page_is_accepted(samples):
    test_data = samples / "news_fundus" / "test_data"
    pages = sorted(p for p in test_data.glob("*/*.html.gz") if p.parent.name != "no")
    assert len(pages) >= 40
    assert test_data / "se" / "Expressen_2025_10_23.html.gz" in pages
    accepted = {str(p.relative_to(test_data)): s.score for p in pages if (s := _score(p)).score >= autocat.ACCEPT_AT}
    assert accepted == {}
    assert _score(test_data / "se" / "Expressen_2025_10_23.html.gz").score < autocat.UNCERTAIN_AT
