"""The run's own counts on the run's page in Airflow's UI: a tab "Corpus counts" on every Dag run.

The task corpus_updated puts the run's counts (files by status, records, documents extracted, new
documents, every record that did not become a new document, by reason) into the corpus asset's event
(stages.per_run.corpus_updated). Airflow's run page lists only the events that triggered a run, not those it
made, so this external view (destination "dag_run") shows the events the run made, with their counts,
read from Airflow's metadata database. Served at /run-counts/{dag_id}/{run_id} by the plugin's app,
behind Airflow's login and its permission to read the Dag's runs.
"""

from html import escape

from fastapi import FastAPI, HTTPException, Request, status
from fastapi.responses import HTMLResponse

from airflow.plugins_manager import AirflowPlugin

from warc2corpus.review.app import STYLE

PREFIX = "/run-counts"
app = FastAPI(title="warc2corpus run counts", docs_url=None, redoc_url=None, openapi_url=None)


def _rows(pairs) -> str:
    return "".join(f"<tr><th scope=\"row\">{escape(str(k))}</th><td>{escape(str(v))}</td></tr>" for k, v in pairs)


def render(dag_id: str, run_id: str, events: list[dict]) -> str:
    parts = []
    for event in events:
        counts = dict(event["extra"])
        reasons = counts.pop("not_new_by_reason", {})
        files = counts.pop("files", {})
        parts.append(
            f"<h2>{escape(event['asset'])} <span class=\"muted\">({escape(event['task_id'] or '')}, "
            f"{escape(event['timestamp'])})</span></h2>"
            f"<table id=\"counts\"><tbody>{_rows([('files ' + k, v) for k, v in sorted(files.items())])}"
            f"{_rows(counts.items())}</tbody></table>"
            f"<h3>Records that did not become a new document, by reason</h3>"
            f"<table id=\"reasons\"><tbody>{_rows(reasons.items()) or '<tr><td>none</td></tr>'}</tbody></table>")
    body = "".join(parts) or ("<p class=\"muted\">This run updated no corpus asset (no file was loaded, or the "
                              "Dag is not one that loads).</p>")
    return (f"<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Corpus counts</title>"
            f"<style>{STYLE}</style></head><body><h1>Corpus counts of {escape(dag_id)} / {escape(run_id)}</h1>"
            f"{body}</body></html>")


@app.get("/{dag_id}/{run_id}", response_class=HTMLResponse)
async def run_counts(request: Request, dag_id: str, run_id: str):
    from fastapi.security import HTTPAuthorizationCredentials
    from sqlalchemy import select

    from airflow.api_fastapi.app import get_auth_manager
    from airflow.api_fastapi.auth.managers.models.resource_details import DagAccessEntity, DagDetails
    from airflow.api_fastapi.core_api.security import get_user
    from airflow.models.asset import AssetEvent
    from airflow.utils.session import create_session

    scheme, _, credential = request.headers.get("authorization", "").partition(" ")
    user = await get_user(request, None, HTTPAuthorizationCredentials(scheme=scheme, credentials=credential.strip())
                          if credential else None)
    if not get_auth_manager().is_authorized_dag(method="GET", access_entity=DagAccessEntity.RUN,
                                                details=DagDetails(id=dag_id), user=user):
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"Airflow user {user.get_name()!r} may not read the runs of "
                                                       f"{dag_id}")
    with create_session() as session:
        found = session.scalars(select(AssetEvent).where(AssetEvent.source_dag_id == dag_id,
                                                         AssetEvent.source_run_id == run_id)
                                .order_by(AssetEvent.timestamp)).all()
        events = [{"asset": e.asset.name, "task_id": e.source_task_id, "timestamp": e.timestamp.isoformat(),
                   "extra": e.extra or {}} for e in found]
    return HTMLResponse(render(dag_id, run_id, events))


class Warc2CorpusRunCountsPlugin(AirflowPlugin):
    name = "warc2corpus_run_counts"
    fastapi_apps = [{"app": app, "url_prefix": PREFIX, "name": "warc2corpus run counts"}]
    external_views = [{"name": "Corpus counts", "href": PREFIX + "/{DAG_ID}/{RUN_ID}", "destination": "dag_run",
                       "url_route": "corpus-counts"}]
