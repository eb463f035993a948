-- hand-ordered: the key the links reference is made before them (drizzle-kit writes it last).
ALTER TABLE "documents" ADD CONSTRAINT "documents_scheme_id_key" UNIQUE("broker_id","scheme_id","id");--> statement-breakpoint
ALTER TABLE "key_function_holders" ADD COLUMN "document_id" text;--> statement-breakpoint
ALTER TABLE "ora_reports" ADD COLUMN "document_id" text;--> statement-breakpoint
ALTER TABLE "written_policies" ADD COLUMN "document_id" text;--> statement-breakpoint
ALTER TABLE "key_function_holders" ADD CONSTRAINT "key_function_holders_document_same_scheme_fk" FOREIGN KEY ("broker_id","scheme_id","document_id") REFERENCES "public"."documents"("broker_id","scheme_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ora_reports" ADD CONSTRAINT "ora_reports_document_same_scheme_fk" FOREIGN KEY ("broker_id","scheme_id","document_id") REFERENCES "public"."documents"("broker_id","scheme_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "written_policies" ADD CONSTRAINT "written_policies_document_same_scheme_fk" FOREIGN KEY ("broker_id","scheme_id","document_id") REFERENCES "public"."documents"("broker_id","scheme_id","id") ON DELETE no action ON UPDATE no action;
