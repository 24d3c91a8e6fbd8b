"""The load's COPY of paragraphs: the token and offset arrays it writes as PostgreSQL literals."""

from __future__ import annotations

import psycopg

from warc2corpus.store import load

TOKENS = ['"', "\\", "\\\"", "{", "}", ",", "NULL", "null", "", " ", "a b", "\t", "\n", "«Hei»", "Ærlig",
          "nul\x00byte", "emoji 🙂", "'", "{\"a\",b}"]


def test_token_arrays_arrive_as_they_were(corpus_db):
    """Every token, quotes, backslashes, braces, NULL, blanks and control characters among them,
    comes back from the table as it went in (NUL characters removed: PostgreSQL text holds none)."""
    rows = [(1, TOKENS, list(range(len(TOKENS)))), (2, [], []), (3, ["plain", "words"], [0, 6])]
    with psycopg.connect(corpus_db) as conn, conn.cursor() as cur:
        cur.execute("CREATE TEMP TABLE t (id int, tokens text[], starts int[])")
        load._copy(cur, "t", ("id", "tokens", "starts"),
                   ((i, load.text_array(tokens), load.int_array(starts)) for i, tokens, starts in rows))
        cur.execute("SELECT id, tokens, starts FROM t ORDER BY id")
        back = cur.fetchall()
    assert back == [(i, [t.replace("\x00", "") for t in tokens], starts) for i, tokens, starts in rows]
