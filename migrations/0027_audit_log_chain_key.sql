-- audit_log's primary key led by its chain (the tenant, or '@platform'), the column it would be
-- distributed on by tenant (docs/deployment.md, "Scaling past one database"). drizzle-kit cannot
-- name the old key, so this statement pair is written by hand. No foreign key points at
-- audit_log, and the append-only guard is a row trigger, which ALTER TABLE does not fire.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_pkey";--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_pkey" PRIMARY KEY("chain_key","id");
