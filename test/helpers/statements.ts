import { createId } from '@paralleldrive/cuid2';
import type { StatementFigures } from '../../src/contracts/statements.js';
import type { Database } from '../../src/server/platform/db/database.js';
import {
  statementAssumptions,
  statementRuns,
  statements,
} from '../../src/server/platform/db/schema.js';
import { ownerOf } from './database.js';

/**
 * Records of Pension Benefit Statements planted by the owner, in the state a suite needs
 * (docs/decisions/0141-pension-benefit-statements.md); the paths that make them are tested in
 * test/statements.
 */

/** A firm's own assumption set, of the Pensions Authority's shape. */
export async function createAssumptionSet(database: Database, brokerId: string): Promise<string> {
  const id = createId();
  const at = new Date();
  await ownerOf(database)
    .insert(statementAssumptions)
    .values({
      id,
      brokerId,
      name: `Set ${id}`,
      version: 1,
      effectiveFrom: '2025-01-01',
      source: 'The Pensions Authority’s guidance on benefit statement projections',
      bestEstimateReturnBasisPoints: 475,
      unfavourableReturnBasisPoints: 150,
      inflationBasisPoints: 250,
      salaryGrowthBasisPoints: 250,
      annuityFactorHundredths: 2_500,
      createdBy: 'system',
      createdAt: at,
      updatedAt: at,
    });
  return id;
}

interface SchemeScope {
  brokerId: string;
  employerId: string;
  schemeId: string;
}

/**
 * A run of the scheme in `status`, with its own assumption set and no statement rows, counted as
 * having made one: a run that made none is never approved (runMadeNothing, contracts/statements.ts).
 */
export async function createRunIn(
  database: Database,
  scope: SchemeScope,
  status: 'ready' | 'approved' | 'issued',
): Promise<string> {
  const id = createId();
  const at = new Date();
  await ownerOf(database)
    .insert(statementRuns)
    .values({
      ...scope,
      id,
      informationDate: '2025-12-31',
      membersBy: '2026-06-30',
      assumptionsId: await createAssumptionSet(database, scope.brokerId),
      status,
      total: 1,
      done: 1,
      failed: 0,
      issues: [],
      approvedAt: status === 'ready' ? null : at,
      issuedAt: status === 'issued' ? at : null,
      createdBy: 'system',
      createdAt: at,
      updatedAt: at,
    });
  return id;
}

/** What a DC member's statement says, for a statement planted with no run behind its figures. */
export const SAMPLE_FIGURES: StatementFigures = {
  firm: 'Shannon Pensions',
  schemeName: 'Acme Staff Pension Scheme',
  schemeType: 'DC',
  memberName: 'Aoife Murphy',
  dateOfBirth: '1985-04-12',
  status: 'active',
  retirementAge: 65,
  retirementDate: '2050-04-12',
  informationDate: '2025-12-31',
  contact: 'Shannon Pensions',
  year: {
    from: '2025-01-01',
    to: '2025-12-31',
    memberCents: 300_000,
    employerCents: 300_000,
    costsCents: 4_500,
  },
  dc: {
    funds: [
      { fundName: 'Default fund', units: '6000.000000', price: '1.200000', valueCents: 720_000 },
    ],
    fundValueCents: 720_000,
    annualContributionCents: 600_000,
    chargeBasisPoints: 75,
    years: 24,
    bestEstimate: { fundCents: 18_000_000, pensionCents: 720_000 },
    unfavourable: { fundCents: 12_000_000, pensionCents: 480_000 },
    assumptions: {
      id: 'sample',
      name: 'Pensions Authority guidance',
      version: 1,
      source: 'The Pensions Authority’s guidance on benefit statement projections',
      bestEstimateReturnPct: 4.75,
      unfavourableReturnPct: 1.5,
      inflationPct: 2.5,
      salaryGrowthPct: 2.5,
      annuityFactor: 25,
    },
  },
  db: null,
  prsa: null,
  changes: [],
};

/** A member's statement, made and issued, in an issued run of their scheme. */
export async function createIssuedStatement(
  database: Database,
  scope: SchemeScope & { memberId: string },
): Promise<string> {
  const { memberId, ...scheme } = scope;
  const runId = await createRunIn(database, scheme, 'issued');
  const id = createId();
  const at = new Date();
  await ownerOf(database)
    .insert(statements)
    .values({
      ...scheme,
      id,
      runId,
      memberId,
      informationDate: '2025-12-31',
      status: 'made',
      figures: SAMPLE_FIGURES,
      pdfBytes: 1,
      issuedAt: at,
      createdAt: at,
      updatedAt: at,
    });
  return id;
}
