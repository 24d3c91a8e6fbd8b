"""Decoding and extracting pages: charsets, title/author/date, paragraphs; measured on real news pages."""

from __future__ import annotations

import gzip
import json
import os
import re
from collections import Counter

import pytest

from warc2corpus.reading import charsets
from warc2corpus.text import extract, language, template

WORD = "Blåbærsyltetøy"

ARTICLE = """<!DOCTYPE html>
<html lang="nb">
<head>
<meta charset="utf-8">
<title>Rekordmange på Holmenkollen i helga | Avisa Test</title>
<meta property="og:title" content="Rekordmange på Holmenkollen i helga">
<meta name="author" content="Kari Nordmann">
<meta property="article:published_time" content="2023-03-11T08:15:00+01:00">
</head>
<body>
<header><nav><ul>
<li><a href="/">Forsiden</a></li><li><a href="/sport">Sport</a></li><li><a href="/kultur">Kultur</a></li>
<li><a href="/abonnement">Kjøp abonnement nå og få tilgang til alt innhold</a></li>
</ul></nav></header>
<main><article>
<h1>Rekordmange på Holmenkollen i helga</h1>
<p>Over sytti tusen tilskuere fant veien til Holmenkollen lørdag, og stemningen i bakken var bedre enn på mange år.</p>
<p>Arrangøren forteller at billettene ble utsolgt allerede onsdag, og at kollektivtrafikken gikk som den skulle hele dagen.</p>
<p>Neste år håper de å slå rekorden igjen, men da må været spille på lag med både publikum og utøvere.</p>
</article></main>
<footer><p>Ansvarlig redaktør: Ola Nordmann. Avisa Test arbeider etter Vær Varsom-plakatens regler.</p></footer>
</body></html>"""

BODY = [
    "Over sytti tusen tilskuere fant veien til Holmenkollen lørdag, og stemningen i bakken var bedre enn på mange år.",
    "Arrangøren forteller at billettene ble utsolgt allerede onsdag, og at kollektivtrafikken gikk som den skulle hele dagen.",
    "Neste år håper de å slå rekorden igjen, men da må været spille på lag med både publikum og utøvere.",
]


# --- decode_html ----------------------------------------------------------------------------------


def test_charset_from_content_type_header():
    body = f"<html><body><p>{WORD}</p></body></html>".encode("iso-8859-1")
    assert charsets.decode_html(body, "text/html; charset=ISO-8859-1") == f"<html><body><p>{WORD}</p></body></html>"


def test_quoted_charset_in_header():
    body = WORD.encode("iso-8859-1")
    assert charsets.decode_html(body, 'text/html; charset="iso-8859-1"') == WORD


def test_header_charset_wins_over_meta():
    html = f'<html><head><meta charset="utf-8"></head><body>{WORD}</body></html>'
    assert charsets.decode_html(html.encode("cp1252"), "text/html; charset=windows-1252") == html


@pytest.mark.parametrize("header, meta", [
    ("text/html; charset=ISO-8859-1", '<meta charset="utf-8">'),  # a server's default label
    ("text/html; charset=windows-1252", ""),
    ("text/html", '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15">'),
    ("text/html; charset=iso-8859-10", ""),  # the Nordic set, for Sámi
])
def test_a_utf8_page_under_a_single_byte_label_is_read_as_utf8(header, meta):
    """Bytes that are all valid UTF-8, some beyond ASCII, are UTF-8 whatever single-byte charset labels
    them: "Blåbær" was stored "BlÃ¥bÃ¦r" (a server's AddDefaultCharset, a template's stale meta)."""
    html = f"<html><head>{meta}<title>{WORD}</title></head><body><p>{WORD} – «sitat» ✓</p></body></html>"
    assert charsets.decode_html(html.encode("utf-8"), header) == html


@pytest.mark.parametrize("encoding", ["cp1252", "iso-8859-1", "iso-8859-15"])
def test_a_page_in_its_single_byte_label_is_read_by_it(encoding):
    """The label stands where the bytes are not UTF-8: the letters of a Western page in a single-byte
    charset are single high bytes, which UTF-8 never reads."""
    html = f"<html><body><p>{WORD}: søte jordbær, blå bær og rå løk</p></body></html>"
    assert charsets.decode_html(html.encode(encoding), f"text/html; charset={encoding}") == html


def test_charset_from_meta_when_header_has_none():
    html = f'<html><head><meta charset="iso-8859-1"></head><body>{WORD}</body></html>'
    assert charsets.decode_html(html.encode("iso-8859-1"), "text/html") == html
    assert charsets.decode_html(html.encode("iso-8859-1"), None) == html


def test_charset_from_http_equiv_meta():
    html = f'<meta http-equiv="Content-Type" content="text/html; charset=windows-1252"><p>{WORD} – €</p>'
    assert charsets.decode_html(html.encode("cp1252")) == html


def test_utf8_is_the_default():
    html = f"<html><body>{WORD} ✓</body></html>"
    assert charsets.decode_html(html.encode("utf-8")) == html
    assert charsets.decode_html(html.encode("utf-8"), "text/html") == html


def test_unknown_declared_charset_falls_back():
    assert charsets.decode_html(WORD.encode("utf-8"), "text/html; charset=bogus-charset") == WORD


def test_undecodable_bytes_do_not_raise():
    body = b"\xff\xfe\x81\x8d Bl\xe5b\xe6r \x90"
    text = charsets.decode_html(body, "text/html; charset=utf-8")
    assert isinstance(text, str)
    assert "Blåbær" in text  # cp1252 fallback keeps what it can


def test_stray_bytes_of_another_charset_in_a_utf8_page_are_read_as_windows_1252():
    """A page written in UTF-8 with a footer included from a file still in ISO-8859-1, and a quote pasted from
    a Windows editor: each such byte was a U+FFFD ("Ansvarlig redakt\ufffdr", which autoCat cannot read), and
    under a server's default label "ISO-8859-1" the whole page was mojibake."""
    article = "".join(f"<p>{paragraph}</p>" for paragraph in BODY)
    footer = "<footer>Ansvarlig redaktør: Kari Nordmann – «sitat’»</footer>"
    body = (f'<html><head><meta charset="utf-8"></head><body>{article}'.encode()
            + footer.encode("cp1252") + b"</body></html>")
    for header in ("text/html; charset=utf-8", "text/html", None, "text/html; charset=iso-8859-1"):
        assert charsets.decode_html(body, header) == f'<html><head><meta charset="utf-8"></head><body>{article}{footer}</body></html>'


def test_undeclared_latin1_falls_back_to_cp1252():
    assert charsets.decode_html(WORD.encode("iso-8859-1")) == WORD


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16", "utf-16-le", "utf-16-be"])
@pytest.mark.parametrize("header", ["text/html; charset=iso-8859-1", "text/html; charset=utf-8", "text/html", None])
def test_a_byte_order_mark_outweighs_every_label(encoding, header):
    """As browsers read a page (WHATWG): a UTF-8 page saved with a BOM and served by a server whose
    default label is iso-8859-1 reads right; so does UTF-16 with its mark, whatever the header says."""
    html = f'<html><head><meta charset="iso-8859-1"><title>{WORD}</title></head><body><p>{WORD} ✓</p></body></html>'
    body = html.encode(encoding)
    if encoding in ("utf-16-le", "utf-16-be"):  # the mark written by hand, in the encoding's own order
        body = (b"\xff\xfe" if encoding.endswith("le") else b"\xfe\xff") + body
    assert charsets.decode_html(body, header).lstrip("\ufeff") == html


def test_bytes_that_merely_begin_as_a_utf16_mark_are_not_read_as_utf16():
    body = "ÿþ<html><body><p>Blåbær på låven</p></body></html>".encode("cp1252")
    assert charsets.decode_html(body, "text/html; charset=windows-1252") == body.decode("cp1252")
    assert "Blåbær på låven" in charsets.decode_html(body)


# --- mojibake in the page's own bytes -----------------------------------------------------------------


def _twice_encoded(text: str) -> str:
    """What a CMS that encodes twice writes: UTF-8 read as windows-1252 and written again as UTF-8."""
    return text.encode("utf-8").decode("cp1252")


def test_mojibake_in_a_pages_own_text_is_mended():
    """A page whose text was encoded twice before it was archived ("lÃ¸rdag", "â€“"): no decoding of its
    bytes undoes that; the stored title, author and paragraphs read as the site meant them."""
    title, author = "Brødskiva på låven", "Åse Sæther"
    html = (f"<html><head><title>{_twice_encoded(title)}</title><meta name=\"author\" content=\"{_twice_encoded(author)}\">"
            f"</head><body><article><h1>{_twice_encoded(title)}</h1>"
            + "".join(f"<p>{_twice_encoded(paragraph + ' – sier arrangøren.')}</p>" for paragraph in BODY)
            + "</article></body></html>")
    result = extract.extract(html, "https://www.example.no/nyheter/1")
    assert result.title == title and result.author == author
    assert result.paragraphs == [paragraph + " – sier arrangøren." for paragraph in BODY]


def test_text_without_mojibake_is_left_as_it_is():
    """ftfy changes only what its heuristic finds bad: Norwegian, Sámi and typography stay as written."""
    texts = ["«Det er på tide», sa hun – og gikk.", "Čáhcegáddi ja Ŧ: sámegiella £5 © 2019 §3 °C ½", "ÆØÅ æøå é ü ß"]
    assert extract.mend_mojibake(texts) is texts
    assert extract.mend_mojibake(["ascii only"]) == ["ascii only"]


@pytest.mark.parametrize("places_per_scan", [extract.MOJIBAKE_PLACES_PER_SCAN, 10**9])  # as run; windows always
def test_looks_like_mojibake_is_ftfys_heuristic(places_per_scan, monkeypatch):
    """:func:`extract.looks_like_mojibake` runs ftfy's heuristic only around the places it can match: its
    answer must be the heuristic's on every text. Random texts of the characters ftfy's patterns name (its
    categories, the ones its patterns spell out), other scripts' and ASCII beside them, up to 24 long; a
    version of ftfy with a pattern the places miss fails here."""
    import random

    from ftfy.badness import MOJIBAKE_CATEGORIES, is_bad

    characters = set(extract.MOJIBAKE_SPELLED + "æøåÆØÅ中文Жжщ")
    for category in MOJIBAKE_CATEGORIES.values():
        for start, end in re.findall(r"(.)(?:-(.))?", category, re.DOTALL):
            characters.update(map(chr, range(ord(start), ord(end or start) + 1)))
    characters, ascii_ = sorted(characters), "ab Z.,?!\n1"
    monkeypatch.setattr(extract, "MOJIBAKE_PLACES_PER_SCAN", places_per_scan)
    rng, bad = random.Random(14), 0
    for _ in range(60_000):
        share, length = rng.choice(((0.5, 24), (0.05, 120)))  # dense and sparse
        text = "".join(rng.choice(characters) if rng.random() < share else rng.choice(ascii_)
                       for _ in range(rng.randint(1, length)))
        expected = is_bad(text)
        bad += expected
        assert extract.looks_like_mojibake(text) == expected, text
    assert 10_000 < bad < 50_000


# --- pages nested deeper than libxml2's default limit ---------------------------------------------


def _thread(posts: int, opener: str, closer: str = "") -> str:
    """A forum thread of an old site: each post opened by ``opener`` (and closed by ``closer``)."""
    return ("<html><head><title>Været i Bergen</title></head><body><h1>Været i Bergen</h1>"
            + "".join(f"{opener}<p>Innlegg {i}: {BODY[i % 3]}</p>{closer}\n" for i in range(posts))
            + "</body></html>")


@pytest.mark.parametrize("opener", ['<font face="Arial">', '<div class="innlegg">'])
def test_a_page_whose_tags_are_never_closed_keeps_all_its_text(opener, caplog):
    """libxml2 stops at 256 nested elements unless told otherwise: a thread of 600 posts, each opening a
    <font> or <div> it never closes, kept 253 of them. Now every post, as with the tags closed, and a
    notice says what was done."""
    closer = "</font>" if "font" in opener else "</div>"
    closed = extract.extract(_thread(600, opener, closer), "https://forum.example.no/tråd/1").paragraphs
    with caplog.at_level("WARNING", logger="lxml"):
        unclosed = extract.extract(_thread(600, opener), "https://forum.example.no/tråd/1").paragraphs
    assert len(closed) == 600 and unclosed == closed
    assert any("deeper than libxml2's limit" in record.getMessage() for record in caplog.records)


@pytest.mark.parametrize("depth", [300, 2000, 5000])
def test_a_page_wrapped_in_thousands_of_elements_keeps_its_text(depth):
    """A page inside 300 or 2,000 bare <div>s (beyond 256: nothing of it was kept) reads as without
    them; deeper than lxml's ``huge_tree`` goes (2,048), its wrapper tags are left out before parsing
    and the text is kept all the same — in no case does the code that recurses through the tree (ours,
    trafilatura's) meet a tree deeper than FLAT_DEPTH + FLAT_SLACK levels."""
    page = ("<html><head><title>Holmenkollen</title></head><body>" + "<div>" * depth + "<article><h1>Holmenkollen</h1>"
            + "".join(f"<p>{p}</p>" for p in BODY) + "</article>" + "</div>" * depth + "</body></html>")
    tree = extract.parse(page)
    assert not tree.xpath("/*" * (extract.FLAT_DEPTH + extract.FLAT_SLACK))
    assert extract.extract(page, "https://www.example.no/sport/1", tree=tree).paragraphs == BODY


# --- split_paragraphs ------------------------------------------------------------------------------


def test_split_paragraphs():
    text = "  Første   avsnitt\tmed  mellomrom \n\n   \nAndre avsnitt\nTredje\u00a0avsnitt  "
    assert extract.split_paragraphs(text) == ["Første avsnitt med mellomrom", "Andre avsnitt", "Tredje avsnitt"]


@pytest.mark.parametrize("text", [None, "", "\n \n\t\n"])
def test_split_paragraphs_empty(text):
    assert extract.split_paragraphs(text) == []


# --- extract ---------------------------------------------------------------------------------------


def test_extract_article():
    result = extract.extract(ARTICLE, "https://avisa.example.no/sport/rekord/123")
    assert result.title == "Rekordmange på Holmenkollen i helga"
    assert result.author == "Kari Nordmann"
    assert result.published == "2023-03-11"
    body = [p for p in result.paragraphs if p in BODY]
    assert body == BODY  # all paragraphs, in order
    joined = "\n".join(result.paragraphs)
    for boilerplate in ("Forsiden", "Kjøp abonnement", "Kultur"):
        assert boilerplate not in joined
    for paragraph in result.paragraphs:
        assert paragraph == " ".join(paragraph.split())


@pytest.mark.parametrize("html", ["", "<html><head></head><body></body></html>", "<html><body>   </body></html>"])
def test_extract_empty_page(html):
    result = extract.extract(html)
    assert result.paragraphs == []
    assert result.title is None


# --- real pages -----------------------------------------------------------------------------------


def _ground_truth(samples) -> dict:
    with open(samples / "news_fundus" / "ground_truth_flat.jsonl", encoding="utf-8") as lines:
        return {row["file"]: row for row in map(json.loads, lines)}


def _words(paragraphs) -> Counter:
    return Counter(w.lower() for p in paragraphs for w in re.findall(r"\w+", p))


@pytest.mark.parametrize("file", ["test_data/no/NRK_2024_08_05.html.gz", "test_data/no/Dagbladet_2024_08_04.html.gz"])
def test_real_norwegian_pages(samples, file):
    truth = _ground_truth(samples)[file]
    body = gzip.decompress((samples / "news_fundus" / file).read_bytes())
    result = extract.extract(charsets.decode_html(body, "text/html; charset=utf-8"), truth["url"])
    assert result.title == truth["title"]
    assert result.published == truth["publishing_date"][:10]
    wanted, found = _words(truth["body_paragraphs"]), _words(result.paragraphs)
    recall = sum((wanted & found).values()) / sum(wanted.values())
    assert recall >= 0.9, f"token recall {recall:.3f}"
    assert language.identify("\n".join(result.paragraphs)) == "nob"


def test_link_share_is_the_same_in_every_process():
    """Which paragraphs are link lists must not depend on Python's hash seed (each Airflow worker has
    its own): two overlapping link texts cover 79 % of this paragraph when the longer is taken first,
    58 % the other way round, and a set's order changes with the seed (found on a real page whose
    text differed between processes)."""
    import subprocess
    import sys

    program = ("from collections import Counter; from warc2corpus.text import extract; "
               "print(extract.clean_paragraphs(['Aaaa bbbb cccc dddd eeee'], title=None, dropped=Counter(), "
               "anchors={'aaaa bbbb cccc dddd', 'cccc dddd eeee', 'x' * 12, 'y' * 13, 'z' * 14}))")
    outputs = {subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": str(seed)}).stdout for seed in range(8)}
    assert outputs == {"[]\n"}


@pytest.mark.parametrize("row, anchors, link_words, is_links", [
    ("| Hjem | | | | Nyheter | | | | Siste nytt | | | | Kultur | |", {"siste nytt"}, {"hjem", "nyheter", "kultur"}, True),
    ("| Hjem | | | | Nyheter | | | | Siste nytt | | | | Kultur | |", {"siste nytt"}, {"hjem"}, False),  # half the cells
    ("Hjem Nyheter Kultur", set(), {"hjem", "nyheter", "kultur"}, False),  # no cells: one-word links do not count
    ("Nyheter", set(), {"nyheter"}, False),                                   # ... nor a one-word paragraph
    ("Nyheter | Siste nytt fra Oslo", {"nyheter siste nytt fra oslo"}, set(), True),  # one link whose text holds "|"
    ("The Garden · Derek Jarman (1990)", {"derek jarman 1990"}, {"garden"}, False),  # "·" parts no cells
])
def test_a_menus_row_of_links_is_links(row, anchors, link_words, is_links):
    """A table row or menu whose cells ("|") are each a link's text is links, however short each link
    (a 2008 page's "| Home | | UK | | Guardian Weekly |"); one-word links count only as such cells; and the
    cells never hide a link whose own text holds a "|"."""
    dropped = Counter()
    kept = extract.clean_paragraphs([row], title=None, anchors=anchors, link_words=link_words, dropped=dropped)
    assert (kept, dict(dropped)) == (([], {"links": 1}) if is_links else ([row], {}))


def test_the_pages_one_word_links_are_read_apart():
    tree = extract.parse('<html><body><p><a href="/">Hjem</a> <a href="/n">Siste nytt</a> <a href="#x">Til toppen</a>'
                         '</p></body></html>')
    links = extract._links(tree)
    assert (links.keys, links.single) == ({"siste nytt"}, {"hjem"})


def test_metadata_is_what_trafilatura_reads(samples):
    """text.metadata gives the title, author and date trafilatura's own metadata pass gives, without
    its site name, categories, tags and licence, on every real page of the samples."""
    import trafilatura

    from warc2corpus.quality import evaluation
    from warc2corpus.text import metadata

    pages = evaluation.article_pages(samples) + evaluation.fundus_pages(samples) + evaluation.htmldate_pages(samples)
    compared = 0
    for page in pages:
        theirs = trafilatura.bare_extraction(extract.parse(page.html), url=page.url, with_metadata=True)
        if theirs is None:
            continue
        ours = metadata.of_page(extract.parse(page.html), page.url)
        assert (ours.title, ours.author, ours.published) == (theirs.title or None, theirs.author or None,
                                                              theirs.date or None), page.name
        compared += 1
    assert compared >= 85


def test_dates_are_read_by_htmldates_dateparser_in_fewer_languages():
    """metadata.date_parser is htmldate's dateparser, the same settings, with dateparser's 40 most used
    languages and the Nordic ones: a string one of them reads gets the date all 205 give it (dateparser
    tries them in one order and takes the first that reads it), a string none of them reads no date.
    It serves htmldate during ``of_page`` only, and htmldate's cache of answers is emptied around the
    call, so that the eval's trafilatura alone (htmldate with the same parameters: the same keys in that
    cache) never gets our answer for a string, nor we its."""
    from htmldate import extractors

    from warc2corpus.text import metadata

    theirs, ours = extractors.get_external_parser(), metadata.date_parser()
    assert vars(ours._settings) == vars(theirs._settings)
    read = ["12. mars 2019 kl. 10.15", "15. mai 2021", "den 5 juni 2019", "4. joulukuuta 2019", "March 3, 2019 10:15 AM",
            "Mittwoch, 4. Juli 2018", "31 stycznia 2020 | 10:00", "duminică, 20 septembrie 2020", "3 de marzo de 2020"]
    for string in read + ["Publisert 3. februar 2020", "tarehe 3 Machi 2020", "2019-13-45 99"]:
        assert ours.get_date_data(string)["date_obj"] == theirs.get_date_data(string)["date_obj"], string
    assert all(ours.get_date_data(string)["date_obj"] for string in read)
    swahili = "3 Machi 2020"  # Swahili, dateparser's 43rd language
    assert theirs.get_date_data(swahili)["date_obj"] and ours.get_date_data(swahili)["date_obj"] is None

    import htmldate
    from trafilatura.settings import set_date_params

    page = '<html><body><article><h1>T</h1><p class="date">%s</p><p>Habari za leo.</p></article></body></html>' % swahili
    assert htmldate.find_date(extract.parse(page), **set_date_params(True)) == "2020-03-03"
    # ours: no language of the list reads it, so htmldate falls back to the year alone; its own answer
    # to the string just before was not kept for us, nor ours for it after
    assert metadata.of_page(extract.parse(page), None).published == "2020-01-01"
    assert extractors.get_external_parser is not metadata.date_parser
    assert htmldate.find_date(extract.parse(page), **set_date_params(True)) == "2020-03-03"


def test_json_ld_authors_are_trafilaturas():
    """metadata.json_authors finds what trafilatura's author reader finds in JSON-LD it could not parse:
    on a match that only forms once the match before it is removed (it runs across the cut: a search
    resuming after the removed match would miss "Bo Li"), on 5,000 texts made at random of the
    patterns' pieces (each read with both patterns), and on a live blog's 3,000 entries (their time is
    the benchmark's business)."""
    import random

    from trafilatura import json_metadata
    from trafilatura.json_metadata import JSON_AUTHOR_1, JSON_AUTHOR_2, extract_json_author

    from warc2corpus.text import metadata

    assert metadata.json_authors('"author":{"name":"Ann Lee"}', JSON_AUTHOR_1) == "Ann Lee"  # on its own too
    with metadata._json_authors_replaced():
        assert json_metadata.extract_json_author is metadata.json_authors
    assert json_metadata.extract_json_author is extract_json_author  # put back after the call

    # "Bo Li" is found only once "Ann [Lee" is cut out, by the "author" before it (whose word, in the
    # second text, is completed by the quote that follows the cut)
    for across in ('"author" a"author":b"nam":"Ann [Lee", "name" : "Bo Li"',
                   'x "author"author":b"nam":"Ann [Lee", "name" : "Bo Li"'):
        assert extract_json_author(across, JSON_AUTHOR_1) == "Ann [Lee; Bo Li"
        assert metadata.json_authors(across, JSON_AUTHOR_1) == "Ann [Lee; Bo Li"

    # Texts made at random of what the patterns read: whole matches, openings and pieces of them, the
    # keys they end in, names holding the characters the resumption looks for, and the characters themselves.
    names = ["Ann Lee", "Bo Li", "Cy", "Dag [Eri", "Fe}Gu Ha", "http x y", "Le\\u00e9 Mo"]
    keys = ['"name":"', '"name": "', '"nam":"', '"name\\":\\"', '"names"x"', '"name" : "', '"name"']
    openings = ['"author":', '"author"', '"Person"', '"person"']
    between = [" ", "x", ",", ":", "{", "}", "[", "]", '"', '\\"', '"@type":"Person",', '"nam"']

    def piece(rng):
        kind = rng.random()
        if kind < 0.3:
            return rng.choice(openings) + "".join(rng.choices(between[:5], k=rng.randint(0, 3))) \
                + rng.choice(keys) + rng.choice(names)
        if kind < 0.45:
            return rng.choice(openings)
        if kind < 0.55:
            return rng.choice(['"author', '"Person', '"autho', 'r"', 'or"', '"'])
        if kind < 0.7:
            return rng.choice(keys) + rng.choice(names)
        return "".join(rng.choices(between, k=rng.randint(1, 4)))

    rng = random.Random(14)
    for _ in range(5000):
        text = "".join(piece(rng) for _ in range(rng.randint(1, rng.choice((4, 10, 25)))))
        for pattern in (JSON_AUTHOR_1, JSON_AUTHOR_2):
            assert metadata.json_authors(text, pattern) == extract_json_author(text, pattern), text

    reporters = ["Ann Lee", "Bo Li", "Cy Dahl", "Eva Moe", "Ola Nordmann"]
    entries = ",".join(f'{{"@type":"BlogPosting","author":{{"@type":"Person","name":"{reporters[i % 5]}"}},'
                       f'"articleBody":"Update {i}: a \\"loud bang\\" was heard"}}' for i in range(3000))
    assert metadata.json_authors(entries, JSON_AUTHOR_1) == "; ".join(reporters)


# Every value the author and author-discard XPaths test, each alternative of their patterns, and near misses.
_BYLINE_TAGS = ["a", "address", "div", "link", "p", "span", "strong", "h3", "h4", "section", "time", "figure",
                "author", "li", "b", "h2"]
_BYLINE_ATTRIBUTES = {
    "class": ["author", "Author", "author-name", "authorname", "AuthorName", "authorName", "byline", "Byline", "BYLINE",
              "username", "byl", "BBL", "channel-name", "zuozhe", "bianji", "xiaobian", "submitted-by", "posted-by",
              "journalist-name", "screenname", "writer", "comments", "Comments", "x comments", "commentlist",
              "comment-list", "comments-list", "title", "date", "sidebar", "is-hidden", "quote", "embedly-instagram",
              "article-share", "article-support", "print", "category", "meta-date", "meta-reviewer", "x", "", " "],
    "id": ["author", "Author", "x-author", "zuozhe", "bianji", "xiaobian", "comments", "comments-x", "x comments",
           "commentlist", "comment-list", "ProductReviews", "x", ""],
    "itemprop": ["author", "author name", "x author", "Author"],
    "data-component": ["Byline", "xByline", "Figure", "figure"],
    "rel": ["author", "me", "x"],
    "data-testid": ["AuthorCard", "AuthorURL", "x"],
}
_BYLINE_WORDS = ["By", "Ann", "Lee", " Bo Li ", "12.03", " ", "", "Redaksjonen og NTB", "x" * 130]


def _byline_page(rng, depth: int = 0) -> str:
    """A page (or, below depth 0, an element) made at random of what the byline XPaths test."""
    if depth == 0:
        return "<html><body>" + "".join(_byline_page(rng, 1) for _ in range(rng.randint(1, 4))) + "</body></html>"
    tag = rng.choice(_BYLINE_TAGS)
    attributes = "".join(f' {name}="{rng.choice(values)}"' for name, values in _BYLINE_ATTRIBUTES.items()
                         if rng.random() < 0.2)
    inner = rng.choice(_BYLINE_WORDS)
    for _ in range(rng.randint(0, 3) if depth < 5 else 0):
        inner += (_byline_page(rng, depth + 1) if rng.random() < 0.85 else "<!--c-->") + rng.choice(_BYLINE_WORDS)
    return f"<{tag}{attributes}>{inner}</{tag}>"


def test_the_byline_walk_finds_what_trafilaturas_xpaths_find():
    """xpaths.author_walk finds, per author XPath of trafilatura's, the same elements in the same order,
    and the same elements to remove as its discard XPaths (the root apart: it is never removed), on
    4,000 pages made at random of every value the XPaths test; the XPaths are the ones it was written for."""
    import random

    from trafilatura.xpaths import AUTHOR_DISCARD_XPATHS, AUTHOR_XPATHS

    from warc2corpus.text import xpaths

    extract.parse("<html></html>")  # trafilatura's XPaths guarded, as in a run
    assert xpaths.author_xpaths_unchanged()
    rng = random.Random(31)
    found = [0, 0, 0, 0]
    for _ in range(4000):
        tree = extract.parse(_byline_page(rng))
        walked, removed = xpaths.author_walk(tree)
        for n, (expression, ours) in enumerate(zip(AUTHOR_XPATHS, walked)):
            theirs = expression(tree)
            assert ours == theirs, (n, _html_of(tree))
            found[n] += len(theirs)
        theirs = {e for expression in AUTHOR_DISCARD_XPATHS for e in expression(tree)} - {tree}
        assert removed == theirs, _html_of(tree)
        found[3] += len(theirs)
    assert min(found) > 1000


def test_control_characters_are_removed_as_trafilaturas_expression_removes_them():
    """trafilatura's loader removes the characters libxml2 refuses with one scan of the page by its
    expression; a run looks for them first (extract.ControlCharacters) and hands a text that holds
    them to the expression: on 20,000 texts made at random of those characters, their neighbours,
    lone surrogates and other scripts, the same text comes back; the loader uses it; an expression of
    another pattern stays as it is."""
    import random

    from trafilatura import utils

    extract.parse("<html></html>")  # as in a run
    stand_in = utils.INVALID_XML_CHARS
    assert isinstance(stand_in, extract.ControlCharacters)
    theirs = re.compile(extract.ControlCharacters.PATTERN)
    alphabet = [chr(c) for c in range(0x21)] + ["\x7f", "\x80", "\x9f", "a", "æ", "–", "\ud800", "\udfff",
                                                  "\ufffd", "\ufffe", "\uffff", "\U0001f600", "<p>"]
    rng = random.Random(3)
    held = 0
    for _ in range(20_000):
        text = "".join(rng.choice(alphabet if rng.random() < 0.3 else "abc æøå–\n\t\r")
                       for _ in range(rng.randint(0, 40)))
        assert stand_in.sub("", text) == theirs.sub("", text), repr(text)
        held += stand_in.holds_any(text)
    assert 1000 < held < 19_000, held
    assert extract.parse("<html><body><p>A\x0bB\ufffeC</p></body></html>").findtext(".//p") == "ABC"
    assert not extract.ControlCharacters.stands_in_for(re.compile("[\\x00-\\x08]"))


def _walked_xpaths() -> list[tuple]:
    """(walk, trafilatura's XPath it stands in for, read afresh from its module) for each walk a run
    uses: its lists' from a fresh run of ``trafilatura.xpaths``, the baseline's cleaning from
    ``trafilatura.settings``, which defines it (the baseline's module holds the walk)."""
    import importlib
    import runpy

    from trafilatura import settings
    from trafilatura import xpaths as in_use

    from warc2corpus.text import xpaths

    extract.parse("<html></html>")  # as in a run
    fresh = runpy.run_path(in_use.__file__)
    return [(getattr(importlib.import_module(module), name), getattr(settings, name)) if index is None
            else (getattr(in_use, name)[index], fresh[name][index]) for module, name, index in xpaths._WALKS]


def _walk_values() -> list[str]:
    """Attribute values for pages made at random: each alternative of the walked XPaths' regular
    expressions as a string (regular-expression syntax taken out), at the start of a value, inside
    it and alone, and near misses."""
    from warc2corpus.text import tokens, xpaths

    words = {"", " ", "x", "elementor-share-buttons", "comments-title", "reply-x", "x reply-", "post", "entry", "articleBody", "articleContent",
             "display:none", "display: none", "color:red", "true", "false", "Navigation", "NAV", "MostPopularStories",
             "x ad y", "ad-x", "x ad-", "hidden", " hidden", "hide-x", "x hide", "commentary", "Comment",
             "article", "story", "main", "postarea", "art-postcontent", "text", "cell", "content", "FullText",
             "x fulltext", "MAIN-Content", "x main-content", "Page-Content", "page-content", "x-Teaser", "TEASER",
             "teaser", "caption", "Caption", "footer", "x Footer", "COOKIEBOT", "Cookie-Banner", "x OneTrust"}
    for walk, xpath in _walked_xpaths():
        for _, pattern, _ in xpaths._RE_TEST.findall(xpath.path):
            for alternative in tokens.alternatives(pattern):
                words.add(re.sub(r"[\^$()?:\[\]|\\]|\[(\w)\w\]", lambda m: m.group(1) or "", alternative))
    words = sorted(words)
    return words + [f"x {word}" for word in words[::3]] + [f"{word}-y" for word in words[1::3]]


_WALK_TAGS = ["div", "section", "aside", "details", "ol", "ul", "list", "item", "li", "span", "p", "h1", "h2",
              "article", "main", "a", "footer", "script", "style", "svg", "template", "fencedframe"]
_WALK_ATTRIBUTES = ["class", "id", "style", "role", "data-component", "itemprop", "aria-hidden",
                    "data-lp-replacement-content"]


def _walk_page(rng, values, depth: int = 0) -> str:
    """A page (or, below depth 0, an element) made at random of what the walked XPaths test; the
    attributes in random order (``@id|@class`` reads whichever comes first)."""
    if depth == 0:
        return "<html><body>" + "".join(_walk_page(rng, values, 1) for _ in range(rng.randint(1, 4))) + "</body></html>"
    tag = rng.choice(_WALK_TAGS)
    names = [name for name in _WALK_ATTRIBUTES if rng.random() < (0.5 if name in ("class", "id") else 0.12)]
    rng.shuffle(names)
    attributes = "".join(f' {name}="{rng.choice(values)}"' for name in names)
    inner = rng.choice(["Mer", " Les også ", "", " "])
    for _ in range(rng.randint(0, 4) if depth < 5 else 0):
        inner += (_walk_page(rng, values, depth + 1) if rng.random() < 0.9 else "<!--c-->") + rng.choice(["a", ""])
    return f"<{tag}{attributes}>{inner}</{tag}>"


def _same_elements(trees) -> list[int]:
    pairs = _walked_xpaths()
    found = [0] * len(pairs)
    for tree in trees:
        for n, (walk, xpath) in enumerate(pairs):
            expected = xpath(tree)
            assert list(walk(tree)) == expected, (n, _html_of(tree))
            found[n] += len(expected)
    return found


def test_walks_find_what_trafilaturas_xpaths_find():
    """A run reads a page's tree with walks (xpaths.walk_xpaths) where trafilatura's XPaths would read
    it on every page (its raw-tree prunes, its discard XPaths, its first body XPath) or on every
    element in a pass with fallbacks (its third and fourth body XPaths, its teaser and caption
    discards, its baseline's cleaning); each walk finds what its XPath finds, the same elements in the
    same order, on 3,000 pages made at random of every value the XPaths test. An XPath not of the
    shape its walk was written for stays as it is."""
    import random

    from lxml import etree
    from trafilatura import xpaths as in_use

    from warc2corpus.text import xpaths

    pairs = _walked_xpaths()
    assert len(pairs) == 11 and all(isinstance(walk, xpaths.Walk) for walk, _ in pairs)
    assert [walk.replaces for walk, _ in pairs] == [" ".join(xpath.path.split()) for _, xpath in pairs]
    rng, values = random.Random(7), _walk_values()
    found = _same_elements(extract.parse(_walk_page(rng, values)) for _ in range(3000))
    assert min(found) > 50, found

    unknown = [etree.XPath(".//*[self::div][contains(@class, 'x')]")]
    saved = in_use.RAW_TREE_PRUNE_XPATH[:]
    try:
        in_use.RAW_TREE_PRUNE_XPATH[:] = unknown
        xpaths.walk_xpaths()
        assert in_use.RAW_TREE_PRUNE_XPATH == unknown
    finally:
        in_use.RAW_TREE_PRUNE_XPATH[:] = saved


def test_walks_find_what_trafilaturas_xpaths_find_on_real_pages(samples):
    """... and on every real page of the samples."""
    from warc2corpus.quality import evaluation

    pages = evaluation.article_pages(samples) + evaluation.fundus_pages(samples) + evaluation.htmldate_pages(samples)
    found = _same_elements(tree for tree in (extract.parse(page.html) for page in pages) if tree is not None)
    assert sum(found) > 100, found


def _html_of(tree) -> str:
    from lxml import etree

    return etree.tostring(tree, encoding="unicode")


def test_bylines_are_trafilaturas():
    """metadata.author_of finds the author trafilatura's extract_author finds, reading the page as it is
    instead of a pruned copy: on pages where a removed element (a date, a figure, comments) sits inside
    the byline and its tail joins the text before it, on a page whose <rel> child decides, on trees
    whose root would be removed were it below the root (an element, a <figure> page, an element tree),
    on an entity inside a byline, on a byline nested deeper than Python's recursion, and on 3,000 pages
    made at random of what the XPaths test, parsed both as trafilatura parses (no comments) and with
    their comments kept, and read whole or from one of their elements."""
    import random

    import lxml.html
    from lxml import etree
    from trafilatura.metadata import extract_author

    from warc2corpus.text import metadata

    extract.parse("<html></html>")  # trafilatura's XPaths guarded, as in a run
    joined = ('<html><body><div class="byline">By<time>today</time>Ann<span class="date">x</span>'
              '<span class="date">y</span>Lee</div></body></html>')
    assert metadata.author_of(extract.parse(joined)) == extract_author(extract.parse(joined)) == "ByAnnLee"
    inside_removed = '<html><body><figure><p class="author">Ann Lee</p></figure><p class="byline">Bo Li</p></body></html>'
    assert metadata.author_of(extract.parse(inside_removed)) == "Bo Li"
    rel = '<html><body><span><rel>me</rel>Ann Lee</span></body></html>'
    assert metadata.author_of(extract.parse(rel)) == extract_author(extract.parse(rel))
    # trafilatura deletes what it removes from its parent: the root of its copy, which has none, stays
    comments = lxml.html.fragment_fromstring('<div class="comments"><span class="author">Ann Lee</span></div>')
    figure = extract.parse('<figure><span class="author">Ann Lee</span><span>x</span></figure>')
    assert figure.tag == "figure"
    for tree in (comments, figure, etree.ElementTree(comments)):
        assert metadata.author_of(tree) == extract_author(tree) == "Ann Lee"
    # an entity reads as its text (itertext), also where a removed element's tail joins it
    entity = extract.parse('<html><body><div class="byline">Ann<span class="date">d</span>Lee</div></body></html>')
    byline = entity.find(".//div")
    byline.insert(0, etree.Entity("amp"))
    byline[0].tail = "x"
    assert metadata.author_of(entity) == extract_author(entity)
    deep = etree.Element("div", {"class": "byline"})
    deep.text, inner = "Ann", deep
    for _ in range(1100):
        inner = etree.SubElement(inner, "span")
    etree.SubElement(inner, "time").tail = "Lee"
    assert metadata.author_of(deep) == extract_author(deep)

    rng = random.Random(30)
    found = 0
    for _ in range(3000):
        html = _byline_page(rng)
        for tree in (extract.parse(html), lxml.html.fromstring(html)):
            for read in (tree, rng.choice(list(tree.iter(etree.Element)))):
                theirs = extract_author(read)
                assert metadata.author_of(read) == theirs, _html_of(read)
                found += theirs is not None
    assert found > 2000


def test_the_c_level_element_lookup_changes_no_text(samples, monkeypatch):
    """extract.parse gives every element lxml.html's HtmlElement through lxml's C-level lookup, not
    lxml.html's Python one (which gives forms and fields classes of their own): every real page of the
    samples comes out the same as from a tree parsed with lxml.html's own lookup."""
    import lxml.html
    from trafilatura import utils

    from warc2corpus.quality import evaluation

    page_with_form = extract.parse("<html><body><form><input name=q></form><p>x</p></body></html>")
    assert type(page_with_form.find(".//form")) is lxml.html.HtmlElement
    stock = lxml.html.HTMLParser(collect_ids=False, default_doctype=False, encoding="utf-8", remove_comments=True,
                                 remove_pis=True)
    pages = evaluation.article_pages(samples) + evaluation.fundus_pages(samples)
    forms = 0
    for page in pages:
        ours = extract.extract(page.html, page.url)
        with monkeypatch.context() as patched:
            patched.setattr(utils, "HTML_PARSER", stock)
            tree = utils.load_html(page.html)
        forms += any(isinstance(e, lxml.html.FormElement) for e in tree.iter("form"))
        assert extract.extract(page.html, page.url, tree=tree) == ours, page.name
    assert forms >= 5  # the pages hold forms the stock lookup gives classes of their own


def test_guarded_xpaths_find_what_trafilaturas_own_find(samples):
    """Every XPath of trafilatura's, its regular-expression tests guarded by the attribute they read
    (xpaths.guarded), finds the same elements in the same order on every real page of the samples
    as trafilatura's own expression (read afresh from its module); a pattern that can match an empty
    string keeps no guard."""
    import runpy

    from lxml import etree
    from trafilatura import xpaths as theirs

    from warc2corpus.quality import evaluation
    from warc2corpus.text import xpaths

    own = [item for name, value in runpy.run_path(theirs.__file__).items() if name.isupper() and isinstance(value, list)
           for item in value if isinstance(getattr(item, "path", None), str)]
    pairs = [(expression, xpaths.guarded(expression)) for expression in own]
    assert sum(g.path.count(" and re:test(") for _, g in pairs) >= 40  # trafilatura 2.3.1 has 42 such tests
    pages = evaluation.article_pages(samples) + evaluation.fundus_pages(samples) + evaluation.htmldate_pages(samples)
    found = 0
    for page in pages:
        tree = extract.parse(page.html)
        if tree is None:
            continue
        for expression, guarded in pairs:
            theirs = expression(tree)
            assert guarded(tree) == theirs, (page.name, expression.path)
            found += len(theirs)
    assert found > 1000
    optional = etree.XPath("//*[re:test(@class, 'x?')]", namespaces={"re": "http://exslt.org/regular-expressions"})
    assert xpaths.guarded(optional) is optional


def _justext_paragraphs(maker, tree) -> list[tuple]:
    """What trafilatura's fallbacks make of a page with jusText (``external.try_justext``), paragraph by
    paragraph: every attribute jusText gives a paragraph and every answer it reads from one."""
    from justext.core import classify_paragraphs, revise_paragraph_classification
    from trafilatura import external

    paragraphs = maker.make_paragraphs(tree)
    classify_paragraphs(paragraphs, external.JT_STOPLIST or external.jt_stoplist_init(), 50, 150, 0.1, 0.2, 0.25, True)
    revise_paragraph_classification(paragraphs, 150)
    return [(p.text, p.dom_path, p.xpath, p.tags_count, p.chars_count_in_links, p.class_type, p.cf_class,
             p.heading, p.is_heading, len(p), p.words_count, p.is_boilerplate) for p in paragraphs]


_JUSTEXT_TEXTS = ["Dette er en setning med nok ord til at jusText kan kalle den god tekst i avisen.",
                  "og", "© Avisa", "Les mer", " \n\t ", "to  mellomrom\r\nog linjeskift", "\xa0hardt\u2028skift\u3000",
                  "I dag var det mange som kom for å høre på talen om budsjettet, som ble lagt fram i går.", ""]
_JUSTEXT_TAGS = ["div", "p", "h2", "span", "a", "li", "ul", "select", "option", "td", "table", "tr", "b", "br"]


def _justext_page(rng, depth: int = 0) -> str:
    """A page (below depth 0, an element) made at random of block and inline tags, links, headings,
    line breaks, a ``select`` and white space of every kind."""
    if depth == 0:
        return "<html><body>" + "".join(_justext_page(rng, 1) for _ in range(rng.randint(1, 4))) + "</body></html>"
    tag = rng.choice(_JUSTEXT_TAGS)
    if tag == "br":
        return "<br>" + rng.choice(_JUSTEXT_TEXTS)
    inner = rng.choice(_JUSTEXT_TEXTS)
    for _ in range(rng.randint(0, 3) if depth < 4 else 0):
        inner += _justext_page(rng, depth + 1) + rng.choice(_JUSTEXT_TEXTS)
    return f"<{tag}>{inner}</{tag}>"


def test_justext_paragraphs_are_justexts():
    """trafilatura's fallbacks make jusText's paragraphs with text.justext_paragraphs' maker (installed
    by the loader): on 2,000 pages made at random, every paragraph the same as jusText's own maker makes
    it (text, DOM path, XPath, counts, classes), and white space normalised as jusText normalises it on
    20,000 texts of every kind of white space."""
    import random

    import lxml.html
    from justext.core import ParagraphMaker
    from justext.utils import normalize_whitespace
    from trafilatura import external

    from warc2corpus.text import justext_paragraphs

    extract.parse("<html><body><p>x</p></body></html>")  # the loader installs the maker
    assert external.ParagraphMaker is justext_paragraphs.ParagraphMaker
    rng = random.Random(7)
    made = 0
    for _ in range(2000):
        html = _justext_page(rng)
        tree = lxml.html.fromstring(html)
        theirs = _justext_paragraphs(ParagraphMaker, tree)
        assert _justext_paragraphs(justext_paragraphs.ParagraphMaker, tree) == theirs, html
        made += len(theirs)
    assert made > 5000
    pieces = ["a", "bc", " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "\x01", "é"]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert justext_paragraphs._normalized(text) == normalize_whitespace(text), repr(text)


def test_justext_paragraphs_are_justexts_on_real_pages(samples):
    """jusText's paragraphs of every real page of the samples, as trafilatura's fallbacks clean it for
    jusText, the same from text.justext_paragraphs' maker as from jusText's own."""
    from copy import copy

    from justext.core import ParagraphMaker
    from trafilatura.baseline import basic_cleaning

    from warc2corpus.quality import evaluation
    from warc2corpus.text import justext_paragraphs

    made = 0
    for page in evaluation.article_pages(samples) + evaluation.fundus_pages(samples):
        tree = basic_cleaning(copy(extract.parse(page.html)))
        theirs = _justext_paragraphs(ParagraphMaker, tree)
        assert _justext_paragraphs(justext_paragraphs.ParagraphMaker, tree) == theirs, page.name
        made += len(theirs)
    assert made > 1000


def test_justext_paragraphs_leave_another_maker_alone(monkeypatch):
    """install() replaces jusText's own paragraph maker only, not one trafilatura came to use instead."""
    from trafilatura import external

    from warc2corpus.text import justext_paragraphs

    other = type("OtherMaker", (), {})
    monkeypatch.setattr(external, "ParagraphMaker", other)
    justext_paragraphs.install()
    assert external.ParagraphMaker is other


def test_the_fast_pass_leaves_the_recall_escalation_to_the_full_pass(monkeypatch):
    """A short article on a long page: trafilatura's recall escalation (which measures the whole page's
    text first) runs once, in the full pass the short text gets, not also in the fast pass before it;
    and trafilatura's threshold is as it was afterwards."""
    from trafilatura import core

    measured = []
    html2txt = core.html2txt
    monkeypatch.setattr(core, "html2txt", lambda tree, *a, **k: measured.append(1) or html2txt(tree, *a, **k))
    menu = "".join(f"<li><a href='/s{i}'>Seksjon nummer {i} med mange ord i lenken</a></li>" for i in range(300))
    page = ARTICLE.replace("<header><nav><ul>", f"<header><nav><ul>{menu}")
    threshold = core.ESCALATION_MAX_LENGTH
    result = extract.extract(page, "https://avisa.test/sport/holmenkollen")
    assert result.paragraphs == BODY
    assert measured == [1]
    assert core.ESCALATION_MAX_LENGTH == threshold == 3000


def _trafilaturas_fast_pass(tree, url):
    """What extract._fast_pass stands in for: trafilatura's own fast pass, its recall escalation off."""
    import trafilatura
    from trafilatura import core

    saved, core.ESCALATION_MAX_LENGTH = core.ESCALATION_MAX_LENGTH, 0
    try:
        return trafilatura.bare_extraction(tree, url=url, fast=True, include_comments=False, include_images=False)
    finally:
        core.ESCALATION_MAX_LENGTH = saved


def _same_fast_pass(html: str, url: str | None) -> bool:
    """extract._fast_pass and trafilatura's fast pass give the same text and body, and the tree is left whole."""
    from lxml import etree

    tree = extract.parse(html)
    before = etree.tostring(tree)
    ours, theirs = extract._fast_pass(tree, url), _trafilaturas_fast_pass(tree, url)
    assert etree.tostring(tree) == before, url
    if ours is None or theirs is None:
        assert ours is theirs, url
        return False
    assert ours.text == theirs.text and etree.tostring(ours.body) == etree.tostring(theirs.body), url
    return True


FORUM_THREAD = ("<html><head><script type='application/ld+json'>{\"@type\": \"DiscussionForumPosting\"}</script>"
                "</head><body><h1>Tråd</h1><div class='comments'>"
                + "".join(f"<div class='comment'><p>Innlegg {i}: et langt svar i tråden om skiturer i fjellet, "
                          "med nok ord til at det teller som tekst.</p></div>" for i in range(6))
                + "</div></body></html>")
SHORT_PAGE = ("<html><body><nav><a href='/'>Hjem</a></nav><div><span>Kort melding.</span></div>"
              "<footer>Ansvarlig redaktør: Kari Nordmann</footer></body></html>")


@pytest.mark.parametrize("html", [ARTICLE, FORUM_THREAD, SHORT_PAGE, "<html><body><p>x</p></body></html>",
                                  ARTICLE.replace("<article>", "<article><section class='comments'><h2>2 kommentarer"
                                                  "</h2><p>En leser mener noe annet om saken.</p></section>")])
def test_the_fast_pass_is_trafilaturas(html):
    """extract._fast_pass gives what trafilatura's bare_extraction(fast=True) gives without its recall
    escalation — an article, a forum's thread (whose comment containers are its posts), a text short enough
    for trafilatura's rescue from the uncleaned tree, a page with no text to speak of, a comment section —
    and leaves the page's tree as it was."""
    _same_fast_pass(html, "https://avisa.test/nyheter/sak")


def test_the_fast_pass_is_trafilaturas_on_real_pages(samples):
    """... on every real page of the samples."""
    from warc2corpus.quality import evaluation

    pages = evaluation.article_pages(samples) + evaluation.fundus_pages(samples) + evaluation.htmldate_pages(samples)
    compared = sum(_same_fast_pass(page.html, page.url) for page in pages if extract.parse(page.html) is not None)
    assert compared >= 85, compared


def test_the_fast_pass_copies_the_page_once(monkeypatch):
    """The fast pass copies the page's tree once (trafilatura's own makes three copies: a fifth of its time)."""
    import copy

    copied = []
    real = copy.copy
    monkeypatch.setattr(copy, "copy", lambda thing: copied.append(1) or real(thing))
    document = extract._fast_pass(extract.parse(ARTICLE), "https://avisa.test/sport/holmenkollen")
    assert document.text.split("\n")[-len(BODY):] == BODY and copied == [1]


def test_a_text_the_rules_leave_short_is_extracted_again_in_recall_mode(monkeypatch):
    """trafilatura may take a list of other stories for the text (a 2007 games site's "PlayStation Store
    updated - 09 Nov, 2007" and its neighbours); the rules then drop it, and the text is extracted again
    in trafilatura's recall mode, taken when it keeps more. A short text the rules kept, and a text long
    enough, are not extracted again."""
    import trafilatura

    teasers = "\n".join(f"Other story number {i} released on the store - 0{i} Nov, 2007" for i in range(1, 6))
    calls = []

    class Extraction:
        def __init__(self, text):
            self.text, self.body = text, None

    def bare_extraction(tree, **options):
        calls.append(options.get("favor_recall", False))
        return Extraction("\n".join(BODY) if options.get("favor_recall") else teasers)

    monkeypatch.setattr(trafilatura, "bare_extraction", bare_extraction)
    anchors = "".join(f"<li><a href='/s{i}'>Other story number {i} released on the store - 0{i} Nov, 2007</a></li>"
                      for i in range(1, 6))
    page = f"<html><body><ul>{anchors}</ul><article>{''.join(f'<p>{p}</p>' for p in BODY)}</article></body></html>"
    result = extract.extract(page, "https://avisa.test/spill/butikken", naturalness=False)
    assert result.paragraphs == BODY and calls[-1] is True and "links" not in result.dropped
    # nor a front page's or a listing's, which are lists of other stories
    for listing in ("https://avisa.test/", "https://avisa.test/tag/spill"):
        calls.clear()
        assert extract.extract(page, listing, naturalness=False).paragraphs == []
        assert True not in calls
    # a short story the rules kept is not extracted again (recall mode adds the page's menus to it)
    calls.clear()
    monkeypatch.setattr(trafilatura, "bare_extraction", lambda tree, **options: calls.append(
        options.get("favor_recall", False)) or Extraction(BODY[0] + ("\nHome News Sport" if options.get("favor_recall") else "")))
    assert extract.extract(page, "https://avisa.test/spill/butikken", naturalness=False).paragraphs == BODY[:1]
    assert True not in calls
    # a text long enough once cleaned is not extracted again
    calls.clear()
    monkeypatch.setattr(trafilatura, "bare_extraction", lambda tree, **options: calls.append(
        options.get("favor_recall", False)) or Extraction("\n".join(BODY * 3)))
    assert extract.extract(page, "https://avisa.test/spill/butikken", naturalness=False).paragraphs
    assert True not in calls


def test_a_nested_article_that_is_the_story_is_kept():
    """Some sites wrap the story in an article inside an article (Der Freitag: related-article cards,
    then an <article> around <article class="bo-main-content"> with the whole story);
    removing it as a related story left one sentence of a 7,000-word page."""
    story = "".join(f"<p>Absatz {i}: Die Taifune auf den Philippinen werden wegen der Klimakrise häufiger und "
                    "die Menschen müssen die Schäden ohne staatliche Hilfe bewältigen.</p>" for i in range(12))
    related = "<article><h3>Mehr zum Thema</h3><p>Ein anderer Artikel über das Wetter in Europa.</p></article>"
    html = (f"<html><body>{related * 12}<article><article class='main-content'><h1>Taifune</h1>{story}</article>"
            "</article></body></html>")
    document = extract.extract(html, "https://www.example.de/politik/taifune", naturalness=False)
    assert sum("Absatz" in p for p in document.paragraphs) == 12


def test_questions_an_interview_asks_each_guest_are_not_dropped_as_repeated():
    """A series of interviews asks every guest the same questions: they are text, not placeholders."""
    dropped: Counter = Counter()
    paragraphs = ["Hva inspirerte deg til å starte matbloggen?", "Svar en.", "Annonse",
                  "Hva inspirerte deg til å starte matbloggen?", "Svar to.", "Annonse"]
    kept = extract.clean_paragraphs(paragraphs, title=None, anchors=set(), dropped=dropped)
    assert kept.count("Hva inspirerte deg til å starte matbloggen?") == 2 and "Annonse" not in kept
    assert dropped["repeated"] == 2


def test_the_fields_of_a_list_of_records_are_kept_each_time():
    """A list of records (a table of players, a review's sections, a list's refrain) repeats its field
    names: three lines or more that each recur the same number of times, three times or more, are the
    text's, as often as the page shows them; a placeholder or a link among them still goes by the other
    rules."""
    players = [line for name in ("Ola Nordmann", "Kari Nordmann", "Per Hansen")
               for line in ("Posisjon", "Kamper spilt", "Mål", f"{name} har spilt for klubben i fem sesonger.")]
    dropped: Counter = Counter()
    kept = extract.clean_paragraphs(players + ["Annonse"] * 3 + ["Laster inn innhold"] * 2, title=None,
                                    anchors=set(), dropped=dropped)
    assert kept == players and dropped == {"boilerplate": 3, "repeated": 2}
    # Two field names only: no list of records.
    pairs = [line for n in range(3) for line in ("Posisjon", "Mål", f"Spiller {n} har scoret {n} mål i år.")]
    kept = extract.clean_paragraphs(pairs, title=None, anchors=set(), dropped=Counter())
    assert "Posisjon" not in kept and "Mål" not in kept
    # A menu repeated three times over recurs alike too: its links go as links.
    dropped = Counter()
    kept = extract.clean_paragraphs(["Forsiden", "Sport", "Kultur"] * 3 + [BODY[0]], title=None,
                                    anchors={"forsiden", "sport", "kultur"}, dropped=dropped)
    assert kept == [BODY[0]] and dropped == {"links": 9}


INGRESS = "Holmenkollen fikk sin største publikumsdag på mange år, og arrangøren vil slå rekorden neste vinter."


def _article_with_lead(lead_html: str, *, description: str = INGRESS, og: str = "") -> str:
    return ("<html><head><title>Rekordpublikum i Kollen</title>"
            f"<meta name='description' content='{description}'>"
            + (f"<meta property='og:description' content='{og}'>" if og else "") + "</head><body>"
            "<nav><a href='/'>Forsiden</a> <a href='/sport'>Sport</a></nav>"
            f"<header class='article-header'><h1>Rekordpublikum i Kollen</h1>{lead_html}</header>"
            "<article><div class='article-body'>" + "".join(f"<p>{p}</p>" for p in BODY) + "</div></article>"
            "<footer>Ansvarlig redaktør: Kari Nordmann</footer></body></html>")


def test_the_lead_set_apart_above_the_body_is_the_texts_first_paragraph():
    """The ingress sits above the article's body, where trafilatura's choice of the body leaves it out;
    the page's description repeats it, and the element that holds it is named a lead."""
    import trafilatura

    html = _article_with_lead(f"<p class='article-lead'><span>{INGRESS}</span></p>")
    assert INGRESS[:40] not in trafilatura.extract(html)
    assert extract.extract(html, "https://www.example.no/sport/kollen", naturalness=False).paragraphs == [INGRESS, *BODY]
    # A stub of a description: the next one (og:description) is read.
    html = _article_with_lead(f"<div class='standfirst'>{INGRESS}</div>", description="Sport", og=INGRESS)
    assert extract.extract(html, "https://www.example.no/sport/kollen", naturalness=False).paragraphs[0] == INGRESS


@pytest.mark.parametrize("lead_html", [
    f"<p>{INGRESS}</p>",  # not named a lead
    f"<ul><li class='teaser-summary'>{INGRESS}</li></ul>",  # a list's teaser
    f"<div class='share-summary'><p class='summary'>{INGRESS}</p></div>",  # a sharing widget's
    f"<p class='lead'>{INGRESS} Les mer om rekorden her.</p>",  # more than the description
])
def test_the_description_elsewhere_on_the_page_is_no_lead(lead_html):
    paragraphs = extract.extract(_article_with_lead(lead_html), "https://www.example.no/sport/kollen",
                                 naturalness=False).paragraphs
    assert paragraphs[-3:] == BODY and not any(p.startswith(INGRESS[:40]) for p in paragraphs)


def test_a_lead_the_text_holds_already_is_not_added_again():
    html = _article_with_lead("").replace("<div class='article-body'>",
                                          f"<div class='article-body'><p class='lead'>{INGRESS}</p>")
    assert extract.extract(html, "https://www.example.no/sport/kollen", naturalness=False).paragraphs == [INGRESS, *BODY]


def test_a_headings_named_anchor_is_no_link():
    """<h3><a name="sprung2">…</a></h3> is the heading itself (the target of a table of contents):
    not link text, so the article's subheading is not dropped as links; an <a> with an href or a
    script to follow is a link wherever it stands, and a named anchor outside a heading still counts."""
    tree = extract.parse(
        "<html><body><article><h3 class='subtitle'><a name='sprung2' class='jumpLabel'>Thüringer Bratwurst eine "
        "Illusion?</a></h3><p><a href='/video'>Vor diesen Herausforderungen stehen Schlachtbetriebe</a></p>"
        "<h3><a name='video' onclick=\"play('1')\">Gucci Menswear In Milan</a></h3>"
        "<p><a id='1' name='1'>Jolie Film About Daniel Pearl</a></p></article></body></html>")
    assert extract._links(tree).keys == {"vor diesen herausforderungen stehen schlachtbetriebe",
                                         "gucci menswear in milan", "jolie film about daniel pearl"}


def test_a_layout_table_is_read_as_blocks_and_a_table_of_data_as_rows():
    """Pages of the 2000s set the menu, the article and the reader comments side by side in the cells of
    one table; trafilatura writes each row as one line with its cells flattened, so the article's
    paragraphs, the menu and the comments came out as one paragraph, which no rule could clean. A row
    with a cell of prose is read as blocks, the paragraphs in the cell as paragraphs; a row of short
    cells (election results) stays a row."""
    story = [f"Avsnitt {i}: Kommunestyret i Fjordvik vedtok budsjettet for neste år etter en lang og "
             "til tider opphetet debatt om skolene i bygda og veiene mellom dem." for i in range(4)]
    menu = "".join(f"<a href='/{i}'>{s}</a><br>" for i, s in enumerate(("Siste nytt", "Lokale nyheter", "Sport i regionen",
                                                                      "Kultur og underholdning", "Debatt og meninger")))
    results = "".join(f"<tr><td>{party}</td><td>{share}</td><td>{seats} mandater</td></tr>"
                      for party, share, seats in (("Arbeiderpartiet", "25,3", 9), ("Høyre", "22,1", 8), ("Senterpartiet", "18,9", 7)))
    html = ("<html><head><title>Budsjettet vedtatt</title></head><body><table><tr>"
            f"<td>{menu}</td><td><h1>Budsjettet vedtatt</h1>{''.join(f'<p>{p}</p>' for p in story)}"
            f"<table>{results}</table></td></tr></table></body></html>")
    document = extract.extract(html, "https://www.fjordvik-avis.no/nyheter/budsjett", naturalness=False)
    assert [p for p in document.paragraphs if p.startswith("Avsnitt")] == story
    assert not any("Siste nytt" in p or "Debatt og meninger" in p for p in document.paragraphs)
    assert "| Arbeiderpartiet | 25,3 | 9 mandater |" in document.paragraphs


@pytest.mark.parametrize("line", ["Publisert 12.03.2023 kl. 14:05 Oppdatert 12.03.2023 kl. 15:10",
                                  "Publisert: 15. april 2024", "| Last Updated: Monday, 14 January 2008, 17:52 GMT |",
                                  "Stand: 22.04.2024, 06:00 Uhr", "Jan. 9, 2008 11:10 AM", "18.05.2026",
                                  "Updated Fri. Jan. 11 2008 10:56 PM ET", "7:51pm Tuesday 1st January 2008",
                                  "10:02 AM CST on Friday, December 28, 2007", "Last updated at 11:25am on 07.01.08",
                                  "14/01/2008 1:40:00 PM.", "Published on Saturday, Dec 29, 2007",
                                  "29 December, 2007", "Friday, 18 January, 2008", "January 6th, 2008",
                                  "Sunday, January 6, 2008; Page A04", "3:47 PM", "01/09 18:48:47 ET",
                                  "| Posted: 6:12 PM Dec 30, 2007 Last Updated: 6:10 PM Dec 31, 2007 | |",
                                  "Transmitted Friday, January 18, 2008", "Last modified: January 10. 2008 12:00AM",
                                  "Published 11 Hours Ago", "Updated 10 Hours Ago", "Oppdatert for 3 timer siden",
                                  "Updated", "First posted", "Sist oppdatert:"])
def test_a_line_that_only_dates_the_page_is_dropped(line):
    """The page's date is the document's; on a line of its own in the text it is noise in every count."""
    dropped: Counter = Counter()
    assert extract.clean_paragraphs([line, BODY[0]], title=None, anchors=set(), dropped=dropped) == [BODY[0]]
    assert dropped == {"date": 1}


@pytest.mark.parametrize("line", ["29 November 2018 | 20 January 2019", "Kommunestyret møtes igjen 15. april 2024.",
                                  "— Digital Foundry (@digitalfoundry) November 18, 2019", "12:45",
                                  "Publisert av Kari Nordmann 15. april 2024", "The meeting on 14/01/2008 ended at 10 pm.",
                                  "Et møte 12. mars 2019 kl. 10", "The 1st of May 2008 at 5pm", "2:10",
                                  "Meeting at 3:30 pm", "Read page 4 of the report, 29 December, 2007",
                                  "Updated 10 hours ago, the police said", "Updated daily", "Stand",
                                  "Posted by Kari Nordmann"])
def test_a_span_of_time_a_sentence_and_a_quoted_post_with_a_date_stay(line):
    dropped: Counter = Counter()
    assert extract.clean_paragraphs([line], title=None, anchors=set(), dropped=dropped) == [line]


def test_a_sentence_the_page_shows_twice_is_kept_once():
    """A page that shows its story twice (a print version beside it, a teaser of its lead) lost every
    short sentence of it as "repeated"; placeholders and prompts still go, every copy."""
    dropped: Counter = Counter()
    lead = "Kommunestyret i Fjordvik vedtok budsjettet etter en lang debatt."
    paragraphs = [lead, "Annonse", BODY[0], lead, "Annonse", "Laster inn innhold", "Laster inn innhold"]
    kept = extract.clean_paragraphs(paragraphs, title=None, anchors=set(), dropped=dropped)
    assert kept == [lead, BODY[0]] and dropped == {"repeated": 5}


def test_a_page_stitched_from_several_documents_is_read_past_their_ends():
    """A weather box's own document (<html> ... </html>) set above the story: libxml2 stops at its
    </html> and the story was lost (a dev L3S-GN1 page, F1 0.013; a Big9 page whose ad was such a
    document, 0.0); read as browsers read it, past the end tags, the story is there."""
    story = " ".join(f"The council met on day {i} and voted to keep the ferry running through the winter."
                     for i in range(1, 13))
    weather = ("<html><head><title>Weather</title></head><body><table><tr><td>Bluefield, WV</td></tr>"
               "<tr><td>Temperature: 25°</td></tr></table></body></html>\n")
    page = (weather + "<!DOCTYPE html><html><head><title>Ferry stays</title></head><body><table><tr><td>"
            f"<span class='brief'>{story}<br><br>{story}</span></td></tr></table></body></html>\n</html>\n")
    tree = extract.parse(page)
    assert "keep the ferry running" in tree.text_content()
    result = extract.extract(page, "https://avis.example/ferry", naturalness=False)
    assert "The council met on day 12" in " ".join(result.paragraphs)
    assert extract.read_on("<p>a</p></BODY ></Html>\n<p>b</p>") == "<p>a</p>\n<p>b</p>"


@pytest.mark.parametrize("heading", ["READ NEXT", "Related Stories", "Our Latest Stories", "Most Read Stories",
                                     "Latest news", "Mest lest"])
def test_a_heading_over_other_stories_goes_wherever_it_stands(heading):
    """Above or inside the story, where the text's end is not found at it ("READ NEXT" over a teaser the
    rules dropped, the story going on below): the heading alone goes, as a label."""
    dropped: Counter = Counter()
    assert extract.clean_paragraphs([BODY[0], heading, BODY[1]], title=None, anchors=set(),
                                    dropped=dropped) == [BODY[0], BODY[1]]
    assert dropped == {"boilerplate": 1}


def test_the_lines_of_a_pre_block_are_not_read_as_page_furniture():
    """A ``<pre>`` block (code and its output, a log) holds lines that recur or give only a date and time;
    there they are the block's content, which the rules that read a page's lines as its furniture
    (``repeated``, ``date``) cut to pieces: a technical article's SQL results lost every row as a date line
    and its shell session every recurring line (Readability's test pages). A dateline outside the block
    still goes."""
    block = ("$ hg pull -u\n0 files updated, 0 files merged\n$ hg pull -u\n0 files updated, 0 files merged\n"
             "2020-08-01 18:00:00\n2020-08-01 17:59:00")
    page = ARTICLE.replace("<p>Neste år", f"<p>Publisert 11.03.2023 kl. 08:15</p><pre>{block}</pre><p>Neste år")
    extracted = extract.extract(page, "https://www.avisa.no/sport/holmenkollen", naturalness=False)
    kept = extracted.paragraphs
    for line in block.splitlines():
        assert line in kept, line
    assert kept.count("$ hg pull -u") == 2
    assert "Publisert 11.03.2023 kl. 08:15" not in kept and extracted.dropped["date"] == 1
    assert all(paragraph in kept for paragraph in BODY)
    tree = extract.parse(page)
    assert extract.verbatim_lines(tree) == {template.text_key(line) for line in block.splitlines()}
