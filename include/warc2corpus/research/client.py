"""A Python client for researchers, shaped like the National Library's ``dhlab`` package: build a
``Corpus`` from filters (or from a CSV/Excel list of ids), then read its ``concordance``,
``collocations``, ``frequencies`` and ``trend``; every answer is a pandas DataFrame.

It talks to the research API over HTTP (``warc2corpus serve``, or ``/corpus`` in Airflow's API
server), or, given a PostgreSQL URL, to the research library directly on that database: the same
answers either way (the API is a thin layer over the same functions)::

    from warc2corpus.research.client import Corpus, connect

    source = connect("http://127.0.0.1:8000/corpus")     # or "postgresql://…", or a token=…
    corpus = Corpus(text="ferje*", languages=["nno"], published_from="2024-01-01", source=source)
    corpus.frame                                          # the documents' metadata
    corpus.concordance("ferja", before=8, after=8)
    corpus.collocations("ferja")                          # against the whole collection

``connect()`` without a URL reads ``WARC2CORPUS_RESEARCH`` (an API base URL or a database URL),
else uses the standalone server's address, ``http://127.0.0.1:8000/corpus``.

Errors: bad input raises :class:`warc2corpus.research.BadRequest` (``.param`` names the parameter),
an unknown corpus :class:`warc2corpus.research.NotFound`, an API that cannot be reached
:class:`Unreachable`, any other refusal of the API (authentication, overload, timeout) :class:`ApiError`.
"""

from __future__ import annotations

import os
from pathlib import Path

import pandas as pd

from warc2corpus.research.query import BadRequest, NotFound

ENVIRONMENT = "WARC2CORPUS_RESEARCH"
DEFAULT_SOURCE = "http://127.0.0.1:8000/corpus"
PAGE = 1000  # documents fetched per request when a corpus's metadata frame is read


class Unreachable(ConnectionError):
    """The research API does not answer at the given address."""


class ApiError(RuntimeError):
    """The research API refused a request for another reason than bad input (``status`` is the HTTP code)."""

    def __init__(self, status: int, message: str):
        super().__init__(f"{status}: {message}")
        self.status = status


# ---------------------------------------------------------------------------------------------
# Sources: the API over HTTP, or the library on a database
# ---------------------------------------------------------------------------------------------

class _Api:
    """The research API at ``base`` (…/corpus), with an optional token (``Authorization: Bearer``)."""

    def __init__(self, base: str, token: str | None, timeout: float):
        import httpx

        self.base = base.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self._http = httpx.Client(base_url=self.base, headers=headers, timeout=timeout)

    def _answer(self, method: str, path: str, **request):
        import httpx

        try:
            response = self._http.request(method, path, **request)
        except httpx.TransportError as exc:
            raise Unreachable(f"the research API at {self.base} cannot be reached ({exc.__class__.__name__}: "
                              f"{exc}); is `warc2corpus serve` (or Airflow's API server) running?") from None
        try:
            body = response.json()
        except ValueError:
            body = {"detail": response.text[:300]}
        if response.status_code == 400 or (response.status_code == 413 and "param" in body):
            raise BadRequest(body.get("param", "request"), body.get("detail", "bad request"))
        if response.status_code == 404:
            raise NotFound(str(body.get("detail", path)).removeprefix("not found: "))
        if response.status_code >= 300:
            raise ApiError(response.status_code, str(body.get("detail", response.reason_phrase)))
        return body

    def get(self, path: str, params: dict):
        return self._answer("GET", path, params={k: v for k, v in params.items() if v is not None})

    def save(self, filters: dict, name: str | None) -> dict:
        return self._answer("POST", "/corpora", json={**filters, "name": name})

    def save_file(self, data: bytes, filename: str, name: str | None) -> dict:
        form = {"name": name} if name else {}
        return self._answer("POST", "/corpora/from-file", files={"file": (filename, data)}, data=form)

    def close(self) -> None:
        self._http.close()


class _Library:
    """The research library on a database (a read-only research session, opened on first use)."""

    def __init__(self, url: str, timeout: float):
        self.url = url
        self.timeout_ms = int(timeout * 1000)
        self._conn = None

    def conn(self):
        from warc2corpus import research

        if self._conn is None or self._conn.closed:
            self._conn = research.connect(self.url, timeout_ms=self.timeout_ms)
        return self._conn

    def get(self, path: str, params: dict):
        from warc2corpus import research

        given = {k: v for k, v in params.items() if v is not None}
        if path == "/collection":
            return research.collection_summary(self.conn())
        if path.startswith("/corpora/"):
            corpus_id, _, rest = path.removeprefix("/corpora/").partition("/")
            if rest == "documents":
                return research.corpus_documents(self.conn(), corpus_id, **given)
            return research.get_corpus(self.conn(), corpus_id)
        if path == "/concordance":
            return research.concordance(self.conn(), given.pop("query"), **given)
        if path == "/collocations":
            return research.collocations(self.conn(), given.pop("query"), **given)
        if path == "/frequencies":
            return research.frequencies(self.conn(), **given)
        if path == "/trends":
            return research.trend(self.conn(), given.pop("terms"), **given)
        raise AssertionError(f"no library call for {path}")

    def save(self, filters: dict, name: str | None) -> dict:
        from warc2corpus import research

        return research.save_corpus(self.conn(), research.CorpusFilter.from_params(filters), name=name)

    def save_file(self, data: bytes, filename: str, name: str | None) -> dict:
        from warc2corpus import research

        return research.corpus_from_ids(self.conn(), research.read_id_file(data, filename), name=name)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()


class Source:
    """Where the corpus is read: the research API (an http(s) URL) or the database (a postgresql URL)."""

    def __init__(self, url: str, *, token: str | None = None, timeout: float = 60.0):
        self.url = url
        if url.startswith(("http://", "https://")):
            self._backend = _Api(url, token, timeout)
        elif url.startswith(("postgresql://", "postgres://")):
            if token:
                raise BadRequest("token", "a token is for the API; a database URL carries its own credentials")
            self._backend = _Library(url, timeout)
        else:
            raise BadRequest("source", f"an API URL (http://…/corpus) or a database URL (postgresql://…) is "
                                       f"expected, not {url[:60]!r}")

    def __repr__(self) -> str:
        shown = self.url.split("@")[-1] if "@" in self.url else self.url  # never show a password
        return f"Source({shown!r})"

    def __enter__(self) -> "Source":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self._backend.close()

    # -- the whole collection ----------------------------------------------------------------------

    def collection(self) -> dict:
        """Totals of the collection: texts, words, publications, languages, years, version."""
        return self._backend.get("/collection", {})

    def frequencies(self, words=None, *, n: int | None = None, ngram: int | None = None,
                    per_document: bool | None = None, corpus: str | None = None) -> pd.DataFrame:
        """Word (or bigram) counts and per million, of the whole collection or a saved corpus."""
        rows = self._backend.get("/frequencies", {"corpus": corpus, "n": n, "words": _list(words),
                                                  "ngram": ngram, "per_document": per_document})
        return pd.DataFrame(rows)

    def trend(self, terms, *, period: str | None = None, date_field: str | None = None, split: str | None = None,
              corpus: str | None = None) -> pd.DataFrame:
        """Relative frequency of words or phrases per year or month (split by publication or language)."""
        rows = self._backend.get("/trends", {"terms": _list(terms), "corpus": corpus, "period": period,
                                             "date_field": date_field, "split": split})
        return pd.DataFrame(rows)

    def concordance(self, query: str, *, before: int | None = None, after: int | None = None,
                    limit: int | None = None, offset: int | None = None, seed: int | None = None,
                    corpus: str | None = None) -> pd.DataFrame:
        """Keyword in context; ``.attrs["total"]`` holds the number of hits."""
        result = self._backend.get("/concordance", {"query": query, "corpus": corpus, "before": before,
                                                    "after": after, "limit": limit, "offset": offset, "seed": seed})
        frame = pd.DataFrame(result["lines"])
        frame.attrs["total"] = result["total"]
        return frame

    def collocations(self, query: str, *, before: int | None = None, after: int | None = None,
                     reference: "str | Corpus | None" = None, sample: int | None = None, seed: int | None = None,
                     n: int | None = None, corpus: str | None = None) -> pd.DataFrame:
        """Words near a word or phrase, against the whole collection (default) or a reference corpus."""
        if isinstance(reference, Corpus):
            reference = reference.id
        rows = self._backend.get("/collocations", {"query": query, "corpus": corpus, "before": before,
                                                   "after": after, "reference": reference, "sample": sample,
                                                   "seed": seed, "n": n})
        return pd.DataFrame(rows)


def _list(value) -> list[str] | None:
    if value is None:
        return None
    return [value] if isinstance(value, str) else list(value)


def connect(url: str | None = None, *, token: str | None = None, timeout: float = 60.0) -> Source:
    """A source: ``url``, else ``WARC2CORPUS_RESEARCH``, else the standalone API on this machine."""
    return Source(url or os.environ.get(ENVIRONMENT, "").strip() or DEFAULT_SOURCE, token=token, timeout=timeout)


# ---------------------------------------------------------------------------------------------
# Corpus
# ---------------------------------------------------------------------------------------------

class Corpus:
    """A saved, citable corpus: built from filters now (``Corpus(text=…, languages=…)``), from a list of ids
    (:meth:`from_file`), or opened again by its id (:meth:`from_id`). Later loads never change it.

    Filters (as the API's): ``text`` (words, "phrases", prefix*, AND/OR/NOT), ``publications`` (register
    title, host or domain), ``places``, ``counties``, ``languages`` (nob, nno, sme …), ``published_from``/
    ``_to`` and ``harvest_from``/``_to`` (ISO dates), ``page_types`` (default article), ``near_duplicates``
    ("once": a story in near-identical documents — wire copy, updated versions, regional editions — counts
    once, by its earliest capture; default "all"), ``truncated`` ("none": no text read from a capture the
    crawler cut, which may lack its end; default "all"), ``limit``, ``order`` (date or random), ``seed``.
    ``source``: a :class:`Source` or a URL (default: :func:`connect`).
    """

    def __init__(self, *, text: str | None = None, publications=None, places=None, counties=None, languages=None,
                 published_from: str | None = None, published_to: str | None = None, harvest_from: str | None = None,
                 harvest_to: str | None = None, page_types=None, near_duplicates: str | None = None,
                 truncated: str | None = None, limit: int | None = None, order: str | None = None,
                 seed: int | None = None, name: str | None = None, source: "Source | str | None" = None):
        given = {"text": text, "publications": _list(publications), "places": _list(places),
                 "counties": _list(counties), "languages": _list(languages), "published_from": published_from,
                 "published_to": published_to, "harvest_from": harvest_from, "harvest_to": harvest_to,
                 "page_types": _list(page_types), "near_duplicates": near_duplicates, "truncated": truncated,
                 "limit": limit, "order": order, "seed": seed}
        self.source = _source(source)
        self._adopt(self.source._backend.save({k: v for k, v in given.items() if v is not None}, name))

    @classmethod
    def from_file(cls, path: str | Path, *, name: str | None = None, source: "Source | str | None" = None) -> "Corpus":
        """A corpus of the document ids or WARC-Record-IDs in a CSV or Excel (.xlsx) file (a column doc_id,
        record_id or id, else the first); ``unknown_ids`` lists those that name no document."""
        path = Path(path)
        corpus = cls.__new__(cls)
        corpus.source = _source(source)
        corpus._adopt(corpus.source._backend.save_file(path.read_bytes(), path.name, name))
        return corpus

    @classmethod
    def from_id(cls, corpus_id: str, *, source: "Source | str | None" = None) -> "Corpus":
        """A saved corpus opened again by its id (as cited)."""
        corpus = cls.__new__(cls)
        corpus.source = _source(source)
        corpus._adopt(corpus.source._backend.get(f"/corpora/{corpus_id}", {}))
        return corpus

    def _adopt(self, record: dict) -> None:
        self.id: str = record["id"]
        self.name: str | None = record["name"]
        self.size: int = record["documents"]
        self.definition: dict = record["definition"]
        self.collection_version = record["collection_version"]
        self.created_at: str = record["created_at"]
        self.unknown_ids: list[str] = record.get("unknown_ids") or []
        self._frame: pd.DataFrame | None = None

    def __repr__(self) -> str:
        return f"Corpus(id={self.id!r}, name={self.name!r}, size={self.size})"

    def __len__(self) -> int:
        return self.size

    @property
    def frame(self) -> pd.DataFrame:
        """The documents' metadata (id, title, publication, host, url, dates, language, place, county, words,
        WARC pointer), in the corpus's order; read once."""
        if self._frame is None:
            rows, offset = [], 0
            while True:
                page = self.source._backend.get(f"/corpora/{self.id}/documents", {"limit": PAGE, "offset": offset})
                rows.extend(page)
                if len(page) < PAGE:
                    break
                offset += PAGE
            self._frame = pd.DataFrame(rows)
            for column in ("harvest_time", "published"):
                if column in self._frame:
                    self._frame[column] = pd.to_datetime(self._frame[column], utc=column == "harvest_time")
        return self._frame

    def concordance(self, query: str, *, before: int | None = None, after: int | None = None,
                    limit: int | None = None, offset: int | None = None, seed: int | None = None) -> pd.DataFrame:
        """Keyword in context in this corpus (at most 25 words a line); ``.attrs["total"]``: all hits."""
        return self.source.concordance(query, before=before, after=after, limit=limit, offset=offset, seed=seed,
                                       corpus=self.id)

    def collocations(self, query: str, *, before: int | None = None, after: int | None = None,
                     reference: "str | Corpus | None" = None, sample: int | None = None, seed: int | None = None,
                     n: int | None = None) -> pd.DataFrame:
        """Words near ``query`` in this corpus against ``reference`` (the whole collection by default, or a
        Corpus): count, relative, log_likelihood, pmi."""
        return self.source.collocations(query, before=before, after=after, reference=reference, sample=sample,
                                        seed=seed, n=n, corpus=self.id)

    def frequencies(self, words=None, *, n: int | None = None, ngram: int | None = None,
                    per_document: bool | None = None) -> pd.DataFrame:
        """Word or bigram counts and per million in this corpus (the top ``n`` or the given words)."""
        return self.source.frequencies(words, n=n, ngram=ngram, per_document=per_document, corpus=self.id)

    def trend(self, terms, *, period: str | None = None, date_field: str | None = None,
              split: str | None = None) -> pd.DataFrame:
        """Relative frequency of words or phrases in this corpus per year or month."""
        return self.source.trend(terms, period=period, date_field=date_field, split=split, corpus=self.id)


def _source(source: "Source | str | None") -> Source:
    if isinstance(source, Source):
        return source
    return connect(source)
