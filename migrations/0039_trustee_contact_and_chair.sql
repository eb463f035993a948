-- drizzle-kit's output (docs/decisions/0133-governance-registers-completed.md): a trustee's e-mail
-- address and phone number, and which trustee chairs the board, one a scheme at a time. The new
-- columns need no grants: the table's grants and policies cover them.
ALTER TABLE "trustees" ADD COLUMN "email" text;--> statement-breakpoint
ALTER TABLE "trustees" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "trustees" ADD COLUMN "chair" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "trustees_one_chair_key" ON "trustees" USING btree ("broker_id","scheme_id") WHERE "trustees"."chair" and "trustees"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_email_length" CHECK ("trustees"."email" is null or char_length("trustees"."email") between 3 and 320);--> statement-breakpoint
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_phone_length" CHECK ("trustees"."phone" is null or char_length("trustees"."phone") between 1 and 30);