CREATE TABLE "customer_links" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"partner_id" integer NOT NULL,
	"customer_id" integer,
	"requested" text NOT NULL,
	"state" text NOT NULL,
	"created_by" integer,
	"code_hash" text,
	"code_expires_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"replaced_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"confirmed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "erased_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "partner_id" integer;--> statement-breakpoint
ALTER TABLE "customer_links" ADD CONSTRAINT "customer_links_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_links" ADD CONSTRAINT "customer_links_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_links" ADD CONSTRAINT "customer_links_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customer_links_confirmed_uq" ON "customer_links" USING btree ("partner_id","customer_id") WHERE "customer_links"."state" = 'CONFIRMED';--> statement-breakpoint
CREATE INDEX "customer_links_customer_idx" ON "customer_links" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "customer_links_requested_idx" ON "customer_links" USING btree ("partner_id","requested","created_at");--> statement-breakpoint
CREATE INDEX "events_partner_type_at_idx" ON "events" USING btree ("partner_id","actor_type","at","id");--> statement-breakpoint
-- custom: existing visits and rewards become confirmed links: the data a partner already holds stays theirs (issue 28, decision 053)
INSERT INTO "customer_links" ("partner_id", "customer_id", "requested", "state", "created_at", "confirmed_at")
SELECT s."partner_id", s."customer_id", 'member:' || s."customer_id", 'CONFIRMED', now(), now()
FROM (SELECT "partner_id", "customer_id" FROM "visits" UNION SELECT "partner_id", "customer_id" FROM "rewards") s
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- custom: the events written before events.partner_id get the partner where they happened (the payload's partnerId, else the actor's partner); the append-only trigger is lifted for this one derived column only
ALTER TABLE "events" DISABLE TRIGGER "events_no_update_or_delete";
--> statement-breakpoint
UPDATE "events" e SET "partner_id" = coalesce(
  CASE WHEN e."payload"->>'partnerId' ~ '^[0-9]{1,9}$' THEN (e."payload"->>'partnerId')::integer END,
  (SELECT u."partner_id" FROM "users" u WHERE u."id" = e."actor_id")
)
WHERE e."actor_type" = 'PARTNER';
--> statement-breakpoint
ALTER TABLE "events" ENABLE TRIGGER "events_no_update_or_delete";
