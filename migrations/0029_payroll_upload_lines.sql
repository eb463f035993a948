-- hand-written around drizzle-kit's output: an upload's pay lines become one row, every line a
-- fixed-size record in one bytea (src/server/modules/auto-enrolment/pay-lines.ts has the format;
-- docs/decisions.md, "Payroll upload speed (issue 20, the benchmark)"). The rows of
-- payroll_periods are carried over, then it and its element check are dropped.
CREATE TABLE "payroll_upload_lines" (
	"broker_id" text NOT NULL,
	"upload_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"format" integer NOT NULL,
	"line_count" integer NOT NULL,
	"pay_periods" integer NOT NULL,
	"first_period_start" date NOT NULL,
	"last_period_end" date NOT NULL,
	"employee_ids" text[] NOT NULL,
	"scheme_ids" text[] NOT NULL,
	"lines" "bytea" NOT NULL,
	CONSTRAINT "payroll_upload_lines_pkey" PRIMARY KEY("broker_id","upload_id"),
	CONSTRAINT "payroll_upload_lines_shape" CHECK ("payroll_upload_lines"."format" in (1, 2) and "payroll_upload_lines"."line_count" > 0 and ("payroll_upload_lines"."format" <> 1 or octet_length("payroll_upload_lines"."lines") = 44 * "payroll_upload_lines"."line_count") and "payroll_upload_lines"."first_period_start" <= "payroll_upload_lines"."last_period_end" and cardinality("payroll_upload_lines"."employee_ids") between 1 and "payroll_upload_lines"."line_count" and "payroll_upload_lines"."pay_periods" between 1 and "payroll_upload_lines"."line_count")
);
--> statement-breakpoint
ALTER TABLE "payroll_upload_lines" ADD CONSTRAINT "payroll_upload_lines_upload_fk" FOREIGN KEY ("broker_id","upload_id") REFERENCES "public"."payroll_uploads"("broker_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payroll_upload_lines" ADD CONSTRAINT "payroll_upload_lines_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "payroll_upload_lines_employer_window_idx" ON "payroll_upload_lines" USING btree ("broker_id","employer_id","last_period_end");
--> statement-breakpoint
-- The value is fixed-size binary records: stored out of line without pglz's attempt to compress it,
-- which costs time on every upload and saves little.
ALTER TABLE "payroll_upload_lines" ALTER COLUMN "lines" SET STORAGE EXTERNAL;--> statement-breakpoint
-- The lines already stored, one row an upload: people numbered in id order, schemes in id order,
-- each person's lines in their stored (period) order, every field big-endian as pay-lines.ts reads.
WITH people AS (
	SELECT p.*, (row_number() OVER (PARTITION BY p.broker_id, p.upload_id ORDER BY p.employee_id) - 1)::integer AS person
	FROM payroll_periods p
), named_schemes AS (
	SELECT named.broker_id, named.upload_id, named.scheme_id,
		(row_number() OVER (PARTITION BY named.broker_id, named.upload_id ORDER BY named.scheme_id) - 1)::integer AS place
	FROM (
		SELECT DISTINCT p.broker_id, p.upload_id, element.scheme_id
		FROM payroll_periods p CROSS JOIN unnest(p.scheme_ids) AS element(scheme_id)
		WHERE element.scheme_id IS NOT NULL
	) named
), lines AS (
	SELECT people.broker_id, people.upload_id, people.employer_id, people.person, line.n,
		line.period_start, line.period_end, line.year_units, line.gross_cents, line.employee_cents,
		line.employer_cents,
		CASE line.arrangement WHEN 'none' THEN -2 WHEN 'prsa' THEN -1 ELSE named.place END AS arrangement
	FROM people
	CROSS JOIN LATERAL unnest(people.period_starts, people.period_ends, people.year_units,
		people.gross_cents, people.employee_cents, people.employer_cents, people.arrangements,
		people.scheme_ids) WITH ORDINALITY
		AS line(period_start, period_end, year_units, gross_cents, employee_cents, employer_cents, arrangement, scheme_id, n)
	LEFT JOIN named_schemes named ON named.broker_id = people.broker_id
		AND named.upload_id = people.upload_id AND named.scheme_id = line.scheme_id
)
INSERT INTO payroll_upload_lines (
	broker_id, upload_id, employer_id, format, line_count, pay_periods, first_period_start,
	last_period_end, employee_ids, scheme_ids, lines
)
SELECT lines.broker_id, lines.upload_id, lines.employer_id, 1, count(*)::integer,
	count(DISTINCT (lines.period_start, lines.period_end))::integer, min(lines.period_start),
	max(lines.period_end),
	(SELECT array_agg(p.employee_id ORDER BY p.person) FROM people p
		WHERE p.broker_id = lines.broker_id AND p.upload_id = lines.upload_id),
	coalesce((SELECT array_agg(s.scheme_id ORDER BY s.place) FROM named_schemes s
		WHERE s.broker_id = lines.broker_id AND s.upload_id = lines.upload_id), '{}'),
	string_agg(
		int4send(lines.person) || int4send(to_char(lines.period_start, 'YYYYMMDD')::integer)
			|| int4send(to_char(lines.period_end, 'YYYYMMDD')::integer) || int4send(lines.year_units)
			|| int4send(lines.arrangement) || int8send(lines.gross_cents)
			|| int8send(lines.employee_cents) || int8send(lines.employer_cents),
		''::bytea ORDER BY lines.person, lines.n)
FROM lines
GROUP BY lines.broker_id, lines.upload_id, lines.employer_id;--> statement-breakpoint
DROP TABLE "payroll_periods" CASCADE;--> statement-breakpoint
DROP FUNCTION payroll_periods_consistent(date, date, date[], date[], integer[], bigint[], bigint[], bigint[], text[], text[]);--> statement-breakpoint
-- Only the pay lines' foreign key needed (broker_id, id, employer_id) unique; an index fewer for
-- every new employee an upload writes.
ALTER TABLE "payroll_employees" DROP CONSTRAINT "payroll_employees_employer_key";--> statement-breakpoint
-- The employer's key carries broker_id and its row references brokers: this check proved nothing
-- more, and cost a lookup for every employee an upload writes (as 0024 found for pay lines).
ALTER TABLE "payroll_employees" DROP CONSTRAINT "payroll_employees_broker_id_brokers_id_fk";--> statement-breakpoint
-- Grants and row-level security as for the table it replaces (migration 0028): only the tenant's
-- own runtime role reaches the payroll.
GRANT SELECT, INSERT, DELETE ON payroll_upload_lines TO pension_app;--> statement-breakpoint
ALTER TABLE payroll_upload_lines ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE payroll_upload_lines FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON payroll_upload_lines TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());
