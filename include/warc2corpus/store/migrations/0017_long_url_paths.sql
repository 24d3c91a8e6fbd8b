-- A document's identity (text, host, path) stays unique, but through the path's md5: a btree row ends at
-- 2,704 bytes, and a page whose URL path held more (a browser-based crawler's capture of a long URL) made
-- its whole file's load fail, on every retry. doc_id, derived from the same three, is the key the loads use.
ALTER TABLE documents DROP CONSTRAINT documents_text_sha1_host_url_path_key;
CREATE UNIQUE INDEX documents_text_sha1_host_url_path_md5 ON documents (text_sha1, host, md5(url_path));
