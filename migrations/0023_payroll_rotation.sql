-- Custom SQL migration file, put your code below! --
--> statement-breakpoint
-- hand-written: PPS key rotation reaches the payroll's employees (docs/decisions.md, "PPS key
-- rotation" and "Auto-enrolment readiness (issue 20)"). The rotation runs as the platform, as it
-- does for members, and re-seals every PPS number however many tenants hold one. The platform
-- gets only what a rotation needs: the row's key and sealed number to read, the sealed number,
-- its lookup hash and key id to write; never a name, date of birth or pay line. No new role.
GRANT SELECT (broker_id, id, pps_encrypted, pps_key_id), UPDATE (pps_encrypted, pps_lookup, pps_key_id) ON payroll_employees TO pension_platform;--> statement-breakpoint
CREATE POLICY platform_rotation ON payroll_employees TO pension_platform USING (true) WITH CHECK (true);
