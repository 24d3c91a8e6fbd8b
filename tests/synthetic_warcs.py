"""Synthetic but realistic news WARCs of any length: a few hosts, each with its template (header,
menu, cookie banner, footer with the editor's declaration) around articles of unique text.

Used by the memory test (tests/test_template_memory.py) and to measure peak memory by hand:

    .venv/bin/python tests/synthetic_warcs.py OUT.warc.gz RECORDS
"""

from __future__ import annotations

import io
import random
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

HOSTS = ("www.fjordvik-avis.no", "www.dalen-tidend.no", "www.kystposten.no", "www.innlandet-dagblad.no")
SECTIONS = ("nyheter", "sport", "kultur", "debatt", "okonomi")
NAMES = ("Kari", "Ola", "Ingrid", "Henrik", "Silje", "Eirik", "Marit", "Anders", "Sigrid", "Knut", "Tone", "Per")
SURNAMES = ("Nordvik", "Haugland", "Solheim", "Tangen", "Moen", "Tveit", "Bekkevold", "Storvik", "Lie", "Berg")
PLACES = ("Fjordvik", "Dalen", "Kystbyen", "Nordmo", "Sørli", "Vestre Ås", "Holmen", "Elvebakken", "Storøya")
NOUNS = ("ferja", "skolen", "brannstasjonen", "biblioteket", "kraftverket", "fotballaget", "sykehuset",
         "veien", "havna", "kirka", "barnehagen", "festivalen", "budsjettet", "fiskemottaket", "idrettshallen")
VERBS = ("vurdere", "behandle", "utsette", "godkjenne", "diskutere", "finansiere", "bygge ut", "legge ned")
SENTENCES = (
    "{name} {surname} sier til avisen at kommunen må {verb} {noun} i {place} før sommeren.",
    "Kommunestyret i {place} skal {verb} saken om {noun} på møtet {day}. {number} innbyggere har skrevet under.",
    "Ifølge {name} {surname} har {noun} kostet {number} kroner mer enn planlagt, og nå vil flere {verb} saken.",
    "Det var {number} mennesker til stede da {noun} i {place} ble presentert {day}, forteller {name} {surname}.",
    "{name} {surname} mener politikerne i {place} bør lytte til dem som bruker {noun} hver eneste dag.",
    "Fylkeskommunen har satt av {number} kroner til {noun}, men det er ikke nok, sier {name} {surname}.",
)
DAYS = ("mandag", "tirsdag", "onsdag", "torsdag", "fredag", "lørdag", "søndag")


def paragraph(rng: random.Random, serial: int) -> str:
    """Two or three sentences; the record's serial number makes the paragraph unique."""
    sentences = []
    for _ in range(rng.randint(2, 3)):
        sentences.append(rng.choice(SENTENCES).format(
            name=rng.choice(NAMES), surname=rng.choice(SURNAMES), place=rng.choice(PLACES),
            noun=rng.choice(NOUNS), verb=rng.choice(VERBS), day=rng.choice(DAYS),
            number=f"{rng.randint(2, 999)} {serial % 1000:03d}"))
    return " ".join(sentences)


def page(rng: random.Random, host: str, serial: int) -> tuple[str, str]:
    """(url, html) of the serial-th article of the host."""
    section = rng.choice(SECTIONS)
    site = host.split(".")[1].replace("-", " ").title()
    title = f"{rng.choice(NOUNS).capitalize()} i {rng.choice(PLACES)}: sak nummer {serial}"
    menu = "".join(f'<li><a href="/{s}">{s.capitalize()}</a></li>' for s in SECTIONS)
    body = "".join(f"<p>{paragraph(rng, serial)}</p>" for _ in range(rng.randint(8, 14)))
    related = "".join(f'<li><a href="/{section}/{serial - k}">{rng.choice(NOUNS).capitalize()} i '
                      f'{rng.choice(PLACES)}: {paragraph(rng, serial - k)[:80]}</a></li>' for k in range(1, 21))
    comments = "".join(f'<div class="comment"><p class="who">{rng.choice(NAMES)}{rng.randint(10, 99)} skriver:</p>'
                       f"<p>{paragraph(rng, serial)}</p></div>" for _ in range(rng.randint(4, 10)))
    html = f"""<!DOCTYPE html><html lang="nb"><head><meta charset="utf-8"><title>{title} | {site}</title>
<meta property="og:type" content="article"><meta name="author" content="{rng.choice(NAMES)} {rng.choice(SURNAMES)}">
<meta property="article:published_time" content="2024-03-01T08:00:00+01:00"></head><body>
<div class="cookie-banner"><p>Vi bruker informasjonskapsler for å gi deg en bedre opplevelse av {site}.</p></div>
<header><a href="/">{site}</a><nav><ul>{menu}</ul></nav></header>
<main><article><h1>{title}</h1>
<p class="byline">Av {rng.choice(NAMES)} {rng.choice(SURNAMES)}, journalist i {site}</p>
{body}
<p>{site} er den uavhengige lokalavisen for {rng.choice(PLACES)} og omegn, og har kommet ut siden 1921.</p>
<aside><h2>Les også</h2><ul>{related}</ul></aside>
</article><section class="comments"><h2>Kommentarer</h2>{comments}</section></main>
<footer><p>Ansvarlig redaktør: Kari Nordvik. {site} arbeider etter Vær Varsom-plakatens regler for god
presseskikk.</p><p>Tips oss: tips@{host}</p></footer></body></html>"""
    return f"https://{host}/{section}/2024/03/sak-{serial}", html


def write_warc(path: Path, records: int, seed: int = 0) -> Path:
    """A per-record-gzipped WARC of ``records`` article responses spread over :data:`HOSTS`; the
    same arguments always give the same pages."""
    rng = random.Random(seed)
    start = datetime(2024, 3, 1, tzinfo=timezone.utc)
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for serial in range(records):
            host = HOSTS[serial % len(HOSTS)] if serial % 7 else rng.choice(HOSTS)
            url, html = page(rng, host, serial)
            body = html.encode("utf-8")
            headers = StatusAndHeaders("200 OK", [("Content-Type", "text/html; charset=utf-8"),
                                                  ("Content-Length", str(len(body)))], protocol="HTTP/1.1")
            date = (start + timedelta(seconds=serial)).strftime("%Y-%m-%dT%H:%M:%SZ")
            writer.write_record(writer.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                          http_headers=headers,
                                                          warc_headers_dict={"WARC-Date": date}))
    return path


if __name__ == "__main__":
    write_warc(Path(sys.argv[1]), int(sys.argv[2]))
