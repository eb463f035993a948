-- drizzle-kit's output, with the hand-written part marked
-- (docs/decisions/0137-data-subject-requests.md): the register of what members asked the firm for
-- under the GDPR, each with the day it is due and how it was answered.
CREATE TABLE "data_requests" (
	"broker_id" text NOT NULL,
	"id" text NOT NULL,
	"member_id" text NOT NULL,
	"kind" text NOT NULL,
	"received_on" date NOT NULL,
	"original_due_on" date NOT NULL,
	"due_on" date NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"extension_reason" text,
	"closed_on" date,
	"completion_note" text,
	"refusal_reason" text,
	"refusal_citation" text,
	"created_by" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "data_requests_pkey" PRIMARY KEY("broker_id","id"),
	CONSTRAINT "data_requests_kind_known" CHECK ("data_requests"."kind" in ('access','rectification','erasure','restriction','objection')),
	CONSTRAINT "data_requests_status_known" CHECK ("data_requests"."status" in ('open','extended','completed','refused')),
	CONSTRAINT "data_requests_days_in_order" CHECK ("data_requests"."original_due_on" > "data_requests"."received_on" and "data_requests"."due_on" >= "data_requests"."original_due_on"),
	CONSTRAINT "data_requests_extended_whole" CHECK (("data_requests"."due_on" = "data_requests"."original_due_on") = ("data_requests"."extension_reason" is null) and ("data_requests"."status" <> 'open' or "data_requests"."extension_reason" is null) and ("data_requests"."status" <> 'extended' or "data_requests"."extension_reason" is not null)),
	CONSTRAINT "data_requests_closed_whole" CHECK (("data_requests"."status" in ('completed', 'refused')) = ("data_requests"."closed_on" is not null)),
	CONSTRAINT "data_requests_refusal_whole" CHECK (("data_requests"."status" = 'refused') = ("data_requests"."refusal_citation" is not null) and ("data_requests"."refusal_citation" is null) = ("data_requests"."refusal_reason" is null) and ("data_requests"."refusal_citation" is null or "data_requests"."refusal_citation" in ('GDPR Art. 17(3)(b)','GDPR Art. 17(3)(e)','GDPR Art. 12(5)'))),
	CONSTRAINT "data_requests_text_lengths" CHECK (("data_requests"."extension_reason" is null or char_length("data_requests"."extension_reason") between 1 and 1000) and ("data_requests"."completion_note" is null or char_length("data_requests"."completion_note") between 1 and 1000) and ("data_requests"."refusal_reason" is null or char_length("data_requests"."refusal_reason") between 1 and 1000))
);
--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_requests" ADD CONSTRAINT "data_requests_member_same_tenant_fk" FOREIGN KEY ("member_id","broker_id") REFERENCES "public"."members"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_requests_due_idx" ON "data_requests" USING btree ("broker_id","due_on","id");--> statement-breakpoint
CREATE INDEX "data_requests_member_idx" ON "data_requests" USING btree ("broker_id","member_id");--> statement-breakpoint
-- hand-written: grants and row-level security (re-append after regenerating;
-- docs/decisions/0137-data-subject-requests.md). A request is recorded, then only its steps change
-- it: those columns alone are updated. SuperAdmin only reads the register.
GRANT SELECT, INSERT ON data_requests TO pension_app;--> statement-breakpoint
GRANT UPDATE (status, due_on, extension_reason, closed_on, completion_note, refusal_reason, refusal_citation, updated_at) ON data_requests TO pension_app;--> statement-breakpoint
GRANT SELECT ON data_requests TO pension_platform;--> statement-breakpoint
ALTER TABLE data_requests ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE data_requests FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON data_requests TO pension_app USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON data_requests TO pension_platform USING (true) WITH CHECK (true);
