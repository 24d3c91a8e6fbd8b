"""Publications in the database: autoCat's evidence per page, host verdicts over time, the register
(publications with their hosts, title, place, county), people's decisions, the allow-list and the
withdrawal of documents of rejected hosts.

The status in force of a host (view ``host_status``) is a person's decision, else the register's
"has a responsible editor", else autoCat's verdict. No refresh ever touches the first two.
"""

from __future__ import annotations

import csv
import io
import json
import re
import unicodedata
from collections import Counter
from pathlib import Path

import psycopg

from warc2corpus import autocat, tables
from warc2corpus.records import HELD_BACK_STATUSES
from warc2corpus.store.values import storable
from warc2corpus.text import dedup

# Taken by every transaction that changes host verdicts or loads filter rejections, so that a
# host accepted while a file that filtered it out is being loaded is never missed (see readmit).
ALLOW_LIST_LOCK_ID = 0x616C6C6F  # "allo"
STATUSES = ("accepted", "declares_editor_not_news", "uncertain", "rejected", "unassessed")
REVIEWED_STATUSES = ("uncertain", "declares_editor_not_news")  # what the review queue holds
REGISTER_COLUMNS = ("domain", "title", "has_responsible_editor", "place", "county")
EXPORT_COLUMNS = REGISTER_COLUMNS + ("decided_by", "status", "score", "editors", "hosts")


# ---------------------------------------------------------------------------------------------
# autoCat evidence and verdicts
# ---------------------------------------------------------------------------------------------

def store_pages(conn: psycopg.Connection, pages: list[dict]) -> set[str]:
    """Record scored pages (front and other pages; a page seen again keeps one row); return the hosts. What autoCat
    quotes of a page is kept as PostgreSQL can keep it (``values.storable``): a NUL in a page's JSON-LD ("\\u0000")
    made the run's autoCat step fail, and every run after it that took the file."""
    with conn.cursor() as cur:
        cur.executemany(
            """INSERT INTO autocat_pages (warc_file, record_offset, host, url, harvest_time, score, evidence,
                                          kind, editors)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)
               ON CONFLICT (warc_file, record_offset) DO UPDATE
               SET score = EXCLUDED.score, evidence = EXCLUDED.evidence, kind = EXCLUDED.kind,
                   editors = EXCLUDED.editors""",
            [
                (p["warc_file"], p["record_offset"], p["host"], storable(p["url"]), p["harvest_time"], p["score"],
                 json.dumps(storable(p["evidence"]), ensure_ascii=False), p.get("kind", "front"),
                 storable(list(p["evidence"].get("editors", []))))
                for p in pages
            ],
        )
    return {p["host"] for p in pages}


store_front_pages = store_pages  # the name the pipeline used first


def refresh_hosts(conn: psycopg.Connection, hosts: set[str]) -> Counter:
    """Recompute autoCat's verdict for these hosts from all their pages, day by day.

    Only the classifier's columns change: a person's decision (manual_*) and the register are never
    touched. Documents of hosts whose status in force becomes 'rejected' are withdrawn (and those of
    hosts no longer rejected come back). Returns the hosts counted by the classifier's status.
    """
    statuses: Counter = Counter()
    for host in sorted(hosts):
        rows = conn.execute(
            "SELECT kind, score, evidence, url, harvest_time FROM autocat_pages WHERE host = %s "
            "ORDER BY harvest_time, warc_file, record_offset",
            (host,),
        ).fetchall()
        if not rows:
            continue
        verdict = autocat.assess_host([
            {"kind": r[0], "score": r[1], "evidence": r[2], "url": r[3], "harvest_time": r[4]} for r in rows
        ], host)
        summary = {"reason": verdict.reason, "latest": verdict.periods[-1],
                   "days": [{k: p[k] for k in ("day", "score", "status", "front_pages", "pages", "editors")}
                            for p in verdict.periods[-50:]]}
        conn.execute(
            """INSERT INTO publications (host, domain, score, status, front_pages, pages, evidence, editors,
                                         foreign_declarations, reason, assessed_at)
               VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, now())
               ON CONFLICT (host) DO UPDATE SET domain = EXCLUDED.domain, score = EXCLUDED.score,
                   status = EXCLUDED.status, front_pages = EXCLUDED.front_pages, pages = EXCLUDED.pages,
                   evidence = EXCLUDED.evidence, editors = EXCLUDED.editors,
                   foreign_declarations = EXCLUDED.foreign_declarations, reason = EXCLUDED.reason,
                   assessed_at = EXCLUDED.assessed_at""",
            (host, autocat.host_domain(host), verdict.score, verdict.status, verdict.front_pages, verdict.pages,
             json.dumps(summary, ensure_ascii=False, default=str), verdict.editors,
             json.dumps(verdict.foreign, ensure_ascii=False), verdict.reason),
        )
        conn.execute("DELETE FROM host_scores WHERE host = %s", (host,))
        with conn.cursor() as cur:
            cur.executemany(
                """INSERT INTO host_scores (host, day, score, status, front_score, editor_weight, ethics_weight,
                                            front_pages, pages, editors, evidence)
                   VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)""",
                [(host, p["day"], p["score"], p["status"], p["front_score"], p["editor_weight"], p["ethics_weight"],
                  p["front_pages"], p["pages"], p["editors"],
                  json.dumps({"evidence": p["evidence"], "foreign": p["foreign"]}, ensure_ascii=False))
                 for p in verdict.periods],
            )
        statuses[verdict.status] += 1
    sync_withdrawals(conn, hosts)
    return statuses


def host_statuses(conn: psycopg.Connection) -> dict[str, str]:
    """Every known host with its status in force (a person's decision, the register's, autoCat's)."""
    return dict(conn.execute("SELECT host, status FROM host_status").fetchall())


def held_back_hosts(conn: psycopg.Connection) -> dict[str, str]:
    """The hosts whose status in force (a person's decision, the register's, autoCat's) keeps their documents
    out of the corpus until it changes (``records.HELD_BACK_STATUSES``: rejected, uncertain, declares an
    editor but may not be news), with that status."""
    return dict(conn.execute("SELECT host, status FROM host_status WHERE status = ANY(%s)",
                             ([str(status) for status in HELD_BACK_STATUSES],)).fetchall())


# ---------------------------------------------------------------------------------------------
# People's decisions
# ---------------------------------------------------------------------------------------------

def decide(conn: psycopg.Connection, host: str, status: str | None, *, by: str, note: str = "") -> dict:
    """Record a person's decision on a host ('accepted', 'rejected', or None to withdraw the decision).

    It overrides autoCat and the register and survives every refresh. Documents of a host rejected
    here are withdrawn from the corpus at once; files that filtered out documents of a host
    accepted here are flagged so the next run loads them. Returns what changed.
    """
    if status not in ("accepted", "rejected", None):
        raise ValueError("a decision is 'accepted' or 'rejected' (or None to withdraw it)")
    if not by:
        raise ValueError("a decision needs the name of who made it")
    if "\x00" in (note or "") or "\x00" in by:
        raise ValueError("a reason holds a NUL character (\\x00), which the database cannot keep")
    host = dedup.normalise_host(host)
    lock_allow_list(conn)
    conn.execute(
        """INSERT INTO publications (host, domain, manual_status, manual_note, manual_by, manual_at)
           VALUES (%s, %s, %s, %s, %s, now())
           ON CONFLICT (host) DO UPDATE SET manual_status = EXCLUDED.manual_status,
               manual_note = EXCLUDED.manual_note, manual_by = EXCLUDED.manual_by, manual_at = now()""",
        (host, autocat.host_domain(host), status, note or None, by),
    )
    conn.execute("INSERT INTO publication_decisions (host, status, note, decided_by) VALUES (%s, %s, %s, %s)",
                 (host, status, note or None, by))
    withdrawn, restored = sync_withdrawals(conn, {host})
    readmit = flag_readmissions(conn)
    return {"host": host, "status": status, "withdrawn": withdrawn, "restored": restored, "readmit": readmit}


def review_queue(conn: psycopg.Connection) -> list[dict]:
    """Uncertain hosts, and hosts that declare an editor but may not be edited news, nobody has
    decided on: those holding back most documents first."""
    rows = conn.execute(
        """SELECT s.host, s.score, s.reason, s.editors, p.pages, p.front_pages, p.assessed_at,
                  (SELECT count(*) FROM rejections r WHERE r.host = s.host AND r.stage = 'filter') AS held_back
           FROM host_status s JOIN publications p USING (host)
           WHERE s.status = ANY(%s)
           ORDER BY held_back DESC, s.host""", (list(REVIEWED_STATUSES),)
    ).fetchall()
    keys = ("host", "score", "reason", "editors", "pages", "front_pages", "assessed_at", "held_back")
    return [dict(zip(keys, r)) for r in rows]


def list_hosts(conn: psycopg.Connection, status: str | None = None) -> list[dict]:
    rows = conn.execute(
        """SELECT s.host, s.status, s.decided_by, s.autocat_status, s.score, s.editors, s.title, s.place, s.county,
                  p.pages, p.reason, p.manual_note, p.manual_by, p.manual_at,
                  (SELECT count(*) FROM documents d WHERE d.host = s.host AND NOT d.withdrawn) AS documents,
                  (SELECT count(*) FROM documents d WHERE d.host = s.host AND d.withdrawn) AS withdrawn
           FROM host_status s JOIN publications p USING (host)
           WHERE %(status)s::text IS NULL OR s.status = %(status)s
           ORDER BY s.host""",
        {"status": status},
    ).fetchall()
    keys = ("host", "status", "decided_by", "autocat_status", "score", "editors", "title", "place", "county",
            "pages", "reason", "note", "decided_by_person", "decided_at", "documents", "withdrawn")
    return [dict(zip(keys, r)) for r in rows]


def host_detail(conn: psycopg.Connection, host: str) -> dict | None:
    hosts = [h for h in list_hosts(conn) if h["host"] == host]
    if not hosts:
        return None
    detail = hosts[0]
    detail["days"] = [
        dict(zip(("day", "score", "status", "front_score", "front_pages", "pages", "editors", "evidence"), r))
        for r in conn.execute(
            "SELECT day, score, status, front_score, front_pages, pages, editors, evidence FROM host_scores "
            "WHERE host = %s ORDER BY day", (host,)).fetchall()
    ]
    detail["decisions"] = [
        dict(zip(("status", "note", "by", "at"), r))
        for r in conn.execute("SELECT status, note, decided_by, decided_at FROM publication_decisions "
                              "WHERE host = %s ORDER BY id", (host,)).fetchall()
    ]
    detail["foreign"] = conn.execute("SELECT foreign_declarations FROM publications WHERE host = %s",
                                     (host,)).fetchone()[0]
    return detail


# ---------------------------------------------------------------------------------------------
# Withdrawal
# ---------------------------------------------------------------------------------------------

def sync_withdrawals(conn: psycopg.Connection, hosts: set[str] | None = None) -> tuple[int, int]:
    """Flag the documents of hosts whose status in force is 'rejected' as withdrawn, and unflag those
    of hosts that are not (any longer). ``hosts`` None: every host. Returns (withdrawn, restored)."""
    only = "" if hosts is None else "AND d.host = ANY(%(hosts)s)"
    params = {"hosts": sorted(hosts) if hosts is not None else None}
    withdrawn = conn.execute(
        f"""UPDATE documents d SET withdrawn = true, withdrawn_at = now(),
                withdrawn_reason = 'host rejected (' || s.decided_by || ')'
            FROM host_status s
            WHERE s.host = d.host AND s.status = 'rejected' AND NOT d.withdrawn {only}""",
        params,
    ).rowcount
    restored = conn.execute(
        f"""UPDATE documents d SET withdrawn = false, withdrawn_at = NULL, withdrawn_reason = NULL
            WHERE d.withdrawn {only}
              AND NOT EXISTS (SELECT 1 FROM host_status s WHERE s.host = d.host AND s.status = 'rejected')""",
        params,
    ).rowcount
    return withdrawn, restored


# ---------------------------------------------------------------------------------------------
# The register: import and export
# ---------------------------------------------------------------------------------------------

def _boolean(value) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("", "-", "?", "unknown", "ukjent"):
        return None
    if text in ("yes", "y", "true", "1", "ja", "j", "accepted"):
        return True
    if text in ("no", "n", "false", "0", "nei", "rejected"):
        return False
    raise ValueError(f"has_responsible_editor: {value!r} is not yes/no")


def read_register(path: Path | str, text: str | None = None) -> list[dict]:
    """Rows of a register file (YAML, or a table: CSV or .xlsx, ``tables.read_rows``; by its name): domain,
    title, has_responsible_editor, place, county. YAML may also list ``domains:`` per publication. Column
    names may use '-' or spaces. A file that cannot be read as one, a row without a domain or with
    something else in its place, is refused with its row named: nothing of it is imported."""
    path = Path(path)
    name = path.name
    if path.suffix.lower() in (".yaml", ".yml", ".json"):
        try:
            raw_rows = _yaml_rows(name, text if text is not None else tables.decode_text(path.read_bytes()))
        except tables.TableError as exc:
            raise ValueError(f"{name}: {exc}") from None
    elif path.suffix.lower() in tables.EXTENSIONS:
        try:
            table = tables.read_rows(text.encode("utf-8") if text is not None else path.read_bytes(), name)
        except tables.TableError as exc:
            raise ValueError(f"{name}: {exc}") from None
        header = table[0] if table else []
        raw_rows = [(f"{name} row {row.number}", dict(zip(header, row))) for row in table[1:]]
    else:
        raise ValueError(f"{name}: a register is YAML, CSV or .xlsx, not {path.suffix or 'a file without a suffix'}")
    rows = []
    for where, raw in raw_rows:
        row = {str(k).strip().lower().replace("-", "_").replace(" ", "_"): v for k, v in raw.items() if k}
        if any(isinstance(v, str) and "\x00" in v for v in row.values()):
            raise ValueError(f"{where}: holds a NUL character (\\x00)")
        given = _text(row, "domain")
        if not given:
            raise ValueError(f"{where}: no domain")
        domain = autocat.host_domain(given.lower().removeprefix("https://").removeprefix("http://").split("/")[0])
        if not _HOSTNAME.fullmatch(domain) or len(domain) > dedup.MAX_HOST_CHARS:
            raise ValueError(f"{where}: not a domain: {given[:80]!r}")
        title = _text(row, "title")
        decided_by = str(row.get("decided_by") or "").strip().lower()
        try:
            has_editor = None if decided_by == "autocat" else _boolean(row.get("has_responsible_editor"))
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
        rows.append({"domain": domain, "title": title or domain, "has_responsible_editor": has_editor,
                     "place": _text(row, "place") or None, "county": _text(row, "county") or None,
                     "note": _text(row, "note") or None})
    return rows


def _text(row: dict, key: str) -> str:
    """A cell's text, trimmed, in Unicode's composed form (NFC), as the corpus keeps its texts and research
    reads its filters: a place "Ålesund" written with "A" and a combining ring (a register saved on a Mac)
    was another place than "Ålesund", and a researcher's filter found only one of them."""
    return unicodedata.normalize("NFC", str(row.get(key) or "").strip())


# A host name as dedup.normalise_host gives it: labels of letters (any script: IDNA's are read as they
# read), digits and inner hyphens, 1 to 63 characters each, two labels at least.
_HOSTNAME = re.compile(r"(?:(?!-)[^\W_](?:[^\W_]|-){0,62}(?<!-)\.)+(?!-)[^\W_](?:[^\W_]|-){0,62}(?<!-)")


def _yaml_rows(name: str, text: str) -> list[tuple[str, dict]]:
    """A YAML register's publications, one row per domain (``domains:`` a list, or one domain), each with
    where it stands."""
    import yaml

    try:
        data = yaml.safe_load(text) or []
    except yaml.YAMLError as exc:
        raise ValueError(f"{name}: not readable YAML: {' '.join(str(exc).split())}") from None
    if isinstance(data, dict):
        data = data.get("publications", [])
    if not isinstance(data, list):
        raise ValueError(f"{name}: a list of publications (or publications: with one) is expected")
    rows = []
    for number, entry in enumerate(data, start=1):
        if not isinstance(entry, dict):
            raise ValueError(f"{name} publication {number}: a mapping (domain, title, …) is expected, "
                             f"not {entry!r}")
        domains = entry.get("domains") or [entry.get("domain")]
        for domain in domains if isinstance(domains, list) else [domains]:
            rows.append((f"{name} publication {number}", {**entry, "domain": domain}))
    return rows


def import_register(conn: psycopg.Connection, path: Path | str, *, text: str | None = None) -> dict:
    """Import a register file. Rows with the same title and place are one publication with several
    domains. Each domain's hosts (the domain itself and www.) become known hosts, so the allow-list
    holds them before a page of them is seen. Returns counts."""
    rows = read_register(path, text)
    lock_allow_list(conn)
    publications_touched, domains = set(), set()
    for row in rows:
        publication_id = conn.execute(
            """INSERT INTO publication_register (title, place, county, has_responsible_editor, note, source)
               VALUES (%s, %s, %s, %s, %s, %s)
               ON CONFLICT (lower(title), lower(coalesce(place, ''))) DO UPDATE
               SET county = coalesce(EXCLUDED.county, publication_register.county),
                   has_responsible_editor = EXCLUDED.has_responsible_editor,
                   note = coalesce(EXCLUDED.note, publication_register.note),
                   source = EXCLUDED.source, updated_at = now()
               RETURNING id""",
            (row["title"], row["place"], row["county"], row["has_responsible_editor"], row["note"], str(path)),
        ).fetchone()[0]
        publications_touched.add(publication_id)
        conn.execute(
            """INSERT INTO publication_domains (domain, publication_id) VALUES (%s, %s)
               ON CONFLICT (domain) DO UPDATE SET publication_id = EXCLUDED.publication_id""",
            (row["domain"], publication_id),
        )
        domains.add(row["domain"])
        for host in (row["domain"], "www." + row["domain"]):
            conn.execute("INSERT INTO publications (host, domain) VALUES (%s, %s) ON CONFLICT (host) DO NOTHING",
                         (host, row["domain"]))
    withdrawn, restored = sync_withdrawals(conn)
    readmit = flag_readmissions(conn)
    return {"rows": len(rows), "publications": len(publications_touched), "domains": len(domains),
            "withdrawn": withdrawn, "restored": restored, "readmit": readmit}


def register_rows(conn: psycopg.Connection) -> list[dict]:
    """One row per domain (registered, or of a host autoCat has seen), with the status in force."""
    rows = conn.execute(
        """WITH hosts AS (
               SELECT s.domain, s.host, s.status, s.decided_by, s.score, s.editors FROM host_status s
               WHERE s.domain IS NOT NULL),
           domains AS (
               SELECT domain FROM publication_domains UNION SELECT domain FROM hosts)
           SELECT dm.domain, r.title, r.has_responsible_editor, r.place, r.county,
                  array_remove(array_agg(DISTINCT h.host), NULL),
                  array_remove(array_agg(DISTINCT h.status), NULL),
                  array_remove(array_agg(DISTINCT h.decided_by), NULL),
                  max(h.score),
                  (SELECT array_agg(DISTINCT e) FROM hosts h2, unnest(h2.editors) e WHERE h2.domain = dm.domain)
           FROM domains dm
           LEFT JOIN publication_domains pd ON pd.domain = dm.domain
           LEFT JOIN publication_register r ON r.id = pd.publication_id
           LEFT JOIN hosts h ON h.domain = dm.domain
           GROUP BY dm.domain, r.title, r.has_responsible_editor, r.place, r.county
           ORDER BY coalesce(r.title, dm.domain), dm.domain"""
    ).fetchall()
    out = []
    for domain, title, has_editor, place, county, hosts, statuses, deciders, score, editors in rows:
        status = next((status for status in STATUSES if status in statuses), "unassessed")
        decided_by = "register" if has_editor is not None else "person" if "person" in deciders else "autocat"
        if has_editor is None and status in ("accepted", "rejected"):
            has_editor = status == "accepted"
        out.append({"domain": domain, "title": title or "", "has_responsible_editor": has_editor,
                    "place": place or "", "county": county or "", "decided_by": decided_by, "status": status,
                    "score": None if score is None else round(score, 4), "editors": sorted(editors or []),
                    "hosts": sorted(hosts)})
    return out


def export_register(conn: psycopg.Connection, fmt: str = "csv") -> str:
    """The register as CSV or YAML: the import columns plus decided_by, status, score, editors, hosts.

    ``has_responsible_editor`` is the register's own value, else the status in force (accepted: yes,
    rejected: no, else empty). Importing an export back leaves rows whose ``decided_by`` is
    ``autocat`` without a value, so autoCat's verdicts never become register facts by a round trip.
    """
    rows = register_rows(conn)
    if fmt == "yaml":
        import yaml

        return yaml.safe_dump({"publications": rows}, allow_unicode=True, sort_keys=False)
    stream = io.StringIO()
    writer = csv.DictWriter(stream, fieldnames=EXPORT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        has_editor = row["has_responsible_editor"]
        writer.writerow({**row, "has_responsible_editor": "" if has_editor is None else ("yes" if has_editor else "no"),
                         "score": "" if row["score"] is None else row["score"],
                         "editors": "; ".join(row["editors"]), "hosts": " ".join(row["hosts"])})
    return stream.getvalue()


# ---------------------------------------------------------------------------------------------
# The allow-list
# ---------------------------------------------------------------------------------------------

def lock_allow_list(conn: psycopg.Connection) -> None:
    """Serialise with other verdict changes and loads until the current transaction ends."""
    conn.execute("SELECT pg_advisory_xact_lock(%s)", (ALLOW_LIST_LOCK_ID,))


def flag_readmissions(conn: psycopg.Connection) -> int:
    """Flag the WARC files that filtered out documents of hosts now on the allow-list.

    Which host is accepted can depend on a front page in another WARC, processed later (backfills
    run days in parallel): the flagged files are processed again by the next run, so the corpus
    does not depend on the order WARCs are processed in. Call under :func:`lock_allow_list`.
    """
    cursor = conn.execute(
        """UPDATE warc_files w SET readmit = true
           WHERE NOT w.readmit AND EXISTS (
               SELECT 1 FROM rejections r JOIN allow_list a ON a.host = r.host
               WHERE r.warc_file = w.path AND r.stage = 'filter')"""
    )
    return cursor.rowcount


def decision_history(conn: psycopg.Connection, limit: int = 200) -> list[dict]:
    """People's decisions, newest first, with the host's status in force and its documents now (in the
    corpus and withdrawn)."""
    rows = conn.execute(
        """SELECT d.id, d.host, d.status, d.note, d.decided_by, d.decided_at, s.status,
                  (SELECT count(*) FROM documents x WHERE x.host = d.host AND NOT x.withdrawn),
                  (SELECT count(*) FROM documents x WHERE x.host = d.host AND x.withdrawn)
           FROM publication_decisions d LEFT JOIN host_status s USING (host)
           ORDER BY d.id DESC LIMIT %s""", (limit,)).fetchall()
    keys = ("id", "host", "decision", "note", "by", "at", "status_now", "documents", "withdrawn")
    return [dict(zip(keys, r)) for r in rows]


def files_to_readmit(conn: psycopg.Connection) -> list[dict]:
    """The WARC files flagged to be processed again by the next run (a host they filtered out is accepted
    now), with the hosts concerned."""
    rows = conn.execute(
        """SELECT w.path, w.crawl_job,
                  array(SELECT DISTINCT r.host FROM rejections r JOIN allow_list a ON a.host = r.host
                        WHERE r.warc_file = w.path AND r.stage = 'filter' ORDER BY r.host)
           FROM warc_files w WHERE w.readmit ORDER BY w.path""").fetchall()
    return [dict(zip(("path", "crawl_job", "hosts"), r)) for r in rows]
