/** The contributions module's public face: all that other modules and the composition root may import from it. */
export { contributionsOfMember } from './contributions.data.js';
export { contributionsRoutes } from './contributions.routes.js';
export { contributionListQuery } from './contributions.schemas.js';
export type { ContributionsService } from './contributions.service.js';
export { createContributionsService } from './contributions.service.js';
export { payrollRoutes } from './payroll-grid.routes.js';
export { createPayrollService } from './payroll-grid.service.js';
