-- Near-duplicates (issue 14): wire copy on many papers, updated versions of one article, regional
-- editions. Derived from the loaded documents by near_duplicates.refresh (a step after the loads):
-- a MinHash signature per document (hashed once), its LSH band keys under a GIN index (candidates are
-- found in SQL), the pairs whose estimated Jaccard similarity reaches the threshold, and the clusters:
-- connected components of those pairs among documents not withdrawn, each with its earliest member
-- (harvest_time, then doc_id) as representative.

CREATE TABLE near_duplicate_signatures (
    doc_id      bigint PRIMARY KEY REFERENCES documents ON DELETE CASCADE,
    shingles    integer NOT NULL,      -- distinct word shingles hashed (too few: no band keys)
    minhash     bytea NOT NULL,        -- the MinHash values, uint32 little-endian
    band_keys   bigint[] NOT NULL,     -- one key per LSH band (the band's number is hashed into it)
    signed_at   timestamptz NOT NULL DEFAULT now()
);
-- Without fastupdate: a pending list would be scanned whole by every lookup (36 ms each, measured).
CREATE INDEX near_duplicate_signatures_bands ON near_duplicate_signatures USING gin (band_keys)
    WITH (fastupdate = off);

-- Candidate pairs (sharing a band key) whose estimated Jaccard similarity reaches the threshold.
CREATE TABLE near_duplicate_pairs (
    doc_a       bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    doc_b       bigint NOT NULL REFERENCES documents ON DELETE CASCADE,
    similarity  real NOT NULL,
    PRIMARY KEY (doc_a, doc_b),
    CHECK (doc_a < doc_b)
);
CREATE INDEX near_duplicate_pairs_b ON near_duplicate_pairs (doc_b);

-- One row per document in a cluster of two or more (singletons have none).
CREATE TABLE near_duplicate_clusters (
    doc_id          bigint PRIMARY KEY REFERENCES documents ON DELETE CASCADE,
    representative  bigint NOT NULL,   -- the cluster's earliest member: the cluster's id
    members         integer NOT NULL
);
CREATE INDEX near_duplicate_clusters_representative ON near_duplicate_clusters (representative);

-- Documents whose cluster must be computed again (new pairs, a changed harvest time, a withdrawal,
-- a deleted member); near_duplicates.refresh empties it. A document queued again while a refresh
-- works gets a new seq, so that refresh does not take it off the queue.
CREATE TABLE near_duplicate_queue (
    doc_id      bigint PRIMARY KEY,
    seq         bigserial NOT NULL
);

CREATE FUNCTION near_duplicates_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        -- The cluster may split: its other members are computed again.
        INSERT INTO near_duplicate_queue
            SELECT c.doc_id FROM near_duplicate_clusters c
            WHERE c.representative = (SELECT representative FROM near_duplicate_clusters
                                      WHERE doc_id = OLD.doc_id)
              AND c.doc_id <> OLD.doc_id
            ON CONFLICT (doc_id) DO UPDATE SET seq = EXCLUDED.seq;
        RETURN OLD;
    END IF;
    IF EXISTS (SELECT 1 FROM near_duplicate_pairs WHERE doc_a = NEW.doc_id OR doc_b = NEW.doc_id) THEN
        INSERT INTO near_duplicate_queue (doc_id) VALUES (NEW.doc_id)
            ON CONFLICT (doc_id) DO UPDATE SET seq = EXCLUDED.seq;
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER near_duplicates_deleted BEFORE DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION near_duplicates_changed();
CREATE TRIGGER near_duplicates_changed AFTER UPDATE OF harvest_time, withdrawn ON documents
    FOR EACH ROW WHEN (OLD.harvest_time IS DISTINCT FROM NEW.harvest_time
                       OR OLD.withdrawn IS DISTINCT FROM NEW.withdrawn)
    EXECUTE FUNCTION near_duplicates_changed();

-- For research: every document not withdrawn with its cluster (its own doc_id when it has no
-- near-duplicate), and the documents that count a cluster once (its representative and every
-- document without near-duplicates).
CREATE VIEW document_clusters AS
    SELECT d.doc_id, coalesce(c.representative, d.doc_id) AS cluster, coalesce(c.members, 1) AS cluster_size,
           coalesce(c.representative, d.doc_id) = d.doc_id AS is_representative
    FROM documents d LEFT JOIN near_duplicate_clusters c USING (doc_id)
    WHERE NOT d.withdrawn;

CREATE VIEW documents_distinct AS
    SELECT d.* FROM documents d
    WHERE NOT d.withdrawn
      AND NOT EXISTS (SELECT 1 FROM near_duplicate_clusters c
                      WHERE c.doc_id = d.doc_id AND c.representative <> d.doc_id);
