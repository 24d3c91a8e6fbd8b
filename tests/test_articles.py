"""text/articles.py: a page that carries more than one article keeps the one it names."""

from __future__ import annotations

from pathlib import Path

from warc2corpus.text import articles, extract

FIXTURES = Path(__file__).parent / "fixtures" / "pages"


def test_a_real_endless_scroll_page_keeps_the_article_its_url_names():
    """Dagbladet puts the next article (its own h1, 1,000+ words) below the one the URL names: stored
    whole, the document held both. Only the named one is kept; what went is counted."""
    html = (FIXTURES / "dagbladet_2026_two_articles.html").read_text(encoding="utf-8")
    whole = extract.parse(html).text_content()
    assert "Solskjær" in whole and "Nord-Korea" in whole

    document = extract.extract(html, "https://www.dagbladet.no/nyheter/angsten-vil-oke/84057530", naturalness=False)
    text = "\n".join(document.paragraphs)
    assert "Søndag gikk Nord-Korea ut og fordømte USAs angrep på Venezuela" in text
    assert "Hypersoniske missiler kan, på samme måte som ballistiske missiler" in text
    assert "Solskjær" not in text and "Manchester United" not in text
    assert document.dropped["other_article"] >= 10
    assert document.title == "- Angsten vil øke"


def _page(head: str, *bodies: str) -> str:
    return f"<html><head>{head}</head><body>{''.join(bodies)}</body></html>"


def _article(headline: str, words: str = "Kommunestyret vedtok budsjettet i går kveld.") -> str:
    return f"<article><h1>{headline}</h1>" + f"<p>{words}</p>" * 4 + "</article>"


def test_only_a_named_article_is_kept_and_others_are_counted():
    tree = extract.parse(_page("<meta property='og:title' content='Ferja står i Sogn – igjen'>",
                               _article("Ferja står i Sogn – igjen"), _article("Neste sak: Streik i Bergen")))
    assert articles.keep_named_article(tree) == articles.Removed(articles=1, paragraphs=4)
    assert [h.text for h in tree.iter("h1")] == ["Ferja står i Sogn – igjen"]


def test_json_ld_headline_names_the_article_when_the_title_has_the_site_name():
    head = ('<title>Dette er saken | Avisa</title><script type="application/ld+json">'
            '{"@context": "https://schema.org", "@graph": [{"@type": "NewsArticle", "headline": "Streik i Bergen"}]}'
            '</script>')
    tree = extract.parse(_page(head, _article("Ferja står"), _article("Streik i Bergen")))
    assert articles.keep_named_article(tree).articles == 1
    assert [h.text for h in tree.iter("h1")] == ["Streik i Bergen"]


def test_nothing_is_removed_when_the_page_names_no_article_or_two():
    unnamed = extract.parse(_page("<title>Avisa</title>", _article("Ferja står"), _article("Streik i Bergen")))
    twice = extract.parse(_page("<meta property='og:title' content='Ferja står'>",
                                _article("Ferja står"), _article("Ferja står")))
    single = extract.parse(_page("<meta property='og:title' content='Ferja står'>", _article("Ferja står")))
    nested = extract.parse(_page("<meta property='og:title' content='Ferja står'>",
                                 "<article><h1>Ferja står</h1><p>Tekst.</p>" + _article("Relatert sak") + "</article>"))
    for tree in (unnamed, twice, single, nested):
        assert articles.keep_named_article(tree) == articles.Removed(0, 0)
    assert len(list(nested.iter("h1"))) == 2


def test_a_teaser_that_gives_the_pages_headline_is_not_taken_for_the_article():
    """ESPN's news feed beside the story holds a teaser under the page's own og:title; the story has a
    headline of its own. Removing all but the teaser emptied the page: nothing is removed."""
    feed = ("<article class='news-feed-item'><h1>Draymond: Feel bad for Oakland, Raiders fans</h1>"
            "<p>Warriors forward speaks out.</p></article>")
    story = _article("Draymond Green: Raiders type of franchise you don't just move",
                     "HOUSTON -- The Oakland Raiders don't deserve fan support for the seasons remaining, "
                     "Draymond Green declared Tuesday after the win over the Houston Rockets.")
    tree = extract.parse(_page("<meta property='og:title' content='Draymond: Feel bad for Oakland, Raiders fans'>",
                               feed, story))
    assert articles.keep_named_article(tree) == articles.Removed(0, 0)
    assert len(list(tree.iter("h1"))) == 2
    # A named article no shorter than a quarter of the next one is the article: the next one goes.
    tree = extract.parse(_page("<meta property='og:title' content='Ferja står i Sogn'>",
                               _article("Ferja står i Sogn"), _article("Neste sak", "Ord. " * 30)))
    assert articles.keep_named_article(tree).articles == 1
