CREATE TABLE "rag_chunks" (
	"id" text PRIMARY KEY NOT NULL,
	"source" text NOT NULL,
	"ordinal" integer NOT NULL,
	"citation" text NOT NULL,
	"heading_path" jsonb NOT NULL,
	"keys" text NOT NULL,
	"body" text NOT NULL,
	"content_sha256" text NOT NULL,
	"search" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple', coalesce(keys, '')), 'A') || setweight(to_tsvector('english', coalesce(citation, '') || ' ' || coalesce(heading_path::text, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'D')) STORED NOT NULL,
	CONSTRAINT "rag_chunks_source_hash_key" UNIQUE("source","content_sha256"),
	CONSTRAINT "rag_chunks_sha256_hex" CHECK ("rag_chunks"."content_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
CREATE TABLE "rag_sources" (
	"source" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"url" text,
	"version" text,
	"format" text NOT NULL,
	"content_sha256" text NOT NULL,
	"chunk_count" integer NOT NULL,
	"ingested_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "rag_sources_format_known" CHECK ("rag_sources"."format" in ('text','markdown','html')),
	CONSTRAINT "rag_sources_sha256_hex" CHECK ("rag_sources"."content_sha256" ~ '^[0-9a-f]{64}$')
);
--> statement-breakpoint
ALTER TABLE "rag_chunks" ADD CONSTRAINT "rag_chunks_source_rag_sources_source_fk" FOREIGN KEY ("source") REFERENCES "public"."rag_sources"("source") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "rag_chunks_search_idx" ON "rag_chunks" USING gin ("search");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating). No new role: roles
-- are cluster-wide (docs/decisions.md, "AI corpus and retrieval (issue 17)"). The corpus is public
-- regulatory text shared by every tenant: the tenants' role reads it whole, and only the
-- platform role, which ingest runs as (start-up, the CLI, POST /api/rag/ingest), may change it.
GRANT SELECT ON rag_sources, rag_chunks TO pension_app, pension_platform;--> statement-breakpoint
GRANT INSERT, UPDATE, DELETE ON rag_sources, rag_chunks TO pension_platform;--> statement-breakpoint
ALTER TABLE rag_sources ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE rag_sources FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE rag_chunks ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE rag_chunks FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY corpus_read ON rag_sources FOR SELECT TO pension_app USING (true);--> statement-breakpoint
CREATE POLICY corpus_read ON rag_chunks FOR SELECT TO pension_app USING (true);--> statement-breakpoint
CREATE POLICY platform_access ON rag_sources TO pension_platform USING (true) WITH CHECK (true);--> statement-breakpoint
CREATE POLICY platform_access ON rag_chunks TO pension_platform USING (true) WITH CHECK (true);
