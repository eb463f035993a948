/** The governance module's public face: all that other modules and the composition root may import from it. */
export type { ComplianceService } from './compliance.service.js';
export { evidencePackRoutes } from './evidence-pack.routes.js';
export { createEvidencePackService } from './evidence-pack.service.js';
export { loadGovernance } from './governance.data.js';
export { createGovernanceModule } from './governance.module.js';
export { createComplianceReminders, remindersJob } from './reminders.job.js';
