CREATE TABLE "reward_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reward_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"partner_id" integer NOT NULL,
	"customer_id" integer NOT NULL,
	"state" text DEFAULT 'awaiting_approval' NOT NULL,
	"reward_type" text NOT NULL,
	"reward_type_category" text DEFAULT 'GENERAL' NOT NULL,
	"issued_amount" numeric(14, 2),
	"percentage_discount" numeric(14, 2),
	"title" text NOT NULL,
	"description" text NOT NULL,
	"expiry_date" timestamp with time zone,
	"promotional_image" text,
	"by_points" boolean DEFAULT false NOT NULL,
	"approval_reasons" jsonb NOT NULL,
	"created_by" integer,
	"actor" jsonb NOT NULL,
	"decided_by" integer,
	"rejection_reason" text,
	"reward_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "reward_requests" ADD CONSTRAINT "reward_requests_partner_id_partners_id_fk" FOREIGN KEY ("partner_id") REFERENCES "public"."partners"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_requests" ADD CONSTRAINT "reward_requests_customer_id_customers_id_fk" FOREIGN KEY ("customer_id") REFERENCES "public"."customers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_requests" ADD CONSTRAINT "reward_requests_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_requests" ADD CONSTRAINT "reward_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reward_requests" ADD CONSTRAINT "reward_requests_reward_id_rewards_id_fk" FOREIGN KEY ("reward_id") REFERENCES "public"."rewards"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reward_requests_state_idx" ON "reward_requests" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reward_requests_reward_uq" ON "reward_requests" USING btree ("reward_id");