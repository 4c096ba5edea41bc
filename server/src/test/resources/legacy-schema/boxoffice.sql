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
