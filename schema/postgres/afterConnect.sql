-- Flyway runs this on each connection it opens (a callback, not a migration): the nodes' URL caps
-- statements at a few seconds (boxoffice.db.postgres-parameters); a migration may take longer.
SET statement_timeout = 0;
