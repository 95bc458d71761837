DROP INDEX "events_type_at_idx";--> statement-breakpoint
CREATE INDEX "events_type_at_id_idx" ON "events" USING btree ("actor_type","at","id");