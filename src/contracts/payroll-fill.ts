import type { ContributionKind } from './contributions.js';
import { contributionAfterLeaving } from './member-lifecycle-rules.js';

/**
 * Helpers that fill the payroll grid before a person saves it
 * (docs/decisions/0152-payroll-grid-fills.md): last month's amounts copied, and the employee and
 * employer contributions as a percentage of salary. The one rule for the web page and any other
 * caller; whole cents and whole basis points only, never floating-point money
 * (docs/decisions/0100-one-money-rule.md).
 */

/** A salary is a year's; a pay period of the grid is a month (`YYYY-MM`). */
const MONTHS_IN_A_YEAR = 12;
/** 100% in basis points. */
const WHOLE_BASIS_POINTS = 10_000;

/**
 * A month's contribution at a rate of an annual salary, in whole cents: salary × rate ÷ 12,
 * rounded to the nearest cent, a half cent up. Integer arithmetic throughout: the largest salary a
 * member may have (contracts/money.ts, MAX_CENTS) times 100% stays well within a safe integer.
 */
export function monthlyContributionCents(annualSalaryCents: number, basisPoints: number): number {
  const numerator = annualSalaryCents * basisPoints;
  const denominator = MONTHS_IN_A_YEAR * WHOLE_BASIS_POINTS;
  return Math.floor((2 * numerator + denominator) / (2 * denominator));
}

/** The pay period before `period`: `2026-03` gives `2026-02`, `2026-01` gives `2025-12`. */
export function previousPeriod(period: string): string {
  const year = Number(period.slice(0, 4));
  const month = Number(period.slice(5, 7));
  return month === 1
    ? `${String(year - 1).padStart(4, '0')}-12`
    : `${period.slice(0, 4)}-${String(month - 1).padStart(2, '0')}`;
}

type Cell = { amountCents: number } | null;

/** A row of the grid as the fills read it. */
export interface FillRow {
  memberId: string;
  status: string;
  statusOn: string | null;
  salaryCents: number;
  employee: Cell;
  employer: Cell;
  avc: Cell;
}

/** Amounts a fill proposes, by member and kind, in cents; the person may still change each one. */
export type Filled = Record<string, Partial<Record<ContributionKind, number>>>;

/**
 * Whether a fill may propose an amount for this cell: a cell already recorded for the period
 * keeps its amount (changing it is a correction, a person's deliberate act with its reason), and a
 * member who stopped before the period takes nothing (`contributionAfterLeaving`).
 */
function open(row: FillRow, kind: ContributionKind, period: string): boolean {
  return row[kind] === null && !contributionAfterLeaving(row, period);
}

/**
 * Last month's recorded amounts, corrections applied, for the members in this month's grid: each
 * kind a member had, in each cell still open. Members new this month, and kinds they had none of,
 * are left as they are.
 */
export function copyFromPeriod(
  rows: readonly FillRow[],
  previous: readonly Pick<FillRow, 'memberId' | 'employee' | 'employer' | 'avc'>[],
  period: string,
): Filled {
  const before = new Map(previous.map((row) => [row.memberId, row]));
  const filled: Filled = {};
  for (const row of rows) {
    const last = before.get(row.memberId);
    if (!last) continue;
    for (const kind of ['employee', 'employer', 'avc'] as const) {
      const cell = last[kind];
      if (cell === null || !open(row, kind, period)) continue;
      filled[row.memberId] = { ...filled[row.memberId], [kind]: cell.amountCents };
    }
  }
  return filled;
}

/** The rates a percentage fill applies, in basis points; a kind without one is not filled. */
export interface FillRates {
  employee: number | null;
  employer: number | null;
}

/**
 * The employee and employer contributions as a percentage of each member's salary, in each open
 * cell, by `monthlyContributionCents`. A member without a salary on record is left as they are.
 */
export function fillFromSalary(rows: readonly FillRow[], rates: FillRates, period: string): Filled {
  const filled: Filled = {};
  for (const row of rows) {
    if (row.salaryCents <= 0) continue;
    for (const kind of ['employee', 'employer'] as const) {
      const rate = rates[kind];
      if (rate === null || !open(row, kind, period)) continue;
      filled[row.memberId] = {
        ...filled[row.memberId],
        [kind]: monthlyContributionCents(row.salaryCents, rate),
      };
    }
  }
  return filled;
}
