-- drizzle-kit's output: an employer's and a scheme's details as a broker keeps them
-- (docs/decisions/0132-employer-and-scheme-details.md). Columns of tables already granted and under
-- row-level security: nothing hand-written.
ALTER TABLE "schemes" ADD COLUMN "sr_number" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "start_date" date;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "employee_contribution_basis_points" integer;--> statement-breakpoint
ALTER TABLE "schemes" ADD COLUMN "employer_contribution_basis_points" integer;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "cro_number" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "employer_registration_number" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "registered_address" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "contact_name" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "contact_phone" text;--> statement-breakpoint
ALTER TABLE "employers" ADD COLUMN "payroll_frequency" text;--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_sr_number_form" CHECK ("schemes"."sr_number" ~ '^SR[0-9]{1,8}$');--> statement-breakpoint
ALTER TABLE "schemes" ADD CONSTRAINT "schemes_contribution_rates_range" CHECK ("schemes"."employee_contribution_basis_points" between 0 and 10000 and "schemes"."employer_contribution_basis_points" between 0 and 10000);--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_cro_number_form" CHECK ("employers"."cro_number" ~ '^[0-9]{1,8}$');--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_registration_number_form" CHECK ("employers"."employer_registration_number" ~ '^[0-9]{7}[A-Z]{1,2}$');--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_registered_address_length" CHECK (char_length("employers"."registered_address") between 1 and 500);--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_contact_name_length" CHECK (char_length("employers"."contact_name") between 1 and 200);--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_contact_email_length" CHECK (char_length("employers"."contact_email") between 3 and 320);--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_contact_phone_length" CHECK (char_length("employers"."contact_phone") between 7 and 30);--> statement-breakpoint
ALTER TABLE "employers" ADD CONSTRAINT "employers_payroll_frequency_known" CHECK ("employers"."payroll_frequency" in ('weekly','fortnightly','four_weekly','monthly'));