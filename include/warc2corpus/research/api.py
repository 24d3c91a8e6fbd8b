"""The researcher API: a FastAPI app over the research library, with its OpenAPI page (``/corpus/docs``).

Served two ways with the same paths: inside Airflow's API server by the plugin in ``plugins/`` (mounted
at ``/corpus``), and standalone by ``warc2corpus serve`` (uvicorn, :func:`standalone_app`, which mounts
it at ``/corpus`` the same way). Every table comes as JSON, or with ``?format=csv|jsonl|xlsx`` as a
download. No endpoint returns a full text: concordance lines are windows of at most 25 words.

Bad input gets 400 (404 for what does not exist) with ``{"detail": ..., "param": ...}`` naming the
parameter; a query that runs past the statement timeout is cancelled by PostgreSQL and answered 503; when
more than ``max_requests`` requests are in flight, or no database connection frees up within
``wait_seconds``, the answer is 503 with ``Retry-After``. Who may do what: :mod:`.auth`.
"""

import asyncio
import contextlib
import os
import threading
from dataclasses import dataclass, fields, replace
from typing import Annotated, Literal

import psycopg
from fastapi import Depends, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.concurrency import run_in_threadpool
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, RedirectResponse, Response
from fastapi.security import HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from warc2corpus import research
from warc2corpus.research import auth, web
from warc2corpus.research.busy import RETRY_AFTER_SECONDS, Overloaded
from warc2corpus.store import db, publications
from warc2corpus.research.export import FORMATS, MEDIA_TYPES

PREFIX = "/corpus"
MAX_UPLOAD_BYTES = 20 * 1024 * 1024
# ---------------------------------------------------------------------------------------------
# Settings
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Settings:
    """How the API runs. :meth:`from_env` reads the ``WARC2CORPUS_API_*`` variables."""

    database_url: str | None = None   # None: the corpus database of the project (db.database_url())
    inside_airflow: bool = False      # changes authenticated by Airflow's login instead of API tokens
    require_token: bool = False       # WARC2CORPUS_API_REQUIRE_TOKEN: research endpoints need a token too
    connections: int = 4              # WARC2CORPUS_API_CONNECTIONS: pooled read connections (= queries at once)
    max_requests: int = 64            # WARC2CORPUS_API_MAX_REQUESTS: requests in flight before 503
    wait_seconds: float = 5.0         # WARC2CORPUS_API_WAIT_SECONDS: wait for a free connection before 503
    timeout_ms: int = 10000           # WARC2CORPUS_API_TIMEOUT_MS: statement timeout of a research query

    ENVIRONMENT = {
        "require_token": "WARC2CORPUS_API_REQUIRE_TOKEN",
        "connections": "WARC2CORPUS_API_CONNECTIONS",
        "max_requests": "WARC2CORPUS_API_MAX_REQUESTS",
        "wait_seconds": "WARC2CORPUS_API_WAIT_SECONDS",
        "timeout_ms": "WARC2CORPUS_API_TIMEOUT_MS",
    }

    @classmethod
    def from_env(cls, **overrides) -> "Settings":
        """Defaults, then the environment, then ``overrides``; ValueError naming a bad variable."""
        values = {}
        types = {f.name: f.type for f in fields(cls)}
        for name, variable in cls.ENVIRONMENT.items():
            raw = os.environ.get(variable, "").strip()
            if not raw:
                continue
            try:
                if types[name] is bool:
                    if raw.lower() not in ("1", "true", "yes", "0", "false", "no"):
                        raise ValueError(raw)
                    values[name] = raw.lower() in ("1", "true", "yes")
                else:
                    values[name] = types[name](raw)
                    if values[name] <= 0:
                        raise ValueError(raw)
            except ValueError:
                raise ValueError(f"{variable}={raw!r} is not a valid value "
                                 f"({'1 or 0' if types[name] is bool else 'a positive number'})") from None
        return replace(cls(**values), **overrides)


# ---------------------------------------------------------------------------------------------
# The database: a pool of read-only research sessions, and short write connections
# ---------------------------------------------------------------------------------------------

def _research_sessions(timeout_ms: int) -> type[psycopg.Connection]:
    """A connection class whose ``connect`` (what psycopg_pool calls) opens a research session: read-only,
    autocommit, with the statement timeout (research.connect)."""

    class ResearchSession(psycopg.Connection):
        @classmethod
        def connect(cls, conninfo: str = "", **_pool_options) -> psycopg.Connection:
            return research.connect(conninfo, timeout_ms=timeout_ms)

    return ResearchSession


class Database:
    """Opened on first use (a plugin loaded by Airflow's scheduler never connects); closed at shutdown."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._lock = threading.Lock()
        self._url: str | None = None
        self._pool = None
        self._semaphore: asyncio.Semaphore | None = None
        self._loop = None

    def url(self) -> str:
        with self._lock:
            if self._url is None:
                url = self.settings.database_url or db.database_url()
                db.connect(url).close()  # the schema up to date (the tokens table among it)
                self._url = url
            return self._url

    def pool(self):
        from psycopg_pool import ConnectionPool

        url = self.url()
        with self._lock:
            if self._pool is None:
                self._pool = ConnectionPool(url, connection_class=_research_sessions(self.settings.timeout_ms),
                                            min_size=1, max_size=self.settings.connections,
                                            timeout=self.settings.wait_seconds, name="warc2corpus-research",
                                            open=True)
            return self._pool

    def _slots(self) -> asyncio.Semaphore:
        """At most ``connections`` requests hold or wait for a pooled connection; the others wait here, on the
        event loop, not in a worker thread (threads blocked waiting for the pool would starve the threads
        that hold its connections). One semaphore per event loop."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._semaphore, self._loop = asyncio.Semaphore(self.settings.connections), loop
        return self._semaphore

    @contextlib.asynccontextmanager
    async def session(self):
        """A pooled research session for one request; Overloaded when none frees up within wait_seconds."""
        from psycopg_pool import PoolTimeout

        slots = self._slots()
        try:
            await asyncio.wait_for(slots.acquire(), self.settings.wait_seconds)
        except TimeoutError:
            raise Overloaded() from None
        try:
            pool = await run_in_threadpool(self.pool)
            try:
                conn = await run_in_threadpool(pool.getconn)
            except PoolTimeout as exc:  # the server too slow to give new connections
                raise Overloaded() from exc
            try:
                yield conn
            finally:
                await run_in_threadpool(pool.putconn, conn)
        finally:
            slots.release()

    @contextlib.contextmanager
    def writing(self):
        conn = db.connect(self.url())
        try:
            yield conn
        finally:
            conn.close()

    def close(self) -> None:
        with self._lock:
            if self._pool is not None:
                self._pool.close()
                self._pool = None


# ---------------------------------------------------------------------------------------------
# Overload: a bound on requests in flight
# ---------------------------------------------------------------------------------------------

class RequestLimiter:
    """ASGI middleware: past ``max_requests`` requests in flight, answer 503 with Retry-After at once.

    Together with the connection pool (``connections`` queries at once, the others waiting at most
    ``wait_seconds``) this bounds the memory and the time a burst can take."""

    def __init__(self, app, max_requests: int):
        self.app = app
        self.max_requests = max_requests
        self.active = 0  # one event loop: no lock needed

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if self.active >= self.max_requests:
            response = _overloaded(f"more than {self.max_requests} requests in flight")
            await response(scope, receive, send)
            return
        self.active += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.active -= 1


def _overloaded(why: str) -> JSONResponse:
    return JSONResponse({"detail": f"the corpus API is busy ({why}); try again in a moment"}, status_code=503,
                        headers={"Retry-After": str(RETRY_AFTER_SECONDS)})


# ---------------------------------------------------------------------------------------------
# Parameters
# ---------------------------------------------------------------------------------------------

class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt parameter is an error, not silently ignored


class CorpusParams(_Strict):
    """The corpus filters (research.CorpusFilter.from_params validates them)."""

    publications: list[str] = Field(default_factory=list, description="register title or host (repeat for more)")
    places: list[str] = Field(default_factory=list, description="place of the editorial office (register)")
    counties: list[str] = Field(default_factory=list, description="county of the editorial office (register)")
    languages: list[str] = Field(default_factory=list, description="language codes: nob, nno, sme ...")
    harvest_from: str | None = Field(None, description="harvest time from (ISO date)")
    harvest_to: str | None = Field(None, description="harvest time to (ISO date)")
    published_from: str | None = Field(None, description="publication date from (ISO date)")
    published_to: str | None = Field(None, description="publication date to (ISO date)")
    page_types: list[str] = Field(default_factory=list, description="page types (default: article)")
    near_duplicates: Literal["all", "once"] | None = Field(
        None, description="all (default): every document; once: a story found in near-identical documents (wire "
                          "copy in several papers, updated versions, regional editions) counts once, by its "
                          "earliest capture")
    truncated: Literal["all", "none"] | None = Field(
        None, description="all (default): every document; none: no text read from a capture the crawler cut "
                          "(WARC-Truncated: a size or time limit, a dropped connection), which may lack its end")
    text: str | None = Field(None, description='full text: words, "phrases", prefix*, AND / OR / NOT, (...); '
                                               "punctuation as the text writes it (NRK's, #metoo)")
    limit: int | None = Field(None, description="at most this many documents (default 1000, at most 100000)")
    order: Literal["date", "random"] | None = Field(None, description="date (default) or random")
    seed: int | None = Field(None, description="seed of the random order")

    def corpus_filter(self):
        given = self.model_dump(include=set(CorpusParams.model_fields))
        return research.CorpusFilter.from_params({k: v for k, v in given.items() if v not in (None, [])})


Format = Literal[("json", *FORMATS)]  # JSON, or a download in one of research.export's formats


class DocumentsParams(CorpusParams):
    format: Format = "json"


class SavedCorpusBody(CorpusParams):
    name: str | None = Field(None, description="a name for the saved corpus")


class CorpusDocumentsParams(_Strict):
    limit: int | None = Field(None, description="rows per page")
    offset: int | None = Field(None, description="rows to skip")
    format: Format = "json"


class FrequencyParams(_Strict):
    corpus: str | None = Field(None, description="a saved corpus id (default: the whole collection)")
    n: int | None = Field(None, description="the top n (default 100)")
    words: list[str] = Field(default_factory=list, description="only these words (repeat for more)")
    ngram: int | None = Field(None, description="1 (default) or 2 (bigrams)")
    per_document: bool | None = Field(None, description="counts per document")
    format: Format = "json"


class TrendParams(_Strict):
    terms: list[str] = Field(description="words or phrases (repeat for more)")
    corpus: str | None = Field(None, description="a saved corpus id (default: the whole collection)")
    period: Literal["year", "month"] | None = Field(None, description="year (default) or month")
    date_field: Literal["published", "harvest"] | None = Field(None, description="published (default) or "
                                                                                 "harvest")
    split: Literal["publication", "language"] | None = Field(None, description="one line per publication or "
                                                                              "language")
    format: Format = "json"


class ConcordanceParams(_Strict):
    query: str = Field(description='a word, "a phrase" or a prefix*; punctuation as the text writes it (NRK\'s)')
    corpus: str | None = Field(None, description="a saved corpus id (default: the whole collection)")
    before: int | None = Field(None, description="words before the hit (default 10)")
    after: int | None = Field(None, description="words after the hit (default 10); before+hit+after <= 25")
    limit: int | None = Field(None, description="lines per page (default 50, at most 1000)")
    offset: int | None = Field(None, description="lines to skip (paging)")
    seed: int | None = Field(None, description="a random sample of lines, reproducible by seed")
    format: Format = "json"


class CollocationParams(_Strict):
    query: str = Field(description='a word or "a phrase"')
    corpus: str | None = Field(None, description="a saved corpus id (default: the whole collection)")
    before: int | None = Field(None, description="window before (default 5)")
    after: int | None = Field(None, description="window after (default 5)")
    reference: str | None = Field(None, description="'collection' (default) or a saved corpus id")
    sample: int | None = Field(None, description="a seeded sample of this many documents")
    seed: int | None = Field(None, description="seed of the sample")
    n: int | None = Field(None, description="the top n (default 100)")
    format: Format = "json"


class DecisionBody(_Strict):
    decision: Literal["accept", "reject", "clear"] = Field(
        description="accept or reject the host, or clear (the register or autoCat decides again)")
    note: str = Field("", description="why")


class TokenBody(_Strict):
    name: str = Field(description="whose token it is")
    scope: Literal["research", "admin"] = Field("research", description="research (read) or admin (changes)")


def _given(params: BaseModel, *skip: str) -> dict:
    """The parameters a caller gave (None: the library's default), without ``skip``."""
    return {k: v for k, v in params.model_dump(exclude=set(skip)).items() if v is not None}


def _table(rows: list[dict], fmt: str, name: str) -> Response:
    if fmt == "json":
        return JSONResponse(rows)
    return Response(research.export(rows, fmt), media_type=MEDIA_TYPES[fmt],
                    headers={"Content-Disposition": f'attachment; filename="{name}.{fmt}"'})


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------

def _install_error_handlers(app: FastAPI, settings: Settings) -> None:
    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        error = exc.errors()[0]
        where, *loc = error.get("loc", ("body",))  # ("query", "limit"), ("body", "decision"), ("body",)
        param = str(loc[0]) if loc else str(where)
        return JSONResponse({"detail": f"{param}: {error.get('msg', 'invalid')}", "param": param}, status_code=400)

    @app.exception_handler(research.BadRequest)
    async def bad_request(request: Request, exc: research.BadRequest):
        return JSONResponse({"detail": exc.message, "param": exc.param}, status_code=400)

    @app.exception_handler(research.NotFound)
    async def not_found(request: Request, exc: research.NotFound):
        return JSONResponse({"detail": f"not found: {exc.what}"}, status_code=404)

    @app.exception_handler(research.QueryTimeout)
    async def timed_out(request: Request, exc: research.QueryTimeout):
        return JSONResponse({"detail": f"the query took longer than {settings.timeout_ms / 1000:g} s and was "
                                       "stopped; narrow it (a saved corpus, a sample, rarer words) and try again"},
                            status_code=503)

    @app.exception_handler(Overloaded)
    async def overloaded(request: Request, exc: Overloaded):
        return _overloaded(f"all {settings.connections} database connections stayed busy for "
                           f"{settings.wait_seconds:g} s")

    @app.exception_handler(db.DatabaseError)
    @app.exception_handler(psycopg.OperationalError)
    async def unavailable(request: Request, exc: Exception):
        # psycopg's OperationalError also holds what the server refused as past its limits (SQLSTATE class 54)
        # or short of resources (53): a request to change, or a server to wait for, not one to reach again.
        state = getattr(exc, "sqlstate", None) or ""
        if state.startswith(("53", "54")):
            what, reason, advice = db.operational_failure(exc)
            limit = state.startswith("54")
            return JSONResponse({"detail": f"{what} ({reason}); {advice}"}, status_code=400 if limit else 503,
                                headers=None if limit else {"Retry-After": "30"})
        return JSONResponse({"detail": "the corpus database cannot be reached; try again later"}, status_code=503,
                            headers={"Retry-After": "30"})


# ---------------------------------------------------------------------------------------------
# The app
# ---------------------------------------------------------------------------------------------

def create_app(settings: Settings | None = None) -> FastAPI:
    """The researcher API (routes relative to where it is mounted: ``/corpus``)."""
    settings = settings or Settings.from_env()
    database = Database(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        database.close()

    app = FastAPI(
        title="warc2corpus research API",
        version="1",
        description="Corpora, frequencies, trends, concordances and collocations over the news corpus "
                    "(metadata and word statistics, never full texts). Tables come as JSON, or with "
                    "`?format=csv|jsonl|xlsx` as a download. Research endpoints are open"
                    + (" with a token (`Authorization: Bearer w2c_...`)" if settings.require_token else "")
                    + "; changes need " + ("an Airflow login." if settings.inside_airflow
                                           else "an API token of scope admin."),
        docs_url="/docs",
        redoc_url=None,
        lifespan=lifespan,
    )
    app.add_middleware(RequestLimiter, max_requests=settings.max_requests)
    _install_error_handlers(app, settings)
    bearer_scheme = HTTPBearer(auto_error=False, description="an API token (w2c_...)"
                               + (" or an Airflow JWT" if settings.inside_airflow else ""))

    # -- who --------------------------------------------------------------------------------------

    async def _token(credential: str, *, change: bool) -> auth.Principal:
        async with database.session() as conn:
            found = await run_in_threadpool(auth.find_token, conn, credential)
        return auth.token_principal(found, change=change)

    async def reader(request: Request, _=Depends(bearer_scheme)) -> auth.Principal | None:
        if not settings.require_token:
            return None
        credential = auth.bearer(request)
        if credential and credential.startswith(auth.TOKEN_PREFIX):
            return await _token(credential, change=False)
        if settings.inside_airflow:
            return await auth.airflow_principal(request, change=False)
        raise auth.unauthenticated("this API requires a token: Authorization: Bearer w2c_...")

    async def changer(request: Request, _=Depends(bearer_scheme)) -> auth.Principal:
        if settings.inside_airflow:
            return await auth.airflow_principal(request, change=True)
        credential = auth.bearer(request)
        if not credential:
            raise auth.unauthenticated("changes need an API token of scope admin: Authorization: Bearer w2c_...")
        return await _token(credential, change=True)

    async def read_conn():
        async with database.session() as conn:
            yield conn

    def write_conn():
        with database.writing() as conn:
            yield conn

    Reader = Depends(reader)
    Changer = Annotated[auth.Principal, Depends(changer)]  # put first: authenticated before a connection opens
    Read = Annotated[psycopg.Connection, Depends(read_conn)]
    Write = Annotated[psycopg.Connection, Depends(write_conn)]

    def q(model):
        return Annotated[model, Query()]

    # -- the collection -----------------------------------------------------------------------------

    @app.get("/collection", tags=["collection"], dependencies=[Reader],
             summary="Totals: texts, words, publications, languages, years, collection version")
    def collection(conn: Read):
        return JSONResponse(research.collection_summary(conn))

    @app.get("/collection/dublin-core", tags=["collection"], dependencies=[Reader], summary="Dublin Core (XML)",
             response_class=Response)
    def dublin_core(conn: Read):
        return Response(research.dublin_core(conn), media_type="application/xml")

    @app.get("/collection/dcat", tags=["collection"], dependencies=[Reader], summary="DCAT (JSON-LD)",
             response_class=Response)
    def dcat(conn: Read):
        return Response(research.dcat(conn), media_type="application/ld+json")

    @app.get("/collection/citation", tags=["collection"], dependencies=[Reader],
             summary="How to cite the collection: RIS or BibTeX", response_class=Response)
    def citation(conn: Read, format: Literal["ris", "bibtex"] = "ris"):
        media = {"ris": "application/x-research-info-systems", "bibtex": "application/x-bibtex"}[format]
        return Response(research.citation(conn, format), media_type=f"{media}; charset=utf-8",
                        headers={"Content-Disposition":
                                 f'attachment; filename="warc2corpus.{"ris" if format == "ris" else "bib"}"'})

    # -- corpora ------------------------------------------------------------------------------------

    @app.get("/documents", tags=["corpora"], dependencies=[Reader],
             summary="Build a corpus: the metadata of the matching documents (never their text)")
    def documents(conn: Read, params: q(DocumentsParams)):
        return _table(research.build_corpus(conn, params.corpus_filter()), params.format, "documents")

    @app.get("/documents/count", tags=["corpora"], dependencies=[Reader],
             summary="How many documents match")
    def count(conn: Read, params: q(CorpusParams)):
        return {"count": research.count_corpus(conn, params.corpus_filter())}

    @app.post("/corpora", tags=["corpora"], dependencies=[Reader], status_code=201,
              summary="Save a corpus: its definition and the documents it resolves to now, citable by id")
    def save(conn: Read, body: SavedCorpusBody):
        return JSONResponse(research.save_corpus(conn, body.corpus_filter(), name=body.name), status_code=201)

    @app.post("/corpora/from-file", tags=["corpora"], dependencies=[Reader], status_code=201,
              summary="Save a corpus from a CSV or Excel list of document ids or WARC-Record-IDs")
    async def from_file(file: Annotated[UploadFile, File(description="CSV or .xlsx: a column doc_id, "
                                                                      "record_id or id, else the first")],
                        name: Annotated[str | None, Form()] = None):
        data = await file.read(MAX_UPLOAD_BYTES + 1)
        if len(data) > MAX_UPLOAD_BYTES:
            return JSONResponse({"detail": f"the file is larger than {MAX_UPLOAD_BYTES // 2**20} MB",
                                 "param": "file"}, status_code=413)
        ids = await run_in_threadpool(research.read_id_file, data, file.filename or "")  # off the event loop
        async with database.session() as conn:
            made = await run_in_threadpool(research.corpus_from_ids, conn, ids, name=name)
        return JSONResponse(made, status_code=201)

    @app.get("/corpora/{corpus_id}", tags=["corpora"], dependencies=[Reader],
             summary="A saved corpus: definition, size, collection version, when")
    def saved(conn: Read, corpus_id: str):
        return JSONResponse(research.get_corpus(conn, corpus_id))

    @app.get("/corpora/{corpus_id}/documents", tags=["corpora"], dependencies=[Reader],
             summary="The documents of a saved corpus (metadata), paged")
    def saved_documents(conn: Read, corpus_id: str, params: q(CorpusDocumentsParams)):
        rows = research.corpus_documents(conn, corpus_id, **_given(params, "format"))
        return _table(rows, params.format, f"corpus-{corpus_id}")

    # -- analysis -----------------------------------------------------------------------------------

    @app.get("/frequencies", tags=["analysis"], dependencies=[Reader],
             summary="Word or bigram frequencies: counts and per million, per document on request")
    def frequencies(conn: Read, params: q(FrequencyParams)):
        options = _given(params, "format", "words")
        rows = research.frequencies(conn, words=params.words or None, **options)
        return _table(rows, params.format, "frequencies")

    @app.get("/trends", tags=["analysis"], dependencies=[Reader],
             summary="Relative frequency of words or phrases per year or month")
    def trends(conn: Read, params: q(TrendParams)):
        rows = research.trend(conn, params.terms, **_given(params, "format", "terms"))
        return _table(rows, params.format, "trends")

    @app.get("/concordance", tags=["analysis"], dependencies=[Reader],
             summary="Keyword in context: at most 25 words a line, never across a paragraph")
    def concordance(conn: Read, params: q(ConcordanceParams)):
        result = research.concordance(conn, params.query, **_given(params, "format", "query"))
        if params.format == "json":
            return JSONResponse(result)
        return _table(result["lines"], params.format, "concordance")

    @app.get("/collocations", tags=["analysis"], dependencies=[Reader],
             summary="Words near a word or phrase: counts, relative frequency, log-likelihood, PMI")
    def collocations(conn: Read, params: q(CollocationParams)):
        rows = research.collocations(conn, params.query, **_given(params, "format", "query"))
        return _table(rows, params.format, "collocations")

    # -- publications -------------------------------------------------------------------------------

    @app.get("/publications", tags=["publications"], dependencies=[Reader],
             summary="Every known host: status in force, who decided, editors, documents")
    def hosts(conn: Read, status: Literal[publications.STATUSES] | None = None):  # type: ignore[valid-type]
        return JSONResponse(jsonable_encoder(publications.list_hosts(conn, status)))

    @app.get("/publications/{host}", tags=["publications"], dependencies=[Reader],
             summary="One host: its verdicts day by day with the evidence, and people's decisions")
    def host(conn: Read, host: str):
        detail = publications.host_detail(conn, host)
        if detail is None:
            return JSONResponse({"detail": f"unknown publication host: {host}", "param": "host"}, status_code=404)
        return JSONResponse(jsonable_encoder(detail))

    @app.post("/publications/{host}/decision", tags=["publications"],
              summary="A person's decision on a host (needs authentication); withdraws or restores its documents")
    def decide(who: Changer, conn: Write, host: str, body: DecisionBody):
        if host not in publications.host_statuses(conn):
            return JSONResponse({"detail": f"unknown publication host: {host}", "param": "host"}, status_code=404)
        choice = {"accept": "accepted", "reject": "rejected", "clear": None}[body.decision]
        try:
            outcome = publications.decide(conn, host, choice, by=who.name, note=body.note)
        except ValueError as exc:
            return JSONResponse({"detail": str(exc), "param": "note"}, status_code=400)
        conn.commit()
        return {**outcome, "decided_by": who.name}

    # -- tokens -------------------------------------------------------------------------------------

    @app.get("/tokens", tags=["tokens"], summary="The API tokens (never their values); needs authentication")
    def tokens(who: Changer, conn: Write):
        return auth.list_tokens(conn)

    @app.post("/tokens", tags=["tokens"], status_code=201,
              summary="Make an API token; its value is shown in this answer only")
    def make_token(who: Changer, conn: Write, body: TokenBody):
        try:
            created = auth.create_token(conn, body.name, scope=body.scope, by=who.name)
        except ValueError as exc:
            return JSONResponse({"detail": str(exc), "param": "name"}, status_code=400)
        conn.commit()
        return JSONResponse(created, status_code=201)

    @app.delete("/tokens/{token_id}", tags=["tokens"], summary="Revoke an API token")
    def revoke(who: Changer, conn: Write, token_id: int):
        revoked = auth.revoke_token(conn, token_id)
        if revoked is None:
            return JSONResponse({"detail": f"no token {token_id}", "param": "token_id"}, status_code=404)
        conn.commit()
        return revoked

    web.install(app, database=database, reader=reader)  # the researcher page at /app/, and / leading to it
    return app


def standalone_app(settings: Settings | None = None) -> FastAPI:
    """The API for ``warc2corpus serve``: mounted at ``/corpus`` as inside Airflow; ``/`` leads to the researcher
    page (``/corpus/app/``)."""
    api = create_app(settings)

    @contextlib.asynccontextmanager
    async def lifespan(root: FastAPI):
        async with api.router.lifespan_context(api):
            yield

    root = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
    root.mount(PREFIX, api)

    @root.get("/", include_in_schema=False)
    def home():
        return RedirectResponse(f"{PREFIX}/app/")

    return root
