"""Near-duplicates: the same text with small differences on several pages, which sha1 cannot see.

Wire copy (NTB) republished by many local papers, updated versions of one article and one story on a
paper's regional editions. A derived step after the loads (like the naturalness model), in its own
tables (migration 0010):

* every document is signed once: a MinHash (``minhash``; fixed seeds and scheme, so the same text always
  gets the same signature) of its word shingles' hashes, stored with its LSH band keys;
* the candidates of new documents are the documents sharing a band key (a GIN index: the lookup is
  SQL, nothing grows in memory with the collection); a candidate pair whose estimated Jaccard
  similarity reaches ``minhash.THRESHOLD`` is stored;
* clusters are the connected components of those pairs among documents not withdrawn, with the
  earliest member (harvest_time, then doc_id) as representative.

A pair is found whichever document is loaded first, so the pairs, hence the clusters and their
representatives, do not depend on load order. A withdrawn document keeps its signature and pairs but
leaves its cluster (a cluster is never represented by a document research cannot see); accepted
again, it rejoins. Triggers (migration 0010) queue the documents whose cluster may change when a
harvest time changes, a document is withdrawn or readmitted, or a member is deleted.
"""

from __future__ import annotations

import logging

import numpy as np
import psycopg

from warc2corpus.store.load import int_array, paragraph_tokens
from warc2corpus.text.minhash import MIN_SHINGLES, THRESHOLD, band_keys, shingles, signature, similarity, words

log = logging.getLogger(__name__)

BATCH = 500              # documents signed per transaction
_LOCK = "warc2corpus.near_duplicates"  # an advisory lock's key: kept when the module moved


def _sign_batch(conn: psycopg.Connection) -> tuple[int, int]:
    """Sign up to BATCH unsigned documents, store the pairs they form; return (signed, pairs)."""
    with conn.cursor() as cur:
        cur.execute("""SELECT d.doc_id FROM documents d
                       WHERE NOT EXISTS (SELECT 1 FROM near_duplicate_signatures s WHERE s.doc_id = d.doc_id)
                       ORDER BY d.doc_id LIMIT %s""", (BATCH,))
        documents: dict[int, list[list[str]]] = {doc_id: [] for (doc_id,) in cur.fetchall()}
        if not documents:
            return 0, 0
        for doc_id, tokens in paragraph_tokens(conn, list(documents)):
            documents[doc_id].append(tokens)
        signed = {}
        with cur.copy("COPY near_duplicate_signatures (doc_id, shingles, minhash, band_keys) FROM STDIN") as copy:
            for doc_id, token_lists in documents.items():
                found = shingles(words(token_lists))
                values = signature(found)
                keys = band_keys(values) if len(found) >= MIN_SHINGLES else []
                if keys:
                    signed[doc_id] = values
                copy.write_row((doc_id, len(found), values.tobytes(), int_array(keys)))
        if not signed:
            return len(documents), 0
        # Candidates: every signed document sharing a band key with one of this batch.
        cur.execute(
            """SELECT n.doc_id, s.doc_id, s.minhash FROM near_duplicate_signatures n
               JOIN near_duplicate_signatures s ON s.band_keys && n.band_keys AND s.doc_id <> n.doc_id
               WHERE n.doc_id = ANY(%s::bigint[])""", (list(signed),))
        pairs = {}
        for new, other, minhash in cur.fetchall():
            estimate = similarity(signed[new], np.frombuffer(minhash, dtype="<u4"))
            if estimate >= THRESHOLD:
                pairs[min(new, other), max(new, other)] = estimate
        if pairs:
            with cur.copy("COPY near_duplicate_pairs (doc_a, doc_b, similarity) FROM STDIN") as copy:
                for (a, b), estimate in pairs.items():
                    copy.write_row((a, b, estimate))
            cur.execute("INSERT INTO near_duplicate_queue (doc_id) SELECT unnest(%s::bigint[])"
                        " ON CONFLICT (doc_id) DO UPDATE SET seq = EXCLUDED.seq",
                        (sorted({d for pair in pairs for d in pair}),))
        return len(documents), len(pairs)


def _affected(cur: psycopg.Cursor, seeds: list[int]) -> set[int]:
    """The seeds, their former cluster mates and everything connected to them by pairs between
    documents not withdrawn: a region no cluster crosses."""
    region, frontier = set(seeds), list(seeds)
    while frontier:
        cur.execute(
            """SELECT p.doc_b FROM near_duplicate_pairs p
                   JOIN documents a ON a.doc_id = p.doc_a JOIN documents b ON b.doc_id = p.doc_b
                   WHERE p.doc_a = ANY(%(f)s::bigint[]) AND NOT a.withdrawn AND NOT b.withdrawn
               UNION SELECT p.doc_a FROM near_duplicate_pairs p
                   JOIN documents a ON a.doc_id = p.doc_a JOIN documents b ON b.doc_id = p.doc_b
                   WHERE p.doc_b = ANY(%(f)s::bigint[]) AND NOT a.withdrawn AND NOT b.withdrawn
               UNION SELECT m.doc_id FROM near_duplicate_clusters c
                   JOIN near_duplicate_clusters m ON m.representative = c.representative
                   WHERE c.doc_id = ANY(%(f)s::bigint[])""", {"f": frontier})
        frontier = [d for (d,) in cur.fetchall() if d not in region]
        region.update(frontier)
    return region


def _recluster(conn: psycopg.Connection, queued: list[tuple[int, int]]) -> int:
    """Compute the clusters of the region around the queued documents (doc_id, seq) again; return
    the clusters written. A document queued again meanwhile (a newer seq) stays queued."""
    seeds = [doc_id for doc_id, _ in queued]
    with conn.cursor() as cur:
        region = _affected(cur, seeds)
        cur.execute("""SELECT doc_id, harvest_time FROM documents WHERE doc_id = ANY(%s::bigint[]) AND NOT withdrawn""",
                    (list(region),))
        order = {doc_id: (harvest_time, doc_id) for doc_id, harvest_time in cur.fetchall()}
        cur.execute("""SELECT doc_a, doc_b FROM near_duplicate_pairs
                       WHERE doc_a = ANY(%(r)s::bigint[]) AND doc_b = ANY(%(r)s::bigint[])""", {"r": list(order)})
        parent = {d: d for d in order}

        def root(d: int) -> int:
            while parent[d] != d:
                parent[d] = parent[parent[d]]
                d = parent[d]
            return d

        for a, b in cur.fetchall():
            parent[root(a)] = root(b)
        components: dict[int, list[int]] = {}
        for d in order:
            components.setdefault(root(d), []).append(d)
        clusters = [members for members in components.values() if len(members) > 1]
        cur.execute("DELETE FROM near_duplicate_clusters WHERE doc_id = ANY(%s::bigint[])", (list(region),))
        with cur.copy("COPY near_duplicate_clusters (doc_id, representative, members) FROM STDIN") as copy:
            for members in clusters:
                representative = min(members, key=order.__getitem__)
                for d in members:
                    copy.write_row((d, representative, len(members)))
        cur.execute("""DELETE FROM near_duplicate_queue q USING unnest(%s::bigint[], %s::bigint[]) t(doc_id, seq)
                       WHERE q.doc_id = t.doc_id AND q.seq = t.seq""", (seeds, [seq for _, seq in queued]))
        return len(clusters)


def refresh(conn: psycopg.Connection) -> dict:
    """Sign the documents not signed yet, store their pairs, and compute the clusters they (or
    changes since the last refresh) touch. Idempotent; commits batch by batch; parallel callers
    wait for each other (advisory lock)."""
    conn.commit()
    conn.execute("SELECT pg_advisory_lock(hashtext(%s))", (_LOCK,))
    try:
        signed = pairs = written = 0
        while True:
            done, found = _sign_batch(conn)
            conn.commit()
            signed, pairs = signed + done, pairs + found
            if not done:
                break
        while True:
            queued = conn.execute("SELECT doc_id, seq FROM near_duplicate_queue ORDER BY seq LIMIT %s",
                                  (BATCH,)).fetchall()
            if not queued:
                break
            written += _recluster(conn, queued)
            conn.commit()
        totals = conn.execute(
            """SELECT count(DISTINCT representative), count(*) - count(DISTINCT representative)
               FROM near_duplicate_clusters""").fetchone()
    finally:
        conn.rollback()
        conn.execute("SELECT pg_advisory_unlock(hashtext(%s))", (_LOCK,))
        conn.commit()
    outcome = {"signed": signed, "new_pairs": pairs, "clusters_written": written,
               "clusters": totals[0], "near_duplicates": totals[1]}
    log.info("near-duplicates: %s", outcome)
    return outcome


def clusters(conn: psycopg.Connection, *, limit: int | None = None) -> list[dict]:
    """The clusters, largest first: representative and members (earliest first) with their metadata."""
    rows = conn.execute(
        """SELECT c.representative, c.members, d.doc_id, d.host, d.url, d.title, d.harvest_time,
                  (SELECT max(similarity) FROM near_duplicate_pairs p
                   WHERE p.doc_a = d.doc_id OR p.doc_b = d.doc_id) AS similarity
           FROM near_duplicate_clusters c JOIN documents d USING (doc_id)
           WHERE c.representative IN (SELECT representative FROM near_duplicate_clusters
                                      GROUP BY representative, members
                                      ORDER BY members DESC, representative LIMIT %s)
           ORDER BY c.members DESC, c.representative, d.harvest_time, d.doc_id""", (limit,)).fetchall()
    out: list[dict] = []
    for representative, members, doc_id, host, url, title, harvest_time, best in rows:
        if not out or out[-1]["representative"] != representative:
            out.append({"representative": representative, "members": members, "documents": []})
        out[-1]["documents"].append({"doc_id": doc_id, "host": host, "url": url, "title": title,
                                     "harvest_time": harvest_time.isoformat(), "best_similarity": best})
    return out
