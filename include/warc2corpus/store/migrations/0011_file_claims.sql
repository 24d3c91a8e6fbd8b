-- Claims (issue 13): a run claims the files it will process when it discovers them, so that two runs
-- (a manual run and a scheduled one, or two backfill days) never process one file at the same time.
-- A claim ends when the file's outcome is recorded (loaded, partial, retry, quarantined), when the run
-- ends (the DAG's release_claims teardown, or `warc2corpus run` finishing), or when it was not renewed
-- for WARC2CORPUS_CLAIM_HOURS (the run died without ending).
ALTER TABLE warc_files
    ADD COLUMN claimed_by text,          -- the run processing the file now (an Airflow run id, or cli-…)
    ADD COLUMN claimed_at timestamptz;   -- when it claimed it, or last recorded progress on it
CREATE INDEX warc_files_claimed_by ON warc_files (claimed_by) WHERE claimed_by IS NOT NULL;
