-- The client address the server trusted, beside the x-forwarded-for header (issue 21 item 8;
-- docs/decisions.md, "Readable audit log"). The column is added without a default, so no existing
-- row is rewritten or updated (the append-only trigger refuses updates): records written before
-- it keep a null address and verify as before (hash versions 1 and 2). Every record written from
-- here on is hash version 3, whose MAC covers the address. The check holds the address and the
-- version together: a version-3 record always has one, an older record never (its seal does not
-- cover one, so an address added to it later could not be told from a true one). Code from before
-- this migration still writes version-2 records without an address during a rolling upgrade; they
-- are sealed with the key and verify, they only lack the address.
ALTER TABLE "audit_log" DROP CONSTRAINT "audit_log_hash_version_key";--> statement-breakpoint
ALTER TABLE "audit_log" ADD COLUMN "client_address" text;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_client_address_sealed" CHECK (("audit_log"."hash_version" >= 3) = ("audit_log"."client_address" is not null));--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_hash_version_key" CHECK (("audit_log"."hash_version" = 1 and "audit_log"."key_id" is null) or ("audit_log"."hash_version" in (2, 3) and "audit_log"."key_id" is not null));
