-- Issue 36, decision 069: two lists that grew past 25 ms at 1M visits.
--
-- The eligibility window's spend (server/routes/visit-eligibility.ts): one GROUP BY over the window's
-- entries of visits_partner_date_id_idx, index only (the payload below), with deleted customers left
-- out as one hashed set of their ids (customers_deleted_idx) instead of a lookup of every spender;
-- the page then looks up only its own customers.
CREATE INDEX "customers_deleted_idx" ON "customers" USING btree ("id") WHERE "customers"."deleted_at" is not null;--> statement-breakpoint
DROP INDEX IF EXISTS "visits_partner_date_id_idx";--> statement-breakpoint
CREATE INDEX "visits_partner_date_id_idx" ON "visits" USING btree ("partner_id","visit_date","id") INCLUDE ("customer_id","customer_name_key","total_amount");--> statement-breakpoint
-- The customer search: the trigram index customers_search_trgm_idx is partial (live customers), and
-- PostgreSQL does not use a partial index's statistics for a clause's selectivity, so ILIKE
-- '%ngozi%' was guessed at ~150 rows of 100,000 when it matches ~5,000: the page read every match
-- and sorted it (~30 ms) instead of walking the list's own index in its order and stopping after
-- ten (~1 ms). Statistics on the search expression itself (kept equal to server/routes/customers.ts
-- customerSearch) give the real share; a rare text still takes the trigram index.
CREATE STATISTICS IF NOT EXISTS "customers_search_stats" ON (("first_name" || ' ' || "last_name" || ' ' || "email")) FROM "customers";--> statement-breakpoint
ANALYZE "customers";
