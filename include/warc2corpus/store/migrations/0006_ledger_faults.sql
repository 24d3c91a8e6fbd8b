-- Passing faults are retried (issue 9): a file the operating system could not read for the moment
-- (permissions, an I/O error, a file that changed while it was read) is `retry`, taken again by
-- discovery from next_attempt_at on, with a growing delay; after the last attempt it is quarantined.
ALTER TABLE warc_files DROP CONSTRAINT warc_files_status_check;
ALTER TABLE warc_files ADD CONSTRAINT warc_files_status_check
    CHECK (status IN ('discovered', 'extracted', 'loaded', 'partial', 'quarantined', 'retry'));
ALTER TABLE warc_files
    ADD COLUMN attempts        integer NOT NULL DEFAULT 0,   -- passing faults met since the last success
    ADD COLUMN next_attempt_at timestamptz;                  -- retry files: not taken before this
CREATE INDEX warc_files_retry_due ON warc_files (next_attempt_at) WHERE status = 'retry';
