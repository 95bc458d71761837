CREATE TABLE "reward_activity_by_day" (
	"partner_id" integer NOT NULL,
	"day" date NOT NULL,
	"issued_count" integer DEFAULT 0 NOT NULL,
	"issued_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	"redeemed_count" integer DEFAULT 0 NOT NULL,
	"redeemed_amount" numeric(14, 2) DEFAULT 0 NOT NULL,
	CONSTRAINT "reward_activity_by_day_partner_id_day_pk" PRIMARY KEY("partner_id","day")
);
--> statement-breakpoint
ALTER TABLE "reward_activity_by_day" ADD CONSTRAINT "reward_activity_by_day_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Hand-edited after drizzle-kit (its index builder has no INCLUDE, as in 0009): the club-wide weeks
-- read the figures from this index alone (index-only scan of the 84 days; 2-3 times faster than the
-- plain index under load at 1,000,000 rewards, decision 018's follow-up).
CREATE INDEX "reward_activity_by_day_day_idx" ON "reward_activity_by_day" USING btree ("day") INCLUDE ("issued_count", "issued_amount", "redeemed_count", "redeemed_amount");--> statement-breakpoint
-- The weekly reward charts (docs/decisions/018-reward-charts.md, follow-up): rewards issued and
-- redeemed per partner and Lagos calendar day, kept by the database itself like 0008's stats:
-- statement-level triggers with transition tables on rewards and on reward_ledger, in the same
-- transaction as the change, whichever code made it. The figures are exactly what the direct query
-- of decision 018 counted:
-- - issued: each reward on the Lagos day of its created_at, under its current partner; naira: the
--   issued_amount of gift cards;
-- - redeemed: each REDEEM ledger row that no ledger row names in reverses_id, on the Lagos day of its
--   `at`, under its reward's current partner; naira: -amount (a coupon's row is 0). A reversal takes
--   the redemption it names out of that redemption's day altogether.
-- The Lagos day is `(at AT TIME ZONE INTERVAL '+01:00')::date` (UTC+1 all year, no time-zone
-- database, independent of the session's TimeZone): the days sum exactly into the weeks that start
-- on Monday 00:00 Lagos.
-- Locks, in one order for every change: the rewards (by id), their partners' reward_stats_by_partner
-- rows (by partner), then the day rows (by partner and day). A redemption updates its reward (0008's
-- trigger then locks the stats row) before it writes its ledger row; a reversal writes its ledger row
-- before it updates the reward. So the ledger trigger locks the rewards of the redemptions it counts
-- and the stats rows before any day row: otherwise a reversal holding a day row would wait for the
-- reward or stats row a redemption of the same partner holds while that waits for the day row
-- (a deadlock, which the parallel redemption-and-reversal test on PostgreSQL showed).
CREATE FUNCTION reward_activity_rewards_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas reward_activity_by_day[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT n.partner_id, (n.created_at AT TIME ZONE INTERVAL '+01:00')::date AS day,
        count(*)::int AS issued_count,
        sum(CASE WHEN n.reward_type = 'GIFTCARD' THEN coalesce(n.issued_amount, 0) ELSE 0 END)::numeric(14, 2) AS issued_amount,
        0 AS redeemed_count, 0::numeric(14, 2) AS redeemed_amount
      FROM new_rows n
      GROUP BY 1, 2
    ) g;
  ELSIF TG_OP = 'UPDATE' THEN
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT d.partner_id, d.day, sum(d.ic)::int AS issued_count, sum(d.ia)::numeric(14, 2) AS issued_amount,
        sum(d.rc)::int AS redeemed_count, sum(d.ra)::numeric(14, 2) AS redeemed_amount
      FROM (
        SELECT n.partner_id, (n.created_at AT TIME ZONE INTERVAL '+01:00')::date AS day, 1 AS ic,
          CASE WHEN n.reward_type = 'GIFTCARD' THEN coalesce(n.issued_amount, 0) ELSE 0 END AS ia, 0 AS rc, 0 AS ra
        FROM new_rows n
        UNION ALL
        SELECT o.partner_id, (o.created_at AT TIME ZONE INTERVAL '+01:00')::date, -1,
          CASE WHEN o.reward_type = 'GIFTCARD' THEN -coalesce(o.issued_amount, 0) ELSE 0 END, 0, 0
        FROM old_rows o
        UNION ALL
        -- A reward moved to another partner takes its standing redemptions along.
        SELECT m.partner_id, (l.at AT TIME ZONE INTERVAL '+01:00')::date, 0, 0, m.sg, -m.sg * l.amount
        FROM (
          SELECT n.id, n.partner_id, 1 AS sg FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.partner_id <> n.partner_id
          UNION ALL
          SELECT o.id, o.partner_id, -1 FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.partner_id <> n.partner_id
        ) m
        JOIN reward_ledger l ON l.reward_id = m.id AND l.kind = 'REDEEM'
        WHERE NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id)
      ) d
      GROUP BY 1, 2
      HAVING sum(d.ic) <> 0 OR sum(d.ia) <> 0 OR sum(d.rc) <> 0 OR sum(d.ra) <> 0
    ) g;
  ELSE
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT o.partner_id, (o.created_at AT TIME ZONE INTERVAL '+01:00')::date AS day,
        -count(*)::int AS issued_count,
        -sum(CASE WHEN o.reward_type = 'GIFTCARD' THEN coalesce(o.issued_amount, 0) ELSE 0 END)::numeric(14, 2) AS issued_amount,
        0 AS redeemed_count, 0::numeric(14, 2) AS redeemed_amount
      FROM old_rows o
      GROUP BY 1, 2
    ) g;
  END IF;
  IF deltas IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM reward_stats_by_partner s
    WHERE s.partner_id IN (SELECT d.partner_id FROM unnest(deltas) d)
    ORDER BY s.partner_id FOR UPDATE;
  INSERT INTO reward_activity_by_day AS t (partner_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT d.partner_id, d.day, d.issued_count, d.issued_amount, d.redeemed_count, d.redeemed_amount
    FROM unnest(deltas) WITH ORDINALITY AS d (partner_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount, i)
    ORDER BY d.i
    ON CONFLICT (partner_id, day) DO UPDATE SET
      issued_count = t.issued_count + excluded.issued_count,
      issued_amount = t.issued_amount + excluded.issued_amount,
      redeemed_count = t.redeemed_count + excluded.redeemed_count,
      redeemed_amount = t.redeemed_amount + excluded.redeemed_amount;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- The ledger side: the redemptions a statement may have changed (its REDEEM rows and the rows its
-- reversals name, before and after) count once as they stand after the statement (+1) and once as
-- they stood before it (-1). The table before the statement is the table now without the new rows,
-- plus the old rows. The partner is the reward's current one.
CREATE FUNCTION reward_activity_ledger_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deltas reward_activity_by_day[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    WITH n AS (SELECT id, kind, reverses_id FROM new_rows),
    touched AS (
      SELECT id FROM n WHERE kind = 'REDEEM'
      UNION SELECT reverses_id FROM n WHERE reverses_id IS NOT NULL
    ),
    d AS (
      SELECT l.reward_id, l.at, l.amount, 1 AS sg
      FROM touched k JOIN reward_ledger l ON l.id = k.id
      WHERE l.kind = 'REDEEM' AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id)
      UNION ALL
      SELECT l.reward_id, l.at, l.amount, -1
      FROM touched k JOIN reward_ledger l ON l.id = k.id
      WHERE l.kind = 'REDEEM' AND NOT EXISTS (SELECT 1 FROM n WHERE n.id = l.id)
        AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id AND NOT EXISTS (SELECT 1 FROM n WHERE n.id = x.id))
    ),
    r AS MATERIALIZED (
      SELECT id, partner_id FROM rewards WHERE id IN (SELECT reward_id FROM d) ORDER BY id FOR NO KEY UPDATE
    )
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT r.partner_id, (d.at AT TIME ZONE INTERVAL '+01:00')::date AS day, 0 AS issued_count,
        0::numeric(14, 2) AS issued_amount, sum(d.sg)::int AS redeemed_count, (-sum(d.sg * d.amount))::numeric(14, 2) AS redeemed_amount
      FROM d JOIN r ON r.id = d.reward_id
      GROUP BY 1, 2
      HAVING sum(d.sg) <> 0 OR sum(d.sg * d.amount) <> 0
    ) g;
  ELSIF TG_OP = 'UPDATE' THEN
    WITH n AS (SELECT id, kind, reverses_id FROM new_rows),
    o AS (SELECT id, reward_id, kind, amount, reverses_id, at FROM old_rows),
    touched AS (
      SELECT id FROM n WHERE kind = 'REDEEM'
      UNION SELECT reverses_id FROM n WHERE reverses_id IS NOT NULL
      UNION SELECT id FROM o WHERE kind = 'REDEEM'
      UNION SELECT reverses_id FROM o WHERE reverses_id IS NOT NULL
    ),
    d AS (
      SELECT l.reward_id, l.at, l.amount, 1 AS sg
      FROM touched k JOIN reward_ledger l ON l.id = k.id
      WHERE l.kind = 'REDEEM' AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id)
      UNION ALL
      SELECT b.reward_id, b.at, b.amount, -1
      FROM (
        SELECT o.id, o.reward_id, o.kind, o.amount, o.at FROM o
        UNION ALL
        SELECT l.id, l.reward_id, l.kind, l.amount, l.at FROM touched k JOIN reward_ledger l ON l.id = k.id
        WHERE NOT EXISTS (SELECT 1 FROM n WHERE n.id = l.id)
      ) b
      WHERE b.kind = 'REDEEM'
        AND NOT EXISTS (SELECT 1 FROM o x WHERE x.reverses_id = b.id)
        AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = b.id AND NOT EXISTS (SELECT 1 FROM n WHERE n.id = x.id))
    ),
    r AS MATERIALIZED (
      SELECT id, partner_id FROM rewards WHERE id IN (SELECT reward_id FROM d) ORDER BY id FOR NO KEY UPDATE
    )
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT r.partner_id, (d.at AT TIME ZONE INTERVAL '+01:00')::date AS day, 0 AS issued_count,
        0::numeric(14, 2) AS issued_amount, sum(d.sg)::int AS redeemed_count, (-sum(d.sg * d.amount))::numeric(14, 2) AS redeemed_amount
      FROM d JOIN r ON r.id = d.reward_id
      GROUP BY 1, 2
      HAVING sum(d.sg) <> 0 OR sum(d.sg * d.amount) <> 0
    ) g;
  ELSE
    WITH o AS (SELECT id, reward_id, kind, amount, reverses_id, at FROM old_rows),
    d AS (
      -- Redemptions that now stand again because their reversal is gone.
      SELECT l.reward_id, l.at, l.amount, 1 AS sg
      FROM (SELECT DISTINCT reverses_id AS id FROM o WHERE reverses_id IS NOT NULL) k
      JOIN reward_ledger l ON l.id = k.id
      WHERE l.kind = 'REDEEM' AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id)
      UNION ALL
      -- Redemptions deleted, or deleted or reversed before, as they stood.
      SELECT b.reward_id, b.at, b.amount, -1
      FROM (
        SELECT o.id, o.reward_id, o.kind, o.amount, o.at FROM o
        UNION ALL
        SELECT l.id, l.reward_id, l.kind, l.amount, l.at
        FROM (SELECT DISTINCT reverses_id AS id FROM o WHERE reverses_id IS NOT NULL) k
        JOIN reward_ledger l ON l.id = k.id
      ) b
      WHERE b.kind = 'REDEEM'
        AND NOT EXISTS (SELECT 1 FROM o x WHERE x.reverses_id = b.id)
        AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = b.id)
    ),
    r AS MATERIALIZED (
      SELECT id, partner_id FROM rewards WHERE id IN (SELECT reward_id FROM d) ORDER BY id FOR NO KEY UPDATE
    )
    SELECT array_agg(ROW(g.partner_id, g.day, g.issued_count, g.issued_amount, g.redeemed_count, g.redeemed_amount)::reward_activity_by_day ORDER BY g.partner_id, g.day) INTO deltas FROM (
      SELECT r.partner_id, (d.at AT TIME ZONE INTERVAL '+01:00')::date AS day, 0 AS issued_count,
        0::numeric(14, 2) AS issued_amount, sum(d.sg)::int AS redeemed_count, (-sum(d.sg * d.amount))::numeric(14, 2) AS redeemed_amount
      FROM d JOIN r ON r.id = d.reward_id
      GROUP BY 1, 2
      HAVING sum(d.sg) <> 0 OR sum(d.sg * d.amount) <> 0
    ) g;
  END IF;
  IF deltas IS NULL THEN
    RETURN NULL;
  END IF;
  PERFORM 1 FROM reward_stats_by_partner s
    WHERE s.partner_id IN (SELECT d.partner_id FROM unnest(deltas) d)
    ORDER BY s.partner_id FOR UPDATE;
  INSERT INTO reward_activity_by_day AS t (partner_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount)
    SELECT d.partner_id, d.day, d.issued_count, d.issued_amount, d.redeemed_count, d.redeemed_amount
    FROM unnest(deltas) WITH ORDINALITY AS d (partner_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount, i)
    ORDER BY d.i
    ON CONFLICT (partner_id, day) DO UPDATE SET
      issued_count = t.issued_count + excluded.issued_count,
      issued_amount = t.issued_amount + excluded.issued_amount,
      redeemed_count = t.redeemed_count + excluded.redeemed_count,
      redeemed_amount = t.redeemed_amount + excluded.redeemed_amount;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER rewards_activity_insert AFTER INSERT ON rewards REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_rewards_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_activity_update AFTER UPDATE ON rewards REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_rewards_sync();
--> statement-breakpoint
CREATE TRIGGER rewards_activity_delete AFTER DELETE ON rewards REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_rewards_sync();
--> statement-breakpoint
CREATE TRIGGER reward_ledger_activity_insert AFTER INSERT ON reward_ledger REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_ledger_sync();
--> statement-breakpoint
CREATE TRIGGER reward_ledger_activity_update AFTER UPDATE ON reward_ledger REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_ledger_sync();
--> statement-breakpoint
CREATE TRIGGER reward_ledger_activity_delete AFTER DELETE ON reward_ledger REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION reward_activity_ledger_sync();
--> statement-breakpoint
-- The rewards and ledger rows already there.
INSERT INTO reward_activity_by_day (partner_id, day, issued_count, issued_amount, redeemed_count, redeemed_amount)
  SELECT d.partner_id, d.day, sum(d.ic), sum(d.ia), sum(d.rc), sum(d.ra)
  FROM (
    SELECT r.partner_id, (r.created_at AT TIME ZONE INTERVAL '+01:00')::date AS day, 1 AS ic,
      CASE WHEN r.reward_type = 'GIFTCARD' THEN coalesce(r.issued_amount, 0) ELSE 0 END AS ia, 0 AS rc, 0 AS ra
    FROM rewards r
    UNION ALL
    SELECT r.partner_id, (l.at AT TIME ZONE INTERVAL '+01:00')::date, 0, 0, 1, -l.amount
    FROM reward_ledger l JOIN rewards r ON r.id = l.reward_id
    WHERE l.kind = 'REDEEM' AND NOT EXISTS (SELECT 1 FROM reward_ledger x WHERE x.reverses_id = l.id)
  ) d
  GROUP BY 1, 2
  ORDER BY 1, 2;
