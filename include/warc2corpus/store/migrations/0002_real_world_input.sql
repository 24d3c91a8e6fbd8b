-- Real-world WARC input: partial and quarantined files, digests, revisits, Wayback provenance.

-- A file is loaded (read to its end), partial (read up to a fault; what came before is loaded)
-- or quarantined (nothing readable). Reading never "fails" a file any more.
UPDATE warc_files SET status = 'quarantined' WHERE status = 'failed';
ALTER TABLE warc_files DROP CONSTRAINT warc_files_status_check;
ALTER TABLE warc_files ADD CONSTRAINT warc_files_status_check
    CHECK (status IN ('discovered', 'extracted', 'loaded', 'partial', 'quarantined'));
ALTER TABLE warc_files
    ADD COLUMN error_class      text,
    ADD COLUMN last_good_offset bigint,     -- where the last complete record ends (partial files)
    ADD COLUMN layout           text;       -- warc | arc | gzip-per-record | gzip-whole-file | lz4
COMMENT ON COLUMN warc_files.layout IS
    'gzip-whole-file and lz4: record offsets count bytes of the decompressed stream';

-- The URL in the WARC record when it is not the document's URL (a Wayback Machine capture is
-- stored under the original URL, with the Wayback timestamp as harvest time), and the payload
-- digest with the outcome of checking it (null: no digest to check).
ALTER TABLE documents
    ADD COLUMN record_url     text,
    ADD COLUMN payload_digest text,
    ADD COLUMN digest_ok      boolean;
ALTER TABLE captures
    ADD COLUMN record_url     text,
    ADD COLUMN payload_digest text,
    ADD COLUMN digest_ok      boolean,
    ADD COLUMN record_type    text NOT NULL DEFAULT 'response';   -- or 'revisit'
CREATE INDEX captures_record_id ON captures (record_id);
CREATE INDEX captures_payload_digest ON captures (payload_digest);

-- Revisit records, resolved to the document of their original capture when it is known (same
-- WARC-Refers-To record, else same payload digest), in this file or any loaded before or after.
CREATE TABLE revisits (
    warc_file       text NOT NULL,
    record_offset   bigint NOT NULL,
    record_length   bigint NOT NULL,
    record_id       text,
    url             text,
    harvest_time    timestamptz,
    refers_to       text,                   -- WARC-Refers-To (a record id)
    refers_to_url   text,                   -- WARC-Refers-To-Target-URI
    payload_digest  text,
    profile         text,                   -- WARC-Profile
    doc_id          bigint REFERENCES documents ON DELETE SET NULL,   -- null: unresolved
    PRIMARY KEY (warc_file, record_offset)
);
CREATE INDEX revisits_unresolved ON revisits (payload_digest) WHERE doc_id IS NULL;
CREATE INDEX revisits_unresolved_refers_to ON revisits (refers_to) WHERE doc_id IS NULL;
