ALTER TABLE "mail_outbox" ADD COLUMN "html" text;--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "partner_role" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- A role held only by partner staff (members tied to a partner) already is a partner role.
UPDATE "roles" SET "partner_role" = true
WHERE NOT "built_in"
  AND EXISTS (SELECT 1 FROM "users" u WHERE u."role_id" = "roles"."id" AND u."deleted_at" IS NULL AND u."partner_id" IS NOT NULL)
  AND NOT EXISTS (SELECT 1 FROM "users" u WHERE u."role_id" = "roles"."id" AND u."deleted_at" IS NULL AND u."partner_id" IS NULL);
