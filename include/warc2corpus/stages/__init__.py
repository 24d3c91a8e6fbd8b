"""The pipeline's stages: what the DAG's tasks and ``warc2corpus run`` call, each function named as the
task that calls it.

DAG warc2corpus, per crawl job (task group):

    per_run.discover -> per_file.extract (per WARC) -> per_run.autocat -> per_run.refresh_allow_list
      -> per_file.filter -> per_file.deduplicate -> per_file.load (per WARC)
    then once for all groups: per_run.corpus_updated

DAG warc2corpus_derived: derived.train_naturalness, derived.find_near_duplicates, derived.index_research.
``warc2corpus run``: run.run_files, all of it in one process.

A stage takes and returns a small manifest (``manifests``: staging keys, ids, counts; never texts).
A page's way through extract is ``pages`` (small steps, each with its stats); every record turned
away, in whatever stage, goes through ``rejections.RejectionWriter`` with its stage and reason.
"""
