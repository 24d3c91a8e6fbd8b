"""Every SQL statement of research access. Parameters always go as query parameters; the few
pieces of SQL text chosen at run time (an ORDER BY, a period's format) come from fixed tables here.

Withdrawn documents are left out by every query (``NOT d.withdrawn``); the derived tables keep
their rows (a withdrawal can be undone) and the collection-wide totals subtract them."""

from __future__ import annotations

import contextlib
from typing import Iterator

import psycopg
from psycopg import sql

from warc2corpus.store import db
from warc2corpus.store.load import int_array, text_array
from warc2corpus.research.query import And, BadRequest, CorpusFilter, FullText, IndexCondition, Not, QueryTimeout

REFRESH_LOCK_ID = 0x72657365  # "rese": one refresh of the research index at a time

# Dates as ISO text straight from PostgreSQL (UTC): no per-row conversion in Python.
HARVEST_ISO = """to_char(d.harvest_time AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"+00:00"')"""
# cluster / cluster_size: the document's near-duplicate cluster, by its representative's doc_id (its own
# when it has no near-duplicate), and how many documents the cluster holds (view document_clusters);
# truncated: why the crawler cut the capture the text was read from (its text may end early), or null.
METADATA = f"""d.doc_id, d.record_id, d.title, coalesce(s.title, d.host) AS publication, d.host, d.url,
    {HARVEST_ISO} AS harvest_time, d.published::text AS published, d.language, s.place, s.county, r.words,
    d.warc_file, d.record_offset, d.record_length, coalesce(c.representative, d.doc_id) AS cluster,
    coalesce(c.members, 1) AS cluster_size, d.truncated"""
ORDERS = {
    "date": sql.SQL("coalesce(d.published, (d.harvest_time AT TIME ZONE 'UTC')::date), d.doc_id"),
    "random": sql.SQL("hashint8extended(d.doc_id, {seed}), d.doc_id"),   # stable: hash partitioning relies on it
}
PERIODS = {"year": "YYYY", "month": "YYYY-MM"}
DATE_FIELDS = {"published": sql.SQL("d.published::timestamp"),
               "harvest": sql.SQL("(d.harvest_time AT TIME ZONE 'UTC')")}
SPLITS = {"publication": sql.SQL("coalesce(s.title, d.host)"), "language": sql.SQL("d.language")}


def connect(url: str | None = None, *, timeout_ms: int = 10000) -> psycopg.Connection:
    """A read-only autocommit session whose statements stop after timeout_ms (QueryTimeout)."""
    conn = db.connect(url)
    conn.autocommit = True
    conn.execute("SET default_transaction_read_only = on")
    conn.execute(sql.SQL("SET statement_timeout = {}").format(sql.Literal(int(timeout_ms))))
    conn.execute("SET work_mem = '32MB'")     # sorts of a common word's documents stay in memory
    return conn


@contextlib.contextmanager
def guard():
    """PostgreSQL's statement timeout as QueryTimeout."""
    try:
        yield
    except psycopg.errors.QueryCanceled as exc:
        raise QueryTimeout("the query ran longer than the statement timeout allows; narrow it "
                           "(a corpus, a sample, rarer words)") from exc


@contextlib.contextmanager
def writing(conn: psycopg.Connection):
    """A transaction that may write, also on a read-only research session."""
    with guard(), conn.transaction():
        conn.execute("SET TRANSACTION READ WRITE")
        yield


def _all(conn, query, params=()) -> list[tuple]:
    with guard():
        return conn.execute(query, params).fetchall()


@contextlib.contextmanager
def fts_plan(conn, *, ordered: bool = False):
    """A transaction whose plans reach research_fts through its GIN index. The planner does not
    see that filtering the table row by row means detoasting every tsvector (ten times the cost of
    the bitmap scan for a common word), so sequential scans are switched off here, and index scans
    too unless `ordered`: a cursor over documents in date order that checks a common word's
    documents one by one is the fast start of a concordance's first page."""
    with guard(), conn.transaction():
        conn.execute("SET LOCAL enable_seqscan = off")
        if not ordered:
            conn.execute("SET LOCAL enable_indexscan = off")
        yield


def _all_fts(conn, query, params=()) -> list[tuple]:
    with fts_plan(conn):
        return conn.execute(query, params).fetchall()


def _dicts(conn, query, params=()) -> list[dict]:
    with guard(), conn.cursor(row_factory=psycopg.rows.dict_row) as cur:
        return cur.execute(query, params).fetchall()


# ---------------------------------------------------------------------------------------------
# The index (refresh)
# ---------------------------------------------------------------------------------------------

def lock_refresh(conn) -> None:
    conn.execute("SELECT pg_advisory_lock(%s)", (REFRESH_LOCK_ID,))


def unlock_refresh(conn) -> None:
    conn.execute("SELECT pg_advisory_unlock(%s)", (REFRESH_LOCK_ID,))


def drop_stale(conn) -> int:
    """Remove the index rows of documents that no longer exist, and their words from the totals."""
    row = conn.execute(
        """WITH gone AS (
               DELETE FROM research_docs r WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.doc_id = r.doc_id)
               RETURNING r.terms, r.counts),
           agg AS (SELECT t, sum(c) AS c FROM gone, unnest(gone.terms, gone.counts) u(t, c) GROUP BY t),
           upd AS (UPDATE research_lexicon l SET total = l.total - agg.c FROM agg WHERE l.word_id = agg.t)
           SELECT count(*) FROM gone""").fetchone()
    conn.execute("DELETE FROM research_fts f WHERE NOT EXISTS (SELECT 1 FROM research_docs r WHERE r.doc_id = f.doc_id)")
    return row[0]


def pending_documents(conn, batch: int) -> list[int]:
    return [r[0] for r in conn.execute(
        """SELECT d.doc_id FROM documents d
           WHERE NOT EXISTS (SELECT 1 FROM research_docs r WHERE r.doc_id = d.doc_id)
           ORDER BY d.doc_id LIMIT %s""", (batch,))]


def add_to_lexicon(conn, words: list[str], flags: list[bool], counts: list[int]) -> dict[str, int]:
    """The word ids of the words (new words added) after adding ``counts`` to their totals: one
    statement, which gives a new word its total as it inserts it. The arrays go as array literals
    (``store.load.text_array``): psycopg's list dumper costs a Python call per element; the rows come
    back in one ``fetchall`` (iterating the cursor costs a Python call per row: 0.12 -> 0.06 s for 63,000)."""
    return dict(conn.execute(
        """INSERT INTO research_lexicon AS l (word, is_word, total)
           SELECT * FROM unnest(%s::text[], %s::boolean[], %s::bigint[])
           ON CONFLICT (word) DO UPDATE SET total = l.total + excluded.total
           RETURNING word, word_id""",
        (text_array(words), "{" + ",".join("t" if flag else "f" for flag in flags) + "}", int_array(counts))).fetchall())


def insert_documents(conn, rows: list[tuple]) -> None:
    """rows: (doc_id, words, fts text, terms, counts, seq bytes, positions whole). The id arrays go as
    array literals (``store.load.int_array``): psycopg's list dumper, in Python, took as long as the
    rest of the index."""
    with conn.cursor() as cur:
        with cur.copy("COPY research_docs (doc_id, words, terms, counts, seq) FROM STDIN") as copy:
            for doc_id, words, _, terms, counts, seq, _ in rows:
                copy.write_row((doc_id, words, int_array(terms), int_array(counts), seq))
        with cur.copy("COPY research_fts (doc_id, fts, positions_whole) FROM STDIN") as copy:
            for doc_id, _, fts, _, _, _, whole in rows:
                copy.write_row((doc_id, fts, whole))


FTS_INDEXES = ("research_fts_gin", "research_fts_long_gin")


def merge_pending(conn) -> None:
    """Move the full-text indexes' pending entries into the indexes proper (else every search scans them)."""
    for name in FTS_INDEXES:
        conn.execute("SELECT gin_clean_pending_list(%s::regclass)", (name,))


def add_version(conn) -> int:
    return conn.execute(
        """INSERT INTO collection_versions (documents, words)
           SELECT count(*), coalesce(sum(words), 0) FROM research_docs RETURNING version""").fetchone()[0]


def current_version(conn) -> dict | None:
    rows = _dicts(conn, "SELECT version, created_at, documents, words FROM collection_versions "
                        "ORDER BY version DESC LIMIT 1")
    return rows[0] if rows else None


# ---------------------------------------------------------------------------------------------
# Corpora
# ---------------------------------------------------------------------------------------------

def _hosts(conn, column: str, values, param: str) -> list[str]:
    """Hosts whose publication matches each value (by register title, host or domain; or place/county)."""
    hosts = set()
    for value in values:
        if column == "publication":
            found = conn.execute(
                """SELECT host FROM host_status WHERE lower(title) = lower(%s) OR host = lower(%s) OR domain = lower(%s)
                   UNION SELECT host FROM documents WHERE host = lower(%s) LIMIT 100000""",
                (value, value, value, value)).fetchall()
        else:
            found = conn.execute(sql.SQL("SELECT host FROM host_status WHERE lower({}) = lower(%s)")
                                 .format(sql.Identifier(column)), (value,)).fetchall()
        if not found:
            raise BadRequest(param, f"unknown {column}: {value!r}")
        hosts.update(h for (h,) in found)
    return sorted(hosts)


def _text_where(condition) -> tuple[sql.Composable, list]:
    """SQL over `documents d` of a full-text condition (``query.IndexCondition``, or several under And / Or /
    Not)."""
    if isinstance(condition, IndexCondition):
        parts, params = [], []
        if condition.tsquery is not None:
            parts.append(sql.SQL("d.doc_id IN (SELECT f.doc_id FROM research_fts f WHERE {}f.fts @@ %s::tsquery)")
                         .format(sql.SQL("f.positions_whole AND " if condition.whole_only else "")))
            params.append(condition.tsquery)
        if condition.ids is not None:
            parts.append(sql.SQL("d.doc_id = ANY(%s)"))
            params.append(condition.ids)
        return sql.SQL("(") + sql.SQL(" OR ").join(parts) + sql.SQL(")"), params
    if isinstance(condition, Not):
        inner, params = _text_where(condition.part)
        return sql.SQL("NOT ") + inner, params
    parts, params = [], []
    for part in condition.parts:
        where, more = _text_where(part)
        parts.append(where)
        params.extend(more)
    joiner = sql.SQL(" AND " if isinstance(condition, And) else " OR ")
    return sql.SQL("(") + joiner.join(parts) + sql.SQL(")"), params


def filter_where(conn, flt: CorpusFilter, text) -> tuple[sql.Composable, list]:
    """WHERE clause and parameters over `documents d` for the filter."""
    clauses, params = [sql.SQL("NOT d.withdrawn"), sql.SQL("d.page_type = ANY(%s)")], [list(flt.page_types)]
    with guard():
        for column, values, param in (("publication", flt.publications, "publications"),
                                      ("place", flt.places, "places"), ("county", flt.counties, "counties")):
            if values:
                clauses.append(sql.SQL("d.host = ANY(%s)"))
                params.append(_hosts(conn, column, values, param))
    if flt.near_duplicates == "once":  # a cluster's other members out (view documents_distinct)
        clauses.append(sql.SQL("NOT EXISTS (SELECT 1 FROM near_duplicate_clusters c "
                               "WHERE c.doc_id = d.doc_id AND c.representative <> d.doc_id)"))
    if flt.truncated == "none":
        clauses.append(sql.SQL("d.truncated IS NULL"))
    if flt.languages:
        clauses.append(sql.SQL("d.language = ANY(%s)"))
        params.append(list(flt.languages))
    for value, clause in ((flt.harvest_from, "d.harvest_time >= %s::date"),
                          (flt.harvest_to, "d.harvest_time < %s::date + 1"),
                          (flt.published_from, "d.published >= %s::date"),
                          (flt.published_to, "d.published <= %s::date")):
        if value:
            clauses.append(sql.SQL(clause))
            params.append(value)
    if text is not None:
        where, more = _text_where(text)
        clauses.append(where)
        params.extend(more)
    return sql.SQL(" AND ").join(clauses), params


def _order(flt: CorpusFilter) -> sql.Composable:
    return ORDERS[flt.order].format(seed=sql.Literal(int(flt.seed or 0)))


def corpus_rows(conn, flt: CorpusFilter, text) -> list[dict]:
    """Metadata rows of the filter's documents: ids chosen and ordered first, then their metadata."""
    return rows_for_ids(conn, corpus_ids(conn, flt, text))


def corpus_ids(conn, flt: CorpusFilter, text) -> list[int]:
    where, params = filter_where(conn, flt, text)
    query = sql.SQL("SELECT d.doc_id FROM documents d WHERE {} ORDER BY {} LIMIT %s").format(where, _order(flt))
    return [r[0] for r in (_all_fts if text else _all)(conn, query, [*params, flt.limit])]


def corpus_count(conn, flt: CorpusFilter, text) -> int:
    where, params = filter_where(conn, flt, text)
    query = sql.SQL("SELECT count(*) FROM documents d WHERE {}").format(where)
    return (_all_fts if text else _all)(conn, query, params)[0][0]


@contextlib.contextmanager
def long_documents(conn, relaxed: str | None) -> Iterator[Iterator[tuple]]:
    """Rows (doc_id, seq) of the documents whose index lacks positions (``positions_whole`` false), those
    matching ``relaxed`` (all when None), withdrawn ones left out: a phrase must be read in them word for
    word (``research.matching``)."""
    where = sql.SQL("f.fts @@ %s::tsquery") if relaxed is not None else sql.SQL("true")
    query = sql.SQL("SELECT r.doc_id, r.seq FROM research_fts f JOIN research_docs r ON r.doc_id = f.doc_id "
                    "JOIN documents d ON d.doc_id = f.doc_id WHERE NOT f.positions_whole AND NOT d.withdrawn "
                    "AND {}").format(where)
    with guard(), conn.transaction(), conn.cursor(name="research_long") as cur:
        cur.itersize = 50
        cur.execute(query, [relaxed] if relaxed is not None else [])
        yield iter(cur)


def _holding(text: FullText) -> tuple[sql.Composable, list]:
    """`documents d` that may hold the query: through the index (exact, but for a phrase in a document whose
    index lacks positions) and, for a phrase, every such document that holds its words; the caller reads
    them word for word."""
    if not text.phrases:
        return _text_where(IndexCondition(text.tsquery))
    long = sql.SQL("NOT f.positions_whole") + (sql.SQL(" AND f.fts @@ %s::tsquery") if text.relaxed else sql.SQL(""))
    return (sql.SQL("d.doc_id IN (SELECT f.doc_id FROM research_fts f WHERE f.fts @@ %s::tsquery "
                    "UNION ALL SELECT f.doc_id FROM research_fts f WHERE {})").format(long),
            [text.tsquery, *([text.relaxed] if text.relaxed else [])])


def rows_for_ids(conn, doc_ids: list[int], *, limit: int | None = None, offset: int = 0) -> list[dict]:
    """Metadata rows of the documents in the order given, withdrawn ones left out."""
    query = sql.SQL("SELECT {} FROM unnest(%s::bigint[]) WITH ORDINALITY u(doc_id, n) "
                    "JOIN documents d ON d.doc_id = u.doc_id LEFT JOIN research_docs r ON r.doc_id = d.doc_id "
                    "LEFT JOIN host_status s ON s.host = d.host "
                    "LEFT JOIN near_duplicate_clusters c ON c.doc_id = d.doc_id WHERE NOT d.withdrawn ORDER BY u.n "
                    "LIMIT %s OFFSET %s").format(sql.SQL(METADATA))
    return _dicts(conn, query, (doc_ids, limit, offset))


def find_ids(conn, doc_ids: list[int], record_ids: list[str]) -> tuple[dict[int, int], dict[str, int]]:
    """Which of the document ids exist, and the document of each known WARC-Record-ID (any capture)."""
    with guard():
        known = {r[0]: r[0] for r in conn.execute(
            "SELECT doc_id FROM documents WHERE doc_id = ANY(%s)", (doc_ids,))}
        records = dict(conn.execute(
            """SELECT record_id, doc_id FROM documents WHERE record_id = ANY(%s)
               UNION ALL SELECT record_id, doc_id FROM captures WHERE record_id = ANY(%s)""",
            (record_ids, record_ids)).fetchall())
    return known, records


def insert_corpus(conn, corpus_id: str, name, definition: dict, doc_ids: list[int], unknown: list[str]) -> dict:
    with writing(conn):
        return _dicts(conn, """
            INSERT INTO saved_corpora (id, name, definition, doc_ids, unknown_ids, collection_version)
            VALUES (%s, %s, %s, %s, %s, (SELECT max(version) FROM collection_versions))
            RETURNING id, name, definition, collection_version, created_at""",
            (corpus_id, name, psycopg.types.json.Jsonb(definition), doc_ids, unknown))[0]


def corpus_record(conn, corpus_id: str) -> dict | None:
    if "\x00" in corpus_id:  # no id holds one (nor can a text column)
        return None
    rows = _dicts(conn, """
        SELECT c.id, c.name, c.definition, c.unknown_ids, c.collection_version, c.created_at,
               c.doc_ids, (SELECT count(*) FROM documents d WHERE d.doc_id = ANY(c.doc_ids) AND NOT d.withdrawn)
                   AS documents
        FROM saved_corpora c WHERE c.id = %s""", (corpus_id,))
    return rows[0] if rows else None


# ---------------------------------------------------------------------------------------------
# Words
# ---------------------------------------------------------------------------------------------

def word_ids(conn, words: list[str]) -> dict[str, int]:
    return dict(_all(conn, "SELECT word, word_id FROM research_lexicon WHERE word = ANY(%s) AND is_word", (words,)))


def punctuation_ids(conn, tokens: list[str]) -> dict[str, int]:
    """The lexicon's ids of tokens that are no word (``seq`` codes them as ``-(id + 2)``)."""
    return dict(_all(conn, "SELECT word, word_id FROM research_lexicon WHERE word = ANY(%s) AND NOT is_word",
                     (tokens,)))


def prefix_ids(conn, prefix: str, cap: int) -> list[int]:
    pattern = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
    return [r[0] for r in _all(conn, "SELECT word_id FROM research_lexicon WHERE word LIKE %s AND is_word "
                                     "AND total > 0 LIMIT %s", (pattern, cap))]


def words_of(conn, ids: list[int]) -> dict[int, str]:
    return dict(_all(conn, "SELECT word_id, word FROM research_lexicon WHERE word_id = ANY(%s)", (ids,)))


def collection_counts(conn, ids: list[int]) -> dict[int, int]:
    """Counts of the words over the whole collection (withdrawn documents subtracted)."""
    return dict(_all(conn, """
        WITH w AS (SELECT u.t, sum(u.c) AS c FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id,
                          unnest(r.terms, r.counts) u(t, c)
                   WHERE d.withdrawn AND u.t = ANY(%s) GROUP BY u.t)
        SELECT l.word_id, l.total - coalesce(w.c, 0) FROM research_lexicon l LEFT JOIN w ON w.t = l.word_id
        WHERE l.word_id = ANY(%s)""", (ids, ids)))


def collection_top(conn, n: int) -> list[tuple[int, str, int]]:
    """The n most frequent words of the collection: (word_id, word, count)."""
    return _all(conn, """
        WITH w AS (SELECT u.t, sum(u.c) AS c FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id,
                          unnest(r.terms, r.counts) u(t, c) WHERE d.withdrawn GROUP BY u.t)
        SELECT l.word_id, l.word, l.total - coalesce(w.c, 0) AS count FROM research_lexicon l
        LEFT JOIN w ON w.t = l.word_id WHERE l.is_word AND l.total - coalesce(w.c, 0) > 0
        ORDER BY count DESC, l.word LIMIT %s""", (n,))


def collection_words(conn) -> int:
    """Words of the whole collection, withdrawn documents left out."""
    return _all(conn, "SELECT coalesce(sum(r.words), 0) FROM research_docs r JOIN documents d "
                      "ON d.doc_id = r.doc_id WHERE NOT d.withdrawn")[0][0]


def scope_words(conn, doc_ids: list[int]) -> int:
    return _all(conn, "SELECT coalesce(sum(r.words), 0) FROM research_docs r JOIN documents d "
                      "ON d.doc_id = r.doc_id WHERE NOT d.withdrawn AND r.doc_id = ANY(%s)", (doc_ids,))[0][0]


def _scope(doc_ids: list[int] | None) -> tuple[sql.Composable, list]:
    if doc_ids is None:
        return sql.SQL("NOT d.withdrawn"), []
    return sql.SQL("NOT d.withdrawn AND d.doc_id = ANY(%s)"), [doc_ids]


def sum_counts(conn, doc_ids: list[int] | None, ids: list[int], tsquery: str) -> int:
    """Occurrences of any of the word ids in the scope (one word or a prefix's words)."""
    scope, params = _scope(doc_ids)
    query = sql.SQL("""SELECT coalesce(sum({occurrences}), 0)
                       FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id
                       WHERE d.doc_id IN (SELECT f.doc_id FROM research_fts f WHERE f.fts @@ %s::tsquery) AND {scope}""").format(occurrences=_occurrences(ids), scope=scope)
    return _all_fts(conn, query, [_ids_param(ids), tsquery, *params])[0][0]


def _occurrences(ids: list[int]) -> sql.Composable:
    """A document's occurrences of the word ids (%s: _ids_param): array_position for one id."""
    if len(ids) == 1:
        return sql.SQL("r.counts[array_position(r.terms, %s)]")
    return sql.SQL("(SELECT sum(u.c) FROM unnest(r.terms, r.counts) u(t, c) WHERE u.t = ANY(%s))")


def _ids_param(ids: list[int]):
    return ids[0] if len(ids) == 1 else ids


@contextlib.contextmanager
def stream_seqs(conn, doc_ids: list[int] | None, text: FullText | None, *, order: str | None = None,
                seed: int | None = None, sample: int | None = None,
                extra: tuple[str, ...] = ()) -> Iterator[Iterator[tuple]]:
    """Rows (doc_id, seq, *extra) of the scope's documents that may hold the query (:func:`_holding`;
    all when None), streamed from a server-side cursor. order: None, 'date' or 'random' (by seed); sample:
    take the first `sample` documents in seeded random order."""
    scope, params = _scope(doc_ids)
    where = [scope]
    if text is not None:
        holding, more = _holding(text)
        where.append(holding)
        params.extend(more)
    if sample is not None:
        order = "random"
    order_sql = sql.SQL("")
    if order:
        order_sql = sql.SQL(" ORDER BY ") + ORDERS[order].format(seed=sql.Literal(int(seed or 0)))
    limit_sql = sql.SQL(" LIMIT {}").format(sql.Literal(int(sample))) if sample is not None else sql.SQL("")
    columns = sql.SQL(", ").join([sql.SQL("r.doc_id"), sql.SQL("r.seq"), *(EXTRA[e] for e in extra)])
    if not order:
        query = sql.SQL("SELECT {} FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id "
                        "LEFT JOIN host_status s ON s.host = d.host WHERE {}").format(columns, sql.SQL(" AND ").join(where))
        with fts_plan(conn) if text else guard(), conn.transaction(), conn.cursor(name="research_seqs") as cur:
            cur.itersize = 500
            cur.execute(query, params)
            yield iter(cur)
        return
    # Ordered: the ids are sorted (small rows, a fast-start plan under a cursor), the sequences
    # fetched a chunk at a time in that order.
    ids_query = sql.SQL("SELECT d.doc_id FROM documents d WHERE {}{}{}").format(sql.SQL(" AND ").join(where), order_sql, limit_sql)
    rows_query = sql.SQL("SELECT {} FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id "
                         "LEFT JOIN host_status s ON s.host = d.host WHERE r.doc_id = ANY(%s)").format(columns)

    def ordered(cur):
        first = 50
        while True:
            ids = [r[0] for r in cur.fetchmany(first)]
            if not ids:
                return
            found = {row[0]: row for row in conn.execute(rows_query, (ids,))}
            yield from (found[i] for i in ids if i in found)
            first = 500

    with fts_plan(conn, ordered=True) if text else guard(), conn.transaction(), \
            conn.cursor(name="research_ids") as cur:
        cur.execute(ids_query, params)
        yield ordered(cur)


EXTRA = {
    "published": sql.SQL("d.published"),
    "harvest": sql.SQL("(d.harvest_time AT TIME ZONE 'UTC')"),
    "publication": SPLITS["publication"],
    "language": SPLITS["language"],
}


def trend_counts(conn, ids: list[int], tsquery: str, doc_ids, period: str, date_field: str, split,
                 common: bool) -> list[tuple]:
    """(period, split or None, occurrences, words) of the word ids per period of the date field.
    A common word is counted over every row in one pass with the words (no index: most rows hold
    it; words are then those of every document); others through the GIN index (words: None)."""
    scope, params = _scope(doc_ids)
    if common:
        columns = sql.Composed([sql.SQL("sum({}) AS c0").format(_occurrences(ids)), sql.SQL(", sum(r.words) AS c1")])
        query = sql.SQL("""
            SELECT to_char(t.p, {fmt}), t.split, t.c0, t.c1
            FROM (SELECT date_trunc({unit}, {date}) AS p, {split} AS split, {columns}
                  FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id LEFT JOIN host_status s ON s.host = d.host
                  WHERE {scope} AND {date} IS NOT NULL GROUP BY 1, 2) t""")
        params = [_ids_param(ids), *params]
        runner = _all
    else:
        columns = sql.SQL("sum({}) AS c0, NULL::bigint AS c1").format(_occurrences(ids))
        query = sql.SQL("""
            SELECT to_char(t.p, {fmt}), t.split, t.c0, t.c1
            FROM (SELECT date_trunc({unit}, {date}) AS p, {split} AS split, {columns}
                  FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id LEFT JOIN host_status s ON s.host = d.host
                  WHERE d.doc_id IN (SELECT f.doc_id FROM research_fts f WHERE f.fts @@ %s::tsquery)
                    AND {scope} AND {date} IS NOT NULL GROUP BY 1, 2) t""")
        params = [_ids_param(ids), tsquery, *params]
        runner = _all_fts
    query = query.format(fmt=sql.Literal(PERIODS[period]), unit=sql.Literal(period), date=DATE_FIELDS[date_field],
                         split=SPLITS[split] if split else sql.SQL("NULL::text"), columns=columns, scope=scope)
    return runner(conn, query, params)


def is_common(conn, ids: list[int], share: float) -> bool:
    """Whether the words occur more often than `share` times the number of documents indexed."""
    row = _all(conn, """SELECT (SELECT coalesce(sum(total), 0) FROM research_lexicon WHERE word_id = ANY(%s)),
                               (SELECT documents FROM collection_versions ORDER BY version DESC LIMIT 1)""", (ids,))[0]
    return row[1] is not None and row[0] > share * row[1]


_totals_cache: dict[tuple, list[tuple]] = {}


def collection_state(conn) -> tuple:
    """What changes whenever the collection's totals may: the database, its latest collection version, and
    its withdrawals (how many, the latest)."""
    return (conn.info.dsn, *_all(conn, """
        SELECT (SELECT max(version) FROM collection_versions), count(*), max(withdrawn_at)
        FROM documents WHERE withdrawn""")[0])


def trend_totals(conn, doc_ids, period: str, date_field: str, split) -> list[tuple]:
    """(period, split or None, words) of the scope. The whole collection's are kept per process
    until the collection version or a withdrawal changes them."""
    key = None
    if doc_ids is None:
        key = (period, date_field, split, *collection_state(conn))
        if key in _totals_cache:
            return _totals_cache[key]
    scope, params = _scope(doc_ids)
    query = sql.SQL("""
        SELECT to_char(t.p, {fmt}), t.split, t.words
        FROM (SELECT date_trunc({unit}, {date}) AS p, {split} AS split, sum(r.words) AS words
              FROM research_docs r JOIN documents d ON d.doc_id = r.doc_id LEFT JOIN host_status s ON s.host = d.host
              WHERE {scope} AND {date} IS NOT NULL GROUP BY 1, 2) t""").format(
        fmt=sql.Literal(PERIODS[period]), unit=sql.Literal(period), date=DATE_FIELDS[date_field],
        split=SPLITS[split] if split else sql.SQL("NULL::text"), scope=scope)
    rows = _all(conn, query, params)
    if key is not None:
        if len(_totals_cache) > 64:
            _totals_cache.clear()
        _totals_cache[key] = rows
    return rows


def period_of(period: str) -> str:
    return PERIODS[period]


def line_sources(conn, doc_ids: list[int]) -> tuple[dict, dict]:
    """Metadata of the documents, and their paragraphs (text, tokens, starts) in order, per document."""
    meta = {r["doc_id"]: r for r in _dicts(conn, f"""
        SELECT d.doc_id, d.title, coalesce(s.title, d.host) AS publication, d.published::text AS published,
               {HARVEST_ISO} AS harvest_time
        FROM documents d LEFT JOIN host_status s ON s.host = d.host WHERE d.doc_id = ANY(%s)""", (doc_ids,))}
    paragraphs: dict[int, list] = {}
    for doc_id, text, tokens, starts in _all(conn, """
            SELECT doc_id, text, tokens, token_starts FROM paragraphs WHERE doc_id = ANY(%s)
            ORDER BY doc_id, seq""", (doc_ids,)):
        paragraphs.setdefault(doc_id, []).append((text, tokens, starts))
    return meta, paragraphs


# ---------------------------------------------------------------------------------------------
# The collection described
# ---------------------------------------------------------------------------------------------

def summary(conn) -> dict:
    row = _dicts(conn, """
        SELECT count(*) AS texts, coalesce(sum(r.words), 0) AS words,
               count(DISTINCT coalesce(s.title, d.host)) AS publications, count(DISTINCT d.host) AS hosts,
               min(d.published) AS published_from, max(d.published) AS published_to,
               min(d.harvest_time) AS harvested_from, max(d.harvest_time) AS harvested_to,
               count(r.doc_id) AS indexed
        FROM documents d LEFT JOIN research_docs r ON r.doc_id = d.doc_id LEFT JOIN host_status s ON s.host = d.host
        WHERE NOT d.withdrawn""")[0]
    row["languages"] = dict(_all(conn, "SELECT language, count(*) FROM documents WHERE NOT withdrawn "
                                       "GROUP BY 1 ORDER BY 2 DESC, 1"))
    row["years"] = dict(_all(conn, """
        SELECT to_char(coalesce(published, (harvest_time AT TIME ZONE 'UTC')::date), 'YYYY'), count(*)
        FROM documents WHERE NOT withdrawn GROUP BY 1 ORDER BY 1"""))
    return row


def profile_counts(conn, doc_ids: list[int] | None) -> list[tuple]:
    """Documents of the scope counted in one pass by publication, language, county, publication month
    and harvest month (the last two also by language): rows (dimension, key, language, documents)."""
    scope, params = _scope(doc_ids)
    query = sql.SQL("""
        SELECT CASE WHEN GROUPING(p.publication) = 0 THEN 'publication'
                    WHEN GROUPING(p.county) = 0 THEN 'county'
                    WHEN GROUPING(p.published) = 0 THEN 'published'
                    WHEN GROUPING(p.harvested) = 0 THEN 'harvested'
                    ELSE 'language' END,
               coalesce(p.publication, p.county, p.published, p.harvested), p.language, count(*)
        FROM (SELECT coalesce(s.title, d.host) AS publication, d.language, coalesce(s.county, '') AS county,
                     to_char(d.published, 'YYYY-MM') AS published,
                     to_char(d.harvest_time AT TIME ZONE 'UTC', 'YYYY-MM') AS harvested
              FROM documents d LEFT JOIN host_status s ON s.host = d.host WHERE {scope}) p
        GROUP BY GROUPING SETS ((p.publication), (p.language), (p.county), (p.published, p.language),
                                (p.harvested, p.language))""").format(scope=scope)
    return _all(conn, query, params)


# ---------------------------------------------------------------------------------------------
# API tokens (their policy: research.auth; only a token's SHA-256 is stored)
# ---------------------------------------------------------------------------------------------

_TOKEN_COLUMNS = ("id", "name", "scope", "created_by", "created_at", "revoked_at")
_TOKEN = ", ".join(_TOKEN_COLUMNS)


def _token(row) -> dict | None:
    if row is None:
        return None
    item = dict(zip(_TOKEN_COLUMNS, row))
    for key in ("created_at", "revoked_at"):
        item[key] = item[key].isoformat() if item[key] is not None else None
    return item


def insert_token(conn: psycopg.Connection, name: str, scope: str, sha256: bytes, created_by: str) -> dict:
    return _token(conn.execute(f"INSERT INTO api_tokens (name, scope, token_sha256, created_by) VALUES (%s, %s, %s, %s)"
                               f" RETURNING {_TOKEN}", (name, scope, sha256, created_by)).fetchone())


def tokens(conn: psycopg.Connection) -> list[dict]:
    return [_token(row) for row in conn.execute(f"SELECT {_TOKEN} FROM api_tokens ORDER BY id").fetchall()]


def revoke_token(conn: psycopg.Connection, token_id: int) -> dict | None:
    """Revoked once: revoking again keeps the first time."""
    return _token(conn.execute(f"UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = %s"
                               f" RETURNING {_TOKEN}", (token_id,)).fetchone())


def active_token(conn: psycopg.Connection, sha256: bytes) -> dict | None:
    return _token(conn.execute(f"SELECT {_TOKEN} FROM api_tokens WHERE token_sha256 = %s AND revoked_at IS NULL",
                               (sha256,)).fetchone())
