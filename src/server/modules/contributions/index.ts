/** The contributions module's public face: all that other modules and the composition root may import from it. */
export { contributionsOfMember } from './contributions.data.js';
export { createContributionsModule } from './contributions.module.js';
export { contributionListQuery } from './contributions.schemas.js';
export type { ContributionsService } from './contributions.service.js';
export {
  type EmployerMonths,
  employerKey,
  NO_LAST_MONTH,
  remittanceFactsOf,
} from './remittances.data.js';
