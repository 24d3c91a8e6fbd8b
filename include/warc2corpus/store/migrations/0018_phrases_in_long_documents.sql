-- A tsvector keeps 256 positions of a word and none past 16,383 (PostgreSQL's limits; the research index
-- writes the rest of a longer text without positions), so a phrase ('og' <-> 'så') found through it
-- misses a long document's occurrences after a word's 256th one or past token 16,383. Such documents are
-- marked here; phrase searches read them word for word (research.matching) instead of trusting the
-- positions, and find them through the small index below by their words alone.
ALTER TABLE research_fts ADD COLUMN positions_whole boolean NOT NULL DEFAULT true;
COMMENT ON COLUMN research_fts.positions_whole IS
    'false: the tsvector lacks some of the document''s word positions (a word more than 256 times, or past token 16,383), so phrases are not found through it';
UPDATE research_fts f SET positions_whole = false
FROM research_docs r
WHERE r.doc_id = f.doc_id
  AND (octet_length(r.seq) / 4 >= 16383 OR (SELECT max(c) FROM unnest(r.counts) c) > 256);
CREATE INDEX research_fts_long_gin ON research_fts USING gin (fts) WHERE NOT positions_whole;
