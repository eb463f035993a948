-- drizzle-kit's output (docs/decisions/0133-governance-registers-completed.md): the meeting or
-- minute reference of the trustees' decision that approved a written policy. Approvals recorded
-- before keep none; a draft has none. The table's grants and policies cover the new column.
ALTER TABLE "written_policies" ADD COLUMN "approval_reference" text;--> statement-breakpoint
ALTER TABLE "written_policies" ADD CONSTRAINT "written_policies_approval_reference" CHECK ("written_policies"."approval_reference" is null or ("written_policies"."status" <> 'draft' and char_length("written_policies"."approval_reference") between 1 and 200));