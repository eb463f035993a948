-- Keyed audit chain (issue 13 defect 8; decisions.md, "Keyed audit chain"). Existing records get
-- hash_version 1 through the column default, which fills them without an UPDATE (the append-only
-- trigger refuses those); the default is then dropped, so from here on every insert must say how
-- it is sealed, and code that does not seal its records cannot add plain-hash ones.
ALTER TABLE "audit_log" ADD COLUMN "hash_version" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_log" ALTER COLUMN "hash_version" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "key_id" text;
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_hash_version_key" CHECK (("audit_log"."hash_version" = 1 and "audit_log"."key_id" is null) or ("audit_log"."hash_version" = 2 and "audit_log"."key_id" is not null));
--> statement-breakpoint
CREATE TABLE "audit_chain_checkpoint" (
	"id" integer PRIMARY KEY NOT NULL,
	"key_id" text NOT NULL,
	"heads" jsonb NOT NULL,
	"mac" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_chain_checkpoint_single_row" CHECK ("audit_chain_checkpoint"."id" = 1)
);
--> statement-breakpoint
-- Written once by the service at start-up as the platform role, read by the verifier; no tenant
-- role sees it.
GRANT SELECT, INSERT ON audit_chain_checkpoint TO pension_platform;
--> statement-breakpoint
ALTER TABLE audit_chain_checkpoint ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE audit_chain_checkpoint FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY platform_access ON audit_chain_checkpoint TO pension_platform USING (true) WITH CHECK (true);
--> statement-breakpoint
CREATE TRIGGER audit_chain_checkpoint_no_update_or_delete
  BEFORE UPDATE OR DELETE ON audit_chain_checkpoint
  FOR EACH ROW EXECUTE FUNCTION audit_log_reject_change();
--> statement-breakpoint
CREATE TRIGGER audit_chain_checkpoint_no_truncate
  BEFORE TRUNCATE ON audit_chain_checkpoint
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_reject_change();
