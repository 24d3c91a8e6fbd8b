#!/usr/bin/env python3
"""Generate the small, fictional demo WARC files used by warc2corpus.

Usage:
    python demo/generate_demo_warcs.py [OUTDIR]

OUTDIR defaults to the ``warcs`` directory next to this script.

The output is fully deterministic: every WARC-Date is fixed, every
WARC-Record-ID is a uuid5 derived from the target URL (or file name) and the
WARC-Date, and gzip members are written by zlib with a zero mtime.  Running the
script twice therefore yields byte-identical files.

All publications, places, people and texts below are fictional.
"""

from __future__ import annotations

import hashlib
import html
import struct
import sys
import uuid
import zlib
from base64 import b32encode
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from email.utils import format_datetime
from io import BytesIO
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

HTML_TYPE = "text/html; charset=utf-8"
PNG_TYPE = "image/png"
VAER_VARSOM = "https://presse.no/pfu/etiske-regler/vaer-varsom-plakaten/"
REDAKTOERPLAKATEN = "https://www.nored.no/Redaktoeransvar/Redaktoerplakaten"


# --------------------------------------------------------------------------
# The fictional news world
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Site:
    base: str  # scheme + host, no trailing slash
    name: str
    lang: str  # value of <html lang=...>
    nav: tuple[tuple[str, str], ...]  # (path, label)
    front_heading: str  # heading above the headline list on the front page
    front_intro: tuple[str, ...]  # paragraphs shown on the front page
    footer: str  # raw HTML inside <footer>
    extra_headlines: tuple[tuple[str, str], ...] = ()  # (path, title) of pages not in the WARCs


@dataclass(frozen=True)
class Article:
    site: str  # key into SITES
    path: str
    title: str
    author: str
    published: str  # ISO 8601, used for article:published_time
    paragraphs: tuple[str, ...]

    @property
    def url(self) -> str:
        return SITES[self.site].base + self.path


SITES = {
    "fjordposten": Site(
        base="https://www.fjordposten.no",
        name="Fjordposten",
        lang="nb",
        nav=(("/nyheter/", "Nyheter"), ("/sport/", "Sport"), ("/kultur/", "Kultur"), ("/meninger/", "Meninger")),
        front_heading="Siste nytt",
        front_intro=(
            "Fjordposten er lokalavisa for Fjordvik og øyene rundt. Vi publiserer nyheter "
            "på nett hver dag og kommer ut på papir tre ganger i uka.",
            "Har du tips om en sak? Send oss en melding, så tar vi kontakt med deg.",
        ),
        footer=(
            "<p>Fjordposten – lokalavisa for Fjordvik og omegn</p>\n"
            "<p>Ansvarlig redaktør: Kari Nordvik</p>\n"
            f'<p>Fjordposten arbeider etter <a href="{VAER_VARSOM}">Vær Varsom-plakaten</a>.</p>'
        ),
        extra_headlines=(("/kultur/2024/02/skolekorpset-100-aar", "Skolekorpset fyller hundre år"),),
    ),
    "dalen-tidend": Site(
        base="https://www.dalen-tidend.no",
        name="Dalen Tidend",
        lang="nn",
        nav=(("/nyheiter/", "Nyheiter"), ("/sport/", "Sport"), ("/kultur/", "Kultur"), ("/meiningar/", "Meiningar")),
        front_heading="Siste nytt",
        front_intro=(
            "Dalen Tidend er lokalavisa for Grøndalen og grannekommunane. Vi skriv om folk, "
            "politikk, kultur og idrett i dalen.",
            "Har du eit tips til oss? Send ei melding, så tek vi kontakt med deg.",
        ),
        footer=(
            "<p>Dalen Tidend – lokalavisa i Grøndalen</p>\n"
            "<p>Ansvarleg redaktør: Olav Haugland</p>\n"
            f'<p>Dalen Tidend følgjer <a href="{REDAKTOERPLAKATEN}">Redaktørplakaten</a>.</p>'
        ),
        extra_headlines=(("/kultur/2024/02/spelemannslaget", "Spelemannslaget øver til vårkonserten"),),
    ),
    "sapmi-aviisa": Site(
        base="https://www.sapmi-aviisa.no",
        name="Sápmi Aviisa",
        lang="se",
        nav=(("/oddasat/", "Ođđasat"), ("/kultuvra/", "Kultuvra"), ("/valastallan/", "Valáštallan")),
        front_heading="Ođđasat",
        front_intro=(
            "Sápmi Aviisa lea báikkálaš aviisa Čoarvejávrri olbmuide. Mii čállit ođđasiid "
            "sámegillii juohke beaivvi.",
        ),
        footer=(
            "<p>Sápmi Aviisa – ođđasat sámegillii</p>\n"
            "<p>Váldodoaimmaheaddji: Máret Ánne Ravna</p>\n"
            f'<p>Etihkalaš njuolggadusat: <a href="{VAER_VARSOM}">Vær Varsom-plakáhta</a></p>'
        ),
        extra_headlines=(("/oddasat/2024/02/odda-skuvla", "Ođđa skuvla rahppo čakčat"),),
    ),
    "bygdebloggen": Site(
        base="https://www.bygdebloggen.no",
        name="Bygdebloggen",
        lang="nb",
        nav=(("/hage/", "Hage"), ("/bakst/", "Bakst"), ("/om/", "Om bloggen")),
        front_heading="Nyeste innlegg",
        front_intro=(
            "Velkommen til Bygdebloggen! Her skriver jeg om hage, hjemmebakst og livet på et "
            "lite småbruk i innlandet.",
            "Nye innlegg kommer når jeg har tid, som regel en gang i uka.",
        ),
        footer="<p>© 2024 Bygdebloggen · Skrevet med kaffe og jord under neglene</p>",
        extra_headlines=(("/2024/01/surdeigsbrod", "Min beste oppskrift på surdeigsbrød"),),
    ),
    "ukeskrift-nord": Site(
        base="https://www.ukeskrift-nord.no",
        name="Ukeskrift Nord",
        lang="nb",
        nav=(("/nyheter/", "Nyheter"), ("/fiskeri/", "Fiskeri"), ("/kultur/", "Kultur")),
        front_heading="Denne uka",
        front_intro=(
            "Ukeskrift Nord kommer ut hver torsdag med nyheter fra kysten og fjordene i nord.",
        ),
        # Only weak evidence: the word "redaktøren" and a bare link to the Norwegian Press
        # Association's front door, no named declaration, no link to a code: a person decides.
        footer=(
            "<p>Ukeskrift Nord – ukeavisa for kysten</p>\n"
            '<p>Spørsmål om innholdet? <a href="mailto:red@ukeskrift-nord.no">Skriv til redaktøren</a>.</p>\n'
            '<p><a href="https://presse.no/">Norsk Presseforbund</a></p>'
        ),
        extra_headlines=(("/fiskeri/2024/02/kvotene", "Kystfiskerne venter på nye kvoter"),),
    ),
}

# Cookie-consent host of Fjordposten: a plain page, no articles, no editor declaration.
CONSENT_SITE = Site(
    base="https://samtykke.fjordposten.no",
    name="Fjordposten",
    lang="nb",
    nav=(),
    front_heading="",
    front_intro=(),
    footer="<p>Fjordposten</p>",
)

ARTICLES = {
    "ferja": Article(
        site="fjordposten",
        path="/nyheter/2024/02/ferja-innstilt",
        title="Fergen innstilt etter kraftig uvær",
        author="Ingrid Solheim",
        published="2024-02-27T08:15:00+01:00",
        paragraphs=(
            "Fergesambandet mellom Fjordvik og Holmøya ble innstilt tirsdag morgen etter at sterk "
            "vind og høye bølger gjorde det umulig å legge til kai på en trygg måte. Rederiet "
            "opplyser at ingen avganger vil gå før været har roet seg.",
            "– Sikkerheten til passasjerene og mannskapet kommer alltid først. Med så kraftige "
            "vindkast som vi har hatt i natt, er det rett og slett ikke forsvarlig å seile, sier "
            "driftsleder Terje Holmås i Fjordlinjen.",
            "For de rundt fire hundre fastboende på Holmøya betyr innstillingen at mange ikke "
            "kommer seg på jobb eller skole på fastlandet. Skolen på øya har fått beskjed om å "
            "ta imot elevene som vanligvis tar den første fergen over.",
            "Hjemmetjenesten i kommunen har satt opp en egen beredskapsplan. Ifølge kommunalsjef "
            "Liv Aasen har de sørget for at sykepleiere som bor på øya, kan dekke de mest "
            "nødvendige besøkene i dag.",
            "Meteorologene venter at vinden skal løye utover ettermiddagen. Rederiet vil gi en ny "
            "vurdering klokken tre, og ber reisende følge med på nettsidene og i appen for "
            "oppdatert informasjon.",
            "Dette er tredje gang i februar at sambandet må stenges på grunn av været. Flere "
            "innbyggere etterlyser nå en mer robust løsning, og saken skal etter planen opp i "
            "formannskapet i neste måned.",
        ),
    ),
    "skirenn": Article(
        site="fjordposten",
        path="/sport/2024/02/skirenn-i-motvind",
        title="Rekordmange løpere trosset motvinden i Fjordvik-rennet",
        author="Henrik Tangen",
        published="2024-02-26T19:40:00+01:00",
        paragraphs=(
            "Over tre hundre løpere stilte til start da Fjordvik-rennet ble arrangert på "
            "Stølsheia søndag. Det er ny deltakerrekord for turrennet, som i år ble gått for "
            "tjuende gang.",
            "Forholdene var langt fra ideelle. Sterk motvind over det åpne fjellpartiet gjorde at "
            "mange brukte betydelig lengre tid enn vanlig på den tjue kilometer lange løypa.",
            "– Det var tungt på toppen, men stemningen var helt fantastisk. Folk heiet langs hele "
            "traseen, sier vinneren i dameklassen, Maren Fjeldstad fra Fjordvik IL.",
            "I herreklassen gikk seieren til sytten år gamle Eirik Nesheim, som dermed ble den "
            "yngste vinneren i rennets historie. Han var over ett minutt foran nestemann i mål.",
            "Arrangøren hadde satt inn ekstra mannskap ved matstasjonene, og det lokale "
            "hjelpekorpset hadde folk på plass langs løypa. Ingen alvorlige skader ble meldt.",
            "Leder i arrangementskomiteen, Bjørn Haugen, er godt fornøyd med dagen og håper den "
            "store oppslutningen holder seg. Allerede nå planlegger klubben neste års renn, som "
            "skal ha en egen klasse for barn under tolv år.",
        ),
    ),
    "bibliotek": Article(
        site="fjordposten",
        path="/nyheter/2024/02/biblioteket-utvider",
        title="Biblioteket får åpent til sent på kvelden",
        author="Silje Moen",
        published="2024-02-29T14:20:00+01:00",
        paragraphs=(
            "Fra neste måned kan innbyggerne i Fjordvik bruke biblioteket også på kveldstid og i "
            "helgene. Kommunestyret vedtok torsdag å innføre såkalt meråpent bibliotek, der "
            "lånerne selv låser seg inn med bankkort og en personlig kode.",
            "Ordningen betyr at lokalet vil være tilgjengelig fra sju om morgenen til ti om "
            "kvelden alle dager i uka. De betjente åpningstidene blir som før.",
            "– Vi ser at mange ønsker å bruke biblioteket som et sted å lese, jobbe eller møtes, "
            "også når vi ikke er på jobb. Nå får de muligheten, sier biblioteksjef Hanne Lunde.",
            "Ombyggingen koster rundt en halv million kroner, og det meste dekkes av et statlig "
            "tilskudd. Blant annet må det monteres nye dører, kameraer og et eget system for "
            "utlån.",
            "Ikke alle i kommunestyret var like begeistret. Flere representanter uttrykte "
            "bekymring for hærverk og mente at ungdom kunne bruke lokalet til fest. Forslaget ble "
            "likevel vedtatt med klar overvekt.",
            "Biblioteket vil arrangere et åpent informasjonsmøte om ordningen i midten av mars. "
            "Der skal lånerne få vite hvordan de registrerer seg, og hvilke regler som gjelder.",
        ),
    ),
    "samfunnshus": Article(
        site="dalen-tidend",
        path="/nyheiter/2024/02/nytt-samfunnshus",
        title="Bygda samlar seg om nytt samfunnshus",
        author="Sigrid Vik",
        published="2024-02-28T07:30:00+01:00",
        paragraphs=(
            "Etter fleire år med diskusjon har grendalaget i Øvre Grøndalen no fått på plass "
            "finansieringa av eit nytt samfunnshus. Det gamle bygget frå 1950-talet har stått "
            "stengt sidan hausten, då ein inspeksjon avdekte store skadar på taket.",
            "– Dette er ein stor dag for heile bygda. Vi har samla inn pengar på loppemarknader, "
            "basarar og dugnader i snart fem år, seier leiar i grendalaget, Astrid Myklebust.",
            "Kommunen har lova eit tilskot på to millionar kroner, medan resten kjem frå "
            "spelemidlar, lokale bedrifter og ei privat gåve. Til saman er prosjektet rekna til "
            "å koste om lag seks millionar.",
            "Det nye huset skal ha ein stor sal med scene, eit moderne kjøkken og eit eige rom "
            "for ungdomsklubben. Arkitekten har lagt vekt på at bygget skal vere lett å "
            "vedlikehalde og billeg å varme opp.",
            "Mange i bygda har allereie meldt seg til dugnad. Planen er at grunnarbeidet skal "
            "starte i april, og at huset skal stå ferdig til bygdedagane neste sommar.",
            "– Eit samfunnshus er meir enn berre eit bygg. Det er her vi feirar, sørgjer og "
            "møtest, seier Myklebust.",
        ),
    ),
    "straumbrot": Article(
        site="dalen-tidend",
        path="/nyheiter/2024/02/straumbrot",
        title="Straumbrot råka fleire tusen kundar",
        author="Eirik Tveit",
        published="2024-02-29T16:05:00+01:00",
        paragraphs=(
            "Over tre tusen straumkundar i Grøndalen var utan straum i fleire timar torsdag etter "
            "at eit tre fall over ei høgspentline ved Lidavatnet. Feilen oppstod like etter "
            "klokka ti om morgonen.",
            "Nettselskapet sende ut montørar straks, men snø og glatte vegar gjorde det "
            "vanskeleg å kome fram til staden. Først ut på ettermiddagen var dei fleste kundane "
            "kopla til att.",
            "– Vi forstår at dette er krevjande, særleg for eldre som bur åleine. Mannskapa våre "
            "har jobba så raskt dei kunne under vanskelege tilhøve, seier vaktleiar Gunnhild "
            "Aarvik.",
            "Skulen i sentrum måtte sende elevane heim tidleg, og fleire butikkar heldt stengt "
            "medan straumen var borte. Sjukeheimen klarte seg med eige naudaggregat.",
            "Ordføraren meiner hendinga viser at kommunen treng betre beredskap. Ho vil no be "
            "nettselskapet om ein plan for rydding av skog langs dei mest utsette linene.",
            "Nettselskapet oppmodar alle som framleis manglar straum, om å ta kontakt på "
            "telefon. Kundar som har vore utan straum i meir enn tolv timar, kan ha krav på "
            "kompensasjon.",
        ),
    ),
    "giellakursa": Article(
        site="sapmi-aviisa",
        path="/oddasat/2024/02/samegielkursa",
        title="Ollugat háliidit oahppat sámegiela",
        author="Niillas Heatta",
        published="2024-02-28T10:00:00+01:00",
        paragraphs=(
            "Čoarvejávrri girjerádju álggaha ođđa sámegielkurssa boahtte vahkus. Kursa lea "
            "oaivvilduvvon rávisolbmuide geat eai máhte sámegiela ovdalaččas. Eanet go "
            "guoktelogi olbmo leat juo čálihan iežaset kursii, ja dat lea eanet go goassege "
            "ovdal.",
            "Kurssa oahpaheaddji lea Ánde Niillas Siri, gii lea bargan sámegiela oahpaheaddjin "
            "guhká. Son muitala ahte ollu olbmot háliidit oahppat dan giela maid sin áhkut ja "
            "ádját hálle.",
            "– Ollugat leat massán giela go ledje mánát. Dál sii háliidit váldit dan "
            "ruovttoluotta. Dat illudahttá mu hirbmadit, dadjá Siri.",
            "Kursa lea juohke duorastaga eahkes girjerádjosis. Oahppit galget hállat, lohkat ja "
            "čállit sámegiela, ja sii ohppet maiddái lávlagiid ja muitalusaid. Girjerádjosis "
            "leat maiddái ollu sámegiel girjjit mánáide ja rávisolbmuide, ja oahppit besset "
            "luoikat daid.",
            "Gielda máksá kurssa, ja dan dihte lea kursa nuvttá buohkaide. Sátnejođiheaddji "
            "Inga Márjá Utsi lohká ahte lea dehálaš doarjut sámegiela báikkálaččat. Son sávvá "
            "ahte eanet olbmot hállet sámegiela beaivválaš eallimis.",
            "Jus kursa manná bures, de áigu girjerádju fállat ođđa kurssa čakčat. Dalle sáhttet "
            "maiddái mánát searvat.",
        ),
    ),
    "vinterhagen": Article(
        site="bygdebloggen",
        path="/2024/02/vinterhagen",
        title="Slik fikk jeg tomatene gjennom vinteren",
        author="Marit Bekkevold",
        published="2024-02-25T21:10:00+01:00",
        paragraphs=(
            "I høst bestemte jeg meg for å prøve noe nytt. I stedet for å kaste tomatplantene da "
            "frosten kom, flyttet jeg tre av dem inn i den gamle glassverandaen på baksiden av "
            "huset.",
            "Verandaen er ikke isolert, men den får mye sol midt på dagen. Jeg kjøpte en liten "
            "varmeovn med termostat og satte den på åtte grader. Det har holdt plantene i live, "
            "selv om de selvsagt ikke vokser særlig mye.",
            "Det største problemet har vært lyset. I desember var det nesten mørkt hele døgnet, "
            "og bladene ble gule og tynne. Jeg hengte derfor opp en enkel vekstlampe som står på "
            "i tolv timer hver dag.",
            "Nå i slutten av februar ser jeg endelig nye skudd. En av plantene har til og med "
            "fått små blomster, og jeg har prøvd å pollinere dem med en pensel. Naboen ler av "
            "meg, men jeg synes det er spennende.",
            "Hvis alt går etter planen, setter jeg plantene ut i drivhuset i mai. Da håper jeg at "
            "de får et forsprang på de nye plantene jeg sår i mars.",
            "Har du prøvd noe lignende? Skriv gjerne i kommentarfeltet under. Jeg svarer så fort "
            "jeg kan!",
        ),
    ),
    "fiskemottak": Article(
        site="ukeskrift-nord",
        path="/nyheter/2024/02/nytt-fiskemottak",
        title="Nytt fiskemottak gir tjue nye arbeidsplasser",
        author="Anne Lise Storvik",
        published="2024-02-27T12:00:00+01:00",
        paragraphs=(
            "Det nye fiskemottaket i Vestvika åpnet dørene mandag, og allerede første dag ble det "
            "levert over femti tonn torsk. Mottaket har ansatt tjue personer, de fleste fra "
            "bygda og nabokommunene.",
            "Eierne har brukt nesten to år på å få anlegget på plass. Bygget står på tomten der "
            "det gamle salteriet lå, og har fått nye kjølerom, en moderne sløyelinje og egen kai "
            "for de minste båtene.",
            "– For oss betyr dette enormt mye. Før måtte vi gå nesten tre timer for å levere "
            "fangsten, nå er vi inne igjen på et kvarter, sier fisker Arne Johansen, som var en "
            "av de første til å legge til.",
            "Daglig leder Linda Pedersen sier at de ønsker å satse på fersk fisk av høy kvalitet. "
            "Målet er å sende det meste videre med trailer til kunder i Sør-Europa innen et døgn.",
            "Ordføreren var til stede under åpningen og kalte mottaket et viktig løft for hele "
            "regionen. Kommunen har bidratt med å utbedre veien ned til kaia.",
            "Mottaket vil holde åpent hele vintersesongen. Dersom fisket slår til, kan det bli "
            "aktuelt å ansette enda flere før påske.",
        ),
    ),
}


# --------------------------------------------------------------------------
# HTML pages
# --------------------------------------------------------------------------


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def render_page(site: Site, title: str, main: str, head_extra: str = "") -> bytes:
    """Wrap ``main`` in the site's shared template (header, nav, footer)."""
    nav = "\n".join(f'<li><a href="{path}">{esc(label)}</a></li>' for path, label in site.nav)
    page = f"""<!DOCTYPE html>
<html lang="{site.lang}">
<head>
<meta charset="utf-8">
<title>{esc(title)}</title>
{head_extra}</head>
<body>
<header>
<a class="logo" href="{site.base}/">{esc(site.name)}</a>
<nav>
<ul>
{nav}
</ul>
</nav>
</header>
<main>
{main}
</main>
<footer>
{site.footer}
</footer>
</body>
</html>
"""
    return page.encode("utf-8")


def front_page(site_key: str) -> bytes:
    site = SITES[site_key]
    links = [(a.url, a.title) for a in ARTICLES.values() if a.site == site_key]
    links += [(site.base + path, title) for path, title in site.extra_headlines]
    headlines = "\n".join(f'<li><a href="{url}">{esc(title)}</a></li>' for url, title in links)
    intro = "\n".join(f"<p>{esc(p)}</p>" for p in site.front_intro)
    main = f"<h2>{esc(site.front_heading)}</h2>\n<ul>\n{headlines}\n</ul>\n{intro}"
    return render_page(site, site.name, main)


def article_page(article_key: str) -> bytes:
    article = ARTICLES[article_key]
    site = SITES[article.site]
    head = (
        f'<meta property="article:published_time" content="{article.published}">\n'
        f'<meta name="author" content="{esc(article.author)}">\n'
    )
    paragraphs = "\n".join(f"<p>{esc(p)}</p>" for p in article.paragraphs)
    main = f"<article>\n<h1>{esc(article.title)}</h1>\n{paragraphs}\n</article>"
    return render_page(site, f"{article.title} – {site.name}", main, head)


def not_found_page() -> bytes:
    main = (
        "<h1>Siden finnes ikke</h1>\n"
        "<p>Beklager, vi fant ikke siden du lette etter. Den kan være flyttet eller slettet.</p>\n"
        '<p><a href="/">Gå til forsiden</a></p>'
    )
    return render_page(SITES["fjordposten"], "Siden finnes ikke – Fjordposten", main)


def empty_page() -> bytes:
    """A page without any text in its body (only an empty div and a script)."""
    return (
        "<!DOCTYPE html>\n"
        '<html lang="nb">\n'
        '<head>\n<meta charset="utf-8">\n</head>\n'
        "<body>\n"
        '<div id="app"></div>\n'
        '<script>document.getElementById("app").dataset.ready = "1";</script>\n'
        "</body>\n"
        "</html>\n"
    ).encode("utf-8")


def consent_page() -> bytes:
    main = (
        "<h1>Vi bryr oss om personvernet ditt</h1>\n"
        "<p>Fjordposten og våre samarbeidspartnere bruker informasjonskapsler for å gi deg en "
        "bedre opplevelse, måle trafikken og vise relevante annonser.</p>\n"
        "<p>Du kan når som helst endre valgene dine under «Personverninnstillinger» nederst på "
        "siden.</p>\n"
        '<form method="post" action="/samtykke">\n'
        '<button name="valg" value="alle">Godta alle</button>\n'
        '<button name="valg" value="nodvendige">Bare nødvendige</button>\n'
        "</form>"
    )
    return render_page(CONSENT_SITE, "Personvern og informasjonskapsler – Fjordposten", main)


def tiny_png() -> bytes:
    """A valid 1x1 pixel PNG (one dark blue pixel)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)  # 1x1, 8-bit RGB
    idat = zlib.compress(b"\x00\x1f\x3a\x5f", 9)  # filter byte + one RGB pixel
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# --------------------------------------------------------------------------
# WARC contents
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Response:
    url: str
    body: bytes
    content_type: str = HTML_TYPE
    status: str = "200 OK"


@dataclass(frozen=True)
class Revisit:
    """Identical-payload revisit of an earlier response with the same URL and body."""

    url: str
    body: bytes
    content_type: str = HTML_TYPE


@dataclass(frozen=True)
class WarcFile:
    name: str
    start: datetime  # WARC-Date of the warcinfo record; records follow one second apart
    records: tuple[Response | Revisit, ...]


def front(site_key: str) -> Response:
    return Response(SITES[site_key].base + "/", front_page(site_key))


def article(article_key: str, url: str | None = None) -> Response:
    return Response(url or ARTICLES[article_key].url, article_page(article_key))


FP = SITES["fjordposten"].base

WARC_FILES = (
    WarcFile(
        name="DEMO-20240301120000-00000.warc.gz",
        start=datetime(2024, 3, 1, 12, 0, 0, tzinfo=timezone.utc),
        records=(
            front("fjordposten"),
            article("ferja"),
            article("skirenn"),
            Response(f"{FP}/logo.png", tiny_png(), content_type=PNG_TYPE),
            Response(f"{FP}/finnes-ikke", not_found_page(), status="404 Not Found"),
            front("dalen-tidend"),
            article("samfunnshus"),
            front("sapmi-aviisa"),
            article("giellakursa"),
            front("bygdebloggen"),
            article("vinterhagen"),
            front("ukeskrift-nord"),
            article("fiskemottak"),
            Response("https://samtykke.fjordposten.no/", consent_page()),
        ),
    ),
    WarcFile(
        name="DEMO-20240302120000-00001.warc.gz",
        start=datetime(2024, 3, 2, 12, 0, 0, tzinfo=timezone.utc),
        records=(
            article("ferja"),
            article("ferja", url=f"{FP}/amp/nyheter/2024/02/ferja-innstilt"),
            Revisit(f"{FP}/", front_page("fjordposten")),
            article("straumbrot"),
        ),
    ),
    WarcFile(
        name="fjordposten-spesial.warc.gz",
        start=datetime(2024, 3, 3, 12, 0, 0, tzinfo=timezone.utc),
        records=(
            article("bibliotek"),
            Response(f"{FP}/tom-side", empty_page()),
        ),
    ),
)


# --------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------


def warc_date(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def record_id(key: str, date: str) -> str:
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, key + ' ' + date)}>"


def payload_digest(body: bytes) -> str:
    return "sha1:" + b32encode(hashlib.sha1(body).digest()).decode("ascii")


def http_headers(status: str, content_type: str, body: bytes, moment: datetime) -> StatusAndHeaders:
    headers = [
        ("Date", format_datetime(moment, usegmt=True)),
        ("Content-Type", content_type),
        ("Content-Length", str(len(body))),
    ]
    return StatusAndHeaders(status, headers, protocol="HTTP/1.1")


def warcinfo_record(writer: WARCWriter, filename: str, moment: datetime):
    date = warc_date(moment)
    fields = (
        "software: warc2corpus demo/generate_demo_warcs.py\r\n"
        "format: WARC File Format 1.0\r\n"
        "isPartOf: warc2corpus-demo\r\n"
        "description: Fictional Norwegian news sites for testing warc2corpus\r\n"
    ).encode("utf-8")
    headers = StatusAndHeaders(
        "",
        [
            ("WARC-Type", "warcinfo"),
            ("WARC-Record-ID", record_id(filename, date)),
            ("WARC-Date", date),
            ("WARC-Filename", filename),
        ],
        protocol="WARC/1.0",
    )
    return writer.create_warc_record(
        "", "warcinfo", payload=BytesIO(fields), length=len(fields), warc_headers=headers
    )


def response_record(writer: WARCWriter, item: Response, moment: datetime):
    date = warc_date(moment)
    return writer.create_warc_record(
        item.url,
        "response",
        payload=BytesIO(item.body),
        length=len(item.body),
        http_headers=http_headers(item.status, item.content_type, item.body, moment),
        warc_headers_dict={
            "WARC-Type": "response",
            "WARC-Record-ID": record_id(item.url, date),
            "WARC-Date": date,
            "WARC-Target-URI": item.url,
        },
    )


def revisit_record(writer: WARCWriter, item: Revisit, moment: datetime, original: tuple[str, str]):
    original_id, original_date = original
    date = warc_date(moment)
    return writer.create_revisit_record(
        item.url,
        digest=payload_digest(item.body),
        refers_to_uri=item.url,
        refers_to_date=original_date,
        http_headers=http_headers("200 OK", item.content_type, item.body, moment),
        warc_headers_dict={
            "WARC-Type": "revisit",
            "WARC-Record-ID": record_id(item.url, date),
            "WARC-Date": date,
            "WARC-Target-URI": item.url,
            "WARC-Refers-To": original_id,
        },
    )


def write_warc(path: Path, warc: WarcFile, seen: dict[tuple[str, str], tuple[str, str]]) -> None:
    """Write one WARC file.

    ``seen`` maps (url, payload digest) of every 200 response written so far to
    (record id, WARC-Date); revisits look up their original there.
    """
    with open(path, "wb") as out:
        writer = WARCWriter(out, gzip=True, warc_version="1.0")
        writer.write_record(warcinfo_record(writer, warc.name, warc.start))
        for offset, item in enumerate(warc.records, start=1):
            moment = warc.start + timedelta(seconds=offset)
            key = (item.url, payload_digest(item.body))
            if isinstance(item, Revisit):
                writer.write_record(revisit_record(writer, item, moment, seen[key]))
                continue
            writer.write_record(response_record(writer, item, moment))
            if item.status.startswith("200"):
                seen.setdefault(key, (record_id(item.url, warc_date(moment)), warc_date(moment)))


def main(argv: list[str]) -> int:
    outdir = Path(argv[1]) if len(argv) > 1 else Path(__file__).resolve().parent / "warcs"
    outdir.mkdir(parents=True, exist_ok=True)
    seen: dict[tuple[str, str], tuple[str, str]] = {}
    for warc in WARC_FILES:
        path = outdir / warc.name
        write_warc(path, warc, seen)
        print(f"wrote {path} ({len(warc.records) + 1} records)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
