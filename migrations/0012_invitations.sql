ALTER TABLE "users" DROP CONSTRAINT "users_status_known";--> statement-breakpoint
DROP INDEX "users_email_lower_key";--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD COLUMN "purpose" text DEFAULT 'reset' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "invited_until" timestamp (3) with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "users_tenant_email_lower_key" ON "users" USING btree ("broker_id",lower("email"));--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email")) WHERE "users"."status" <> 'invited';--> statement-breakpoint
ALTER TABLE "password_reset_tokens" ADD CONSTRAINT "password_reset_tokens_purpose_known" CHECK ("password_reset_tokens"."purpose" in ('reset','invitation'));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_invited_until_while_invited" CHECK (("users"."status" = 'invited') = ("users"."invited_until" is not null));--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_status_known" CHECK ("users"."status" in ('invited','active','deactivated'));--> statement-breakpoint
-- Sign-in and forgot-password find the one account an address signs in to: invited accounts
-- have no password yet and may exist in several firms for one address (issue 21).
CREATE OR REPLACE FUNCTION auth_user_by_email(p_email text) RETURNS SETOF users
  LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp
  AS $$ SELECT * FROM users WHERE lower(email) = lower(p_email) AND status <> 'invited' $$;
