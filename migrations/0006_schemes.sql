CREATE TABLE "schemes" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"employer_id" text NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "schemes_id_broker_id_key" UNIQUE("id","broker_id"),
	CONSTRAINT "schemes_type_known" CHECK ("schemes"."type" in ('DB','DC','PRSA','RAC')),
	CONSTRAINT "schemes_name_length" CHECK (char_length("schemes"."name") between 1 and 200)
);
--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "schemes_broker_created_idx" ON "schemes" USING btree ("broker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "schemes_employer_idx" ON "schemes" USING btree ("employer_id");--> statement-breakpoint
CREATE INDEX "employers_broker_created_idx" ON "employers" USING btree ("broker_id","created_at","id");--> statement-breakpoint
CREATE INDEX "users_broker_created_idx" ON "users" USING btree ("broker_id","created_at","id");--> statement-breakpoint
ALTER TABLE "email_outbox" DROP CONSTRAINT "email_outbox_kind_known";--> statement-breakpoint
ALTER TABLE "email_outbox" ADD CONSTRAINT "email_outbox_kind_known" CHECK ("email_outbox"."kind" in ('password_reset','password_changed','account_created'));--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE ON schemes TO pension_app, pension_platform;--> statement-breakpoint
ALTER TABLE schemes ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE schemes FORCE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY tenant_isolation ON schemes TO pension_app
  USING (broker_id = app_current_tenant()) WITH CHECK (broker_id = app_current_tenant());--> statement-breakpoint
CREATE POLICY platform_access ON schemes TO pension_platform USING (true) WITH CHECK (true);
