CREATE TABLE "documents" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"employer_id" text NOT NULL,
	"scheme_id" text NOT NULL,
	"document_type" text NOT NULL,
	"filename" text NOT NULL,
	"original_filename" text NOT NULL,
	"title" text,
	"member_facing" boolean NOT NULL,
	"content_type" text NOT NULL,
	"size" bigint NOT NULL,
	"sha256" text NOT NULL,
	"version" integer NOT NULL,
	"scan_status" text NOT NULL,
	"scanned_at" timestamp (3) with time zone,
	"storage_key" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	"updated_at" timestamp (3) with time zone NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "documents_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "documents_version_once_key" UNIQUE("broker_id","scheme_id","document_type","filename","version"),
	CONSTRAINT "documents_storage_key_once" UNIQUE("broker_id","storage_key"),
	CONSTRAINT "documents_type_known" CHECK ("documents"."document_type" in ('scheme_pdf','trust_deed','written_policy','ora_report','kfh_appointment','member_booklet','benefit_statement','other')),
	CONSTRAINT "documents_scan_status_known" CHECK ("documents"."scan_status" in ('pending','clean','quarantined','unscanned')),
	CONSTRAINT "documents_filename_length" CHECK (char_length("documents"."filename") between 1 and 200),
	CONSTRAINT "documents_original_filename_length" CHECK (char_length("documents"."original_filename") between 1 and 1024),
	CONSTRAINT "documents_title_length" CHECK (char_length("documents"."title") between 1 and 200),
	CONSTRAINT "documents_version_positive" CHECK ("documents"."version" >= 1),
	CONSTRAINT "documents_size_bounded" CHECK ("documents"."size" between 1 and 26214400),
	CONSTRAINT "documents_sha256_hex" CHECK ("documents"."sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_scheme_same_tenant_fk" FOREIGN KEY ("broker_id","scheme_id","employer_id") REFERENCES "public"."schemes"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_scheme_idx" ON "documents" USING btree ("broker_id","scheme_id","created_at","id");--> statement-breakpoint
CREATE INDEX "documents_pending_idx" ON "documents" USING btree ("broker_id","id") WHERE "documents"."scan_status" = 'pending' and "documents"."deleted_at" is null;--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). No new role:
-- roles are cluster-wide (docs/decisions.md, "Documents (issue 16)").
-- Documents are uploaded, re-scanned and soft-deleted; never removed.
GRANT SELECT, INSERT, UPDATE ON documents TO pension_app, pension_platform;--> statement-breakpoint
-- The storage-sweep job works as the existing pension_scheduler: it finds which staged files
-- belong to committed rows and settles documents whose scan is still pending. It reads where a
-- file lives and its scan state, and may change only the scan state: no names, no titles.
GRANT SELECT (broker_id, id, storage_key, scan_status, deleted_at, created_at) ON documents TO pension_scheduler;--> statement-breakpoint
GRANT UPDATE (scan_status, scanned_at, updated_at) ON documents TO pension_scheduler;--> statement-breakpoint
ALTER TABLE documents ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE documents FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON documents TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON documents TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY scheduler_read ON documents FOR SELECT TO pension_scheduler USING (true);--> statement-breakpoint
CREATE POLICY scheduler_settle_scan ON documents FOR UPDATE TO pension_scheduler USING (scan_status = 'pending') WITH CHECK (scan_status in ('clean','quarantined','pending'));
