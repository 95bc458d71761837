-- The weekly reward charts (docs/decisions/018-reward-charts.md): each part of the query is an index
-- range read. Hand-edited after drizzle-kit: its index builder has no INCLUDE, so schema.ts declares
-- the same names, keys and predicates and the payload columns are added here.
CREATE INDEX "reward_ledger_redeem_at_idx" ON "reward_ledger" USING btree ("at") INCLUDE ("reward_id", "amount") WHERE "reward_ledger"."kind" = 'REDEEM';--> statement-breakpoint
CREATE INDEX "rewards_created_idx" ON "rewards" USING btree ("created_at") INCLUDE ("reward_type", "issued_amount", "partner_id");--> statement-breakpoint
CREATE INDEX "rewards_giftcard_open_idx" ON "rewards" USING btree ("partner_id","expiry_date") INCLUDE ("balance") WHERE "rewards"."reward_type" = 'GIFTCARD' and "rewards"."status" = 'Active';
