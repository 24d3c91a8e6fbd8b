-- Research access (issue 11): derived tables, built from `paragraphs` by research.refresh_index.
-- Nothing here is written by the loader; everything can be rebuilt from documents and paragraphs.

-- Every distinct lowercase token of the collection, with its total count over the indexed
-- documents (withdrawn ones included: queries subtract those). is_word: it holds a letter or digit.
CREATE TABLE research_lexicon (
    word_id     serial PRIMARY KEY,
    word        text NOT NULL UNIQUE,
    is_word     boolean NOT NULL,
    total       bigint NOT NULL DEFAULT 0
);
CREATE INDEX research_lexicon_prefix ON research_lexicon (word text_pattern_ops);

-- One row per indexed document:
--   terms / counts   its distinct word ids (sorted) and how often each occurs: hit counts and trends
--           (kept in the row, MAIN);
--   seq     every token's word id as little-endian int32, -1 between paragraphs: frequencies,
--           bigrams, phrases, concordance positions and collocations, read with numpy (always
--           out of line, EXTERNAL: scans that do not read it stay narrow).
-- A document's text never changes (its id is derived from it): a document is indexed once.
CREATE TABLE research_docs (
    doc_id      bigint PRIMARY KEY,
    words       integer NOT NULL,
    terms       integer[] NOT NULL,
    counts      integer[] NOT NULL,
    seq         bytea NOT NULL
) WITH (toast_tuple_target = 128);
ALTER TABLE research_docs ALTER COLUMN terms SET STORAGE MAIN, ALTER COLUMN counts SET STORAGE MAIN,
    ALTER COLUMN seq SET STORAGE EXTERNAL;

-- Its words as a tsvector (token positions = positions in seq + 1, so the separator keeps
-- paragraphs apart for phrases too) for the full-text filter (words, phrases, prefixes,
-- AND/OR/NOT) through a GIN index. The tsvector always lives out of line: the heap holds the id
-- and a pointer, so a bitmap scan for a common word reads a few pages, not the texts' words.
CREATE TABLE research_fts (
    doc_id      bigint PRIMARY KEY,
    fts         tsvector NOT NULL
) WITH (toast_tuple_target = 128);
ALTER TABLE research_fts ALTER COLUMN fts SET STORAGE EXTERNAL;
CREATE INDEX research_fts_gin ON research_fts USING gin (fts);

-- Each refresh that changed the index adds a version (documents and words indexed then).
CREATE TABLE collection_versions (
    version     serial PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    documents   bigint NOT NULL,
    words       bigint NOT NULL
);

-- Saved, citable corpora: the definition, the ids it resolved to, against which version.
CREATE TABLE saved_corpora (
    id                  text PRIMARY KEY,
    name                text,
    definition          jsonb NOT NULL,
    doc_ids             bigint[] NOT NULL,
    unknown_ids         text[] NOT NULL DEFAULT '{}',
    collection_version  integer REFERENCES collection_versions,
    created_at          timestamptz NOT NULL DEFAULT now()
);

-- Corpus filters on dates, and the order of corpora and concordances (date, then id).
CREATE INDEX documents_published ON documents (published);
CREATE INDEX documents_date_order ON documents ((coalesce(published, (harvest_time AT TIME ZONE 'UTC')::date)), doc_id);
