CREATE TABLE "audit_log" (
	"id" text PRIMARY KEY NOT NULL,
	"tenant_id" text,
	"chain_key" text NOT NULL,
	"chain_index" bigint NOT NULL,
	"previous_hash" text NOT NULL,
	"hash" text NOT NULL,
	"actor_id" text NOT NULL,
	"actor_type" text NOT NULL,
	"actor_tenant_id" text,
	"action" text NOT NULL,
	"entity_type" text NOT NULL,
	"entity_id" text NOT NULL,
	"previous_state" jsonb,
	"new_state" jsonb,
	"ip_address" text NOT NULL,
	"user_agent" text NOT NULL,
	"timestamp" timestamp (3) with time zone NOT NULL,
	CONSTRAINT "audit_log_chain_position_key" UNIQUE("chain_key","chain_index"),
	CONSTRAINT "audit_log_action_dotted" CHECK ("audit_log"."action" ~ '^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$'),
	CONSTRAINT "audit_log_actor_type_role" CHECK ("audit_log"."actor_type" in ('SuperAdmin','BrokerAdmin','BrokerUser','EmployerAdmin','EmployerUser','Member')),
	CONSTRAINT "audit_log_chain_key_matches_tenant" CHECK ("audit_log"."chain_key" = coalesce("audit_log"."tenant_id", '@platform'))
);
--> statement-breakpoint
CREATE TABLE "brokers" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employers" (
	"id" text PRIMARY KEY NOT NULL,
	"broker_id" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp (3) with time zone,
	CONSTRAINT "employers_id_broker_id_key" UNIQUE("id","broker_id")
);
--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_tenant_id_brokers_id_fk" FOREIGN KEY ("tenant_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_log" ADD CONSTRAINT "audit_log_actor_tenant_id_brokers_id_fk" FOREIGN KEY ("actor_tenant_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_broker_id_brokers_id_fk" FOREIGN KEY ("broker_id") REFERENCES "public"."brokers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_tenant_time_idx" ON "audit_log" USING btree ("tenant_id","timestamp");--> statement-breakpoint
CREATE INDEX "audit_log_entity_idx" ON "audit_log" USING btree ("entity_type","entity_id");--> statement-breakpoint
CREATE INDEX "employers_broker_id_idx" ON "employers" USING btree ("broker_id");