import { formatDecimal6 } from '../../../contracts/dc-money-rules.js';
import { addDays } from '../../../contracts/irish-dates.js';
import {
  annualisedContributionCents,
  checkMemberData,
  type DataIssue,
  materialChanges,
  monthsToRetirement,
  type ProjectionAssumptions,
  periodDay,
  periodsOfYear,
  projectDb,
  projectDc,
  projectionChargeBasisPoints,
  prsaPeriod,
  prsaStatementOfAccount,
  readAccrualRate,
  retirementDateOf,
  wholeMonthsBetween,
  type YearMovement,
  yearBefore,
  yearInFigures,
  yearsToRetirement,
} from '../../../contracts/statement-rules.js';
import { percentOf, type StatementFigures } from '../../../contracts/statements.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { choicesOf, type HoldingsOnDay, holdingsOn, placementOf } from '../investments/index.js';
import type { AssumptionsRow } from './assumptions.data.js';
import {
  chargesBetween,
  contributionsForPeriods,
  fundCharges,
  lastStatementBefore,
  type MemberRow,
} from './runs.data.js';

/** What a run knows once, for every member's statement. */
export interface RunContext {
  brokerId: string;
  firm: string;
  scheme: {
    id: string;
    name: string;
    type: 'DB' | 'DC' | 'PRSA' | 'RAC';
    normalRetirementAge: number | null;
    accrualRate: string | null;
    fundingLevelBasisPoints: number | null;
    /** Where a member's money goes with no fund choice (docs/decisions/0127-dc-money.md). */
    defaultFundId: string | null;
  };
  informationDate: string;
  assumptions: AssumptionsRow;
}

export type StatementOutcome =
  | { kind: 'issues'; issues: DataIssue[] }
  | { kind: 'figures'; figures: StatementFigures };

const projectionAssumptionsOf = (row: AssumptionsRow): ProjectionAssumptions => ({
  bestEstimateReturnBasisPoints: row.bestEstimateReturnBasisPoints,
  unfavourableReturnBasisPoints: row.unfavourableReturnBasisPoints,
  inflationBasisPoints: row.inflationBasisPoints,
  salaryGrowthBasisPoints: row.salaryGrowthBasisPoints,
  annuityFactorHundredths: row.annuityFactorHundredths,
});

/** The holdings on a day, or null where a fund held has no price on or before it. */
async function holdingsOrNull(
  tx: Transaction,
  member: MemberRow,
  on: string,
): Promise<HoldingsOnDay | null> {
  try {
    return await holdingsOn(tx, { brokerId: member.brokerId, memberId: member.id }, on);
  } catch (error) {
    if (error instanceof Error && /no price on or before/.test(error.message)) return null;
    throw error;
  }
}

/**
 * One member's statement: their data checked first (STATEMENT_RULES.dataChecked), then every
 * figure worked by statement-rules.ts from the ledger, the contributions and the scheme's terms.
 * Reads only this member's rows.
 */
export async function statementFor(
  tx: Transaction,
  context: RunContext,
  member: MemberRow,
): Promise<StatementOutcome> {
  const { scheme, informationDate } = context;
  const owner = { brokerId: member.brokerId, id: member.id };
  const status = member.status === 'deferred' ? 'deferred' : 'active';
  const db = scheme.type === 'DB';
  // The 12 months to the information date hold a PRSA's half-year too. Contributions count for
  // their pay period, whatever day they were received or keyed: a quarter's schedule imported a
  // month after the information date is as at that date what the member page shows as paid in
  // (docs/decisions/0141-pension-benefit-statements.md, "What counts as at the information date").
  const start = yearBefore(informationDate);
  const periods = periodsOfYear(informationDate);
  const paid = await contributionsForPeriods(tx, owner, periods.from, periods.to);
  const charged = db ? [] : await chargesBetween(tx, owner, start, informationDate);
  const movements: YearMovement[] = [
    ...paid.map((row) => ({
      kind: row.kind as 'employee' | 'employer' | 'avc',
      on: periodDay(row.period),
      amountCents: row.amountCents,
    })),
    ...charged.map((row) => ({
      kind: 'charge' as const,
      on: row.on,
      amountCents: row.amountCents,
    })),
  ];
  // Paid for the year's pay periods and received after the date: in no fund at the date, but the
  // member's money as at it, at what was paid.
  const receivedAfter = paid
    .filter((row) => row.receivedOn > informationDate)
    .reduce((sum, row) => sum + row.amountCents, 0);
  const year = yearInFigures(movements, informationDate);
  const held = db ? null : await holdingsOrNull(tx, member, informationDate);

  const issues = checkMemberData({
    schemeType: scheme.type,
    status,
    normalRetirementAge: scheme.normalRetirementAge,
    accrualRate: scheme.accrualRate,
    fundingLevelPct:
      scheme.fundingLevelBasisPoints === null ? null : percentOf(scheme.fundingLevelBasisPoints),
    dateOfBirth: member.dateOfBirth,
    dateJoined: member.dateJoined,
    salaryCents: member.salaryCents,
    informationDate,
    pricesMissing: !db && held === null,
    fundValueCents: (held?.valueCents ?? 0) + receivedAfter,
    yearContributionsCents: year.memberCents + year.employerCents,
  });
  if (issues.length > 0) return { kind: 'issues', issues };
  const retirementAge = scheme.normalRetirementAge as number;

  let dc: StatementFigures['dc'] = null;
  let prsa: StatementFigures['prsa'] = null;
  if (held !== null) {
    // The charge of the funds the money is in, or, with none invested yet, of the funds new money
    // goes to: the choice in force at the date, else the scheme's default fund.
    const choices = (await choicesOf(tx, member.brokerId, [member.id])).get(member.id) ?? [];
    const placed = placementOf(informationDate, choices, scheme.defaultFundId);
    const charges = await fundCharges(tx, member.brokerId, [
      ...held.funds.map((fund) => fund.fundId),
      ...(placed?.lines ?? []).map((line) => line.fundId),
    ]);
    const chargeBasisPoints = projectionChargeBasisPoints(
      held.funds.map((fund) => ({
        valueCents: fund.valueCents,
        annualChargeBasisPoints: charges.get(fund.fundId) ?? 0,
      })),
      (placed?.lines ?? []).map((line) => ({
        percent: line.percent,
        annualChargeBasisPoints: charges.get(line.fundId) ?? 0,
      })),
    );
    const fundValueCents = held.valueCents + receivedAfter;
    // A year's worth at the current rate (STATEMENT_RULES.currentRate), not the months recorded.
    const annualContributionCents = status === 'active' ? annualisedContributionCents(paid) : 0;
    const years = yearsToRetirement(member.dateOfBirth, informationDate, retirementAge);
    const projection = projectDc(
      { fundValueCents, annualContributionCents, chargeBasisPoints, years },
      projectionAssumptionsOf(context.assumptions),
    );
    const set = context.assumptions;
    dc = {
      funds: held.funds.map((fund) => ({
        fundName: fund.fundName,
        units: formatDecimal6(fund.unitsMicro),
        price: formatDecimal6(fund.priceMicro),
        valueCents: fund.valueCents,
      })),
      fundValueCents,
      awaitingInvestmentCents: Math.max(0, held.uninvestedCents) + receivedAfter,
      annualContributionCents,
      chargeBasisPoints: Math.round(chargeBasisPoints * 100) / 100,
      years,
      bestEstimate: projection.bestEstimate,
      unfavourable: projection.unfavourable,
      assumptions: {
        id: set.id,
        name: set.name,
        version: set.version,
        source: set.source,
        bestEstimateReturnPct: percentOf(set.bestEstimateReturnBasisPoints),
        unfavourableReturnPct: percentOf(set.unfavourableReturnBasisPoints),
        inflationPct: percentOf(set.inflationBasisPoints),
        salaryGrowthPct: percentOf(set.salaryGrowthBasisPoints),
        annuityFactor: set.annuityFactorHundredths / 100,
      },
    };
    if (scheme.type === 'PRSA') {
      const period = prsaPeriod(informationDate);
      const opening = await holdingsOrNull(tx, member, addDays(period.from, -1));
      prsa = prsaStatementOfAccount({
        periodEnd: informationDate,
        openingCents: opening?.valueCents ?? 0,
        closingCents: fundValueCents,
        movements,
      });
    }
  }

  let dbFigures: StatementFigures['db'] = null;
  if (db) {
    const rate = readAccrualRate(scheme.accrualRate as string);
    if (rate === null) return { kind: 'issues', issues: ['no_accrual_rate'] };
    const serviceEnds =
      status === 'deferred' && member.statusOn !== null && member.statusOn < informationDate
        ? member.statusOn
        : informationDate;
    const pension = projectDb({
      accrualRate: rate,
      pensionableSalaryCents: member.salaryCents,
      serviceMonths: wholeMonthsBetween(member.dateJoined, serviceEnds),
      monthsToRetirement:
        status === 'active'
          ? monthsToRetirement(member.dateOfBirth, informationDate, retirementAge)
          : 0,
    });
    dbFigures = {
      accrualRate: scheme.accrualRate as string,
      pensionableSalaryCents: member.salaryCents,
      serviceMonths: wholeMonthsBetween(member.dateJoined, serviceEnds),
      ...pension,
      fundingLevelPct: percentOf(scheme.fundingLevelBasisPoints as number),
    };
  }

  const headlineCents = dc?.fundValueCents ?? dbFigures?.accruedPensionCents ?? 0;
  const last = await lastStatementBefore(tx, owner, informationDate);
  const lastFigures = last?.figures ?? null;
  const changes = materialChanges(
    lastFigures === null
      ? null
      : {
          retirementAge: lastFigures.retirementAge,
          assumptionsId: lastFigures.dc?.assumptions.id ?? context.assumptions.id,
          accrualRate: lastFigures.db?.accrualRate ?? null,
          headlineCents: lastFigures.dc?.fundValueCents ?? lastFigures.db?.accruedPensionCents ?? 0,
        },
    {
      retirementAge,
      assumptionsId: context.assumptions.id,
      accrualRate: dbFigures?.accrualRate ?? null,
      headlineCents,
    },
  );

  return {
    kind: 'figures',
    figures: {
      firm: context.firm,
      schemeName: scheme.name,
      schemeType: scheme.type,
      memberName: `${member.firstName} ${member.lastName}`,
      dateOfBirth: member.dateOfBirth,
      status,
      retirementAge,
      retirementDate: retirementDateOf(member.dateOfBirth, retirementAge),
      informationDate,
      contact: context.firm,
      year: {
        from: year.from,
        to: year.to,
        memberCents: year.memberCents,
        employerCents: year.employerCents,
        costsCents: year.costsCents,
      },
      dc,
      db: dbFigures,
      prsa,
      changes,
    },
  };
}
