-- drizzle-kit's output: a scheme's live members by status and joining day, with the day their
-- information was sent, for the compliance assessment's count of active and deferred members and
-- its new joiners, read from the index alone (governance.data.ts, loadGovernance).
CREATE INDEX "members_scheme_status_idx" ON "members" USING btree ("broker_id","scheme_id","status","date_joined","information_sent_on") WHERE "members"."deleted_at" is null;
