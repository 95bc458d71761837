-- Trigram matching for the lists' ILIKE '%text%' search (the GIN indexes follow in 0002).
-- pg_trgm is a trusted extension (PostgreSQL 13+): a database owner may create it; PGlite ships it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- The event log is append-only: no row is ever updated or deleted, and the table is never truncated.
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'The event log is append-only: % on events is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_no_update_or_delete BEFORE UPDATE OR DELETE ON events
  FOR EACH ROW EXECUTE FUNCTION events_append_only();
--> statement-breakpoint
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION events_append_only();
