-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0139-dora-ict-incidents.md, "The register of information"): the LEI of each
-- scheme and of the firm itself, each null until given.
ALTER TABLE "schemes" ADD COLUMN "lei" text;--> statement-breakpoint
ALTER TABLE "brokers" ADD COLUMN "lei" text;--> statement-breakpoint
-- hand-written: a firm's BrokerAdmin sets the firm's own LEI (action broker.lei.set), and the
-- runtime role may change that column of its own tenant's row alone (re-append after
-- regenerating). Its name and everything else stay the platform's to change.
GRANT UPDATE (lei, updated_at) ON brokers TO pension_app;
