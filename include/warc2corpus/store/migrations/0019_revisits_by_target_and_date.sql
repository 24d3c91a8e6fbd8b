-- A revisit names its original by WARC-Refers-To (a record id), by its payload digest, or by the original's
-- URL and WARC-Date (WARC-Refers-To-Target-URI and WARC-Refers-To-Date): a server-not-modified revisit (the
-- server's 304) has no payload to take a digest of, and crawlers write no record id for it. Such revisits
-- were never resolved; they are now, by the capture of that URL at that second.
ALTER TABLE revisits ADD COLUMN refers_to_date timestamptz;
COMMENT ON COLUMN revisits.refers_to_date IS 'WARC-Refers-To-Date: the WARC-Date of the original capture';
CREATE INDEX captures_harvest_time ON captures (harvest_time);
