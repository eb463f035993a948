import { z } from 'zod';
import { fileNamePart } from './file-names.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { DATA_ISSUES, MATERIAL_CHANGES } from './statement-rules.js';
import { idText, text } from './text.js';

/**
 * Pension Benefit Statements as the API reads and answers them
 * (docs/decisions/0141-pension-benefit-statements.md; rules: statement-rules.ts): the projection
 * assumption sets, the runs that prepare a scheme's statements, and each member's statements.
 */

/**
 * A percentage as the API carries it: a number with at most two decimals (`4.5`), kept as whole
 * basis points. Never a float in storage: `4.5` is 450.
 */
function percent(what: string, min: number, max: number) {
  const message = `Enter ${what} as a percentage from ${min} to ${max}, with at most two decimals`;
  return z
    .number({ error: message })
    .min(min, message)
    .max(max, message)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, message);
}

/** A percentage given as a number, in basis points. */
export const basisPointsOf = (percentage: number) => Math.round(percentage * 100);
/** Basis points as the API answers them: 450 is 4.5. */
export const percentOf = (basisPoints: number) => basisPoints / 100;

const ANNUITY_MESSAGE =
  'Enter the annuity factor: what €1 a year of pension costs, from 1 to 100, with at most two decimals';

export const statementAssumptionsInput = z.object({
  name: text({ max: 120 }).min(1, 'Name the assumption set'),
  /** The first information date the set is for. */
  effectiveFrom: isoDate,
  /** Where the assumptions come from: the Pensions Authority's guidance, and its date. */
  source: text({ max: 500 }).min(1, 'Say where the assumptions come from'),
  bestEstimateReturnPct: percent('the best-estimate return', -10, 20),
  unfavourableReturnPct: percent('the unfavourable return', -10, 20),
  inflationPct: percent('inflation', 0, 20),
  salaryGrowthPct: percent('salary growth', 0, 20),
  annuityFactor: z
    .number({ error: ANNUITY_MESSAGE })
    .min(1, ANNUITY_MESSAGE)
    .max(100, ANNUITY_MESSAGE)
    .refine((value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, ANNUITY_MESSAGE),
});
export type StatementAssumptionsInput = z.infer<typeof statementAssumptionsInput>;

/** A change to a set not yet used by any run; a used set answers 409. */
export const statementAssumptionsChange = statementAssumptionsInput
  .partial()
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: 'Change at least one field',
  });
export type StatementAssumptionsChange = z.infer<typeof statementAssumptionsChange>;

export const statementAssumptionsView = z.object({
  id: z.string(),
  /**
   * Whose the set is: the platform's, which every firm may use, or the reader's firm's own (a
   * firm never sees another's).
   */
  owner: z.enum(['platform', 'firm']),
  name: z.string(),
  /** 1 for the first set of a name, then 2, 3, … for each set given the same name again. */
  version: z.number().int(),
  effectiveFrom: z.string(),
  source: z.string(),
  bestEstimateReturnPct: z.number(),
  unfavourableReturnPct: z.number(),
  inflationPct: z.number(),
  salaryGrowthPct: z.number(),
  annuityFactor: z.number(),
  /** Whether a run within the reader's reach has used the set: from then on it is never edited. */
  used: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StatementAssumptionsView = z.infer<typeof statementAssumptionsView>;

export const statementAssumptionsQuery = pageQuery;
export type StatementAssumptionsQuery = z.infer<typeof statementAssumptionsQuery>;

export const RUN_STATUSES = ['queued', 'running', 'ready', 'approved', 'issued', 'failed'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

export const RUN_STATUS_NAMES: Record<RunStatus, string> = {
  queued: 'Queued',
  running: 'Preparing',
  ready: 'Ready for the trustees',
  approved: 'Approved',
  issued: 'Issued',
  failed: 'Failed',
};

/**
 * Whether a run finished and made no statement (docs/decisions/0141-pension-benefit-statements.md,
 * "Runs"): every member's data failed its checks, or the scheme had no one to make one for. Such a
 * run has nothing for the trustees to approve, and it holds no information date: once the records
 * are corrected a new run for the same date is made. A run still queued or running may yet make
 * some, so it is not one.
 */
export function runMadeNothing(run: { status: RunStatus; done: number }): boolean {
  return run.status !== 'queued' && run.status !== 'running' && run.done === 0;
}

/**
 * Whether a run holds its scheme's information date, so that no other run is started for it:
 * one under way, or one that made statements. A failed run, or one that made nothing, holds none.
 */
export function runHoldsItsDate(run: { status: RunStatus; done: number }): boolean {
  return run.status !== 'failed' && !runMadeNothing(run);
}

export const statementRunInput = z.object({
  /** The date the statements' information refers to, shown prominently on each. */
  informationDate: isoDate,
  /** The date by which members must have their statements. */
  membersBy: isoDate,
  assumptionsId: idText,
});
export type StatementRunInput = z.infer<typeof statementRunInput>;

/** One member's data problems, found before any statement is made; nothing is guessed. */
export const runIssue = z.object({
  memberId: z.string(),
  issues: z.array(z.enum(Object.keys(DATA_ISSUES) as [keyof typeof DATA_ISSUES])),
  /** Each problem in words. */
  words: z.array(z.string()),
});
export type RunIssue = z.infer<typeof runIssue>;

export const statementRunView = z.object({
  id: z.string(),
  schemeId: z.string(),
  informationDate: z.string(),
  membersBy: z.string(),
  /** A month before members must have them: when the trustees are to have the statements. */
  trusteesBy: z.string(),
  assumptionsId: z.string(),
  status: z.enum(RUN_STATUSES),
  /** Members whose statement is made in this run: those whose data passed its checks. */
  total: z.number().int(),
  done: z.number().int(),
  failed: z.number().int(),
  issues: z.array(runIssue),
  approvedAt: z.string().nullable(),
  issuedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type StatementRunView = z.infer<typeof statementRunView>;

export const statementRunQuery = pageQuery;

/** What a statement says, figure by figure, as the PDF and the member's page show it. */
export const statementFigures = z.object({
  /** The firm that administers the scheme: whom the member contacts. */
  firm: z.string(),
  schemeName: z.string(),
  schemeType: z.enum(['DB', 'DC', 'PRSA', 'RAC']),
  memberName: z.string(),
  dateOfBirth: z.string(),
  status: z.enum(['active', 'deferred']),
  retirementAge: z.number().int(),
  retirementDate: z.string(),
  informationDate: z.string(),
  contact: z.string(),
  year: z.object({
    from: z.string(),
    to: z.string(),
    memberCents: z.number().int(),
    employerCents: z.number().int(),
    costsCents: z.number().int(),
  }),
  dc: z
    .object({
      funds: z.array(
        z.object({
          fundName: z.string(),
          units: z.string(),
          price: z.string(),
          valueCents: z.number().int(),
        }),
      ),
      fundValueCents: z.number().int(),
      /**
       * Of the fund value, money not in a fund at the information date: received and awaiting a
       * price, or paid for a pay period up to the date and received after it. Absent from
       * statements made before it was shown.
       */
      awaitingInvestmentCents: z.number().int().optional(),
      annualContributionCents: z.number().int(),
      chargeBasisPoints: z.number(),
      years: z.number().int(),
      bestEstimate: z.object({ fundCents: z.number().int(), pensionCents: z.number().int() }),
      unfavourable: z.object({ fundCents: z.number().int(), pensionCents: z.number().int() }),
      assumptions: z.object({
        id: z.string(),
        name: z.string(),
        version: z.number().int(),
        source: z.string(),
        bestEstimateReturnPct: z.number(),
        unfavourableReturnPct: z.number(),
        inflationPct: z.number(),
        salaryGrowthPct: z.number(),
        annuityFactor: z.number(),
      }),
    })
    .nullable(),
  db: z
    .object({
      accrualRate: z.string(),
      pensionableSalaryCents: z.number().int(),
      serviceMonths: z.number().int(),
      accruedPensionCents: z.number().int(),
      projectedPensionCents: z.number().int(),
      fundingLevelPct: z.number(),
    })
    .nullable(),
  prsa: z
    .object({
      from: z.string(),
      to: z.string(),
      openingCents: z.number().int(),
      contributionsCents: z.number().int(),
      costsCents: z.number().int(),
      investmentReturnCents: z.number().int(),
      closingCents: z.number().int(),
    })
    .nullable(),
  changes: z.array(z.enum(Object.keys(MATERIAL_CHANGES) as [keyof typeof MATERIAL_CHANGES])),
});
export type StatementFigures = z.infer<typeof statementFigures>;

export const statementView = z.object({
  id: z.string(),
  runId: z.string(),
  memberId: z.string(),
  schemeId: z.string(),
  informationDate: z.string(),
  /** The member's document once issued: read through the documents' signed link. */
  documentId: z.string().nullable(),
  issuedAt: z.string().nullable(),
  /** Whether the member asked for paper: the statement is marked for printing. */
  paper: z.boolean(),
  figures: statementFigures,
});
export type StatementView = z.infer<typeof statementView>;

/**
 * A member's request for their statement on paper, recorded by the firm's staff: `true` marks the
 * statement for printing, `false` takes it off the run's printing list (the member changed their
 * mind, or asked by mistake).
 */
export const statementPaperInput = z.object({
  paper: z.boolean({ error: 'Say whether the member asked for the statement on paper' }),
});
export type StatementPaperInput = z.infer<typeof statementPaperInput>;

/** One statement of a run's printing list: whom to post it to is read from the member's record. */
export const paperStatementView = z.object({
  id: z.string(),
  memberId: z.string(),
  memberName: z.string(),
  issuedAt: z.string().nullable(),
});
export type PaperStatementView = z.infer<typeof paperStatementView>;

/**
 * The file name a statement's PDF is downloaded under: the member's surname and first name and the
 * statement's information date (`pension-benefit-statement-o-suilleabhain-aoife-2026-10-31.pdf`),
 * so that a firm's downloads of a run's statements are told apart by member and a member's by
 * year. ASCII only, as every download's name is (`fileNamePart`).
 */
export function statementFileName(statement: {
  informationDate: string;
  firstName: string;
  lastName: string;
}): string {
  const surname = fileNamePart(statement.lastName, 'member');
  const first = fileNamePart(statement.firstName, 'member');
  return `pension-benefit-statement-${surname}-${first}-${statement.informationDate}.pdf`;
}

export const statementListQuery = pageQuery;
export const runStatementsQuery = pageQuery;
