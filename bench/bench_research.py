"""Benchmark: research access at scale (issue 11's goals).

What it measures
    Every library operation of research access on a scale corpus of N documents: concordance
    first page (50 lines), hit count (documents holding a word), corpus build with a full-text and
    a metadata filter, a word's trend over the whole collection, the frequency list of a
    20k-document corpus, collocations of a common word on a 5k-document sample, and the export of
    20k metadata rows (CSV, JSON Lines, Excel). Words come in three bands by how many documents
    hold them (common: the most frequent words; medium: in 1-5 % of the documents; rare: in
    0.01-0.1 %); each operation runs over several words of each band, repeated, and p50/p95 are
    reported. Also: the time to build the research index and its size per million words.

How
    A separate database on the embedded PostgreSQL server (dropped at the end unless --keep). The
    pipeline itself (``run.run_files``) loads the demo WARCs and the real NRK/Dagbladet/Expressen
    pages of ../shared/samples/news_fundus into it; the body paragraphs of the 50 real news pages
    of news_fundus' ground truth join them. Documents are recombined from these real paragraphs,
    each from the pool of one language (Bokmål 80 %, the rest Nynorsk, North Sámi, Swedish and the
    other languages of the pages), with lognormal lengths (median ~350 words), 120 publications in
    the register (title, place, county), publication dates over 2015-2024, harvest a day or two
    later, and page types (85 % articles). A pool of a few hundred paragraphs lacks the long tail
    of a real vocabulary, so 2 % of the word tokens are replaced by pseudo-words drawn from a Zipf
    distribution (1.1) over 5 million forms: that gives rare words and a lexicon that grows with the
    corpus as a real one does. The documents go in with COPY; the research index is built by
    ``research.refresh_index`` (timed).

    ``--replicate 10`` makes the 200k corpus from a kept 20k one (``--keep``) in SQL: the same
    documents ten times over with new ids and publication dates drawn afresh, their index rows
    copied (the vocabulary stays the 20k corpus's); building 200k documents through Python would
    take most of an hour on this machine, and the index build is timed at 20k anyway.

Run: ``.venv/bin/python bench/bench_research.py --docs 20000 --keep --json 20k.json``, then
``--docs 20000 --replicate 10 --json 200k.json``; ``--compare 20k.json 200k.json`` prints the growth
between two runs and what it projects for 1.6 M and 30 M documents (t ∝ N^b, b from the two runs).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import random
import statistics
import time
import uuid
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import psycopg

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = Path(os.environ.get("WARC2CORPUS_SAMPLES", ROOT.parent / "shared" / "samples"))

from warc2corpus import research, settings  # noqa: E402
from warc2corpus.stages import run  # noqa: E402
from warc2corpus.store import db  # noqa: E402
from warc2corpus.text import language  # noqa: E402
from warc2corpus.research import CorpusFilter  # noqa: E402
from warc2corpus.text.tokens import tokenize  # noqa: E402

LANGUAGE_SHARES = {"nob": 0.80, "nno": 0.12, "sme": 0.01, "swe": 0.03}   # the rest: the other languages
PSEUDO_SHARE = 0.02
PSEUDO_FORMS = 5_000_000
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def pseudo_word(n: int) -> str:
    out = []
    while True:
        n, r = divmod(n, 26)
        out.append(ALPHABET[r])
        if not n:
            break
    return "zq" + "".join(out)


# ---------------------------------------------------------------------------------------------
# The scale corpus
# ---------------------------------------------------------------------------------------------

def source_paragraphs(url: str) -> dict[str, list[tuple[str, list[str], list[int]]]]:
    """Real paragraphs by language: the pipeline's output over the demo WARCs and the real pages,
    and the body paragraphs of news_fundus' ground truth."""
    os.environ[settings.DATABASE_URL_VARIABLE] = url
    os.environ["WARC2CORPUS_STAGING"] = str(Path(os.environ.get("TMPDIR", "/tmp")) / f"w2c-bench-{uuid.uuid4().hex[:8]}")
    run.run_files(sorted((ROOT / "demo" / "warcs").glob("*.warc.gz")), "demo")
    real = SAMPLES / "news_fundus" / "nordic_dev_pages.warc.gz"
    if real.exists():
        run.run_files([real], "samples")
    pools: dict[str, list] = {}
    with psycopg.connect(url) as conn:
        for text, tokens, starts, lang in conn.execute(
                "SELECT p.text, p.tokens, p.token_starts, d.language FROM paragraphs p JOIN documents d USING (doc_id)"):
            pools.setdefault(lang, []).append((text, tokens, starts))
    truth = SAMPLES / "news_fundus" / "ground_truth_flat.jsonl"
    if truth.exists():
        for line in truth.read_text(encoding="utf-8").splitlines():
            page = json.loads(line)
            paragraphs = [p for p in page.get("body_paragraphs") or [] if p.strip()]
            if not paragraphs:
                continue
            lang = language.identify(" ".join(paragraphs))
            for p in paragraphs:
                tokens, starts = tokenize(p)
                pools.setdefault(lang, []).append((p, tokens, starts))
    return pools


def _with_pseudo_words(rng: np.random.Generator, paragraph) -> tuple[str, list[str], list[int]]:
    text, tokens, starts = paragraph
    n = len(tokens)
    k = rng.binomial(n, PSEUDO_SHARE) if n else 0
    if not k:
        return text, list(tokens), list(starts)
    where = sorted(set(rng.choice(n, size=k, replace=False).tolist()))
    where = [i for i in where if any(c.isalnum() for c in tokens[i])]
    forms = (rng.zipf(1.1, size=len(where)) % PSEUDO_FORMS).tolist()
    tokens = list(tokens)
    pieces, at = [], 0
    deltas = np.zeros(n, dtype=np.int64)
    for i, form in zip(where, forms):
        word = pseudo_word(form)
        pieces.append(text[at:starts[i]])
        pieces.append(word)
        at = starts[i] + len(tokens[i])
        deltas[i] = len(word) - len(tokens[i])
        tokens[i] = word
    pieces.append(text[at:])
    new_starts = (np.asarray(starts, dtype=np.int64) + np.concatenate([[0], np.cumsum(deltas)[:-1]])).tolist()
    return "".join(pieces), tokens, new_starts


def build_scale_corpus(url: str, n_docs: int, seed: int = 11) -> dict:
    pools = source_paragraphs(url)
    rng = np.random.default_rng(seed)
    rand = random.Random(seed)
    others = [lang for lang in pools if lang not in LANGUAGE_SHARES and lang != "und"]
    languages = [lang for lang in LANGUAGE_SHARES if lang in pools] + others
    weights = [LANGUAGE_SHARES.get(lang, (1 - sum(LANGUAGE_SHARES.values())) / max(1, len(others))) for lang in languages]
    weights = [w / sum(weights) for w in weights]
    counties = ["Oslo", "Vestland", "Nordland", "Troms", "Finnmark", "Rogaland", "Innlandet", "Trøndelag",
                "Agder", "Vestfold", "Telemark", "Buskerud", "Akershus", "Østfold", "Møre og Romsdal"]
    with psycopg.connect(url) as conn:
        conn.execute("SET session_replication_role = replica")   # no per-row withdrawal trigger: all accepted
        for i in range(120):
            domain = f"avis{i:03d}.no"
            conn.execute("INSERT INTO publications (host, domain, status, score) VALUES (%s, %s, 'accepted', 1)",
                         (f"www.{domain}", domain))
            pid = conn.execute("INSERT INTO publication_register (title, place, county, has_responsible_editor) "
                               "VALUES (%s, %s, %s, true) RETURNING id",
                               (f"Avis {i:03d}", f"Sted {i % 60:02d}", counties[i % len(counties)])).fetchone()[0]
            conn.execute("INSERT INTO publication_domains (domain, publication_id) VALUES (%s, %s)", (domain, pid))
        host_weights = np.array([1 / (i + 1) for i in range(120)])
        host_weights /= host_weights.sum()
        start = date(2015, 1, 1)
        t0 = time.perf_counter()
        words = 0
        doc_cols = ("doc_id", "text_sha1", "host", "url_path", "url", "title", "published", "harvest_time",
                    "language", "n_paragraphs", "n_tokens", "warc_file", "record_offset", "record_length",
                    "record_id", "crawl_job", "page_type")
        documents = []
        with conn.cursor() as cur:
            # paragraphs stream straight in (no foreign-key check under the replica role); documents after
            with cur.copy("COPY paragraphs (doc_id, seq, text, tokens, token_starts, language) FROM STDIN") as copy:
                for n in range(n_docs):
                    doc_id = 10_000_000_000 + n
                    lang = languages[int(rng.choice(len(languages), p=weights))]
                    pool = pools[lang]
                    budget = int(min(4000, max(30, rng.lognormal(math.log(350), 0.7))))
                    n_paragraphs = n_tokens = 0
                    title = None
                    while n_tokens < budget:
                        text, tokens, starts = _with_pseudo_words(rng, pool[int(rng.integers(len(pool)))])
                        copy.write_row((doc_id, n_paragraphs, text, tokens, starts, lang))
                        title = title or text[:80]
                        n_paragraphs += 1
                        n_tokens += len(tokens)
                    host = f"www.avis{int(rng.choice(120, p=host_weights)):03d}.no"
                    published = start + timedelta(days=int(rng.integers(0, 3652)))
                    harvest = datetime(published.year, published.month, published.day, 12, tzinfo=timezone.utc) \
                        + timedelta(days=int(rng.integers(0, 3)), seconds=int(rng.integers(0, 86400)))
                    page_type = rand.choices(["article", "front_or_section", "other"], [85, 10, 5])[0]
                    words += n_tokens
                    documents.append((doc_id, f"{doc_id:040x}", host, f"/sak/{doc_id}", f"https://{host}/sak/{doc_id}",
                                      title, published, harvest, lang, n_paragraphs, n_tokens, "bench.warc.gz",
                                      n * 1000, 1000, f"<urn:uuid:bench-{doc_id}>", "bench", page_type))
            with cur.copy(f"COPY documents ({', '.join(doc_cols)}) FROM STDIN") as copy:
                for row in documents:
                    copy.write_row(row)
        conn.commit()
        load_seconds = time.perf_counter() - t0
    with db.connect(url) as conn:
        t0 = time.perf_counter()
        research.refresh_index(conn)
        index_seconds = time.perf_counter() - t0
        conn.execute("ANALYZE")
        conn.commit()
    return {"documents": n_docs, "tokens": words, "load_seconds": round(load_seconds, 1),
            "index_seconds": round(index_seconds, 1), "pools": {k: len(v) for k, v in pools.items()}}


def replicate(server: str, source: str, target: str, url: str, times: int) -> dict:
    """The target database as `times` copies of the source's scale documents: new ids, publication
    dates drawn afresh (harvest a day or two later), the rest (publication, language, page type,
    paragraphs) kept; the research index rows copied with them and the word totals updated. The
    vocabulary stays the source's."""
    with psycopg.connect(server, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')
    t0 = time.perf_counter()
    with psycopg.connect(url) as conn:
        conn.execute("SET session_replication_role = replica")
        conn.execute("SELECT setseed(0.5)")
        scale = "doc_id >= 10000000000"
        for k in range(1, times):
            shift = k * 1_000_000
            conn.execute(f"""
                INSERT INTO documents (doc_id, text_sha1, host, url_path, url, title, published, harvest_time, language,
                    n_paragraphs, n_tokens, warc_file, record_offset, record_length, record_id, crawl_job, page_type)
                SELECT doc_id + {shift}, text_sha1 || '-{k}', host, url_path || '-{k}', url || '-{k}', title, p,
                       p + interval '12 hours' + (random() * interval '3 days'), language, n_paragraphs, n_tokens,
                       warc_file, record_offset + {shift * 1000}, record_length,
                       '<urn:uuid:bench-' || (doc_id + {shift}) || '>', crawl_job, page_type
                FROM (SELECT *, DATE '2015-01-01' + floor(random() * 3652)::int AS p FROM documents WHERE {scale}
                      AND doc_id < 10001000000) x""")
            conn.execute(f"""INSERT INTO paragraphs (doc_id, seq, text, tokens, token_starts, language)
                             SELECT doc_id + {shift}, seq, text, tokens, token_starts, language FROM paragraphs
                             WHERE {scale} AND doc_id < 10001000000""")
            conn.execute(f"""INSERT INTO research_docs (doc_id, words, terms, counts, seq)
                             SELECT doc_id + {shift}, words, terms, counts, seq FROM research_docs
                             WHERE {scale} AND doc_id < 10001000000""")
            conn.execute(f"""INSERT INTO research_fts (doc_id, fts) SELECT doc_id + {shift}, fts FROM research_fts
                             WHERE {scale} AND doc_id < 10001000000""")
            conn.commit()
            print(f"  copy {k} of {times - 1} done", flush=True)
        conn.execute(f"""UPDATE research_lexicon l SET total = l.total + {times - 1} * x.c
                         FROM (SELECT u.t, sum(u.c) AS c FROM research_docs, unnest(terms, counts) u(t, c)
                               WHERE {scale} AND doc_id < 10001000000 GROUP BY u.t) x WHERE l.word_id = x.t""")
        conn.execute("""INSERT INTO collection_versions (documents, words)
                        SELECT count(*), sum(words) FROM research_docs""")
        conn.commit()
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("VACUUM ANALYZE")
        docs, tokens = conn.execute("SELECT count(*), sum(n_tokens) FROM documents").fetchone()
    return {"documents": docs, "tokens": int(tokens), "replicated_from": source, "times": times,
            "replicate_seconds": round(time.perf_counter() - t0, 1)}


# ---------------------------------------------------------------------------------------------
# Timing
# ---------------------------------------------------------------------------------------------

def pick_words(conn, per_band: int, seed: int) -> dict[str, list[str]]:
    """Words by the share of documents holding them: the most common ones, medium (1-5 %) and rare
    (0.01-0.1 %, at least 2 documents)."""
    rand = random.Random(seed)
    n_docs = conn.execute("SELECT count(*) FROM research_docs").fetchone()[0]
    rows = conn.execute("""
        WITH df AS (SELECT t, count(*) AS n FROM research_docs, unnest(terms) t GROUP BY t)
        SELECT l.word, df.n FROM df JOIN research_lexicon l ON l.word_id = df.t
        WHERE l.is_word AND length(l.word) > 1 AND (df.n >= %s OR df.n BETWEEN %s AND %s OR df.n BETWEEN %s AND %s)
        ORDER BY df.n DESC, l.word""",
        (int(0.3 * n_docs), int(0.01 * n_docs), int(0.05 * n_docs),
         max(2, int(0.0001 * n_docs)), max(2, int(0.001 * n_docs)))).fetchall()
    medium = [w for w, n in rows if 0.01 * n_docs <= n <= 0.05 * n_docs]
    rare = [w for w, n in rows if n <= max(2, 0.001 * n_docs)]
    bands = {"common": [w for w, _ in rows[:per_band]],
             "medium": rand.sample(medium, min(per_band, len(medium))),
             "rare": rand.sample(rare, min(per_band, len(rare)))}
    return {band: words for band, words in bands.items() if words}


def timed(fn, repeats: int) -> list[float]:
    out = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return out


def summary(samples: list[float]) -> dict:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, math.ceil(0.95 * len(s)) - 1)]
    return {"p50_ms": round(statistics.median(s) * 1000, 1), "p95_ms": round(p95 * 1000, 1), "n": len(s)}


def run_operations(url: str, repeats: int, per_band: int) -> dict:
    results: dict[str, dict] = {}
    with research.connect(url, timeout_ms=600_000) as conn:
        bands = pick_words(conn, per_band, 5)
        results["words"] = bands
        every = ["article", "front_or_section", "other"]

        def per_band_op(name, call, times=None):
            for band, words in bands.items():
                samples = []
                for w in words:
                    if times is None:
                        call(w)         # warm: the first touch of a word's pages is not what users repeat
                    samples += timed(lambda: call(w), times or repeats)
                results[f"{name} [{band}]"] = summary(samples)
                print(f"  {name:<45} {band:<7} {results[f'{name} [{band}]']}", flush=True)

        per_band_op("concordance first page (50 lines)", lambda w: research.concordance(conn, w, limit=50))
        per_band_op("concordance first page, random sample",
                    lambda w: research.concordance(conn, w, limit=50, seed=3))
        per_band_op("hit count (documents holding the word)",
                    lambda w: research.count_corpus(conn, CorpusFilter.from_params({"text": w, "page_types": every})))
        per_band_op("corpus build: full text + language + dates",
                    lambda w: research.build_corpus(conn, CorpusFilter.from_params(
                        {"text": w, "languages": ["nob"], "published_from": "2018-01-01", "limit": 1000})))
        per_band_op("trend over the whole collection (year)", lambda w: research.trend(conn, [w]))
        per_band_op("trend by month, split by language",
                    lambda w: research.trend(conn, [w], period="month", split="language"))
        common = bands["common"]
        # a phrase's total reads the sequences of every document holding all its words: run once
        per_band_op("phrase concordance (word + 'og'), one cold run each",
                    lambda w: research.concordance(conn, f'"{w} og"', limit=50), times=1)

        n20k = min(20_000, conn.execute("SELECT count(*) FROM research_docs").fetchone()[0])
        corpora = [research.save_corpus(conn, CorpusFilter.from_params(
            {"order": "random", "seed": s, "limit": n20k, "page_types": every}))["id"] for s in range(3)]
        results["frequency list of a 20k-document corpus (top 100)"] = summary(
            [t for c in corpora for t in timed(lambda c=c: research.frequencies(conn, corpus=c, n=100), 1)])
        results["bigram list of a 20k-document corpus (top 100)"] = summary(
            [t for c in corpora[:2] for t in timed(lambda c=c: research.frequencies(conn, corpus=c, n=100, ngram=2), 1)])
        results["frequency list of the whole collection (top 100)"] = summary(
            timed(lambda: research.frequencies(conn, n=100), repeats))
        results["collocations of a common word, 5k-document sample"] = summary(
            [t for i, w in enumerate(common[:3]) for t in
             timed(lambda w=w, i=i: research.collocations(conn, w, sample=5000, seed=i), 2)])
        results["collocations vs a 20k-document reference corpus, 5k sample"] = summary(
            timed(lambda: research.collocations(conn, common[0], sample=5000, seed=9, reference=corpora[1]), 2))
        rows = research.corpus_documents(conn, corpora[0], limit=20_000)
        results["export 20k metadata rows: fetch"] = summary(
            timed(lambda: research.corpus_documents(conn, corpora[0], limit=20_000), repeats))
        for fmt in ("csv", "jsonl", "xlsx"):
            results[f"export 20k metadata rows: fetch + {fmt}"] = summary(timed(
                lambda fmt=fmt: research.export(research.corpus_documents(conn, corpora[0], limit=20_000), fmt), 3))
        assert len(rows) == n20k
        for key in [k for k in results if not k.startswith(("words",)) and "[" not in k]:
            print(f"  {key:<60} {results[key]}", flush=True)
        size = conn.execute("""SELECT pg_total_relation_size('research_docs'), pg_total_relation_size('research_fts'),
                                      pg_relation_size('research_fts_gin'), pg_total_relation_size('research_lexicon'),
                                      (SELECT sum(words) FROM research_docs), pg_total_relation_size('paragraphs'),
                                      (SELECT count(*) FROM research_lexicon)""").fetchone()
        docs_b, fts_b, gin_b, lex_b, words, para_b, lexicon = size
        words = int(words)
        total = docs_b + fts_b + lex_b
        results["index"] = {
            "research_docs_bytes": docs_b, "research_fts_bytes": fts_b, "gin_bytes": gin_b, "lexicon_bytes": lex_b,
            "lexicon_words": lexicon, "words": words, "paragraphs_bytes": para_b,
            "mb_per_million_words": round(total / 1e6 / (words / 1e6), 1),
            "gin_mb_per_million_words": round(gin_b / 1e6 / (words / 1e6), 2),
            "paragraphs_mb_per_million_words": round(para_b / 1e6 / (words / 1e6), 1),
        }
        print("  index:", results["index"], flush=True)
    return results


def compare(a_path: str, b_path: str) -> None:
    a, b = json.loads(Path(a_path).read_text()), json.loads(Path(b_path).read_text())
    na, nb = a["corpus"]["documents"], b["corpus"]["documents"]
    print(f"{'operation':<62} {'p95 ' + str(na):>10} {'p95 ' + str(nb):>10} {'growth':>7} {'1.6M':>9} {'30M':>9}")
    for key, value in b["operations"].items():
        if not isinstance(value, dict) or "p95_ms" not in value or key not in a["operations"]:
            continue
        t1, t2 = a["operations"][key]["p95_ms"], value["p95_ms"]
        growth = t2 / t1 if t1 else float("nan")
        exponent = math.log(growth) / math.log(nb / na) if growth > 0 else 0
        project = lambda n: t2 * (n / nb) ** max(exponent, 0)  # noqa: E731
        print(f"{key:<62} {t1:>9.0f}ms {t2:>9.0f}ms {growth:>6.1f}x {project(1.6e6) / 1000:>8.1f}s {project(30e6) / 1000:>8.1f}s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs", type=int, default=20_000)
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per word (after one warm run)")
    parser.add_argument("--words", type=int, default=4, help="words per band")
    parser.add_argument("--json", help="write the figures to this file")
    parser.add_argument("--keep", action="store_true", help="keep the benchmark database")
    parser.add_argument("--reuse", metavar="DATABASE", help="time the operations on this database, kept before")
    parser.add_argument("--build-only", action="store_true", help="build the database (with --keep), time nothing")
    parser.add_argument("--replicate", type=int, metavar="TIMES",
                        help="build a database of TIMES copies of the kept --docs database, and time on it")
    parser.add_argument("--compare", nargs=2, metavar=("SMALL.json", "LARGE.json"))
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
        return
    server = settings.external_database_url() or db.start_embedded()
    name = args.reuse or f"w2c_bench_research_{args.docs}"
    base, _, query = server.partition("?")
    if args.replicate:
        source, name = name, f"w2c_bench_research_{args.docs}x{args.replicate}"
        args.reuse = name
        url = base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")
        print(f"replicating {source} {args.replicate} times into {name} ...", flush=True)
        replicated = replicate(server, source, name, url, args.replicate)
    if not args.reuse:
        with psycopg.connect(server, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            admin.execute(f'CREATE DATABASE "{name}"')
    url = base.rsplit("/", 1)[0] + "/" + name + ("?" + query if query else "")
    try:
        if args.reuse:
            with psycopg.connect(url) as conn:
                docs, tokens = conn.execute("SELECT count(*), sum(n_tokens) FROM documents").fetchone()
            corpus = replicated if args.replicate else {"documents": docs, "tokens": int(tokens), "reused": True}
        else:
            print(f"building {args.docs} documents in {name} ...", flush=True)
            corpus = build_scale_corpus(url, args.docs)
        print("  corpus:", corpus, flush=True)
        if args.build_only:
            return
        operations = run_operations(url, args.repeats, args.words)
        out = {"corpus": corpus, "operations": operations, "machine": {"cpus": os.cpu_count(),
               "python": platform.python_version()}, "at": datetime.now(timezone.utc).isoformat()}
        if args.json:
            Path(args.json).write_text(json.dumps(out, indent=2, ensure_ascii=False))
    finally:
        if not args.keep:
            with psycopg.connect(server, autocommit=True) as admin:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    main()
