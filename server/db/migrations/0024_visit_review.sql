-- Visit review (issue 35, docs/decisions/075-visit-review.md): a partner's rules, a visit's review
-- state, and the receipt's SHA-256 (the name its file is stored by, generated from its URL).
ALTER TABLE "partners" ADD COLUMN "review_amount_above" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "review_require_receipt" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "partners" ADD COLUMN "review_max_visits_per_day" integer;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "review_state" text DEFAULT 'approved' NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "review_flags" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "review_reason" text;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "reviewed_by" integer;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "reviewed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "receipt_hash" text GENERATED ALWAYS AS (substring(receipt_image from '([0-9a-f]{64})$')) STORED;--> statement-breakpoint
ALTER TABLE "visits" ADD CONSTRAINT "visits_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "visits_review_queue_idx" ON "visits" USING btree ("review_state","visit_date","id") WHERE cardinality("visits"."review_flags") > 0;--> statement-breakpoint
CREATE INDEX "visits_review_partner_idx" ON "visits" USING btree ("partner_id","review_state","visit_date","id") WHERE cardinality("visits"."review_flags") > 0;--> statement-breakpoint
CREATE INDEX "visits_receipt_hash_idx" ON "visits" USING btree ("receipt_hash") WHERE "visits"."receipt_hash" is not null;
--> statement-breakpoint
-- Visit review (issue 35, decision 075): a visit earns its points only while approved. Every visit
-- before this migration is approved (the column's default), so customer_points needs no refill; a
-- visit moving between states (approve, reject) moves its points in and out through the update branch.
CREATE OR REPLACE FUNCTION customer_points_visits_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id),
      sum(CASE WHEN d.review_state = 'approved' THEN floor(d.total_amount / 100) ELSE 0 END)::bigint
    FROM new_rows d GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), sum(d.sg * d.points)::bigint
    FROM (SELECT partner_id, customer_id, CASE WHEN review_state = 'approved' THEN floor(total_amount / 100) ELSE 0 END AS points, 1 AS sg FROM new_rows
      UNION ALL SELECT partner_id, customer_id, CASE WHEN review_state = 'approved' THEN floor(total_amount / 100) ELSE 0 END AS points, -1 AS sg FROM old_rows) d
    GROUP BY 1, 2 HAVING sum(d.sg * d.points) <> 0 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  ELSE
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id),
      -sum(CASE WHEN d.review_state = 'approved' THEN floor(d.total_amount / 100) ELSE 0 END)::bigint
    FROM old_rows d GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The eligibility window's spend reads only approved visits: review_state joins the payload of the
-- window's index (migration 0023), so the read stays index only.
DROP INDEX IF EXISTS "visits_partner_date_id_idx";--> statement-breakpoint
CREATE INDEX "visits_partner_date_id_idx" ON "visits" USING btree ("partner_id","visit_date","id") INCLUDE ("customer_id","customer_name_key","total_amount","review_state");
