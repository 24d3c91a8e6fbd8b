-- A host that declares a responsible editor but looks like a body that is not edited news (a
-- municipality, a library, a school …) gets a status of its own: a person decides (autocat.verdicts).
ALTER TABLE publications DROP CONSTRAINT IF EXISTS publications_status_check;
ALTER TABLE publications ADD CONSTRAINT publications_status_check
    CHECK (status IN ('accepted', 'declares_editor_not_news', 'uncertain', 'rejected', 'unassessed'));
