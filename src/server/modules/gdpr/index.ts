/** The gdpr module's public face: all that other modules and the composition root may import from it. */
export {
  createDataProtectionReminders,
  dataProtectionRemindersJob,
} from './data-protection-reminders.job.js';
export type { DataRequestsService } from './data-requests.service.js';
export { erasureJob, reapplyErasureLedger } from './erasure.job.js';
export { erasureRoutes } from './erasure.routes.js';
export { createErasureService } from './erasure.service.js';
export { createGdprModule } from './gdpr.module.js';
export { memberRecordOf } from './gdpr-export.data.js';
