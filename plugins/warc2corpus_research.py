"""The warc2corpus research API inside Airflow's API server, at /corpus (docs: /corpus/docs), with the
researcher web page at /corpus/app/ in the UI's navigation (an external view, shown in Airflow's frame).

Airflow mounts a plugin's FastAPI app without putting it behind its login: the app checks Airflow's
JWT itself for everything that changes state (warc2corpus.research.auth). The app connects to the
corpus database only when first asked, so loading this plugin in the scheduler or a worker costs
nothing but the import.
"""

from airflow.plugins_manager import AirflowPlugin

from warc2corpus.research.api import PREFIX, Settings, create_app


class Warc2CorpusResearchPlugin(AirflowPlugin):
    name = "warc2corpus_research"
    fastapi_apps = [{
        "app": create_app(Settings.from_env(inside_airflow=True)),
        "url_prefix": PREFIX,
        "name": "warc2corpus research API",
    }]
    external_views = [{
        "name": "Corpus (research)",
        "href": f"{PREFIX}/app/",
        "destination": "nav",
        "category": "browse",
        "url_route": "corpus-research",
    }]
