-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0148-rectification-and-recipients.md): a completed rectification names the
-- member's details corrected, and the recipients of the old data told of it are kept, one row each.
CREATE TABLE "data_request_recipients" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"data_request_id" text NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"told_on" date NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "data_request_recipients_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "data_request_recipients_position_key" UNIQUE("broker_id","data_request_id","position"),
	CONSTRAINT "data_request_recipients_name_length" CHECK (char_length("data_request_recipients"."name") between 1 and 200),
	CONSTRAINT "data_request_recipients_position" CHECK ("data_request_recipients"."position" between 0 and 19)
);
--> statement-breakpoint
ALTER TABLE "data_requests" ADD COLUMN "corrected_fields" text[];--> statement-breakpoint
ALTER TABLE "data_request_recipients" ADD CONSTRAINT "data_request_recipients_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_request_recipients" ADD CONSTRAINT "data_request_recipients_request_same_tenant_fk" FOREIGN KEY ("broker_id","data_request_id") REFERENCES "public"."data_requests"("broker_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_corrected_fields_whole" CHECK ("data_requests"."corrected_fields" is null or ("data_requests"."kind" = 'rectification' and "data_requests"."status" = 'completed' and cardinality("data_requests"."corrected_fields") between 1 and 10 and "data_requests"."corrected_fields" <@ array['name','date_of_birth','address','email','phone','salary','pps_number','date_joined','dependants','beneficiaries']::text[]));
--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating;
-- docs/decisions/0148-rectification-and-recipients.md). Recipients are written with the
-- completion and never changed; SuperAdmin only reads them.
GRANT UPDATE (corrected_fields) ON data_requests TO pension_app;--> statement-breakpoint
GRANT SELECT, INSERT ON data_request_recipients TO pension_app;--> statement-breakpoint
GRANT SELECT ON data_request_recipients TO pension_platform;--> statement-breakpoint
ALTER TABLE data_request_recipients ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE data_request_recipients FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON data_request_recipients TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON data_request_recipients TO pension_platform USING (true) WITH CHECK (true);
