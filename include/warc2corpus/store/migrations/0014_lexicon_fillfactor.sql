-- Every refresh of the research index adds its batch's counts to the totals of the words already in
-- the lexicon. With room left on its page, such an update writes the row's new version beside the old
-- (a HOT update) and touches none of the table's three indexes; on full pages each update added an
-- entry to all three, and the dead ones piled up until a vacuum. Pages written from now on keep 30 %
-- free (pages already full are left as they are until the table is rewritten).
ALTER TABLE research_lexicon SET (fillfactor = 70);
