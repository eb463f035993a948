CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"password_hash" text,
	"role" text NOT NULL,
	"broker_id" text,
	"employer_id" text,
	"status" text DEFAULT 'active' NOT NULL,
	"password_changed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"is_development_account" boolean DEFAULT false NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "users_role_known" CHECK ("users"."role" in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member')),
	CONSTRAINT "users_status_known" CHECK ("users"."status" in ('active','deactivated')),
	CONSTRAINT "users_tenant_unless_superadmin" CHECK (("users"."role" = 'SuperAdmin') = ("users"."broker_id" is null)),
	CONSTRAINT "users_employer_for_employer_roles" CHECK (("users"."role" in ('EmployerAdmin','EmployerUser','Member')) = ("users"."employer_id" is not null))
);
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_employer_same_tenant_fk" FOREIGN KEY ("employer_id","broker_id") REFERENCES "public"."employers"("id","broker_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_key" ON "users" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "users_broker_id_idx" ON "users" USING btree ("broker_id");