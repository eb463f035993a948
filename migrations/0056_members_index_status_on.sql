DROP INDEX "members_scheme_status_idx";--> statement-breakpoint
CREATE INDEX "members_scheme_status_idx" ON "members" USING btree ("broker_id","scheme_id","status","date_joined","status_on","information_sent_on") WHERE "members"."deleted_at" is null;--> statement-breakpoint
-- hand-written: the reminders job tells a rejoiner from a new joiner by the day of the latest
-- change of status (docs/decisions/0122-the-scheme-year.md). That column only, never a name, PPS
-- number or pay.
GRANT SELECT (status_on) ON members TO pension_scheduler;
