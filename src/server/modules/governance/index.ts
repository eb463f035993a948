/** The governance module's public face: all that other modules and the composition root may import from it. */
export { createAppointmentsService } from './appointments.service.js';
export type { ComplianceService } from './compliance.service.js';
export { createComplianceService } from './compliance.service.js';
export { evidencePackRoutes } from './evidence-pack.routes.js';
export { createEvidencePackService } from './evidence-pack.service.js';
export { loadGovernance } from './governance.data.js';
export { governanceRoutes } from './governance.routes.js';
export { createPoliciesService } from './policies.service.js';
export { createComplianceReminders, remindersJob } from './reminders.job.js';
export { schemeYearRoutes } from './scheme-year.routes.js';
export { createSchemeYearService } from './scheme-year.service.js';
