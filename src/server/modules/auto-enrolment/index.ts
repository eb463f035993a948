/** The auto-enrolment module's public face: all that other modules and the composition root may import from it. */

export { createAutoEnrolmentModule } from './auto-enrolment.module.js';
export type { AutoEnrolmentService } from './auto-enrolment.service.js';
export { PAYROLL_LOCK_NAMESPACE, payrollUploadAuditState } from './payroll-upload.service.js';
