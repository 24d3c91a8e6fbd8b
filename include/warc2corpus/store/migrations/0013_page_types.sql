-- Live blogs, picture galleries and video pages get page types of their own (text.pagetype).
ALTER TABLE documents DROP CONSTRAINT IF EXISTS documents_page_type_check;
ALTER TABLE documents ADD CONSTRAINT documents_page_type_check
    CHECK (page_type IN ('article', 'live_blog', 'gallery', 'video', 'front_or_section', 'other'));
