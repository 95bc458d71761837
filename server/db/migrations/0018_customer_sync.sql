CREATE TABLE "club_api_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "club_api_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"scopes" text[] NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "customer_import_rejects" (
	"import_id" integer NOT NULL,
	"row_number" bigint NOT NULL,
	"external_id" text,
	"reason" text NOT NULL,
	"raw" text NOT NULL,
	CONSTRAINT "customer_import_rejects_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "customer_import_rows" (
	"import_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"external_id" text NOT NULL,
	"record" jsonb NOT NULL,
	CONSTRAINT "customer_import_rows_import_id_row_number_pk" PRIMARY KEY("import_id","row_number")
);
--> statement-breakpoint
CREATE TABLE "customer_imports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "customer_imports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"state" text DEFAULT 'receiving' NOT NULL,
	"file_name" text NOT NULL,
	"format" text NOT NULL,
	"created_by" integer,
	"club_key_id" integer,
	"actor" jsonb NOT NULL,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"next_row" integer DEFAULT 1 NOT NULL,
	"created" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "fiber_plan" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "fiber_speed_mbps" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "fiber_monthly_fee" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ALTER COLUMN "fiber_renewal_date" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "internet_account_number" text;--> statement-breakpoint
ALTER TABLE "club_api_keys" ADD CONSTRAINT "club_api_keys_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_import_rejects" ADD CONSTRAINT "customer_import_rejects_import_id_customer_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."customer_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_import_rows" ADD CONSTRAINT "customer_import_rows_import_id_customer_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."customer_imports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_imports" ADD CONSTRAINT "customer_imports_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "customer_imports" ADD CONSTRAINT "customer_imports_club_key_id_club_api_keys_id_fk" FOREIGN KEY ("club_key_id") REFERENCES "public"."club_api_keys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "club_api_keys_prefix_uq" ON "club_api_keys" USING btree ("prefix");--> statement-breakpoint
CREATE UNIQUE INDEX "customer_import_rows_external_id_uq" ON "customer_import_rows" USING btree ("import_id","external_id");--> statement-breakpoint
CREATE INDEX "customer_imports_state_idx" ON "customer_imports" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "customers_external_id_uq" ON "customers" USING btree ("external_id");