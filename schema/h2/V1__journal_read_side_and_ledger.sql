-- V1: the schema as the node created it itself before migrations (schema/h2/journal.sql,
-- schema/projection.sql and schema/boxoffice.sql of 2026-12-01), statement for statement. It keeps
-- IF NOT EXISTS so that a database made by that code is brought up by it too: such a database
-- is baselined at version 0 (io.boxoffice.app.Schema), then this creates only what it lacks.

-- Journal and snapshot tables of pekko-persistence-jdbc 1.1.1 (schema/h2/h2-create-schema.sql
-- in the plugin jar), made re-runnable with IF NOT EXISTS so a node can create them on start.
CREATE TABLE IF NOT EXISTS PUBLIC."event_journal" (
    "ordering" BIGINT UNIQUE NOT NULL AUTO_INCREMENT,
    "deleted" BOOLEAN DEFAULT false NOT NULL,
    "persistence_id" VARCHAR(255) NOT NULL,
    "sequence_number" BIGINT NOT NULL,
    "writer" VARCHAR NOT NULL,
    "write_timestamp" BIGINT NOT NULL,
    "adapter_manifest" VARCHAR NOT NULL,
    "event_payload" BLOB NOT NULL,
    "event_ser_id" INTEGER NOT NULL,
    "event_ser_manifest" VARCHAR NOT NULL,
    "meta_payload" BLOB,
    "meta_ser_id" INTEGER,
    "meta_ser_manifest" VARCHAR,
    PRIMARY KEY("persistence_id","sequence_number")
    );

CREATE UNIQUE INDEX IF NOT EXISTS "event_journal_ordering_idx" on PUBLIC."event_journal" ("ordering");

CREATE TABLE IF NOT EXISTS PUBLIC."event_tag" (
    "event_id" BIGINT NOT NULL,
    "tag" VARCHAR NOT NULL,
    PRIMARY KEY("event_id", "tag"),
    CONSTRAINT fk_event_journal
      FOREIGN KEY("event_id")
      REFERENCES "event_journal"("ordering")
      ON DELETE CASCADE
);

CREATE TABLE IF NOT EXISTS PUBLIC."snapshot" (
    "persistence_id" VARCHAR(255) NOT NULL,
    "sequence_number" BIGINT NOT NULL,
    "created" BIGINT NOT NULL,"snapshot_ser_id" INTEGER NOT NULL,
    "snapshot_ser_manifest" VARCHAR NOT NULL,
    "snapshot_payload" BLOB NOT NULL,
    "meta_ser_id" INTEGER,
    "meta_ser_manifest" VARCHAR,
    "meta_payload" BLOB,
    PRIMARY KEY("persistence_id","sequence_number")
    );


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

-- boxoffice's own tables (besides the journal), in SQL both PostgreSQL and H2 take: the built-in payment simulator's ledger, shared
-- by every node so idempotency keys hold across crashes and the chaos verdict can read it.
CREATE TABLE IF NOT EXISTS payment_simulator (
  authorize_key VARCHAR(400) PRIMARY KEY,
  authorization_id VARCHAR(64) UNIQUE,
  amount_cents BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL,
  updated_at BIGINT NOT NULL
);

-- The read side's tables, each kept by projections of tagged journal events (their offsets in
-- projection.sql), so that a reader that restarts resumes from its offset and still knows all
-- it had read. Checkouts started and not yet at an end, for io.boxoffice.cart.CheckoutRecovery:
-- one row per order, each event sets its column, so the row comes out the same whatever order
-- two projections (the legacy tag and a slice) hand in the events of one order. A row is
-- deleted once its start and its end are both read.
CREATE TABLE IF NOT EXISTS checkout_pending (
  order_id VARCHAR(255) PRIMARY KEY,
  cart_id VARCHAR(255) NOT NULL,
  started_at BIGINT,
  captured BOOLEAN DEFAULT FALSE NOT NULL,
  filed BOOLEAN DEFAULT FALSE NOT NULL,
  ended BOOLEAN DEFAULT FALSE NOT NULL
);

-- The events that exist (tag 'event') and those with an on-sale schedule (tag 'onsale'), for
-- io.boxoffice.queue.OnSaleKeeper. Each tag's projection writes only its own rows.
CREATE TABLE IF NOT EXISTS onsale_catalogue (
  tag VARCHAR(32) NOT NULL,
  event_id VARCHAR(255) NOT NULL,
  PRIMARY KEY (tag, event_id)
);
