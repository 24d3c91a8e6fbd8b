-- Text quality (issue 4): page types, paragraph languages, dropped paragraphs, site templates.

ALTER TABLE documents
    ADD COLUMN page_type       text CHECK (page_type IN ('article', 'front_or_section', 'other')),
    ADD COLUMN mixed_language  boolean DEFAULT false,
    ADD COLUMN language_shares jsonb DEFAULT '{}'::jsonb,     -- token share per language
    ADD COLUMN dropped         jsonb DEFAULT '{}'::jsonb,     -- paragraphs dropped, by reason
    ADD COLUMN text_source     text;                                -- 'trafilatura' or 'template' (fallback)
CREATE INDEX documents_page_type ON documents (page_type);

-- Language of each paragraph ('und' below ten words).
ALTER TABLE paragraphs ADD COLUMN language text;

-- Site templates, counted per host and WARC file (a file processed again replaces its own rows).
CREATE TABLE template_pages (
    host        text NOT NULL,
    warc_file   text NOT NULL,
    page        bigint NOT NULL,      -- hash of the page's main text: each distinct page counts once
    PRIMARY KEY (host, warc_file, page)
);
CREATE TABLE template_items (
    host        text NOT NULL,
    warc_file   text NOT NULL,
    item        bigint NOT NULL,      -- hash of DOM tag path + text
    pages       integer NOT NULL,     -- pages of this host in this file that show the item
    text        text NOT NULL,
    PRIMARY KEY (host, warc_file, item)
);
CREATE INDEX template_items_host ON template_items (host, item);
