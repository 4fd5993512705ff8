-- The privileges of the role the service runs as, on a database whose schema another role owns
-- (the one that runs `contact-verify migrate`). Run it as that owner, after the migrations:
--
--   psql "$OWNER_URL" -v runtime_role="$APP_ROLE" -f deploy/postgres/runtime-role.sql
--
-- The runtime role reads and writes rows; it cannot create, alter, drop or truncate anything,
-- and it only reads the record of the migrations. Default privileges extend the grants to the
-- tables and sequences later migrations create (as this owner), so one run is enough; running
-- it again changes nothing. See docs/operations.md, "Least privileges on PostgreSQL".
\set ON_ERROR_STOP on

GRANT CONNECT ON DATABASE :"DBNAME" TO :"runtime_role";
-- Before PostgreSQL 15 every role may create in the public schema; the runtime role may not.
-- (Needs the schema's owner; elsewhere PostgreSQL only warns that nothing was revoked.)
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
GRANT USAGE ON SCHEMA public TO :"runtime_role";

GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO :"runtime_role";
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO :"runtime_role";
REVOKE INSERT, UPDATE, DELETE ON schema_migrations FROM :"runtime_role";

ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO :"runtime_role";
ALTER DEFAULT PRIVILEGES IN SCHEMA public
  GRANT USAGE, SELECT ON SEQUENCES TO :"runtime_role";
