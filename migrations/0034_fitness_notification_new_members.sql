-- drizzle-kit's output, with the hand-written part marked (docs/decisions/0122-the-scheme-year.md):
-- a trustee's fitness and probity, which Art. 22 asks of those who effectively run the scheme
-- (pending until confirmed, as a key function holder's); the day a key function holder's
-- appointment was notified to the Pensions Authority; the day a new member was given the
-- scheme's information (s.54).
ALTER TABLE "key_function_holders" ADD COLUMN "notified_on" date;--> statement-breakpoint
ALTER TABLE "trustees" ADD COLUMN "fitness_and_probity" text DEFAULT 'pending' NOT NULL;--> statement-breakpoint
ALTER TABLE "members" ADD COLUMN "information_sent_on" date;--> statement-breakpoint
ALTER TABLE "trustees" ADD CONSTRAINT "trustees_fitness_known" CHECK ("trustees"."fitness_and_probity" in ('pending','confirmed','failed'));--> statement-breakpoint
-- hand-written: the reminders job finds the members still waiting for their scheme information
-- (re-append after regenerating). Those columns only, never a name, PPS number or pay.
GRANT SELECT (date_joined, information_sent_on) ON members TO pension_scheduler;
