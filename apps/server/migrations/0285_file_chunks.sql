-- Uploaded files in the database (ESS_FILE_STORE=database, files/database-store.ts), so every
-- console process on it serves every package and image. Named by SHA-256 like the folder store:
-- the same bytes are kept once. A file is its row here and its chunks of about 1 MB in order,
-- all written in one transaction, so a digest that is found always has all its bytes.
-- bytea rows rather than large objects: the same SQL on PGlite and PostgreSQL, carried by
-- logical replication and by pg_dump of the tables, and removed with their file by a DELETE.
CREATE TABLE file_blob (
  sha256 text PRIMARY KEY CHECK (sha256 ~ '^[0-9a-f]{64}$'),
  size bigint NOT NULL CHECK (size >= 0),
  crc32 text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE file_chunk (
  sha256 text NOT NULL REFERENCES file_blob (sha256) ON DELETE CASCADE,
  seq integer NOT NULL CHECK (seq >= 0),
  bytes bytea NOT NULL,
  PRIMARY KEY (sha256, seq)
);
-- Packages and images are compressed already: stored out of line as they are, not compressed again.
ALTER TABLE file_chunk ALTER COLUMN bytes SET STORAGE EXTERNAL;
