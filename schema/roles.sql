-- The two roles of a boxoffice database (docs/operations/database.md), for psql, run once per
-- database by a superuser (or a role with CREATEROLE that owns the database), connected to it:
--
--   psql "host=... dbname=boxoffice user=postgres sslmode=verify-full" \
--     -v owner_password="$OWNER_PASSWORD" -v app_password="$APP_PASSWORD" -f schema/roles.sql
--
-- owner (boxoffice_owner): owns the schema's tables; only the migration Job
--   (`java -jar boxoffice.jar migrate`, k8s/migrate/job.yaml) logs in as it.
-- app (boxoffice_app): what the nodes log in as: reads and writes rows (SELECT, INSERT, UPDATE,
--   DELETE; the journal's sequence), never creates, alters, drops or truncates anything. Nodes
--   only validate the schema at start (boxoffice.db.schema: auto validates on Kubernetes).
-- Other names: -v owner=... -v app=... . Re-running it is safe (roles and grants are kept; the
-- passwords are set again).
\set ON_ERROR_STOP on
\if :{?owner}
\else
  \set owner boxoffice_owner
\endif
\if :{?app}
\else
  \set app boxoffice_app
\endif
SELECT current_database() AS db \gset

SELECT format('CREATE ROLE %I LOGIN', :'owner') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'owner') \gexec
SELECT format('CREATE ROLE %I LOGIN', :'app') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app') \gexec
\if :{?owner_password}
  ALTER ROLE :"owner" PASSWORD :'owner_password';
\endif
\if :{?app_password}
  ALTER ROLE :"app" PASSWORD :'app_password';
\endif
-- Neither may make roles or databases or bypass row security; the app's statements are capped
-- by the node's own settings too (boxoffice.db.postgres-parameters).
ALTER ROLE :"owner" NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;
ALTER ROLE :"app" NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS;

-- Only these two connect; nobody else creates anything in the schema.
REVOKE ALL ON DATABASE :"db" FROM PUBLIC;
GRANT CONNECT, TEMPORARY ON DATABASE :"db" TO :"owner";
GRANT CONNECT ON DATABASE :"db" TO :"app";
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE, CREATE ON SCHEMA public TO :"owner";
GRANT USAGE ON SCHEMA public TO :"app";

-- Tables a database made by older nodes already has (as whoever ran them) go to the owner, so
-- that later migrations may alter them.
SELECT format('ALTER TABLE public.%I OWNER TO %I', tablename, :'owner')
  FROM pg_tables WHERE schemaname = 'public' AND tableowner <> :'owner' \gexec
SELECT format('ALTER SEQUENCE public.%I OWNER TO %I', sequencename, :'owner')
  FROM pg_sequences WHERE schemaname = 'public' AND sequenceowner <> :'owner'
  AND NOT EXISTS (SELECT FROM pg_depend d JOIN pg_class c ON c.oid = d.objid
                  WHERE c.relname = sequencename AND d.deptype IN ('a', 'i')) \gexec

-- Rows, on what exists now and on whatever the owner creates later (default privileges: a
-- migration adds a table, the nodes may use it at once, no grant to remember).
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"app";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"app";
ALTER DEFAULT PRIVILEGES FOR ROLE :"owner" IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO :"app";
