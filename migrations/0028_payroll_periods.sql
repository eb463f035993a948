-- hand-written around drizzle-kit's output: an employee's pay lines of one upload become one row
-- of parallel arrays (docs/decisions.md, "Payroll upload speed (issue 20, the benchmark)"). The
-- function holds, element by element, what payroll_lines' checks held of each line; it is created
-- first because the table's check calls it. PL/pgSQL, a loop over the elements: the same rules as
-- one SQL statement over unnest() cost three times as much (250 against 86 ms for 10,000 rows of
-- 13 periods on PostgreSQL 15), a tenth of an upload's insert.
CREATE FUNCTION payroll_periods_consistent(
	first_start date, last_end date, starts date[], ends date[], units integer[], gross bigint[],
	employee bigint[], employer bigint[], arrangements text[], scheme_ids text[]
) RETURNS boolean LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
	n integer := array_length(starts, 1);
	-- One dimension, numbered from 1, the same for every array: '[1:13]'.
	dims text := array_dims(starts);
	low date;
	high date;
BEGIN
	IF n IS NULL OR dims <> '[1:' || n || ']'
		OR array_dims(ends) IS DISTINCT FROM dims OR array_dims(units) IS DISTINCT FROM dims
		OR array_dims(gross) IS DISTINCT FROM dims OR array_dims(employee) IS DISTINCT FROM dims
		OR array_dims(employer) IS DISTINCT FROM dims
		OR array_dims(arrangements) IS DISTINCT FROM dims
		OR array_dims(scheme_ids) IS DISTINCT FROM dims THEN
		RETURN false;
	END IF;
	FOR i IN 1 .. n LOOP
		IF NOT coalesce(
			ends[i] >= starts[i] AND units[i] IS NOT NULL AND gross[i] >= 0 AND employee[i] >= 0
				AND employer[i] >= 0 AND arrangements[i] IN ('scheme', 'prsa', 'none')
				AND (arrangements[i] = 'scheme') = (scheme_ids[i] IS NOT NULL),
			false) THEN
			RETURN false;
		END IF;
		low := least(low, starts[i]);
		high := greatest(high, ends[i]);
	END LOOP;
	RETURN low = first_start AND high = last_end;
END
$$;--> statement-breakpoint
CREATE TABLE "payroll_periods" (
	"broker_id" text NOT NULL,
	"upload_id" text NOT NULL,
	"employee_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"first_period_start" date NOT NULL,
	"last_period_end" date NOT NULL,
	"period_starts" date[] NOT NULL,
	"period_ends" date[] NOT NULL,
	"year_units" integer[] NOT NULL,
	"gross_cents" bigint[] NOT NULL,
	"employee_cents" bigint[] NOT NULL,
	"employer_cents" bigint[] NOT NULL,
	"arrangements" text[] NOT NULL,
	"scheme_ids" text[] NOT NULL,
	CONSTRAINT "payroll_periods_pkey" PRIMARY KEY("broker_id","upload_id","employee_id"),
	CONSTRAINT "payroll_periods_consistent" CHECK (payroll_periods_consistent("payroll_periods"."first_period_start", "payroll_periods"."last_period_end", "payroll_periods"."period_starts", "payroll_periods"."period_ends", "payroll_periods"."year_units", "payroll_periods"."gross_cents", "payroll_periods"."employee_cents", "payroll_periods"."employer_cents", "payroll_periods"."arrangements", "payroll_periods"."scheme_ids"))
);
--> statement-breakpoint
ALTER TABLE "payroll_periods" ADD CONSTRAINT "payroll_periods_upload_fk" FOREIGN KEY ("broker_id","upload_id") REFERENCES "public"."payroll_uploads"("broker_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_periods" ADD CONSTRAINT "payroll_periods_employee_fk" FOREIGN KEY ("broker_id","employee_id","employer_id") REFERENCES "public"."payroll_employees"("broker_id","id","employer_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payroll_periods_employer_window_idx" ON "payroll_periods" USING btree ("broker_id","employer_id","last_period_end");--> statement-breakpoint
CREATE INDEX "payroll_periods_employee_idx" ON "payroll_periods" USING btree ("broker_id","employee_id");--> statement-breakpoint
-- The lines already stored, gathered per upload and employee in period order.
INSERT INTO payroll_periods (
	broker_id, upload_id, employee_id, employer_id, first_period_start, last_period_end,
	period_starts, period_ends, year_units, gross_cents, employee_cents, employer_cents,
	arrangements, scheme_ids
)
SELECT broker_id, upload_id, employee_id, employer_id, min(period_start), max(period_end),
	array_agg(period_start ORDER BY period_start, id), array_agg(period_end ORDER BY period_start, id),
	array_agg(year_units ORDER BY period_start, id), array_agg(gross_cents ORDER BY period_start, id),
	array_agg(employee_cents ORDER BY period_start, id),
	array_agg(employer_cents ORDER BY period_start, id),
	array_agg(arrangement ORDER BY period_start, id), array_agg(scheme_id ORDER BY period_start, id)
FROM payroll_lines
GROUP BY broker_id, upload_id, employee_id, employer_id;--> statement-breakpoint
DROP TABLE "payroll_lines" CASCADE;--> statement-breakpoint
-- Grants and row-level security as for the table it replaces (migration 0021): only the tenant's
-- own runtime role reaches the payroll.
GRANT SELECT, INSERT, UPDATE, DELETE ON payroll_periods TO pension_app;--> statement-breakpoint
ALTER TABLE payroll_periods ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_periods FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payroll_periods TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
