"""Research access to the corpus: corpora, frequencies, trends, concordances, collocations,
exports and the collection's description. Importable without Airflow or a web server; no function
returns a full text."""

from warc2corpus.research.analysis import collocations, concordance, frequencies, trend
from warc2corpus.research.corpora import (build_corpus, corpus_documents, corpus_from_ids, count_corpus,
                                          get_corpus, read_id_file, save_corpus)
from warc2corpus.research.describe import citation, collection_summary, dcat, dublin_core
from warc2corpus.research.export import export
from warc2corpus.research.index import refresh_index
from warc2corpus.research.profile import profile, profile_rows
from warc2corpus.research.query import BadRequest, CorpusFilter, NotFound, QueryTimeout
from warc2corpus.research.store import connect

__all__ = [
    "BadRequest", "CorpusFilter", "NotFound", "QueryTimeout", "build_corpus", "citation", "collection_summary",
    "collocations", "concordance", "connect", "corpus_documents", "corpus_from_ids", "count_corpus", "dcat",
    "dublin_core", "export", "frequencies", "get_corpus", "profile", "profile_rows", "read_id_file", "refresh_index", "save_corpus", "trend",
]
