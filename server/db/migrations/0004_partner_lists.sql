DROP INDEX "customers_status_created_idx";--> statement-breakpoint
DROP INDEX "partners_status_created_idx";--> statement-breakpoint
DROP INDEX "visits_partner_date_idx";--> statement-breakpoint
DROP INDEX "rewards_partner_created_idx";--> statement-breakpoint
CREATE INDEX "customers_live_status_created_idx" ON "customers" USING btree ("account_status","created_at","id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_live_status_first_name_idx" ON "customers" USING btree ("account_status",lower("first_name"),"id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_live_status_last_name_idx" ON "customers" USING btree ("account_status",lower("last_name"),"id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_live_status_email_idx" ON "customers" USING btree ("account_status",lower("email"),"id") WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "customers_search_trgm_idx" ON "customers" USING gin (("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops) WHERE "customers"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "extended_services_live_created_idx" ON "extended_services" USING btree ("created_at","id") WHERE "extended_services"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "extended_services_live_title_idx" ON "extended_services" USING btree (lower("title"),"id") WHERE "extended_services"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "extended_services_search_trgm_idx" ON "extended_services" USING gin (("title" || ' ' || "description") gin_trgm_ops) WHERE "extended_services"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partner_extended_services_service_idx" ON "partner_extended_services" USING btree ("extended_service_id","partner_id");--> statement-breakpoint
CREATE UNIQUE INDEX "partners_email_uq" ON "partners" USING btree (lower("email")) WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_live_status_created_idx" ON "partners" USING btree ("account_status","created_at","id") WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_live_status_org_idx" ON "partners" USING btree ("account_status",lower("organization_name"),"id") WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_live_status_first_name_idx" ON "partners" USING btree ("account_status",lower("first_name"),"id") WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_live_status_last_name_idx" ON "partners" USING btree ("account_status",lower("last_name"),"id") WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_live_status_email_idx" ON "partners" USING btree ("account_status",lower("email"),"id") WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "partners_search_trgm_idx" ON "partners" USING gin (("organization_name" || ' ' || "first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops) WHERE "partners"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "rewards_partner_customer_idx" ON "rewards" USING btree ("partner_id","customer_id");--> statement-breakpoint
CREATE INDEX "visits_partner_date_id_idx" ON "visits" USING btree ("partner_id","visit_date","id");--> statement-breakpoint
CREATE INDEX "visits_partner_total_idx" ON "visits" USING btree ("partner_id","total_amount","id");--> statement-breakpoint
CREATE INDEX "visits_partner_attendant_idx" ON "visits" USING btree ("partner_id",lower("attendant_name"),"id");--> statement-breakpoint
CREATE INDEX "visits_customer_idx" ON "visits" USING btree ("customer_id");--> statement-breakpoint
CREATE INDEX "rewards_partner_created_idx" ON "rewards" USING btree ("partner_id","created_at","id");