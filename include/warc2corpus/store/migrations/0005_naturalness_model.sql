-- The naturalness model (issue 4), trained from the corpus's own paragraphs and shared by every
-- worker: each training adds a row; extraction uses the newest and records which one in its ledger row.
CREATE TABLE naturalness_models (
    id                  serial PRIMARY KEY,
    trained_at          timestamptz NOT NULL DEFAULT now(),
    corpus_paragraphs   bigint NOT NULL,      -- paragraphs in the corpus (not withdrawn) when trained
    learnt_paragraphs   integer NOT NULL,     -- of which the model learnt: the most recent documents'
    tokens              jsonb NOT NULL,       -- tokens learnt per language
    model               bytea NOT NULL        -- the counts, gzipped JSON (naturalness.Model.to_bytes)
);

ALTER TABLE warc_files ADD COLUMN naturalness_model integer REFERENCES naturalness_models (id);
