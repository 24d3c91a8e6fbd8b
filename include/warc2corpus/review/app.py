"""The allow-list in Airflow's UI: a small server-rendered page (no JavaScript, no assets from outside)
served by the plugin ``plugins/warc2corpus_review.py`` inside Airflow's API server, and shown in the UI's
navigation as an external view (Airflow embeds it at ``/plugin/allow-list``).

It shows the review queue (uncertain hosts, and hosts that may not be edited news, nobody decided on,
with autoCat's score and evidence page by page), accept / reject with a reason, every host with its
status in force, the register, the decision history, the effect of a decision (documents withdrawn or
restored, WARC files flagged to load again) and the files waiting to be loaded again. Everything goes
through :mod:`warc2corpus.store.publications`.

A plugin's app is not behind Airflow's login by itself: every request is checked here with Airflow's
auth manager (the UI's ``_token`` cookie, or ``Authorization: Bearer``). Looking needs an Airflow login;
deciding needs a user allowed to edit the ``warc2corpus`` DAG (a decision changes what it loads), as the
research API's decision endpoint does (:func:`warc2corpus.research.auth.airflow_principal`). Decisions
are form posts; one whose ``Origin`` is another site is refused (the cookie must not decide for a page
elsewhere).
"""

from __future__ import annotations

import contextlib
from html import escape
from typing import Annotated
from urllib.parse import urlencode, urlsplit

from fastapi import FastAPI, Form, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from warc2corpus.store import db, publications
from warc2corpus.research import auth

PREFIX = "/allow-list"
DECISIONS = {"accept": "accepted", "reject": "rejected", "clear": None}

STYLE = """
body{font-family:system-ui,sans-serif;margin:1rem 1.5rem;color:#1b1f24;background:#fff;font-size:14px}
h1{font-size:1.4rem}h2{font-size:1.1rem;margin-top:1.8rem}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d0d7de;padding:.35rem .5rem;
text-align:left;vertical-align:top}th{background:#f6f8fa}
.score{font-variant-numeric:tabular-nums}.muted{color:#57606a}.ev{margin:0;padding-left:1rem}
.done{background:#dafbe1;border:1px solid #4ac26b;padding:.6rem;margin:.8rem 0}
.error{background:#ffebe9;border:1px solid #ff8182;padding:.6rem;margin:.8rem 0}
form.decide{display:flex;gap:.4rem;flex-wrap:wrap;align-items:center}
input[type=text]{min-width:14rem;padding:.25rem}button{padding:.25rem .7rem;cursor:pointer}
button.accept{background:#1f883d;color:#fff;border:1px solid #1a7f37}
button.reject{background:#cf222e;color:#fff;border:1px solid #a40e26}
:focus-visible{outline:3px solid #0969da;outline-offset:2px}
"""


def _e(value) -> str:
    if value is None:
        return ""
    if isinstance(value, (list, tuple)):
        return escape(", ".join(str(v) for v in value))
    return escape(str(value))


def _table(headers: list[str], rows: list[list[str]], empty: str, table_id: str) -> str:
    if not rows:
        return f'<p class="muted" id="{table_id}">{escape(empty)}</p>'
    head = "".join(f'<th scope="col">{escape(h)}</th>' for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table id="{table_id}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _score(score) -> str:
    return f'<span class="score">{"" if score is None else format(score, ".2f")}</span>'


def _decide_form(root: str, host: str, *, where: str, may_decide: bool, choices=("accept", "reject")) -> str:
    if not may_decide:
        return '<span class="muted">you may look, not decide</span>'
    field = f"{where}-note-{host}"
    buttons = "".join(f'<button type="submit" name="decision" value="{c}" class="{c}" '
                      f'data-host="{escape(host)}">{c.capitalize()}</button>' for c in choices)
    return (f'<form class="decide" method="post" action="{root}/decide">'
            f'<input type="hidden" name="host" value="{escape(host)}">'
            f'<label for="{escape(field)}">Reason</label>'
            f'<input type="text" id="{escape(field)}" name="note" placeholder="why (required to reject)">'
            f"{buttons}</form>")


def _evidence(detail: dict | None) -> str:
    if not detail or not detail["days"]:
        return ""
    latest = detail["days"][-1]
    items = (latest.get("evidence") or {}).get("evidence") or []
    lines = "".join(f'<li><a href="{escape(i["url"])}" rel="noreferrer">{escape(i["kind"])}</a>: '
                    f'{escape(i["explanation"])}</li>' for i in items)
    foreign = (latest.get("evidence") or {}).get("foreign") or []
    if foreign:
        lines += f"<li>foreign editor lines (never count): {_e([f.get('text', f) for f in foreign])}</li>"
    return f'<div class="muted">pages read on {_e(latest["day"])}:</div><ul class="ev">{lines}</ul>'


def _effect(params) -> str:
    """The message after a decision (carried in the redirect's query)."""
    host = params.get("host")
    if not host:
        return ""
    if params.get("error"):
        return f'<div class="error" role="alert">{escape(params["error"])}</div>'
    status = params.get("status") or "no person's decision (the register or autoCat decides)"
    withdrawn, restored, readmit = (_count(params, key) for key in ("withdrawn", "restored", "readmit"))
    return (f'<div class="done" role="status" id="effect">{escape(host)}: {escape(status)}. '
            f'{withdrawn} document(s) withdrawn, {restored} restored; {readmit} WARC file(s) flagged to load '
            'again.</div>')


def _count(params, key: str) -> int:
    """A count the redirect carries (0 when the address was written by hand and holds none)."""
    value = params.get(key, "0")
    return int(value) if value.isascii() and value.isdigit() else 0


def render(conn, root: str, *, user: str, may_decide: bool, params) -> str:
    queue = publications.review_queue(conn)
    details = {h["host"]: publications.host_detail(conn, h["host"]) for h in queue}
    queue_rows = [[f'<strong>{_e(h["host"])}</strong>', _score(h["score"]),
                   _e(h["reason"]) + _evidence(details[h["host"]]), _e(h["editors"]), _e(h["pages"]),
                   _e(h["held_back"]), _decide_form(root, h["host"], where="queue", may_decide=may_decide)]
                  for h in queue]
    hosts = publications.list_hosts(conn)
    host_rows = [[_e(h["host"]), _e(h["status"]), _e(h["decided_by"]),
                  _score(h["score"]),
                  _e(h["editors"]), _e(h["title"]), _e(h["documents"]), _e(h["withdrawn"]),
                  _e(h["note"]), _decide_form(root, h["host"], where="hosts", may_decide=may_decide,
                                              choices=("accept", "reject", "clear"))] for h in hosts]
    history = [[_e(d["at"].strftime("%Y-%m-%d %H:%M")), _e(d["host"]), _e(d["decision"] or "cleared"),
                _e(d["note"]), _e(d["by"]), _e(d["status_now"]), _e(d["documents"]), _e(d["withdrawn"])]
               for d in publications.decision_history(conn)]
    files = [[_e(f["path"]), _e(f["crawl_job"]), _e(f["hosts"])] for f in publications.files_to_readmit(conn)]
    register = [[_e(r["title"]), _e(r["domain"]), _e(r["has_responsible_editor"]), _e(r["place"]),
                 _e(r["county"]), _e(r["status"]), _e(r["hosts"])] for r in publications.register_rows(conn)]
    return f"""<!doctype html><html lang="en"><head><meta charset="utf-8">
<title>warc2corpus: the allow-list</title><style>{STYLE}</style></head><body>
<h1>Publications: the allow-list</h1>
<p class="muted">Signed in as {escape(user)}{"" if may_decide else " (read only)"}. A person's decision overrides
the register and autoCat and survives every refresh; rejecting a host withdraws its documents at once,
accepting one restores them and flags the WARC files that filtered it out, so the next run loads them.</p>
{_effect(params)}
<h2 id="queue-heading">Review queue ({len(queue)})</h2>
{_table(["host", "score", "autoCat's evidence", "editors", "pages", "documents held back", "decision"],
        queue_rows, "Nothing to review: no uncertain host, and none that may not be edited news, waits for a person.", "queue")}
<h2>Decision history</h2>
{_table(["when", "host", "decision", "reason", "by", "status now", "documents", "withdrawn"], history,
        "No decision yet.", "history")}
<h2>WARC files to load again ({len(files)})</h2>
{_table(["file", "crawl job", "hosts now accepted"], files, "None: no file waits to be loaded again.", "readmit")}
<h2>Every host</h2>
{_table(["host", "status", "decided by", "score", "editors", "register title", "documents", "withdrawn",
         "a person's reason", "decision"], host_rows, "No host assessed yet.", "hosts")}
<h2>The register</h2>
{_table(["title", "domain", "responsible editor", "place", "county", "status", "hosts"], register,
        "The register is empty (warc2corpus publications import FILE).", "register")}
</body></html>"""


def _same_origin(request: Request) -> bool:
    origin = request.headers.get("origin")
    return origin is None or urlsplit(origin).netloc == request.headers.get("host")


def create_app(database_url: str | None = None) -> FastAPI:
    """The review page (``GET /``) and its decisions (``POST /decide``), relative to where it is mounted."""

    @contextlib.contextmanager
    def connection():
        conn = db.connect(database_url)
        try:
            yield conn
        finally:
            conn.close()

    app = FastAPI(title="warc2corpus allow-list review", docs_url=None, redoc_url=None, openapi_url=None)

    @app.exception_handler(HTTPException)
    async def refused(request: Request, exc: HTTPException):
        return HTMLResponse(f"<!doctype html><title>{exc.status_code}</title><p>{escape(str(exc.detail))}</p>"
                            '<p><a href="/" target="_top">Log in to Airflow</a></p>',
                            status_code=exc.status_code, headers=exc.headers)

    @app.get("/", response_class=HTMLResponse)
    async def page(request: Request):
        who = await auth.airflow_principal(request, change=False)
        try:
            may_decide = (await auth.airflow_principal(request, change=True)).may_change
        except HTTPException:
            may_decide = False
        with connection() as conn:
            return HTMLResponse(render(conn, request.scope.get("root_path", ""), user=who.name,
                                       may_decide=may_decide, params=request.query_params))

    @app.post("/decide")
    async def decide(request: Request, host: Annotated[str, Form()], decision: Annotated[str, Form()],
                     note: Annotated[str, Form()] = ""):
        if not _same_origin(request):
            raise HTTPException(403, "a decision must come from this site's own page")
        who = await auth.airflow_principal(request, change=True)
        root = request.scope.get("root_path", "")
        if decision not in DECISIONS:
            outcome = {"host": host, "error": f"a decision is accept, reject or clear, not {decision!r}"}
        elif decision == "reject" and not note.strip():
            outcome = {"host": host, "error": f"{host} not rejected: say why (the reason is kept with the decision)"}
        else:
            with connection() as conn:
                if host not in publications.host_statuses(conn):
                    outcome = {"host": host, "error": f"unknown publication host: {host}"}
                else:
                    try:
                        done = publications.decide(conn, host, DECISIONS[decision], by=who.name, note=note.strip())
                    except ValueError as exc:
                        outcome = {"host": host, "error": f"{host}: {exc}"}
                    else:
                        conn.commit()
                        outcome = {k: v for k, v in done.items() if v is not None}
        return RedirectResponse(f"{root}/?{urlencode(outcome)}", status_code=303)

    return app
