/** The auto-enrolment module's public face: all that other modules and the composition root may import from it. */
export { autoEnrolmentRoutes } from './auto-enrolment.routes.js';
export type { AutoEnrolmentService } from './auto-enrolment.service.js';
export { createAutoEnrolmentService } from './auto-enrolment.service.js';
export {
  createEmployerPayrollService,
  PAYROLL_LOCK_NAMESPACE,
  payrollUploadAuditState,
} from './payroll-upload.service.js';
