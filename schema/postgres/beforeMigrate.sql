-- Flyway runs this before each migrate (a callback, not a migration). A CREATE INDEX
-- CONCURRENTLY that was cut off (a dropped connection, a Job killed at its deadline) leaves an
-- INVALID index behind: PostgreSQL still maintains it on every write but never reads it, and
-- `CREATE INDEX ... IF NOT EXISTS` finds the name and skips it for good. Every invalid index of
-- this schema is dropped here, so the migration that makes it builds it again. Migrations run
-- one at a time (Flyway's advisory lock), so no index of ours is being built concurrently now.
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT c.relname
      FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE NOT i.indisvalid AND n.nspname = current_schema()
  LOOP
    RAISE NOTICE 'boxoffice: dropping the invalid index % (an index build was cut off); its migration builds it again', r.relname;
    EXECUTE format('DROP INDEX %I.%I', current_schema(), r.relname);
  END LOOP;
END
$$;
