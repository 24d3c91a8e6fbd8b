-- Same input, same corpus (issue 9): site templates are built per WARC file from its own pages, in
-- memory while the file is read (template.FileTemplates), so the counts across files go.
DROP TABLE template_items;
DROP TABLE template_pages;
