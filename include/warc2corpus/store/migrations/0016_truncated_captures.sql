-- A capture whose body the crawler cut (WARC-Truncated: length, time, disconnect, unspecified): its
-- text may end early. Kept, and marked, on the capture and on the document read from it.
ALTER TABLE documents ADD COLUMN truncated text;
ALTER TABLE captures ADD COLUMN truncated text;
COMMENT ON COLUMN documents.truncated IS
    'WARC-Truncated of the capture the document was read from: the crawler cut its body (length, time, disconnect, unspecified), so its text may end early; null: whole';
COMMENT ON COLUMN captures.truncated IS 'WARC-Truncated: the crawler cut this capture''s body; null: whole';

-- documents_distinct holds all of documents' columns (a view's d.* is expanded when it is made).
CREATE OR REPLACE VIEW documents_distinct AS
    SELECT d.* FROM documents d
    WHERE NOT d.withdrawn
      AND NOT EXISTS (SELECT 1 FROM near_duplicate_clusters c
                      WHERE c.doc_id = d.doc_id AND c.representative <> d.doc_id);
