-- drizzle-kit's output: who may review and approve an AI draft (docs/decisions/0083-ai-drafts-four-eyes.md).
-- edited_by: everyone who changed a draft's text, its authors with created_by; four_eyes: the firm's
-- choice, null for the platform's default.
ALTER TABLE "ai_drafts" ADD COLUMN "edited_by" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "ai_settings" ADD COLUMN "four_eyes" boolean;