import { runAi } from './ai.js';
import { runAutoEnrolment } from './auto-enrolment.js';
import { runDocuments } from './documents.js';
import { runFoundation } from './foundation.js';
import { runGovernance } from './governance.js';
import { runIdentity } from './identity.js';
import { runImports } from './imports.js';
import { runInvestments } from './investments.js';
import { printTable, type Report } from './lib.js';
import { runOperations } from './operations.js';
import { runRag } from './rag.js';
import { runRequestPath } from './request-path.js';
import { SECONDS } from './settings.js';
import { runStatements } from './statements.js';
import { runTenancy } from './tenancy.js';
import { runWeb } from './web.js';

/**
 * Every benchmark, each figure beside a baseline measured in this same run on this machine.
 * `npm run bench` runs all; `npm run bench -- identity` (or `ai`, `auto-enrolment`, `documents`,
 * `foundation`, `governance`, `imports`, `investments`, `operations`, `rag`, `request-path`,
 * `statements`, `tenancy`, `web`) runs one. Not part of CI's pass/fail.
 */
const suites: Record<string, (report: Report) => Promise<void>> = {
  ai: runAi,
  'auto-enrolment': runAutoEnrolment,
  documents: runDocuments,
  foundation: runFoundation,
  governance: runGovernance,
  identity: runIdentity,
  imports: runImports,
  investments: runInvestments,
  operations: runOperations,
  rag: runRag,
  'request-path': runRequestPath,
  statements: runStatements,
  tenancy: runTenancy,
  web: runWeb,
};
const chosen = process.argv.slice(2);
for (const name of chosen) {
  if (!(name in suites))
    throw new Error(`unknown benchmark ${name}; choose from ${Object.keys(suites).join(', ')}`);
}
for (const [name, run] of Object.entries(suites)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  const rows: string[][] = [];
  await run((...row) => rows.push(row));
  printTable(`${name} benchmark, ${new Date().toISOString()}, ${SECONDS}s per load run`, rows);
}
