-- hand-written around drizzle-kit's output: documents about one member
-- (docs/decisions/0090-member-documents.md). A document may name the member it is about; that
-- member, and no other member of the scheme, is shown it. Each member's documents are a version
-- series of their own. Benefit statements stored before this migration name no member and cannot
-- be attributed after the fact, so they stop facing members (staff still see them and can upload
-- them again for their member); from here on a benefit statement names its member.
ALTER TABLE "documents" DROP CONSTRAINT "documents_version_once_key";--> statement-breakpoint
ALTER TABLE "documents" ADD COLUMN "member_id" text;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_member_same_scheme_fk" FOREIGN KEY ("member_id","scheme_id","employer_id","broker_id") REFERENCES "public"."members"("id","scheme_id","employer_id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "documents_member_idx" ON "documents" USING btree ("broker_id","member_id") WHERE "documents"."member_id" is not null;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_version_once_key" UNIQUE NULLS NOT DISTINCT("broker_id","scheme_id","document_type","member_id","filename","version");--> statement-breakpoint
-- Row-level security is forced on documents, so an owner that is not a superuser would update no
-- row: it is lifted for this one statement, inside the migrations' single transaction.
ALTER TABLE documents NO FORCE ROW LEVEL SECURITY;--> statement-breakpoint
UPDATE "documents" SET "member_facing" = false WHERE "document_type" = 'benefit_statement' AND "member_id" IS NULL AND "member_facing";--> statement-breakpoint
ALTER TABLE documents FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "documents" ADD CONSTRAINT "documents_member_statement" CHECK ("documents"."document_type" <> 'benefit_statement' or "documents"."member_id" is not null or not "documents"."member_facing");
