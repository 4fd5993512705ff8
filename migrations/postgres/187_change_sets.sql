-- The changes of one kind that one statement makes to many requests, as one row: a send statement
-- writes the `created` changes of its whole batch here, their requests' ids in an array, instead
-- of one `changes` row each (a row, its primary key's entry and the fold's delete: about 245 bytes
-- of WAL a send, against about 20 here in a statement of 50 sends and 30 in one of 15). The fold (src/store/postgres/fold.ts)
-- reads both tables and deletes what it folded; a set's seq is drawn from the changes' sequence,
-- so the two tables' rows are folded in the order they were written.
--
-- A version before this one never reads the table: an instance of this version folds what it has
-- left here before it stops, so a rollback after a clean stop loses nothing, and sets left by an
-- instance that was killed are folded once this version runs again (docs/operations.md).
-- rollback: tolerated
CREATE TABLE change_sets (
  seq BIGINT PRIMARY KEY DEFAULT nextval('changes_seq_seq'),
  -- A request change kind (src/store/changes.ts): `created` so far.
  kind TEXT NOT NULL,
  -- When every change of the set was made; null for `created`, whose time is each request's
  -- created_at (the fold reads it there).
  at BIGINT,
  -- The requests' provider when the changes were made, as changes.provider.
  provider TEXT,
  -- The requests, in the order their changes are announced.
  request_ids UUID[] NOT NULL
);
