"""The allow-list in Airflow's UI: the review queue, decisions, the register and their effects.

Serves warc2corpus.review.app at /allow-list in Airflow's API server and adds it to the UI's navigation
(Browse → "Allow-list review", shown inside the UI at /plugin/allow-list). The app checks Airflow's login
itself (a plugin's app is not behind it): any logged-in user may look; only users allowed to edit the
warc2corpus DAG may decide. It connects to the corpus database only when asked.
"""

from airflow.plugins_manager import AirflowPlugin

from warc2corpus.review.app import PREFIX, create_app


class Warc2CorpusReviewPlugin(AirflowPlugin):
    name = "warc2corpus_review"
    fastapi_apps = [{"app": create_app(), "url_prefix": PREFIX, "name": "warc2corpus allow-list review"}]
    external_views = [{
        "name": "Allow-list review",
        "href": PREFIX + "/",
        "destination": "nav",
        "category": "browse",
        "url_route": "allow-list",
    }]
