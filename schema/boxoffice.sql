-- boxoffice's own tables (besides the journal), in SQL both PostgreSQL and H2 take: the built-in payment simulator's ledger, shared
-- by every node so idempotency keys hold across crashes and the chaos verdict can read it.
CREATE TABLE IF NOT EXISTS payment_simulator (
  authorize_key VARCHAR(400) PRIMARY KEY,
  authorization_id VARCHAR(64) UNIQUE,
  amount_cents BIGINT NOT NULL,
  status VARCHAR(16) NOT NULL,
  updated_at BIGINT NOT NULL
);
