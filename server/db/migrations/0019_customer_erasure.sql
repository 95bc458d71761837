CREATE INDEX "events_entity_idx" ON "events" USING btree ("entity","entity_id");--> statement-breakpoint
CREATE INDEX "events_payload_customer_idx" ON "events" USING btree (("payload"->>'customerId'));--> statement-breakpoint
-- custom: a customer's erasure (issue 28, decision 054) rewrites the events naming them to a pseudonymous reference. The event log stays append-only: no DELETE, no TRUNCATE, and an UPDATE only inside an erasure (app.erasing_customer set for its transaction by server/domain/customer-privacy.ts) that leaves each event's identity as it was (id, time, actor, entity, partner) and changes only what names the person (action, actor name and image, address, browser, payload).
CREATE OR REPLACE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE'
     AND coalesce(current_setting('app.erasing_customer', true), '') ~ '^[0-9]+$'
     AND NEW.id = OLD.id
     AND NEW.at = OLD.at
     AND NEW.actor_id IS NOT DISTINCT FROM OLD.actor_id
     AND NEW.actor_type = OLD.actor_type
     AND NEW.actor_organization IS NOT DISTINCT FROM OLD.actor_organization
     AND NEW.entity = OLD.entity
     AND NEW.entity_id IS NOT DISTINCT FROM OLD.entity_id
     AND NEW.partner_id IS NOT DISTINCT FROM OLD.partner_id THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'The event log is append-only: % on events is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END
$$;
