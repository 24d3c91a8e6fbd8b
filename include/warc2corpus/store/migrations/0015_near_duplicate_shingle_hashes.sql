-- The near-duplicates' shingles are hashed from their words' hashes now (text/minhash.py), no longer with
-- SHA-1 of their bytes: a signature made before compares with none made after. Every document is signed
-- again by the next refresh (find_near_duplicates), which stores the pairs it finds and makes their
-- clusters again; until then no document is in a cluster.
TRUNCATE near_duplicate_signatures, near_duplicate_pairs, near_duplicate_clusters, near_duplicate_queue;
