CREATE TABLE "customer_counts" (
	"account_status" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "event_counts" (
	"actor_type" text NOT NULL,
	"shard" smallint NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "event_counts_actor_type_shard_pk" PRIMARY KEY("actor_type","shard")
);
--> statement-breakpoint
CREATE TABLE "partner_counts" (
	"account_status" text PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_counts" (
	"user_type" text NOT NULL,
	"account_status" text NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "staff_counts_user_type_account_status_pk" PRIMARY KEY("user_type","account_status")
);
--> statement-breakpoint
CREATE TABLE "visit_counts" (
	"partner_id" integer PRIMARY KEY NOT NULL,
	"n" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- The counts of the unfiltered lists and of the dashboard's user figures are kept by the database
-- itself (docs/decisions/011-api-load-bench.md, follow-up "exact counts from counters"): statement-level
-- triggers add the rows a statement inserts, swap an updated row's old contribution for its new one
-- (a status change, a soft delete, a partner move) and take deleted rows away, in the same transaction
-- as the change, whichever code made it. Groups whose change nets to zero (an update of a name) touch
-- no counter row, so they lock nothing. Rows are upserted in key order. TRUNCATE empties the counters.
-- A counter then equals count(*) of its rows in every snapshot.
CREATE FUNCTION customer_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO customer_counts AS t (account_status, n)
    SELECT account_status, count(*) FROM new_rows WHERE deleted_at IS NULL
    GROUP BY account_status ORDER BY account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO customer_counts AS t (account_status, n)
    SELECT d.account_status, sum(d.sg)
    FROM (SELECT account_status, 1 AS sg FROM new_rows WHERE deleted_at IS NULL
          UNION ALL SELECT account_status, -1 AS sg FROM old_rows WHERE deleted_at IS NULL) d
    GROUP BY d.account_status HAVING sum(d.sg) <> 0 ORDER BY d.account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO customer_counts AS t (account_status, n)
    SELECT account_status, -count(*) FROM old_rows WHERE deleted_at IS NULL
    GROUP BY account_status ORDER BY account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    DELETE FROM customer_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION partner_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO partner_counts AS t (account_status, n)
    SELECT account_status, count(*) FROM new_rows WHERE deleted_at IS NULL
    GROUP BY account_status ORDER BY account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO partner_counts AS t (account_status, n)
    SELECT d.account_status, sum(d.sg)
    FROM (SELECT account_status, 1 AS sg FROM new_rows WHERE deleted_at IS NULL
          UNION ALL SELECT account_status, -1 AS sg FROM old_rows WHERE deleted_at IS NULL) d
    GROUP BY d.account_status HAVING sum(d.sg) <> 0 ORDER BY d.account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO partner_counts AS t (account_status, n)
    SELECT account_status, -count(*) FROM old_rows WHERE deleted_at IS NULL
    GROUP BY account_status ORDER BY account_status
    ON CONFLICT (account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    DELETE FROM partner_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION staff_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO staff_counts AS t (user_type, account_status, n)
    SELECT user_type, account_status, count(*) FROM new_rows WHERE deleted_at IS NULL
    GROUP BY user_type, account_status ORDER BY user_type, account_status
    ON CONFLICT (user_type, account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO staff_counts AS t (user_type, account_status, n)
    SELECT d.user_type, d.account_status, sum(d.sg)
    FROM (SELECT user_type, account_status, 1 AS sg FROM new_rows WHERE deleted_at IS NULL
          UNION ALL SELECT user_type, account_status, -1 AS sg FROM old_rows WHERE deleted_at IS NULL) d
    GROUP BY d.user_type, d.account_status HAVING sum(d.sg) <> 0 ORDER BY d.user_type, d.account_status
    ON CONFLICT (user_type, account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO staff_counts AS t (user_type, account_status, n)
    SELECT user_type, account_status, -count(*) FROM old_rows WHERE deleted_at IS NULL
    GROUP BY user_type, account_status ORDER BY user_type, account_status
    ON CONFLICT (user_type, account_status) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    DELETE FROM staff_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Visits are counted per partner (a visit moved to another partner moves its count). Visits at one
-- partner serialise on its row from the insert to commit (the rest of a visit's transaction is its
-- items and its event); visits at other partners do not wait.
CREATE FUNCTION visit_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO visit_counts AS t (partner_id, n)
    SELECT partner_id, count(*) FROM new_rows GROUP BY partner_id ORDER BY partner_id
    ON CONFLICT (partner_id) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO visit_counts AS t (partner_id, n)
    SELECT d.partner_id, sum(d.sg)
    FROM (SELECT partner_id, 1 AS sg FROM new_rows UNION ALL SELECT partner_id, -1 AS sg FROM old_rows) d
    GROUP BY d.partner_id HAVING sum(d.sg) <> 0 ORDER BY d.partner_id
    ON CONFLICT (partner_id) DO UPDATE SET n = t.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO visit_counts AS t (partner_id, n)
    SELECT partner_id, -count(*) FROM old_rows GROUP BY partner_id ORDER BY partner_id
    ON CONFLICT (partner_id) DO UPDATE SET n = t.n + excluded.n;
  ELSE
    DELETE FROM visit_counts;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Events are append-only (0001: UPDATE, DELETE and TRUNCATE raise), so only inserts are counted. Each
-- actor type has 16 shard rows; a statement adds its events to the first shard row of the type that
-- no other transaction holds (SKIP LOCKED), trying first the row numbered txid % 16 (so one
-- transaction keeps to one row). It waits only when all 16 are held by other transactions, on
-- its own numbered row. The count of a type is the sum of its shards.
CREATE FUNCTION event_counts_sync() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  g record;
  preferred smallint := (txid_current() % 16)::smallint;
  chosen smallint;
BEGIN
  FOR g IN SELECT actor_type, count(*) AS k FROM new_rows GROUP BY actor_type ORDER BY actor_type LOOP
    SELECT shard INTO chosen FROM event_counts
      WHERE actor_type = g.actor_type
      ORDER BY (shard - preferred + 16) % 16
      LIMIT 1 FOR UPDATE SKIP LOCKED;
    IF FOUND THEN
      UPDATE event_counts SET n = n + g.k WHERE actor_type = g.actor_type AND shard = chosen;
    ELSE
      INSERT INTO event_counts AS t (actor_type, shard, n) VALUES (g.actor_type, preferred, g.k)
      ON CONFLICT (actor_type, shard) DO UPDATE SET n = t.n + excluded.n;
    END IF;
  END LOOP;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER customers_counts_insert AFTER INSERT ON customers REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_sync();
--> statement-breakpoint
CREATE TRIGGER customers_counts_update AFTER UPDATE ON customers REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_sync();
--> statement-breakpoint
CREATE TRIGGER customers_counts_delete AFTER DELETE ON customers REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_sync();
--> statement-breakpoint
CREATE TRIGGER customers_counts_truncate AFTER TRUNCATE ON customers FOR EACH STATEMENT EXECUTE FUNCTION customer_counts_sync();
--> statement-breakpoint
CREATE TRIGGER partners_counts_insert AFTER INSERT ON partners REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_counts_sync();
--> statement-breakpoint
CREATE TRIGGER partners_counts_update AFTER UPDATE ON partners REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_counts_sync();
--> statement-breakpoint
CREATE TRIGGER partners_counts_delete AFTER DELETE ON partners REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION partner_counts_sync();
--> statement-breakpoint
CREATE TRIGGER partners_counts_truncate AFTER TRUNCATE ON partners FOR EACH STATEMENT EXECUTE FUNCTION partner_counts_sync();
--> statement-breakpoint
CREATE TRIGGER users_counts_insert AFTER INSERT ON users REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_counts_sync();
--> statement-breakpoint
CREATE TRIGGER users_counts_update AFTER UPDATE ON users REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_counts_sync();
--> statement-breakpoint
CREATE TRIGGER users_counts_delete AFTER DELETE ON users REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION staff_counts_sync();
--> statement-breakpoint
CREATE TRIGGER users_counts_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION staff_counts_sync();
--> statement-breakpoint
CREATE TRIGGER visits_counts_insert AFTER INSERT ON visits REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_counts_sync();
--> statement-breakpoint
CREATE TRIGGER visits_counts_update AFTER UPDATE ON visits REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_counts_sync();
--> statement-breakpoint
CREATE TRIGGER visits_counts_delete AFTER DELETE ON visits REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION visit_counts_sync();
--> statement-breakpoint
CREATE TRIGGER visits_counts_truncate AFTER TRUNCATE ON visits FOR EACH STATEMENT EXECUTE FUNCTION visit_counts_sync();
--> statement-breakpoint
CREATE TRIGGER events_counts_insert AFTER INSERT ON events REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION event_counts_sync();
--> statement-breakpoint
-- The rows already there. The triggers above exist first: creating them locks each table against
-- writes until this migration commits, so no write falls between them and the backfill.
INSERT INTO customer_counts (account_status, n)
SELECT account_status, count(*) FROM customers WHERE deleted_at IS NULL GROUP BY account_status;
--> statement-breakpoint
INSERT INTO partner_counts (account_status, n)
SELECT account_status, count(*) FROM partners WHERE deleted_at IS NULL GROUP BY account_status;
--> statement-breakpoint
INSERT INTO staff_counts (user_type, account_status, n)
SELECT user_type, account_status, count(*) FROM users WHERE deleted_at IS NULL GROUP BY user_type, account_status;
--> statement-breakpoint
INSERT INTO visit_counts (partner_id, n)
SELECT partner_id, count(*) FROM visits GROUP BY partner_id;
--> statement-breakpoint
INSERT INTO event_counts (actor_type, shard, n)
SELECT t.actor_type, s.shard, CASE WHEN s.shard = 0 THEN coalesce(c.n, 0) ELSE 0 END
FROM (VALUES ('ADMIN'), ('PARTNER'), ('CUSTOMER')) t (actor_type)
CROSS JOIN generate_series(0, 15) s (shard)
LEFT JOIN (SELECT actor_type, count(*) AS n FROM events GROUP BY actor_type) c ON c.actor_type = t.actor_type;
--> statement-breakpoint
INSERT INTO event_counts (actor_type, shard, n)
SELECT actor_type, 0, count(*) FROM events WHERE actor_type NOT IN ('ADMIN', 'PARTNER', 'CUSTOMER') GROUP BY actor_type;
