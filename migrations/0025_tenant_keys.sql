ALTER TABLE "fund_allocation_lines" DROP CONSTRAINT "fund_allocation_lines_fund_of_scheme_fk";--> statement-breakpoint
ALTER TABLE "contributions" DROP CONSTRAINT "contributions_member_period_kind_key";--> statement-breakpoint
ALTER TABLE "funds" DROP CONSTRAINT "funds_id_scheme_key";--> statement-breakpoint
ALTER TABLE "funds" DROP CONSTRAINT "funds_scheme_name_key";--> statement-breakpoint
DROP INDEX "imports_same_file_once_key";--> statement-breakpoint
DROP INDEX "members_scheme_pps_key";--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" DROP CONSTRAINT "fund_allocation_lines_allocation_id_fund_id_pk";--> statement-breakpoint
ALTER TABLE "contribution_adjustments" DROP CONSTRAINT "contribution_adjustments_pkey";--> statement-breakpoint
ALTER TABLE "contributions" DROP CONSTRAINT "contributions_pkey";--> statement-breakpoint
ALTER TABLE "employers" DROP CONSTRAINT "employers_pkey";--> statement-breakpoint
ALTER TABLE "fund_allocations" DROP CONSTRAINT "fund_allocations_pkey";--> statement-breakpoint
ALTER TABLE "funds" DROP CONSTRAINT "funds_pkey";--> statement-breakpoint
ALTER TABLE "imports" DROP CONSTRAINT "imports_pkey";--> statement-breakpoint
ALTER TABLE "members" DROP CONSTRAINT "members_pkey";--> statement-breakpoint
ALTER TABLE "schemes" DROP CONSTRAINT "schemes_pkey";--> statement-breakpoint
ALTER TABLE "contribution_adjustments" ADD CONSTRAINT "contribution_adjustments_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "contributions" ADD CONSTRAINT "contributions_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" ADD CONSTRAINT "fund_allocation_lines_pkey" PRIMARY KEY("broker_id","allocation_id","fund_id");--> statement-breakpoint
ALTER TABLE "fund_allocations" ADD CONSTRAINT "fund_allocations_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "imports" ADD CONSTRAINT "imports_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "members" ADD CONSTRAINT "members_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_pkey" PRIMARY KEY("broker_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "imports_same_file_once_key" ON "imports" USING btree ("broker_id","scheme_id","kind","file_sha256") WHERE "imports"."status" = 'succeeded';--> statement-breakpoint
CREATE UNIQUE INDEX "members_scheme_pps_key" ON "members" USING btree ("broker_id","scheme_id","pps_lookup") WHERE "members"."deleted_at" is null;--> statement-breakpoint
ALTER TABLE "contributions" ADD CONSTRAINT "contributions_member_period_kind_key" UNIQUE("broker_id","member_id","period","kind");--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_id_scheme_key" UNIQUE("id","scheme_id","broker_id");--> statement-breakpoint
ALTER TABLE "funds" ADD CONSTRAINT "funds_scheme_name_key" UNIQUE("broker_id","scheme_id","name");--> statement-breakpoint
ALTER TABLE "fund_allocation_lines" ADD CONSTRAINT "fund_allocation_lines_fund_of_scheme_fk" FOREIGN KEY ("fund_id","scheme_id","broker_id") REFERENCES "public"."funds"("id","scheme_id","broker_id") ON DELETE no action ON UPDATE no action;
