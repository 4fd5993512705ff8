-- Room on each page of the deliveries for their next versions: a delivery is written three times
-- (queued, leased by a claim, settled), and each version after the first that finds no room on its
-- page goes to another one, where its WAL record carries the whole row (its payload too) instead
-- of the columns that changed. Pages written from now on keep this room; a version before this
-- one reads and writes the table as before.
-- rollback: tolerated
ALTER TABLE webhook_deliveries SET (fillfactor = 50);
