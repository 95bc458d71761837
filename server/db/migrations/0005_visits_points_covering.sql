-- Points and the eligibility detail read one partner's visits by customer: carrying total_amount in
-- the index makes that an index-only scan in customer order (a streaming GROUP BY, no heap visits).
-- drizzle's index builder has no INCLUDE, so schema.ts declares the same name and key columns and
-- this hand-written migration adds the payload column (docs/decisions/005-partner-queries.md).
DROP INDEX IF EXISTS "visits_partner_customer_date_idx";--> statement-breakpoint
CREATE INDEX "visits_partner_customer_date_idx" ON "visits" USING btree ("partner_id","customer_id","visit_date") INCLUDE ("total_amount");
