-- drizzle-kit's output: a scheme is wound up on a day for a reason rather than deleted
-- (docs/decisions/0146-schemes-wound-up-not-deleted.md); every scheme so far is active.
ALTER TABLE "schemes" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "wound_up_on" date;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "wind_up_reason" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "wind_up_note" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_wind_up_whole" CHECK ("schemes"."status" in ('active','wound_up') and ("schemes"."status" = 'wound_up') = ("schemes"."wound_up_on" is not null) and ("schemes"."wound_up_on" is null) = ("schemes"."wind_up_reason" is null) and ("schemes"."wind_up_reason" is null or "schemes"."wind_up_reason" in ('employer_ceased','moved_to_another_arrangement','all_benefits_settled','employer_decision','other')) and ("schemes"."wind_up_note" is null or char_length("schemes"."wind_up_note") between 1 and 1000) and ("schemes"."wind_up_reason" is distinct from 'other' or "schemes"."wind_up_note" is not null));