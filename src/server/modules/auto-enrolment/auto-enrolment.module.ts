import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { autoEnrolmentRoutes } from './auto-enrolment.routes.js';
import { type AutoEnrolmentService, createAutoEnrolmentService } from './auto-enrolment.service.js';
import { createEmployerPayrollService } from './payroll-upload.service.js';

/**
 * Auto-enrolment readiness: an employer's payroll and its assessment
 * (docs/decisions/0068-auto-enrolment-readiness.md, 0128-modules-compose-their-services.md).
 */
export function createAutoEnrolmentModule({
  database,
  audit,
  ppsKeyring,
  uploads,
  now,
}: PlatformParts): ServerModule<{ autoEnrolment: AutoEnrolmentService }> {
  const autoEnrolment = createAutoEnrolmentService({ database, audit, now });
  const payroll = createEmployerPayrollService({ database, audit, ppsKeyring, uploads, now });
  return {
    services: { autoEnrolment },
    routes: async (app) => {
      await app.register(autoEnrolmentRoutes, { payroll, autoEnrolment });
    },
  };
}
