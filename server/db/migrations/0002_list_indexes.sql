DROP INDEX "events_actor_type_at_idx";--> statement-breakpoint
DROP INDEX "users_email_uq";--> statement-breakpoint
CREATE INDEX "events_type_at_idx" ON "events" USING btree ("actor_type","at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "events_type_action_idx" ON "events" USING btree ("actor_type",lower("action"),"id");--> statement-breakpoint
CREATE INDEX "events_type_name_idx" ON "events" USING btree ("actor_type",lower("actor_name"),"id");--> statement-breakpoint
CREATE INDEX "events_search_trgm_idx" ON "events" USING gin (("actor_name" || ' ' || "action" || ' ' || coalesce("actor_organization", '') || ' ' || coalesce("ip_address", '') || ' ' || coalesce("ip_location", '')) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "roles_name_lower_uq" ON "roles" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "users_live_created_idx" ON "users" USING btree ("created_at","id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_live_first_name_idx" ON "users" USING btree (lower("first_name"),"id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_live_last_name_idx" ON "users" USING btree (lower("last_name"),"id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_live_email_idx" ON "users" USING btree (lower("email"),"id") WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE INDEX "users_role_idx" ON "users" USING btree ("role_id");--> statement-breakpoint
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin (("first_name" || ' ' || "last_name" || ' ' || "email") gin_trgm_ops) WHERE "users"."deleted_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_uq" ON "users" USING btree (lower("email")) WHERE "users"."deleted_at" is null;