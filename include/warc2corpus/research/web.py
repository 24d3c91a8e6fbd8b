"""The researcher web page: server-rendered HTML (Jinja2) over the research library, served by the research
API's app at ``/app/`` (``/corpus/app/`` standalone and inside Airflow).

Build a corpus with a form or from a CSV/Excel list of ids, look at what it holds (paged metadata, plots),
and read it: concordance, collocations, frequency list, trends. Every view is a GET URL (citable: it
re-opens the same saved corpus and view), downloads come from the API's own exports, and plots are SVG
drawn here (:mod:`.charts`). No JavaScript; the only asset is one stylesheet. Norwegian Bokmål and English
(a cookie keeps the choice; else the browser's Accept-Language). Bad input is shown on the page with the
field named, never as a traceback. The page calls the same library functions as the JSON API.
"""

from __future__ import annotations

import urllib.parse
from pathlib import Path

import psycopg
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates

from warc2corpus import research
from warc2corpus.research.busy import RETRY_AFTER_SECONDS, Overloaded
from warc2corpus.store import db
from warc2corpus.research import charts
from warc2corpus.research.export import FORMATS, MEDIA_TYPES
from warc2corpus.research.query import CorpusFilter

HERE = Path(__file__).parent
LANGUAGES = ("nb", "en")
LANGUAGE_COOKIE = "w2c_lang"
PAGE_SIZE = 25
TOP_BARS = 20
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
FORMAT_NAMES = {"csv": "CSV", "xlsx": "Excel", "jsonl": "JSON Lines"}

templates = Jinja2Templates(directory=str(HERE / "templates"))

# Every text of the page: (Norwegian Bokmål, English).
TEXT = {
    "site": ("Nyhetskorpus", "News corpus"),
    "skip": ("Hopp til innholdet", "Skip to content"),
    "nav": ("Hovedmeny", "Main menu"),
    "nav_build": ("Bygg korpus", "Build a corpus"),
    "nav_collection": ("Samlingen", "The collection"),
    "nav_api": ("API (OpenAPI)", "API (OpenAPI)"),
    "language": ("Språk", "Language"),
    "home_title": ("Bygg et korpus", "Build a corpus"),
    "home_intro": ("Velg hva korpuset skal inneholde. Korpuset lagres med en lenke du kan sitere; senere innlastinger "
                   "endrer det ikke.",
                   "Choose what the corpus holds. It is saved with a link you can cite; later loads do not change it."),
    "form_filters": ("Hva korpuset skal inneholde", "What the corpus holds"),
    "name": ("Navn på korpuset (valgfritt)", "Name of the corpus (optional)"),
    "publications": ("Publikasjoner", "Publications"),
    "publications_help": ("Velg én eller flere (Ctrl/Cmd og piltaster eller klikk). Ingen valgt: alle.",
                          "Choose one or more (Ctrl/Cmd with arrow keys, or click). None chosen: all."),
    "places": ("Sted (redaksjonens)", "Place (of the editorial office)"),
    "places_help": ("Ett eller flere steder, skilt med komma.", "One or more places, separated by commas."),
    "counties": ("Fylker", "Counties"),
    "languages": ("Språk i teksten", "Languages of the text"),
    "published": ("Publiseringsdato", "Publication date"),
    "harvested": ("Høstingsdato", "Harvest date"),
    "published_from": ("Publisert fra", "Published from"),
    "published_to": ("Publisert til", "Published to"),
    "harvest_from": ("Høstet fra", "Harvested from"),
    "harvest_to": ("Høstet til", "Harvested to"),
    "text": ("Ord eller fraser", "Words or phrases"),
    "text_help": ('Ord, "fraser" i anførselstegn, prefiks* og AND, OR, NOT med parenteser; tegnsetting som i '
                  'teksten (NRK\'s, #metoo). Eksempel: "i dag" AND (ferje* OR båt)',
                  'Words, "phrases" in quotes, prefix* and AND, OR, NOT with parentheses; punctuation as the text '
                  'writes it (NRK\'s, #metoo). Example: "i dag" AND (ferje* OR båt)'),
    "limit": ("Høyst antall dokumenter", "At most this many documents"),
    "near_duplicates": ("Nesten like dokumenter", "Near-duplicates"),
    "near_duplicates_all": ("Alle", "All of them"),
    "near_duplicates_once": ("Én gang per sak (den tidligste)", "Once per story (the earliest)"),
    "near_duplicates_help": ("Samme sak i nesten like tekster: NTB-stoff i flere aviser, oppdaterte versjoner, "
                             "regionutgaver.",
                             "The same story in near-identical texts: wire copy in several papers, updated "
                             "versions, regional editions."),
    "truncated": ("Tekster fra avkortede innhentinger", "Texts from cut captures"),
    "truncated_all": ("Ta med", "Include them"),
    "truncated_none": ("Utelat", "Leave them out"),
    "truncated_help": ("Innhøstingen avbrøt noen sider (en grense for størrelse eller tid, en brutt forbindelse): "
                       "teksten kan mangle slutten.",
                       "The crawler cut some pages short (a size or time limit, a dropped connection): the text "
                       "may lack its end."),
    "order": ("Rekkefølge", "Order"),
    "order_date": ("Etter dato", "By date"),
    "order_random": ("Tilfeldig utvalg", "Random sample"),
    "seed": ("Frø for tilfeldig utvalg", "Seed of the random sample"),
    "seed_help": ("Samme frø gir samme utvalg.", "The same seed gives the same sample."),
    "build": ("Bygg korpus", "Build the corpus"),
    "upload_title": ("Eller: last opp en korpusdefinisjon", "Or: upload a corpus definition"),
    "upload_intro": ("En CSV- eller Excel-fil (.xlsx) med dokument-id-er eller WARC-Record-ID-er: kolonnen "
                     "doc_id, record_id eller id, ellers den første.",
                     "A CSV or Excel (.xlsx) file of document ids or WARC-Record-IDs: the column doc_id, record_id "
                     "or id, else the first."),
    "file": ("Fil (CSV eller .xlsx)", "File (CSV or .xlsx)"),
    "upload": ("Last opp og lagre korpus", "Upload and save the corpus"),
    "open_title": ("Åpne et lagret korpus", "Open a saved corpus"),
    "corpus_id": ("Korpus-id", "Corpus id"),
    "open": ("Åpne", "Open"),
    "error_title": ("Noe må rettes", "Something needs correcting"),
    "error_field": ("Feltet «{field}»", "The field “{field}”"),
    "error_empty": ("Skjemaet er tomt: velg minst én publikasjon, ett sted, fylke, språk, en dato eller skriv ord.",
                    "The form is empty: choose at least a publication, place, county, language, date, or give words."),
    "error_nothing": ("Ingen dokumenter passer til dette. Utvid utvalget og prøv igjen.",
                      "No documents match. Widen the choice and try again."),
    "error_no_file": ("Velg en fil å laste opp.", "Choose a file to upload."),
    "error_too_large": ("Filen er større enn 20 MB.", "The file is larger than 20 MB."),
    "error_timeout": ("Spørringen tok for lang tid og ble stoppet. Snevr den inn (et mindre korpus, et utvalg, "
                      "sjeldnere ord).",
                      "The query took too long and was stopped. Narrow it (a smaller corpus, a sample, rarer words)."),
    "error_unknown_word": ("«{query}» forekommer ikke i dette korpuset.", "“{query}” does not occur in this corpus."),
    "busy_title": ("Prøv igjen om litt", "Try again in a moment"),
    "busy": ("Tjenesten er opptatt, eller databasen kan ikke nås akkurat nå. Prøv igjen om litt.",
             "The service is busy, or the database cannot be reached just now. Try again in a moment."),
    "not_found": ("Fant ikke korpuset «{id}».", "No corpus “{id}” was found."),
    "not_found_title": ("Ikke funnet", "Not found"),
    "detail": ("Detaljer", "Details"),
    "corpus": ("Korpus", "Corpus"),
    "views": ("Visninger av korpuset", "Views of the corpus"),
    "overview": ("Oversikt", "Overview"),
    "concordance": ("Konkordans", "Concordance"),
    "collocations": ("Kollokasjoner", "Collocations"),
    "frequencies": ("Frekvensliste", "Frequency list"),
    "trends": ("Trender", "Trends"),
    "documents": ("Dokumenter", "Documents"),
    "size": ("Størrelse", "Size"),
    "n_documents": ("{n} dokumenter", "{n} documents"),
    "matched": ("{n} dokumenter passer nå til definisjonen; korpuset har de {m} første i valgt rekkefølge (se "
                "«Høyst antall dokumenter»).",
                "{n} documents match the definition now; the corpus holds the first {m} in the chosen order (see “At "
                "most this many documents”)."),
    "created": ("Laget", "Made"),
    "version": ("Samlingsversjon", "Collection version"),
    "definition": ("Definisjon", "Definition"),
    "ids_listed": ("{n} id-er fra fil", "{n} ids from a file"),
    "unknown_ids": ("Id-er uten dokument ({n})", "Ids that name no document ({n})"),
    "metadata": ("Metadata", "Metadata"),
    "rows_caption": ("Dokumenter {first}–{last} av {total}", "Documents {first}–{last} of {total}"),
    "title": ("Tittel", "Title"),
    "publication": ("Publikasjon", "Publication"),
    "published_col": ("Publisert", "Published"),
    "harvested_col": ("Høstet", "Harvested"),
    "language_col": ("Språk", "Language"),
    "county": ("Fylke", "County"),
    "words": ("Ord", "Words"),
    "address": ("Adresse", "Address"),
    "pages": ("Sider", "Pages"),
    "previous": ("Forrige side", "Previous page"),
    "next": ("Neste side", "Next page"),
    "page_of": ("Side {page} av {pages}", "Page {page} of {pages}"),
    "downloads": ("Last ned", "Download"),
    "download_as": ("{what} som {format}", "{what} as {format}"),
    "all_metadata": ("All metadata", "All metadata"),
    "plots": ("Hva korpuset inneholder", "What the corpus holds"),
    "collection_plots": ("Hva samlingen inneholder", "What the collection holds"),
    "by_publication": ("Dokumenter per publikasjon", "Documents per publication"),
    "by_language": ("Dokumenter per språk", "Documents per language"),
    "by_county": ("Dokumenter per fylke", "Documents per county"),
    "timeline": ("Dokumenter per måned: publisert og høstet", "Documents per month: published and harvested"),
    "per_month_language": ("Dokumenter per måned (publisert) og språk",
                           "Documents per month (published) by language"),
    "undated": ("{n} dokumenter uten publiseringsdato er ikke med i tidslinjen for publisering.",
                "{n} documents without a publication date are not in the publication timeline."),
    "as_table": ("Vis dataene som tabell", "Show the data as a table"),
    "chart_bars_desc": ("Stolpediagram: {n} stolper; største: {top} ({value}).",
                        "Bar chart: {n} bars; largest: {top} ({value})."),
    "chart_lines_desc": ("Linjediagram over {n} perioder ({first}–{last}) med linjene: {names}.",
                         "Line chart over {n} periods ({first}–{last}) with the lines: {names}."),
    "month": ("Måned", "Month"),
    "no_county": ("(ikke oppgitt)", "(not given)"),
    "none": ("ingen", "none"),
    "plots_data": ("Dataene bak diagrammene", "The data behind the plots"),
    "cite": ("Siter denne visningen", "Cite this view"),
    "cite_intro": ("Lenken åpner det samme lagrede korpuset og den samme visningen med de samme valgene:",
                   "The link re-opens the same saved corpus and the same view with the same choices:"),
    "cite_text": ("Korpus {id}, samlingsversjon {version}, laget {created}.",
                  "Corpus {id}, collection version {version}, made {created}."),
    "show": ("Vis", "Show"),
    "query": ("Søkeord eller frase", "Word or phrase"),
    "query_help": ('Et ord, et prefiks* eller en frase (flere ord); tegnsetting som i teksten (NRK\'s).',
                   'A word, a prefix* or a phrase (several words); punctuation as the text writes it (NRK\'s).'),
    "before": ("Ord før", "Words before"),
    "after": ("Ord etter", "Words after"),
    "window_help": ("Før + treffet + etter: høyst 25 ord.", "Before + the hit + after: at most 25 words."),
    "lines_per_page": ("Linjer per side", "Lines per page"),
    "sample_seed": ("Frø for tilfeldig utvalg (tomt: etter dato)", "Seed of a random sample (empty: by date)"),
    "conc_caption": ("Linje {first}–{last} av {total} treff på «{query}»",
                     "Lines {first}–{last} of {total} hits of “{query}”"),
    "left": ("Før", "Before"),
    "hit": ("Treff", "Hit"),
    "right": ("Etter", "After"),
    "source": ("Kilde", "Source"),
    "conc_downloads": ("Konkordansen (opptil 1000 linjer)", "The concordance (up to 1,000 lines)"),
    "reference": ("Referansekorpus", "Reference corpus"),
    "reference_collection": ("Hele samlingen", "The whole collection"),
    "reference_saved": ("Et lagret korpus, med id:", "A saved corpus, with the id:"),
    "reference_id": ("Id for referansekorpuset", "Id of the reference corpus"),
    "sample": ("Utvalg: antall dokumenter (tomt: alle)", "Sample: number of documents (empty: all)"),
    "n_rows": ("Antall rader", "Number of rows"),
    "coll_caption": ("Kollokasjoner til «{query}», ordnet etter log-likelihood (referanse: {reference})",
                     "Collocates of “{query}” by log-likelihood (reference: {reference})"),
    "coll_chart": ("De {n} sterkeste kollokasjonene (log-likelihood)", "The {n} strongest collocates (log-likelihood)"),
    "word": ("Ord", "Word"),
    "count": ("Antall", "Count"),
    "reference_count": ("Antall i referansen", "Count in the reference"),
    "relative": ("Relativ frekvens", "Relative frequency"),
    "log_likelihood": ("Log-likelihood", "Log-likelihood"),
    "pmi": ("PMI", "PMI"),
    "per_million": ("Per million ord", "Per million words"),
    "ngram": ("Enheter", "Units"),
    "ngram_1": ("Enkeltord", "Single words"),
    "ngram_2": ("Ordpar (bigram)", "Word pairs (bigrams)"),
    "only_words": ("Bare disse ordene (valgfritt, skilt med komma)", "Only these words (optional, separated by commas)"),
    "freq_caption": ("Frekvensliste: {n} rader", "Frequency list: {n} rows"),
    "freq_chart": ("De {n} hyppigste", "The {n} most frequent"),
    "terms": ("Ord eller fraser (skilt med komma)", "Words or phrases (separated by commas)"),
    "period": ("Periode", "Period"),
    "year": ("År", "Year"),
    "month_period": ("Måned", "Month"),
    "date_field": ("Dato", "Date"),
    "split": ("Del opp etter", "Split by"),
    "split_none": ("Ingenting", "Nothing"),
    "trend_caption": ("Relativ frekvens per {period} (per million ord)", "Relative frequency per {period} (per million words)"),
    "trend_chart": ("Relativ frekvens over tid", "Relative frequency over time"),
    "term": ("Søkeord", "Term"),
    "total_words": ("Ord i perioden", "Words in the period"),
    "collection_title": ("Samlingen", "The collection"),
    "totals": ("Totalt", "Totals"),
    "texts": ("Tekster", "Texts"),
    "hosts": ("Nettsteder", "Web sites"),
    "published_range": ("Publisert", "Published"),
    "harvested_range": ("Høstet", "Harvested"),
    "metadata_downloads": ("Beskrivelse av samlingen", "The collection described"),
    "dublin_core": ("Dublin Core (XML)", "Dublin Core (XML)"),
    "dcat": ("DCAT (JSON-LD)", "DCAT (JSON-LD)"),
    "citation": ("Sitering", "Citation"),
    "ris": ("RIS", "RIS"),
    "bibtex": ("BibTeX", "BibTeX"),
    "api_note": ("Alt her finnes også i API-et, for skript.", "Everything here is in the API too, for scripts."),
    "empty_collection": ("Samlingen er tom ennå.", "The collection is empty so far."),
}


def _language(request: Request) -> str:
    chosen = request.cookies.get(LANGUAGE_COOKIE)
    if chosen in LANGUAGES:
        return chosen
    for part in request.headers.get("accept-language", "").split(","):
        tag = part.split(";")[0].strip().lower()
        if tag[:2] in ("nb", "nn", "no"):
            return "nb"
        if tag[:2] == "en":
            return "en"
    return "nb"


def _translator(lang: str):
    index = LANGUAGES.index(lang)

    def t(key: str, **values) -> str:
        text = TEXT[key][index]
        return text.format(**values) if values else text

    return t


def _number(lang: str):
    def num(value) -> str:
        if value is None:
            return ""
        if isinstance(value, float):
            text = f"{value:,.2f}"
        else:
            text = f"{value:,}"
        return text.replace(",", "\u00a0").replace(".", ",") if lang == "nb" else text

    return num


class Page:
    """What every template gets: the language, its texts, URLs relative to where the app is mounted."""

    def __init__(self, request: Request):
        self.request = request
        self.lang = _language(request)
        self.t = _translator(self.lang)
        self.num = _number(self.lang)
        self.root = request.scope.get("root_path", "").rstrip("/")
        self.app = self.root + "/app"

    def url(self, path: str, **params) -> str:
        """A URL of the app with the given parameters (None and "" left out; lists repeated)."""
        pairs = []
        for key, value in params.items():
            for v in value if isinstance(value, (list, tuple)) else [value]:
                if v is not None and v != "":
                    pairs.append((key, str(v)))
        return self.app + path + ("?" + urllib.parse.urlencode(pairs) if pairs else "")

    def api(self, path: str, **params) -> str:
        return self.url(path, **params).replace(self.app, self.root, 1)

    def cite(self, path: str, **params) -> str:
        """The absolute URL of a view of the app with its parameters (empty ones left out): the link to cite."""
        return f"{self.request.url.scheme}://{self.request.url.netloc}" + self.url(path, **params)

    def language_links(self) -> list[dict]:
        current = self.request.url.path + (f"?{self.request.url.query}" if self.request.url.query else "")
        return [{"code": code, "name": name, "current": code == self.lang,
                 "href": self.url("/language", set=code, next=current)}
                for code, name in (("nb", "Norsk (bokmål)"), ("en", "English"))]


def _error(page: Page, exc: research.BadRequest) -> dict:
    """A library BadRequest as a message naming the field in the page's language, with the library's
    detail (English) beside it."""
    field = {"window": "before", "ids": "file"}.get(exc.param, exc.param)
    label = TEXT.get(field, (field, field))[LANGUAGES.index(page.lang)]
    return {"field": field, "message": page.t("error_field", field=label), "detail": exc.message}


def _message(text: str, field: str | None = None) -> dict:
    return {"field": field, "message": text, "detail": None}


def _render(page: Page, template: str, status: int = 200, **context) -> HTMLResponse:
    return templates.TemplateResponse(page.request, template, {"page": page, "t": page.t, "num": page.num,
                                                               **context}, status_code=status)


def _list(values: list[str]) -> list[str]:
    """Form values as a list: repeated fields, or one field of comma-separated values."""
    out = []
    for value in values:
        out += [v.strip() for v in value.split(",") if v.strip()]
    return out


FILTER_LISTS = ("publications", "counties", "languages")
FILTER_SCALARS = ("published_from", "published_to", "harvest_from", "harvest_to", "near_duplicates", "truncated",
                  "text", "limit", "order", "seed")


def _filter_form(form) -> dict:
    """The build form's values as CorpusFilter parameters (empty ones left out)."""
    values = {key: [v for v in form.getlist(key) if v.strip()] for key in FILTER_LISTS}
    values["places"] = _list(form.getlist("places"))
    for key in FILTER_SCALARS:
        value = (form.get(key) or "").strip()
        if value:
            values[key] = value
    return {k: v for k, v in values.items() if v not in ([], None, "")}


def _bars(rows: list[dict], label: str, value: str, top: int = TOP_BARS) -> list[tuple[str, float]]:
    return [(str(r[label]) if r[label] is not None else "—", r[value] or 0) for r in rows[:top]]


def _bar_chart(page: Page, chart_id: str, title: str, items: list[tuple[str, float]], headers: tuple[str, str]) -> dict:
    """An SVG bar chart and the same numbers as a table (its text alternative)."""
    desc = (page.t("chart_bars_desc", n=len(items), top=items[0][0], value=page.num(items[0][1]))
            if items else page.t("none"))
    return {"id": chart_id, "title": title, "svg": charts.bar_chart(chart_id, items, title=title, desc=desc, decimal_comma=page.lang == "nb"),
            "table": {"headers": headers, "rows": [[label, value] for label, value in items]}}


def _line_chart(page: Page, chart_id: str, title: str, periods: list[str], series: list[tuple[str, list]],
                y_label: str, period_header: str) -> dict:
    """An SVG line chart and the same numbers as a table: a row per period, a column per line."""
    names = ", ".join(name for name, _ in series)
    desc = (page.t("chart_lines_desc", n=len(periods), first=periods[0], last=periods[-1], names=names)
            if periods else page.t("none"))
    return {"id": chart_id, "title": title,
            "svg": charts.line_chart(chart_id, periods, series, title=title, desc=desc, y_label=y_label,
                                     decimal_comma=page.lang == "nb"),
            "table": {"headers": (period_header, *(name for name, _ in series)),
                      "rows": [[p, *(values[i] for _, values in series)] for i, p in enumerate(periods)]}}


def _months(rows: list[dict], key) -> tuple[list[str], dict[str, dict[str, int]]]:
    """Every month from the first to the last (gaps filled), and documents per series and month."""
    found = sorted({r["month"] for r in rows})
    if not found:
        return [], {}
    months, (year, month) = [], map(int, found[0].split("-"))
    last = found[-1]
    while True:
        current = f"{year:04d}-{month:02d}"
        months.append(current)
        if current >= last:
            break
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
    per: dict[str, dict[str, int]] = {}
    for r in rows:
        name = key(r)
        per.setdefault(name, {})
        per[name][r["month"]] = per[name].get(r["month"], 0) + r["documents"]
    return months, per


def _profile_charts(page: Page, found: dict, *, collection: bool) -> list[dict]:
    t = page.t
    out = [_bar_chart(page, "chart-publications", t("by_publication"),
                      _bars(found["publications"], "value", "documents"), (t("publication"), t("documents"))),
           _bar_chart(page, "chart-languages", t("by_language"), _bars(found["languages"], "value", "documents"),
                      (t("language_col"), t("documents")))]
    if collection:
        counties = [{**r, "value": r["value"] or t("no_county")} for r in found["counties"]]
        out.append(_bar_chart(page, "chart-counties", t("by_county"), _bars(counties, "value", "documents"),
                              (t("county"), t("documents"))))
        months, per = _months(found["published"], lambda r: r["language"] or "und")
        series = [(name, [counts.get(m, 0) for m in months]) for name, counts in sorted(per.items())]
        out.append(_line_chart(page, "chart-timeline", t("per_month_language"), months, series, t("documents"),
                               t("month")))
    else:
        rows = ([{**r, "series": t("published_col")} for r in found["published"]]
                + [{**r, "series": t("harvested_col")} for r in found["harvested"]])
        months, per = _months(rows, lambda r: r["series"])
        series = [(name, [per.get(name, {}).get(m, 0) for m in months])
                  for name in (t("published_col"), t("harvested_col")) if name in per]
        out.append(_line_chart(page, "chart-timeline", t("timeline"), months, series, t("documents"), t("month")))
    return out


def _downloads(page: Page, what: str, path: str, *, api: bool = True, **params) -> dict:
    """Links to a table in every export format: the API's endpoint (api) or one of the page's own."""
    link = page.api if api else page.url
    return {"what": what, "links": [{"format": FORMAT_NAMES[f], "href": link(path, **params, format=f)}
                                    for f in FORMATS]}


def _offset(value: str | None) -> int:
    if value in (None, ""):
        return 0
    if not value.isdigit():
        raise research.BadRequest("offset", f"not a number of rows: {value!r}")
    return int(value)


def _int_param(value: str | None, default: int) -> int | str:
    """A paging number from the URL: the default when absent; the text as given otherwise (the library
    validates it)."""
    return default if value in (None, "") else value


def _pager(page: Page, path: str, params: dict, offset: int, size: int, total: int) -> dict | None:
    if total <= size:
        return None
    pages = (total + size - 1) // size
    current = offset // size + 1
    return {"label": page.t("page_of", page=current, pages=pages),
            "previous": page.url(path, **params, offset=max(offset - size, 0)) if offset > 0 else None,
            "next": page.url(path, **params, offset=offset + size) if offset + size < total else None}


class PageRoute(APIRoute):
    """A route of the page: a query stopped at the statement timeout, an overloaded API and an unreachable
    database are pages saying so (503), not the API's JSON answers."""

    def get_route_handler(self):
        handler = super().get_route_handler()

        async def page_handler(request: Request):
            try:
                return await handler(request)
            except (research.QueryTimeout, Overloaded, db.DatabaseError, psycopg.OperationalError) as exc:
                page = Page(request)
                timeout = isinstance(exc, research.QueryTimeout)
                response = _render(page, "error.html", 503, title=page.t("busy_title"),
                                   message=page.t("error_timeout" if timeout else "busy"))
                response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
                return response

        return page_handler


def install(app: FastAPI, *, database, reader) -> None:
    """Add the page to the research API's app: ``/app/...``, its stylesheet at ``/app/static``, and ``/``
    leading to ``/app/``. ``reader`` is the API's dependency for research access (tokens when required)."""
    router = APIRouter(prefix="/app", include_in_schema=False, dependencies=[Depends(reader)], route_class=PageRoute)

    async def run(function, *args, **kwargs):
        async with database.session() as conn:
            return await run_in_threadpool(function, conn, *args, **kwargs)

    def collection_options(conn) -> dict:
        return research.profile(conn)

    # -- the home page: build a corpus ---------------------------------------------------------------

    def _home(page: Page, options: dict, values: dict, errors: list[dict], status: int = 200) -> HTMLResponse:
        return _render(page, "home.html", status, options=options, values=values, errors=errors)

    @router.get("/", response_class=HTMLResponse)
    async def home(request: Request):
        page = Page(request)
        return _home(page, await run(collection_options), {"limit": "1000", "order": "date"}, [])

    @router.post("/corpora", response_class=HTMLResponse)
    async def build(request: Request):
        page = Page(request)
        form = await request.form()
        given = _filter_form(form)
        name = (form.get("name") or "").strip() or None
        values = {**given, "name": name or "", "limit": given.get("limit", "1000"), "order": given.get("order", "date")}

        def save(conn):
            """(the saved corpus, None) or (None, (errors, status))."""
            if not set(given) - {"limit", "order", "seed", "near_duplicates", "truncated"}:
                return None, ([_message(page.t("error_empty"))], 400)
            try:
                flt = CorpusFilter.from_params(given)
                if research.count_corpus(conn, flt) == 0:
                    return None, ([_message(page.t("error_nothing"), "text" if flt.text else None)], 400)
                return research.save_corpus(conn, flt, name=name), None
            except research.BadRequest as exc:
                return None, ([_error(page, exc)], 400)
            except research.QueryTimeout:
                return None, ([_message(page.t("error_timeout"))], 503)

        saved, failed = await run(save)
        if failed:
            errors, status = failed
            return _home(page, await run(collection_options), values, errors, status)
        return RedirectResponse(page.url(f"/corpora/{saved['id']}"), status_code=303)

    @router.post("/corpora/from-file", response_class=HTMLResponse)
    async def upload(request: Request):
        page = Page(request)
        form = await request.form()
        upload = form.get("file")
        name = (form.get("name") or "").strip() or None
        errors = []
        if upload is None or isinstance(upload, str) or not upload.filename:
            errors = [_message(page.t("error_no_file"), "file")]
        else:
            data = await upload.read(MAX_UPLOAD_BYTES + 1)
            if len(data) > MAX_UPLOAD_BYTES:
                errors = [_message(page.t("error_too_large"), "file")]
            else:
                try:
                    ids = await run_in_threadpool(research.read_id_file, data, upload.filename)
                    made = await run(research.corpus_from_ids, ids, name=name)
                    return RedirectResponse(page.url(f"/corpora/{made['id']}"), status_code=303)
                except research.BadRequest as exc:
                    errors = [_error(page, exc)]
        return _home(page, await run(collection_options), {"limit": "1000", "order": "date"}, errors, 400)

    @router.get("/open", response_class=HTMLResponse)
    async def open_corpus(request: Request, id: str = ""):
        page = Page(request)
        if not id.strip():
            return RedirectResponse(page.url("/"), status_code=303)
        return RedirectResponse(page.url(f"/corpora/{urllib.parse.quote(id.strip(), safe='')}"), status_code=303)

    # -- a saved corpus --------------------------------------------------------------------------------

    def _not_found(page: Page, corpus_id: str) -> HTMLResponse:
        return _render(page, "error.html", 404, title=page.t("not_found_title"),
                       message=page.t("not_found", id=corpus_id))

    def _corpus_context(page: Page, conn, corpus_id: str) -> dict:
        corpus = research.get_corpus(conn, corpus_id)
        definition = corpus["definition"]
        shown = {}
        if "filter" in definition:
            shown = {k: v for k, v in definition["filter"].items()
                     if v not in (None, [], "") and k not in ("page_types",)
                     and not (k in ("near_duplicates", "truncated") and v == "all")}
        matched = None
        if "filter" in definition and corpus["documents"] >= definition["filter"]["limit"]:
            matched = research.count_corpus(conn, CorpusFilter.from_params(definition["filter"]))
        return {"corpus": corpus, "definition": shown, "ids_listed": definition.get("ids"), "matched": matched}

    @router.get("/corpora/{corpus_id}", response_class=HTMLResponse)
    async def corpus_page(request: Request, corpus_id: str, offset: str | None = None):
        page = Page(request)

        def gather(conn):
            context = _corpus_context(page, conn, corpus_id)
            total = context["corpus"]["documents"]
            start = _offset(offset)
            rows = research.corpus_documents(conn, corpus_id, limit=PAGE_SIZE, offset=start)
            found = research.profile(conn, corpus_id)
            return {**context, "rows": rows, "offset": start, "total": total, "profile": found}

        try:
            context = await run(gather)
        except research.NotFound:
            return _not_found(page, corpus_id)
        except research.BadRequest as exc:
            return _render(page, "error.html", 400, title=page.t("error_title"), message=_error(page, exc)["detail"])
        found = context["profile"]
        plots = _profile_charts(page, found, collection=False)
        return _render(page, "corpus.html", view="overview", plots=plots, **context,
                       cite_url=page.cite(f"/corpora/{corpus_id}"),
                       pager=_pager(page, f"/corpora/{corpus_id}", {}, context["offset"], PAGE_SIZE, context["total"]),
                       downloads=[_downloads(page, page.t("all_metadata"), f"/corpora/{corpus_id}/documents",
                                             limit=100000),
                                  _downloads(page, page.t("plots_data"), f"/corpora/{corpus_id}/profile", api=False)])

    async def profile_download(page: Page, corpus_id: str | None, format: str) -> Response:
        """The numbers behind a corpus's (or, with None, the collection's) plots as a download."""
        try:
            rows = research.profile_rows(await run(research.profile, corpus_id))
            body = research.export(rows, format)
        except research.NotFound:
            return _not_found(page, corpus_id)
        except research.BadRequest as exc:
            return _render(page, "error.html", 400, title=page.t("error_title"), message=exc.message)
        return Response(body, media_type=MEDIA_TYPES[format], headers={
            "Content-Disposition": f'attachment; filename="profile-{corpus_id or "collection"}.{format}"'})

    @router.get("/corpora/{corpus_id}/profile")
    async def corpus_profile(request: Request, corpus_id: str, format: str = "csv"):
        return await profile_download(Page(request), corpus_id, format)

    @router.get("/collection/profile")
    async def collection_profile(request: Request, format: str = "csv"):
        return await profile_download(Page(request), None, format)

    # -- the analyses of a saved corpus ---------------------------------------------------------------

    async def analysis(request: Request, corpus_id: str, view: str, compute) -> HTMLResponse:
        """One view of a saved corpus: its form (from the URL), and its result when the form was filled."""
        page = Page(request)
        params = dict(request.query_params)

        def gather(conn):
            context = _corpus_context(page, conn, corpus_id)
            try:
                context.update(compute(page, conn, params))
            except research.BadRequest as exc:
                context["errors"] = [_error(page, exc)]
            except research.QueryTimeout:
                context["errors"] = [_message(page.t("error_timeout"))]
                context["status"] = 503
            return context

        try:
            context = await run(gather)
        except research.NotFound:
            return _not_found(page, corpus_id)
        context.setdefault("errors", [])
        context.setdefault("notices", [])
        status = context.pop("status", 400 if context["errors"] else 200)
        return _render(page, f"{view}.html", status, view=view, params=params,
                       cite_url=page.cite(f"/corpora/{corpus_id}/{view}", **params), **context)

    def concordance(page: Page, conn, params: dict) -> dict:
        corpus_id = page.request.path_params["corpus_id"]
        query = params.get("query", "").strip()
        if not query:
            return {}
        options = {"before": _int_param(params.get("before"), 10), "after": _int_param(params.get("after"), 10),
                   "limit": _int_param(params.get("limit"), PAGE_SIZE), "offset": _int_param(params.get("offset"), 0),
                   "seed": params.get("seed") or None}
        result = research.concordance(conn, query, corpus=corpus_id, **options)
        offset, limit = int(options["offset"]), int(options["limit"])
        kept = {k: v for k, v in params.items() if k != "offset"}
        out = {"result": result, "offset": offset,
               "pager": _pager(page, f"/corpora/{corpus_id}/concordance", kept, offset, limit, result["total"]),
               "downloads": [_downloads(page, page.t("conc_downloads"), "/concordance", query=query, corpus=corpus_id,
                                        before=options["before"], after=options["after"], seed=options["seed"],
                                        limit=1000)]}
        if result["total"] == 0:
            out["notices"] = [_message(page.t("error_unknown_word", query=query), "query")]
        return out

    def collocations(page: Page, conn, params: dict) -> dict:
        corpus_id = page.request.path_params["corpus_id"]
        query = params.get("query", "").strip()
        if not query:
            return {}
        reference = "collection"
        if params.get("reference") == "saved":
            reference = params.get("reference_id", "").strip()
            if not reference:
                raise research.BadRequest("reference_id", "a saved corpus id is expected")
            try:
                research.get_corpus(conn, reference)
            except research.NotFound:
                raise research.BadRequest("reference_id", f"no saved corpus {reference!r}") from None
        options = {"before": _int_param(params.get("before"), 5), "after": _int_param(params.get("after"), 5),
                   "reference": reference, "sample": params.get("sample") or None, "seed": params.get("seed") or None,
                   "n": _int_param(params.get("n"), 50)}
        rows = research.collocations(conn, query, corpus=corpus_id, **options)
        out = {"rows": rows, "reference_name": page.t("reference_collection") if reference == "collection"
               else reference,
               "downloads": [_downloads(page, page.t("collocations"), "/collocations", query=query, corpus=corpus_id,
                                        **{k: v for k, v in options.items() if v is not None})]}
        if rows:
            top = rows[:TOP_BARS]
            out["chart"] = _bar_chart(page, "chart-collocations", page.t("coll_chart", n=len(top)),
                                      [(r["word"], max(r["log_likelihood"] or 0, 0)) for r in top],
                                      (page.t("word"), page.t("log_likelihood")))
        else:
            out["notices"] = [_message(page.t("error_unknown_word", query=query), "query")]
        return out

    def frequencies(page: Page, conn, params: dict) -> dict:
        corpus_id = page.request.path_params["corpus_id"]
        if "n" not in params and "words" not in params and "ngram" not in params:
            params.update(n="100", ngram="1")
        words = _list([params.get("words", "")]) or None
        options = {"n": _int_param(params.get("n"), 100), "ngram": _int_param(params.get("ngram"), 1)}
        rows = research.frequencies(conn, corpus=corpus_id, words=words, **options)
        out = {"rows": rows,
               "downloads": [_downloads(page, page.t("frequencies"), "/frequencies", corpus=corpus_id, words=words,
                                        **options)]}
        if rows:
            top = rows[:TOP_BARS]
            out["chart"] = _bar_chart(page, "chart-frequencies", page.t("freq_chart", n=len(top)),
                                      [(r["word"], r["count"]) for r in top], (page.t("word"), page.t("count")))
        return out

    def trends(page: Page, conn, params: dict) -> dict:
        corpus_id = page.request.path_params["corpus_id"]
        terms = _list([params.get("terms", "")])
        if not terms:
            return {}
        options = {"period": params.get("period") or "year", "date_field": params.get("date_field") or "published",
                   "split": params.get("split") or None}
        rows = research.trend(conn, terms, corpus=corpus_id, **options)
        split = options["split"]
        periods = sorted({r["period"] for r in rows})
        series: dict[str, dict[str, float]] = {}
        for r in rows:
            name = r["term"] + (f" ({r[split]})" if split else "")
            series.setdefault(name, {})[r["period"]] = r["per_million"]
        lines = [(name, [values.get(p) for p in periods]) for name, values in series.items()]
        out = {"rows": rows, "split": split, "period_name": page.t("year" if options["period"] == "year"
                                                                   else "month_period").lower(),
               "downloads": [_downloads(page, page.t("trends"), "/trends", terms=terms, corpus=corpus_id,
                                        **{k: v for k, v in options.items() if v is not None})]}
        if rows:
            out["chart"] = _line_chart(page, "chart-trends", page.t("trend_chart"), periods, lines,
                                       page.t("per_million"), page.t("period"))
        if rows and not any(r["count"] for r in rows):
            out["notices"] = [_message(page.t("error_unknown_word", query=", ".join(terms)), "terms")]
        return out

    def view_endpoint(view: str, compute):
        async def endpoint(request: Request, corpus_id: str):
            return await analysis(request, corpus_id, view, compute)
        return endpoint

    for view, compute in (("concordance", concordance), ("collocations", collocations),
                          ("frequencies", frequencies), ("trends", trends)):
        router.add_api_route(f"/corpora/{{corpus_id}}/{view}", view_endpoint(view, compute), methods=["GET"],
                             response_class=HTMLResponse, name=f"web_{view}")

    # -- the collection -----------------------------------------------------------------------------

    @router.get("/collection", response_class=HTMLResponse)
    async def collection(request: Request):
        page = Page(request)

        def gather(conn):
            return {"summary": research.collection_summary(conn), "profile": research.profile(conn),
                    "ris": research.citation(conn, "ris"), "bibtex": research.citation(conn, "bibtex")}

        context = await run(gather)
        plots = _profile_charts(page, context["profile"], collection=True) if context["summary"]["texts"] else []
        return _render(page, "collection.html", plots=plots, **context,
                       downloads=[_downloads(page, page.t("plots_data"), "/collection/profile", api=False)])

    # -- the language switch ------------------------------------------------------------------------

    @router.get("/language")
    async def language(request: Request, set: str = "nb", next: str = ""):
        page = Page(request)
        target = next if next.startswith(page.app + "/") and "//" not in next and "\\" not in next else page.app + "/"
        response = RedirectResponse(target, status_code=303)
        if set in LANGUAGES:
            response.set_cookie(LANGUAGE_COOKIE, set, max_age=365 * 24 * 3600, path=page.root or "/",
                                samesite="lax", httponly=True)
        return response

    app.include_router(router)
    app.mount("/app/static", StaticFiles(directory=str(HERE / "static")), name="web_static")

    @app.get("/", include_in_schema=False)
    def to_the_page(request: Request):
        return RedirectResponse(request.scope.get("root_path", "").rstrip("/") + "/app/")
