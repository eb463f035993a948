CREATE TABLE "job_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"job" text NOT NULL,
	"scheduled_for" timestamp (3) with time zone NOT NULL,
	"attempt" integer NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp (3) with time zone NOT NULL,
	"lease_until" timestamp (3) with time zone NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"counts" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"error" text,
	CONSTRAINT "job_runs_status_known" CHECK ("job_runs"."status" in ('running','succeeded','failed')),
	CONSTRAINT "job_runs_job_name" CHECK ("job_runs"."job" ~ '^[a-z][a-z0-9-]{0,47}$'),
	CONSTRAINT "job_runs_finished_unless_running" CHECK (("job_runs"."status" = 'running') = ("job_runs"."finished_at" is null)),
	CONSTRAINT "job_runs_error_is_a_code" CHECK (("job_runs"."status" = 'failed') = ("job_runs"."error" is not null) and ("job_runs"."error" is null or "job_runs"."error" ~ '^[A-Za-z0-9_.:-]{1,64}$')),
	CONSTRAINT "job_runs_counts_are_numbers" CHECK (jsonb_typeof("job_runs"."counts") = 'object' and not jsonb_path_exists("job_runs"."counts", '$.* ? (@.type() != "number")'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_run_key" ON "job_runs" USING btree ("job","scheduled_for") WHERE "job_runs"."status" in ('running','succeeded');--> statement-breakpoint
CREATE UNIQUE INDEX "job_runs_one_running_per_job" ON "job_runs" USING btree ("job") WHERE "job_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "job_runs_job_slot_idx" ON "job_runs" USING btree ("job","scheduled_for");--> statement-breakpoint
-- hand-written: the scheduled jobs' own role (docs/decisions.md, "Scheduled jobs"). The runs of
-- POST /api/cron/<job> are recorded as pension_cron, which reaches job_runs and nothing else:
-- the bookkeeping of an endpoint that no session guards cannot read or change tenant data.
-- Roles are cluster-wide, so creation tolerates a role made by another database on the server.
DO $$
BEGIN
  CREATE ROLE pension_cron NOLOGIN NOSUPERUSER NOBYPASSRLS NOCREATEDB NOCREATEROLE;
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    EXECUTE format('GRANT pension_cron TO %I', current_user);
  END IF;
END $$;
--> statement-breakpoint
GRANT pension_cron TO pension_runtime;
--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pension_cron;
--> statement-breakpoint
-- Runs are claimed and settled, never deleted: a failed run stays as the record of the failure.
GRANT SELECT, INSERT, UPDATE ON job_runs TO pension_cron;
--> statement-breakpoint
ALTER TABLE job_runs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE job_runs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY job_bookkeeping ON job_runs TO pension_cron USING (true) WITH CHECK (true);
