ALTER TABLE "payroll_lines" DROP CONSTRAINT "payroll_lines_broker_id_brokers_id_fk";
