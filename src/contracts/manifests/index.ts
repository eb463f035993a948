import { aiManifest } from './ai.js';
import { auditManifest } from './audit.js';
import { authManifest } from './auth.js';
import { autoEnrolmentManifest } from './auto-enrolment.js';
import { brokersManifest } from './brokers.js';
import { contributionsManifest } from './contributions.js';
import { dataBreachesManifest } from './data-breaches.js';
import { documentsManifest } from './documents.js';
import { doraManifest } from './dora.js';
import { employersManifest } from './employers.js';
import { fundsManifest } from './funds.js';
import { gdprManifest } from './gdpr.js';
import { governanceManifest } from './governance.js';
import { healthManifest } from './health.js';
import { importsManifest } from './imports.js';
import { investmentsManifest } from './investments.js';
import { lifecycleManifest } from './lifecycle.js';
import { machinesManifest } from './machines.js';
import { membersManifest } from './members.js';
import { overviewManifest } from './overview.js';
import { schemesManifest } from './schemes.js';
import { statementsManifest } from './statements.js';
import { usersManifest } from './users.js';

/**
 * The one list of modules (docs/decisions/0121-module-manifests.md). Its order is the order of the
 * route table and of the kinds of record the audit page offers.
 */
export const MODULES = [
  authManifest,
  healthManifest,
  brokersManifest,
  usersManifest,
  employersManifest,
  schemesManifest,
  membersManifest,
  contributionsManifest,
  fundsManifest,
  investmentsManifest,
  lifecycleManifest,
  statementsManifest,
  gdprManifest,
  overviewManifest,
  importsManifest,
  auditManifest,
  governanceManifest,
  dataBreachesManifest,
  doraManifest,
  autoEnrolmentManifest,
  documentsManifest,
  aiManifest,
  machinesManifest,
] as const;
