-- Provider scale (issue 36, decision 069): the two lists that read every visit of a busy partner read
-- one index instead. Kept by triggers in the same transaction as every change; never written by the
-- application.
CREATE TABLE "customer_points" (
	"partner_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"earned" bigint DEFAULT 0 NOT NULL,
	"claimed" bigint DEFAULT 0 NOT NULL,
	"live" boolean DEFAULT true NOT NULL,
	CONSTRAINT "customer_points_partner_id_customer_id_pk" PRIMARY KEY("partner_id","customer_id")
);
--> statement-breakpoint
CREATE TABLE "reward_activity_club_by_day" (
	"day" date NOT NULL,
	"shard" smallint NOT NULL,
	"issued_count" integer DEFAULT 0 NOT NULL,
	"issued_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"redeemed_count" integer DEFAULT 0 NOT NULL,
	"redeemed_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "reward_activity_club_by_day_day_shard_pk" PRIMARY KEY("day","shard")
);
--> statement-breakpoint
ALTER TABLE "visits" ADD COLUMN "customer_name_key" text DEFAULT '' NOT NULL;
--> statement-breakpoint
-- No write between the fill below and the triggers that keep it.
LOCK TABLE customers, visits, rewards, reward_activity_by_day IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
-- What is already there (before the triggers: the fill must not fire them).
UPDATE visits v SET customer_name_key = lower(c.first_name || ' ' || c.last_name) FROM customers c WHERE c.id = v.customer_id;
--> statement-breakpoint
INSERT INTO customer_points (partner_id, customer_id, earned, claimed, live)
SELECT p.partner_id, p.customer_id, p.earned, p.claimed, cu.deleted_at IS NULL
FROM (SELECT coalesce(e.partner_id, c.partner_id) AS partner_id, coalesce(e.customer_id, c.customer_id) AS customer_id,
    coalesce(e.points, 0) AS earned, coalesce(c.points, 0) AS claimed
  FROM (SELECT partner_id, customer_id, sum(floor(total_amount / 100))::bigint AS points FROM visits GROUP BY 1, 2) e
  FULL JOIN (SELECT partner_id, customer_id, sum(points_claimed)::bigint AS points FROM rewards WHERE points_claimed > 0 GROUP BY 1, 2) c
    ON c.partner_id = e.partner_id AND c.customer_id = e.customer_id) p
JOIN customers cu ON cu.id = p.customer_id;
--> statement-breakpoint
INSERT INTO reward_activity_club_by_day (day, shard, issued_count, issued_amount, redeemed_count, redeemed_amount)
SELECT day, partner_id % 16, sum(issued_count), sum(issued_amount), sum(redeemed_count), sum(redeemed_amount) FROM reward_activity_by_day GROUP BY 1, 2;
--> statement-breakpoint
-- The visits tab's customer sort key: the customer's lower(first_name || ' ' || last_name), the same
-- expression the list sorted by through the join (server/domain/visits.ts userName).
CREATE OR REPLACE FUNCTION visits_customer_name_key() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  SELECT lower(c.first_name || ' ' || c.last_name) INTO NEW.customer_name_key FROM customers c WHERE c.id = NEW.customer_id;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visits_customer_name_key BEFORE INSERT OR UPDATE OF customer_id, customer_name_key ON visits FOR EACH ROW EXECUTE FUNCTION visits_customer_name_key();
--> statement-breakpoint
-- A customer renamed (by hand, by the subscriber sync, by erasure): their visits follow. A customer
-- deleted or restored: their points rows' `live` follows.
CREATE OR REPLACE FUNCTION customers_scale_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE visits v SET customer_name_key = lower(n.first_name || ' ' || n.last_name)
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE v.customer_id = n.id AND (n.first_name IS DISTINCT FROM o.first_name OR n.last_name IS DISTINCT FROM o.last_name);
  UPDATE customer_points p SET live = n.deleted_at IS NULL
  FROM new_rows n JOIN old_rows o ON o.id = n.id
  WHERE p.customer_id = n.id AND (n.deleted_at IS NULL) IS DISTINCT FROM (o.deleted_at IS NULL);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_scale_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customers_scale_sync();
--> statement-breakpoint
-- Points (server/domain/points.ts): earned per visit, floor(total_amount / 100); claimed by the
-- rewards issued by points (points_claimed). Deltas of the statement's rows, summed per partner and
-- customer, in key order (no deadlock between two writers).
CREATE OR REPLACE FUNCTION customer_points_visits_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), sum(floor(d.total_amount / 100))::bigint
    FROM new_rows d GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), sum(d.sg * floor(d.total_amount / 100))::bigint
    FROM (SELECT partner_id, customer_id, total_amount, 1 AS sg FROM new_rows
      UNION ALL SELECT partner_id, customer_id, total_amount, -1 AS sg FROM old_rows) d
    GROUP BY 1, 2 HAVING sum(d.sg * floor(d.total_amount / 100)) <> 0 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  ELSE
    INSERT INTO customer_points AS t (partner_id, customer_id, live, earned)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), -sum(floor(d.total_amount / 100))::bigint
    FROM old_rows d GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET earned = t.earned + excluded.earned;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER visits_points_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_visits_sync();
--> statement-breakpoint
CREATE TRIGGER visits_points_update AFTER UPDATE ON visits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_visits_sync();
--> statement-breakpoint
CREATE TRIGGER visits_points_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_visits_sync();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION customer_points_rewards_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, claimed)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), sum(d.points_claimed)::bigint
    FROM new_rows d WHERE d.points_claimed > 0 GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET claimed = t.claimed + excluded.claimed;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_points AS t (partner_id, customer_id, live, claimed)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), sum(d.sg * d.points_claimed)::bigint
    FROM (SELECT partner_id, customer_id, points_claimed, 1 AS sg FROM new_rows WHERE points_claimed > 0
      UNION ALL SELECT partner_id, customer_id, points_claimed, -1 AS sg FROM old_rows WHERE points_claimed > 0) d
    GROUP BY 1, 2 HAVING sum(d.sg * d.points_claimed) <> 0 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET claimed = t.claimed + excluded.claimed;
  ELSE
    INSERT INTO customer_points AS t (partner_id, customer_id, live, claimed)
    SELECT d.partner_id, d.customer_id, (SELECT cu.deleted_at IS NULL FROM customers cu WHERE cu.id = d.customer_id), -sum(d.points_claimed)::bigint
    FROM old_rows d WHERE d.points_claimed > 0 GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT (partner_id, customer_id) DO UPDATE SET claimed = t.claimed + excluded.claimed;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rewards_points_insert AFTER INSERT ON rewards REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_rewards_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_points_update AFTER UPDATE ON rewards REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_rewards_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_points_delete AFTER DELETE ON rewards REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_points_rewards_sync();
--> statement-breakpoint
CREATE INDEX "customer_points_unclaimed_idx" ON "customer_points" USING btree ("partner_id",("earned" - "claimed") desc,"customer_id" desc) WHERE "customer_points"."earned" > "customer_points"."claimed" and "customer_points"."live";
--> statement-breakpoint
CREATE INDEX "customer_points_customer_idx" ON "customer_points" USING btree ("customer_id");
--> statement-breakpoint
CREATE INDEX "visits_partner_customer_name_idx" ON "visits" USING btree ("partner_id","customer_name_key","id");
--> statement-breakpoint
-- The club's days (the club-wide weekly charts): the per-partner rows' changes summed per day.
CREATE OR REPLACE FUNCTION reward_activity_club_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO reward_activity_club_by_day AS t (day, shard, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT d.day, d.shard, sum(d.ic), sum(d.ia), sum(d.rc), sum(d.ra) FROM (SELECT day, partner_id % 16 AS shard, 1 * issued_count AS ic, 1 * issued_amount AS ia, 1 * redeemed_count AS rc, 1 * redeemed_amount AS ra FROM new_rows) d
    GROUP BY d.day, d.shard ORDER BY d.day, d.shard
    ON CONFLICT (day, shard) DO UPDATE SET
      issued_count = t.issued_count + excluded.issued_count,
      issued_amount = t.issued_amount + excluded.issued_amount,
      redeemed_count = t.redeemed_count + excluded.redeemed_count,
      redeemed_amount = t.redeemed_amount + excluded.redeemed_amount;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO reward_activity_club_by_day AS t (day, shard, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT d.day, d.shard, sum(d.ic), sum(d.ia), sum(d.rc), sum(d.ra) FROM (SELECT day, partner_id % 16 AS shard, 1 * issued_count AS ic, 1 * issued_amount AS ia, 1 * redeemed_count AS rc, 1 * redeemed_amount AS ra FROM new_rows UNION ALL SELECT day, partner_id % 16 AS shard, -1 * issued_count AS ic, -1 * issued_amount AS ia, -1 * redeemed_count AS rc, -1 * redeemed_amount AS ra FROM old_rows) d
    GROUP BY d.day, d.shard ORDER BY d.day, d.shard
    ON CONFLICT (day, shard) DO UPDATE SET
      issued_count = t.issued_count + excluded.issued_count,
      issued_amount = t.issued_amount + excluded.issued_amount,
      redeemed_count = t.redeemed_count + excluded.redeemed_count,
      redeemed_amount = t.redeemed_amount + excluded.redeemed_amount;
  ELSE
    INSERT INTO reward_activity_club_by_day AS t (day, shard, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT d.day, d.shard, sum(d.ic), sum(d.ia), sum(d.rc), sum(d.ra) FROM (SELECT day, partner_id % 16 AS shard, -1 * issued_count AS ic, -1 * issued_amount AS ia, -1 * redeemed_count AS rc, -1 * redeemed_amount AS ra FROM old_rows) d
    GROUP BY d.day, d.shard ORDER BY d.day, d.shard
    ON CONFLICT (day, shard) DO UPDATE SET
      issued_count = t.issued_count + excluded.issued_count,
      issued_amount = t.issued_amount + excluded.issued_amount,
      redeemed_count = t.redeemed_count + excluded.redeemed_count,
      redeemed_amount = t.redeemed_amount + excluded.redeemed_amount;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER reward_activity_club_insert AFTER INSERT ON reward_activity_by_day REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_club_sync();
--> statement-breakpoint
CREATE TRIGGER reward_activity_club_update AFTER UPDATE ON reward_activity_by_day REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_club_sync();
--> statement-breakpoint
CREATE TRIGGER reward_activity_club_delete AFTER DELETE ON reward_activity_by_day REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_club_sync();
