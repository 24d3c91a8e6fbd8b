-- The first corpus schema. Later changes are new numbered files; never edit an applied one.

-- Ledger: every WARC file discovery has seen, and what became of it.
CREATE TABLE warc_files (
    path            text PRIMARY KEY,
    crawl_job       text NOT NULL,
    size_bytes      bigint NOT NULL,
    mtime           timestamptz,
    capture_start   timestamptz,            -- from the file name, else the first record's WARC-Date
    capture_end     timestamptz,            -- latest WARC-Date seen, known once extracted
    status          text NOT NULL DEFAULT 'discovered'
                    CHECK (status IN ('discovered', 'extracted', 'loaded', 'failed')),
    counts          jsonb NOT NULL DEFAULT '{}'::jsonb,
    error           text,
    -- Set when a host whose documents this file had filtered out has since been accepted:
    -- the next run processes the file again, whatever its interval.
    readmit         boolean NOT NULL DEFAULT false,
    discovered_at   timestamptz NOT NULL DEFAULT now(),
    started_at      timestamptz,
    finished_at     timestamptz
);
CREATE INDEX warc_files_job_status ON warc_files (crawl_job, status);

-- One row per distinct (normalised text, host, URL path): the corpus.
-- doc_id is derived from that key, so it never changes, whatever order WARCs are loaded in.
-- The capture columns describe the earliest capture of the document.
CREATE TABLE documents (
    doc_id          bigint PRIMARY KEY,
    text_sha1       text NOT NULL,
    host            text NOT NULL,
    url_path        text NOT NULL,
    url             text NOT NULL,
    title           text,
    author          text,
    published       date,                   -- publication date found in the page (htmldate)
    harvest_time    timestamptz NOT NULL,   -- WARC-Date of the earliest capture
    language        text NOT NULL,
    n_paragraphs    integer NOT NULL,
    n_tokens        integer NOT NULL,
    warc_file       text NOT NULL,
    record_offset   bigint NOT NULL,
    record_length   bigint NOT NULL,
    record_id       text NOT NULL,
    crawl_job       text NOT NULL,
    loaded_at       timestamptz NOT NULL DEFAULT now(),
    UNIQUE (text_sha1, host, url_path)
);
CREATE INDEX documents_host ON documents (host);
CREATE INDEX documents_language ON documents (language);
CREATE INDEX documents_harvest_time ON documents (harvest_time);

-- Text of a document, paragraph by paragraph, with its tokens (nb-tokenizer) and their
-- character offsets in the paragraph: concordances are built within a paragraph, never across.
CREATE TABLE paragraphs (
    doc_id          bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    seq             integer NOT NULL,
    text            text NOT NULL,
    tokens          text[] NOT NULL,
    token_starts    integer[] NOT NULL,
    PRIMARY KEY (doc_id, seq)
);

-- Every capture of every document, the earliest included: the duplicates are the others.
CREATE TABLE captures (
    warc_file       text NOT NULL,
    record_offset   bigint NOT NULL,
    record_length   bigint NOT NULL,
    record_id       text NOT NULL,
    url             text NOT NULL,
    harvest_time    timestamptz NOT NULL,
    doc_id          bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    PRIMARY KEY (warc_file, record_offset)
);
CREATE INDEX captures_doc ON captures (doc_id);

-- Records that did not become corpus documents, with the stage and reason (nothing silently lost).
CREATE TABLE rejections (
    warc_file       text NOT NULL,
    record_offset   bigint NOT NULL,
    record_id       text,
    url             text,
    host            text,
    harvest_time    timestamptz,
    stage           text NOT NULL,
    reason          text NOT NULL,
    PRIMARY KEY (warc_file, record_offset)
);
CREATE INDEX rejections_reason ON rejections (stage, reason);
CREATE INDEX rejections_host ON rejections (host) WHERE stage = 'filter';

-- autoCat: each front page scored, and the verdict per host.
CREATE TABLE front_pages (
    warc_file       text NOT NULL,
    record_offset   bigint NOT NULL,
    host            text NOT NULL,
    url             text NOT NULL,
    harvest_time    timestamptz NOT NULL,
    score           real NOT NULL,
    evidence        jsonb NOT NULL,
    PRIMARY KEY (warc_file, record_offset)
);
CREATE INDEX front_pages_host ON front_pages (host);

CREATE TABLE publications (
    host            text PRIMARY KEY,
    score           real NOT NULL DEFAULT 0,    -- mean page score over the host's front pages
    status          text NOT NULL DEFAULT 'unassessed'
                    CHECK (status IN ('accepted', 'uncertain', 'rejected', 'unassessed')),
    front_pages     integer NOT NULL DEFAULT 0,
    evidence        jsonb NOT NULL DEFAULT '[]'::jsonb,
    assessed_at     timestamptz NOT NULL DEFAULT now(),
    -- A person's decision overrides the classifier; a refresh never touches these columns.
    manual_status   text CHECK (manual_status IN ('accepted', 'rejected')),
    manual_note     text,
    manual_by       text,
    manual_at       timestamptz
);

CREATE VIEW allow_list AS
    SELECT host FROM publications WHERE coalesce(manual_status, status) = 'accepted';
