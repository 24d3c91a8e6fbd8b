-- Publications, autoCat over time, people's decisions, withdrawal (issue 5).

-- autoCat reads front pages and, for hosts whose front page is silent, other pages of the host
-- ("om oss", "kontakt", article footers): all of them are kept here, each with its kind.
-- `front_pages` stays as a view of the front pages (it accepts inserts, kind defaults to 'front').
ALTER TABLE front_pages RENAME TO autocat_pages;
ALTER INDEX front_pages_host RENAME TO autocat_pages_host;
ALTER TABLE autocat_pages
    ADD COLUMN kind text NOT NULL DEFAULT 'front' CHECK (kind IN ('front', 'about', 'article')),
    ADD COLUMN editors text[] NOT NULL DEFAULT '{}';
CREATE VIEW front_pages AS
    SELECT warc_file, record_offset, host, url, harvest_time, score, evidence FROM autocat_pages WHERE kind = 'front';

-- Per host: the verdict of the classifier (status, score of the latest deciding day), the
-- responsible editor(s) it found, foreign (Danish, Swedish …) editor lines it recorded, and why.
ALTER TABLE publications
    ADD COLUMN domain text,
    ADD COLUMN pages integer NOT NULL DEFAULT 0,
    ADD COLUMN editors text[] NOT NULL DEFAULT '{}',
    ADD COLUMN foreign_declarations jsonb NOT NULL DEFAULT '[]'::jsonb,
    ADD COLUMN reason text;
UPDATE publications SET domain = regexp_replace(host, '^(www[0-9]?|m|mobil|mobile|amp)\.(?=[^.]+\.[^.]+)', '');
CREATE INDEX publications_domain ON publications (domain);

-- Scores per host over time: one row per host and harvest day, with the evidence behind it.
CREATE TABLE host_scores (
    host            text NOT NULL,
    day             date NOT NULL,
    score           real NOT NULL,
    status          text NOT NULL,
    front_score     real,                   -- the front pages alone (NULL: no front page that day)
    editor_weight   real NOT NULL,
    ethics_weight   real NOT NULL,
    front_pages     integer NOT NULL,
    pages           integer NOT NULL,
    editors         text[] NOT NULL DEFAULT '{}',
    evidence        jsonb NOT NULL,
    PRIMARY KEY (host, day)
);

-- The register: publications (title, place, county, has a responsible editor?) and their domains.
-- A host belongs to the publication of its domain (www., m., mobil., amp. in front stripped).
CREATE TABLE publication_register (
    id                      serial PRIMARY KEY,
    title                   text NOT NULL,
    place                   text,
    county                  text,
    has_responsible_editor  boolean,        -- NULL: the register does not say; autoCat decides
    note                    text,
    source                  text,           -- the file it was imported from
    updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX publication_register_title_place ON publication_register (lower(title), lower(coalesce(place, '')));

CREATE TABLE publication_domains (
    domain          text PRIMARY KEY,
    publication_id  integer NOT NULL REFERENCES publication_register ON DELETE CASCADE
);

-- Every decision a person made, in order (publications.manual_* holds the one in force).
CREATE TABLE publication_decisions (
    id              bigserial PRIMARY KEY,
    host            text NOT NULL,
    status          text CHECK (status IN ('accepted', 'rejected')),   -- NULL: decision withdrawn
    note            text,
    decided_by      text NOT NULL,
    decided_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX publication_decisions_host ON publication_decisions (host);

-- The status in force per host: a person's decision, else the register's, else autoCat's.
CREATE VIEW host_status AS
    SELECT p.host, p.domain, r.id AS publication_id, r.title, r.place, r.county,
           coalesce(p.manual_status,
                    CASE r.has_responsible_editor WHEN true THEN 'accepted' WHEN false THEN 'rejected' END,
                    p.status) AS status,
           CASE WHEN p.manual_status IS NOT NULL THEN 'person'
                WHEN r.has_responsible_editor IS NOT NULL THEN 'register'
                ELSE 'autocat' END AS decided_by,
           p.status AS autocat_status, p.score, p.editors, p.reason
    FROM publications p
    LEFT JOIN publication_domains d ON d.domain = p.domain
    LEFT JOIN publication_register r ON r.id = d.publication_id;

CREATE OR REPLACE VIEW allow_list AS
    SELECT host FROM host_status WHERE status = 'accepted';

-- Withdrawal: documents of a host whose status in force is 'rejected' stay in `documents` (with
-- their provenance) but are flagged and left out of every query of the corpus (`WHERE NOT
-- withdrawn`; `warc2corpus stats` counts only the others). publications.sync_withdrawals sets the
-- flag whenever a status changes; documents inserted for a host already rejected get it here.
ALTER TABLE documents
    ADD COLUMN withdrawn boolean NOT NULL DEFAULT false,
    ADD COLUMN withdrawn_at timestamptz,
    ADD COLUMN withdrawn_reason text;
CREATE INDEX documents_withdrawn ON documents (host) WHERE withdrawn;

CREATE FUNCTION documents_withdrawn_on_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    decider text;
BEGIN
    SELECT s.decided_by INTO decider FROM host_status s WHERE s.host = NEW.host AND s.status = 'rejected';
    IF FOUND THEN
        NEW.withdrawn := true;
        NEW.withdrawn_at := now();
        NEW.withdrawn_reason := 'host rejected (' || decider || ')';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER documents_withdrawn BEFORE INSERT ON documents
    FOR EACH ROW EXECUTE FUNCTION documents_withdrawn_on_insert();
