CREATE TABLE "reward_stats_by_partner" (
	"partner_id" integer PRIMARY KEY NOT NULL,
	"gc_count" integer DEFAULT 0 NOT NULL,
	"gc_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"gc_redeemed" numeric(14, 2) DEFAULT 0 NOT NULL,
	"cp_count" integer DEFAULT 0 NOT NULL,
	"cp_redeemed" integer DEFAULT 0 NOT NULL,
	"cp_pct_sum" numeric(14, 2) DEFAULT 0 NOT NULL,
	"cp_pct_n" integer DEFAULT 0 NOT NULL,
	"ds_count" integer DEFAULT 0 NOT NULL,
	"ds_redeemed" integer DEFAULT 0 NOT NULL,
	"ds_pct_sum" numeric(14, 2) DEFAULT 0 NOT NULL,
	"ds_pct_n" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "rewards_stats_idx";--> statement-breakpoint
ALTER TABLE "reward_stats_by_partner" ADD CONSTRAINT "reward_stats_by_partner_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- The reward stats per partner are kept by the database itself (docs/decisions/011-api-load-bench.md):
-- statement-level triggers add each inserted reward, swap an updated one's old contribution for its
-- new one, and take a deleted one away, in the same transaction as the change, whichever code made
-- it (issue, redemption, reversal, expiry, seeds). Rows are locked in partner order.
CREATE FUNCTION reward_stats_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO reward_stats_by_partner AS t (partner_id, gc_count, gc_amount, gc_redeemed, cp_count, cp_redeemed, cp_pct_sum, cp_pct_n, ds_count, ds_redeemed, ds_pct_sum, ds_pct_n)
    SELECT d.partner_id,
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * coalesce(d.issued_amount, 0) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * (coalesce(d.issued_amount, 0) - coalesce(d.balance, 0)) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END)
    FROM (SELECT partner_id, reward_type, reward_type_category, status, issued_amount, balance, percentage_discount, 1 AS sg FROM new_rows) d
    GROUP BY d.partner_id
    ORDER BY d.partner_id
    ON CONFLICT (partner_id) DO UPDATE SET
      gc_count = t.gc_count + excluded.gc_count,
      gc_amount = t.gc_amount + excluded.gc_amount,
      gc_redeemed = t.gc_redeemed + excluded.gc_redeemed,
      cp_count = t.cp_count + excluded.cp_count,
      cp_redeemed = t.cp_redeemed + excluded.cp_redeemed,
      cp_pct_sum = t.cp_pct_sum + excluded.cp_pct_sum,
      cp_pct_n = t.cp_pct_n + excluded.cp_pct_n,
      ds_count = t.ds_count + excluded.ds_count,
      ds_redeemed = t.ds_redeemed + excluded.ds_redeemed,
      ds_pct_sum = t.ds_pct_sum + excluded.ds_pct_sum,
      ds_pct_n = t.ds_pct_n + excluded.ds_pct_n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO reward_stats_by_partner AS t (partner_id, gc_count, gc_amount, gc_redeemed, cp_count, cp_redeemed, cp_pct_sum, cp_pct_n, ds_count, ds_redeemed, ds_pct_sum, ds_pct_n)
    SELECT d.partner_id,
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * coalesce(d.issued_amount, 0) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * (coalesce(d.issued_amount, 0) - coalesce(d.balance, 0)) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END)
    FROM (SELECT partner_id, reward_type, reward_type_category, status, issued_amount, balance, percentage_discount, 1 AS sg FROM new_rows UNION ALL SELECT partner_id, reward_type, reward_type_category, status, issued_amount, balance, percentage_discount, -1 AS sg FROM old_rows) d
    GROUP BY d.partner_id
    ORDER BY d.partner_id
    ON CONFLICT (partner_id) DO UPDATE SET
      gc_count = t.gc_count + excluded.gc_count,
      gc_amount = t.gc_amount + excluded.gc_amount,
      gc_redeemed = t.gc_redeemed + excluded.gc_redeemed,
      cp_count = t.cp_count + excluded.cp_count,
      cp_redeemed = t.cp_redeemed + excluded.cp_redeemed,
      cp_pct_sum = t.cp_pct_sum + excluded.cp_pct_sum,
      cp_pct_n = t.cp_pct_n + excluded.cp_pct_n,
      ds_count = t.ds_count + excluded.ds_count,
      ds_redeemed = t.ds_redeemed + excluded.ds_redeemed,
      ds_pct_sum = t.ds_pct_sum + excluded.ds_pct_sum,
      ds_pct_n = t.ds_pct_n + excluded.ds_pct_n;
  ELSE
    INSERT INTO reward_stats_by_partner AS t (partner_id, gc_count, gc_amount, gc_redeemed, cp_count, cp_redeemed, cp_pct_sum, cp_pct_n, ds_count, ds_redeemed, ds_pct_sum, ds_pct_n)
    SELECT d.partner_id,
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * coalesce(d.issued_amount, 0) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * (coalesce(d.issued_amount, 0) - coalesce(d.balance, 0)) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END)
    FROM (SELECT partner_id, reward_type, reward_type_category, status, issued_amount, balance, percentage_discount, -1 AS sg FROM old_rows) d
    GROUP BY d.partner_id
    ORDER BY d.partner_id
    ON CONFLICT (partner_id) DO UPDATE SET
      gc_count = t.gc_count + excluded.gc_count,
      gc_amount = t.gc_amount + excluded.gc_amount,
      gc_redeemed = t.gc_redeemed + excluded.gc_redeemed,
      cp_count = t.cp_count + excluded.cp_count,
      cp_redeemed = t.cp_redeemed + excluded.cp_redeemed,
      cp_pct_sum = t.cp_pct_sum + excluded.cp_pct_sum,
      cp_pct_n = t.cp_pct_n + excluded.cp_pct_n,
      ds_count = t.ds_count + excluded.ds_count,
      ds_redeemed = t.ds_redeemed + excluded.ds_redeemed,
      ds_pct_sum = t.ds_pct_sum + excluded.ds_pct_sum,
      ds_pct_n = t.ds_pct_n + excluded.ds_pct_n;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rewards_stats_insert AFTER INSERT ON rewards REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_stats_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_stats_update AFTER UPDATE ON rewards REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_stats_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_stats_delete AFTER DELETE ON rewards REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_stats_sync();
--> statement-breakpoint
-- The rewards already there.
INSERT INTO reward_stats_by_partner AS t (partner_id, gc_count, gc_amount, gc_redeemed, cp_count, cp_redeemed, cp_pct_sum, cp_pct_n, ds_count, ds_redeemed, ds_pct_sum, ds_pct_n)
    SELECT d.partner_id,
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * coalesce(d.issued_amount, 0) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'GIFTCARD' THEN d.sg * (coalesce(d.issued_amount, 0) - coalesce(d.balance, 0)) ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'GENERAL' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.status = 'Redeemed' THEN d.sg ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg * d.percentage_discount ELSE 0 END),
      sum(CASE WHEN d.reward_type = 'COUPON' AND d.reward_type_category = 'DISCOUNTED_SUBSCRIPTION' AND d.percentage_discount IS NOT NULL THEN d.sg ELSE 0 END)
    FROM (SELECT partner_id, reward_type, reward_type_category, status, issued_amount, balance, percentage_discount, 1 AS sg FROM rewards) d
    GROUP BY d.partner_id
    ORDER BY d.partner_id
    ON CONFLICT (partner_id) DO UPDATE SET
      gc_count = t.gc_count + excluded.gc_count,
      gc_amount = t.gc_amount + excluded.gc_amount,
      gc_redeemed = t.gc_redeemed + excluded.gc_redeemed,
      cp_count = t.cp_count + excluded.cp_count,
      cp_redeemed = t.cp_redeemed + excluded.cp_redeemed,
      cp_pct_sum = t.cp_pct_sum + excluded.cp_pct_sum,
      cp_pct_n = t.cp_pct_n + excluded.cp_pct_n,
      ds_count = t.ds_count + excluded.ds_count,
      ds_redeemed = t.ds_redeemed + excluded.ds_redeemed,
      ds_pct_sum = t.ds_pct_sum + excluded.ds_pct_sum,
      ds_pct_n = t.ds_pct_n + excluded.ds_pct_n;
