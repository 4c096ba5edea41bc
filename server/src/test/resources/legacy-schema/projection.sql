-- The offset store of pekko-projection-jdbc 1.0.0 (JdbcProjection.createTablesIfNotExists with
-- use-lowercase-schema = true, as its dialects quote them), made re-runnable with IF NOT EXISTS.
-- PostgreSQL and H2 both take it as written. Each projection's offset is saved here in the same
-- transaction as its handler's writes, so a restarted projection resumes where it stopped.
CREATE TABLE IF NOT EXISTS "pekko_projection_offset_store" (
  "projection_name" VARCHAR(255) NOT NULL,
  "projection_key" VARCHAR(255) NOT NULL,
  "current_offset" VARCHAR(255) NOT NULL,
  "manifest" VARCHAR(4) NOT NULL,
  "mergeable" BOOLEAN NOT NULL,
  "last_updated" BIGINT NOT NULL,
  PRIMARY KEY("projection_name", "projection_key")
);

CREATE INDEX IF NOT EXISTS "projection_name_index" ON "pekko_projection_offset_store" ("projection_name");

CREATE TABLE IF NOT EXISTS "pekko_projection_management" (
  "projection_name" VARCHAR(255) NOT NULL,
  "projection_key" VARCHAR(255) NOT NULL,
  "paused" BOOLEAN NOT NULL,
  "last_updated" BIGINT NOT NULL,
  PRIMARY KEY("projection_name", "projection_key")
);
