-- A poll that reads back exactly what the last read of the same list returned is counted on that
-- read's row instead of stored again: most polls read an unchanged list, and a row each (about five
-- per site a minute, kept GRID_EXCHANGE_RETENTION_DAYS) grew the table by gigabytes a day for a
-- thousand sites. `reads` counts the reads the row stands for; `last_at` is the latest of them
-- (NULL: only the first, at `at`).
ALTER TABLE grid_exchange ADD COLUMN reads integer NOT NULL DEFAULT 1 CHECK (reads >= 1);
ALTER TABLE grid_exchange ADD COLUMN last_at timestamptz;
