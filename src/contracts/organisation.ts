import { isCuid } from '@paralleldrive/cuid2';
import { z } from 'zod';
import { leiText } from './lei.js';
import { isoDate } from './members.js';
import { pageQuery } from './pages.js';
import { newPassword } from './passwords.js';
import { rateBasisPoints } from './percent.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { NORMAL_RETIREMENT_AGES, readAccrualRate } from './scheme-terms.js';
import { SCHEME_STATUSES, WIND_UP_REASONS } from './scheme-wind-up.js';
import { emailAddress, idText, phoneNumber, text } from './text.js';

/**
 * The request bodies of the firm's structure (brokers, employers, schemes, accounts), validated
 * by the API and by the browser's forms with these same schemas, so that both say the same
 * sentence for the same rule (docs/decisions/0052-form-errors-in-plain-english.md). Field names are docs/api.md's.
 */

/** The four kinds of scheme: defined benefit, defined contribution, PRSA and RAC. */
export const SCHEME_TYPES = ['DB', 'DC', 'PRSA', 'RAC'] as const;
export type SchemeType = (typeof SCHEME_TYPES)[number];

export const SCHEME_TYPE_NAMES: Record<SchemeType, string> = {
  DB: 'Defined benefit',
  DC: 'Defined contribution',
  PRSA: 'Personal Retirement Savings Account',
  RAC: 'Retirement Annuity Contract',
};

/**
 * What an RAC is: held under trust, it is an IORP (Directive (EU) 2016/2341, Art. 6(1)) with
 * governance registers; an individual contract with an insurer is not, like a PRSA.
 */
export const RAC_KINDS = ['trust', 'contract'] as const;
export type RacKind = (typeof RAC_KINDS)[number];

export const RAC_KIND_NAMES: Record<RacKind, string> = {
  trust: 'Trust RAC (an IORP)',
  contract: 'Individual contract with an insurer',
};

/** The last day of a scheme's year when none is given (docs/decisions/0122-the-scheme-year.md). */
export const DEFAULT_YEAR_END = '12-31';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;

/**
 * A scheme year's last day, `MM-DD`. 29 February is refused: it would not exist in three years of
 * four, and a scheme year ends on the same day every year.
 */
const yearEnd = text({ max: 5, trim: false })
  .regex(/^\d{2}-\d{2}$/, 'Enter the year end as month and day, like 12-31')
  .refine((value) => {
    const month = Number(value.slice(0, 2));
    const day = Number(value.slice(3, 5));
    return month >= 1 && month <= 12 && day >= 1 && day <= (DAYS_IN_MONTH[month - 1] ?? 0);
  }, 'Enter a day that every year has, like 12-31 or 03-31');

const racKind = z.enum(RAC_KINDS, {
  error: 'Choose whether the RAC is held under trust or is an individual contract',
});

/** The name of a firm, an employer, a scheme or a person: 1 to 200 characters. */
export const recordName = text({ max: 200 }).min(1, FIELD_MESSAGES.name);

const schemeType = z.enum(SCHEME_TYPES, { error: FIELD_MESSAGES.schemeType });

/** A reference to a record the person picked from a list. */
const pickedRecord = (message: string) =>
  text({ max: 64, trim: false, tooLong: message })
    .min(1, { abort: true, message })
    .refine((value) => isCuid(value), message);

/** A record that is only a name as it is made or renamed: a broker firm, a new employer. */
export const recordNameInput = z.object({ name: recordName });
export type RecordNameInput = z.infer<typeof recordNameInput>;

export const brokerInput = recordNameInput;
export type BrokerInput = z.infer<typeof brokerInput>;

/**
 * `PUT /api/brokers/:brokerId/lei`: the firm's own LEI, or null to clear it
 * (docs/decisions/0139-dora-ict-incidents.md, "The register of information").
 */
export const brokerLeiInput = z.object({ lei: leiText.nullable() });
export type BrokerLeiInput = z.infer<typeof brokerLeiInput>;

/**
 * How often an employer runs its payroll: the pay frequencies of Irish payrolls
 * (docs/decisions/0132-employer-and-scheme-details.md).
 */
export const PAYROLL_FREQUENCIES = ['weekly', 'fortnightly', 'four_weekly', 'monthly'] as const;
export type PayrollFrequency = (typeof PAYROLL_FREQUENCIES)[number];

export const PAYROLL_FREQUENCY_NAMES: Record<PayrollFrequency, string> = {
  weekly: 'Weekly',
  fortnightly: 'Fortnightly',
  four_weekly: 'Every four weeks',
  monthly: 'Monthly',
};

/**
 * A reference written in a given form, as people type it: spaces dropped and letters in capitals
 * before `pattern` is asked, and kept that way. `max` bounds the text before anything else runs
 * (docs/decisions/0034-linear-patterns.md); no message repeats the value.
 */
const reference = (max: number, pattern: RegExp, message: string) =>
  text({ max, tooLong: message }).transform((value, context) => {
    const compact = value.replace(/\s+/g, '').toUpperCase();
    const match = pattern.exec(compact);
    if (match === null) {
      context.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return match[1] ?? compact;
  });

/** The Companies Registration Office's number of a company: its digits (Companies Act 2014). */
const croNumber = reference(20, /^\d{1,8}$/, FIELD_MESSAGES.croNumber);

/**
 * The number Revenue registers an employer for PAYE under: 7 digits and 1 or 2 letters
 * (`1234567T`, `1234567TA`). Its form only: the PPS number's check letter (pps-number.ts) is not
 * known to hold for an employer's number, and a check that did not hold would refuse real ones
 * (docs/decisions/0132-employer-and-scheme-details.md).
 */
const employerRegistrationNumber = reference(
  20,
  /^\d{7}[A-Z]{1,2}$/,
  FIELD_MESSAGES.employerRegistrationNumber,
);

/** A postal address, on as many lines as it takes. */
const postalAddress = text({ max: 500, multiline: true }).min(1, FIELD_MESSAGES.address);

const payrollFrequency = z.enum(PAYROLL_FREQUENCIES, { error: FIELD_MESSAGES.payrollFrequency });

/**
 * An employer's details as a broker keeps them (docs/decisions/0132-employer-and-scheme-details.md),
 * each optional and null for none. The contact's name, e-mail address and phone are a person's
 * data: the audit log names them when they change and keeps no value of them
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md), nor of the address and the
 * Revenue number, which of a sole trader are a person's too.
 */
const employerDetailsShape = {
  croNumber: croNumber.nullable().optional(),
  employerRegistrationNumber: employerRegistrationNumber.nullable().optional(),
  registeredAddress: postalAddress.nullable().optional(),
  contactName: recordName.nullable().optional(),
  contactEmail: emailAddress.nullable().optional(),
  contactPhone: phoneNumber.nullable().optional(),
  payrollFrequency: payrollFrequency.nullable().optional(),
};

/** The details of an employer that are a person's data, kept out of the audit log's states. */
export const EMPLOYER_PERSONAL_DETAILS = [
  'employerRegistrationNumber',
  'registeredAddress',
  'contactName',
  'contactEmail',
  'contactPhone',
] as const satisfies readonly (keyof typeof employerDetailsShape)[];

/** A new employer: its name, and any of its details. */
export const employerInput = z.object({ name: recordName, ...employerDetailsShape });
export type EmployerInput = z.infer<typeof employerInput>;

/** A change to an employer: a new name, details given or changed, details cleared with null. */
export const employerChange = z
  .object({ name: recordName.optional(), ...employerDetailsShape })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  });
export type EmployerChange = z.infer<typeof employerChange>;

/**
 * The Pensions Authority's registration number of a scheme (Pensions Act 1990 s.60): `SR` and its
 * digits, stored so; the digits alone are read as the same number.
 */
const srNumber = reference(20, /^(?:SR)?(\d{1,8})$/, FIELD_MESSAGES.srNumber).transform(
  (digits) => `SR${digits}`,
);

/** The day a scheme began. */
const schemeStartDate = isoDate.refine(
  (value) => value >= '1900-01-01',
  FIELD_MESSAGES.dateAfter1900,
);

const NORMAL_RETIREMENT_AGE_MESSAGE = `Enter the normal retirement age in whole years, from ${NORMAL_RETIREMENT_AGES.from} to ${NORMAL_RETIREMENT_AGES.to}`;
const ACCRUAL_RATE_MESSAGE = 'Enter the accrual rate as a fraction of salary a year, such as 1/60';
const FUNDING_LEVEL_MESSAGE =
  'Enter the funding level as a percentage from 0 to 1000, with at most two decimals';

/**
 * A scheme's details as a broker keeps them (docs/decisions/0132-employer-and-scheme-details.md),
 * each optional and null for none: its registration with the Pensions Authority, the day it
 * began, and what employee and employer pay in, as whole basis points of salary (percent.ts).
 */
const schemeDetailsShape = {
  srNumber: srNumber.nullable().optional(),
  /**
   * The scheme's Legal Entity Identifier as an IORP, its row in the register of information
   * (docs/decisions/0139-dora-ict-incidents.md, "The register of information"); null clears it.
   */
  lei: leiText.nullable().optional(),
  startDate: schemeStartDate.nullable().optional(),
  employeeContributionBasisPoints: rateBasisPoints.nullable().optional(),
  employerContributionBasisPoints: rateBasisPoints.nullable().optional(),
  /**
   * Whether the scheme's rules refund a leaver with under 2 years' qualifying service their own
   * contributions, less tax (docs/decisions/0135-members-lifecycle.md); true when left out.
   */
  refundsAllowed: z.boolean().optional(),
  /**
   * What a Pension Benefit Statement projects to (docs/decisions/0141-pension-benefit-statements.md):
   * the scheme's normal retirement age, and a DB scheme's accrual rate and funding level.
   */
  normalRetirementAge: z
    .number({ error: NORMAL_RETIREMENT_AGE_MESSAGE })
    .int(NORMAL_RETIREMENT_AGE_MESSAGE)
    .min(NORMAL_RETIREMENT_AGES.from, NORMAL_RETIREMENT_AGE_MESSAGE)
    .max(NORMAL_RETIREMENT_AGES.to, NORMAL_RETIREMENT_AGE_MESSAGE)
    .nullable()
    .optional(),
  accrualRate: text({ max: 9 })
    .refine((value) => readAccrualRate(value) !== null, ACCRUAL_RATE_MESSAGE)
    .nullable()
    .optional(),
  fundingLevelPct: z
    .number({ error: FUNDING_LEVEL_MESSAGE })
    .min(0, FUNDING_LEVEL_MESSAGE)
    .max(1000, FUNDING_LEVEL_MESSAGE)
    .refine(
      (value) => Math.abs(value * 100 - Math.round(value * 100)) < 1e-9,
      FUNDING_LEVEL_MESSAGE,
    )
    .nullable()
    .optional(),
};

/**
 * Why a scheme of `type` cannot have an accrual rate or a funding level, or null when it can:
 * they are a DB scheme's alone.
 */
export function dbTermsProblem(
  type: SchemeType,
  terms: { accrualRate?: string | null; fundingLevelPct?: number | null },
): { path: 'accrualRate' | 'fundingLevelPct'; message: string } | null {
  if (type === 'DB') return null;
  if (terms.accrualRate != null) {
    return { path: 'accrualRate', message: 'Only a DB scheme has an accrual rate' };
  }
  if (terms.fundingLevelPct != null) {
    return { path: 'fundingLevelPct', message: 'Only a DB scheme has a funding level' };
  }
  return null;
}

/** A new scheme: its employer's id (a CUID2), a name of 1 to 200 characters, and its kind. */
export const schemeInput = z
  .object({
    employerId: pickedRecord(FIELD_MESSAGES.employer),
    name: recordName,
    type: schemeType,
    /** The scheme year's last day; 31 December when left out. */
    yearEnd: yearEnd.optional(),
    /** Required of an RAC, and of nothing else. */
    racKind: racKind.optional(),
    ...schemeDetailsShape,
  })
  .superRefine((input, context) => {
    const message = racKindProblem(input.type, input.racKind ?? null);
    if (message) context.addIssue({ code: 'custom', path: ['racKind'], message });
  });
export type SchemeInput = z.infer<typeof schemeInput>;

/** The employer of a scheme never changes: a scheme moving employer is a new scheme. */
export const schemeChange = z
  .object({
    name: recordName.optional(),
    type: schemeType.optional(),
    yearEnd: yearEnd.optional(),
    /** An RAC's kind; a scheme that becomes an RAC names it, one that stops being one drops it. */
    racKind: racKind.optional(),
    /**
     * The open fund of the scheme that money goes to when a member has made no fund choice
     * (docs/decisions/0127-dc-money.md); null for none.
     */
    defaultFundId: idText.nullable().optional(),
    ...schemeDetailsShape,
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  });

/**
 * Why a scheme of `type` cannot have `racKind`, or null when it can: an RAC names its kind, and
 * no other scheme has one. Asked of a new scheme and of a scheme as a change would leave it.
 */
export function racKindProblem(type: SchemeType, kind: RacKind | null): string | null {
  if (type === 'RAC' && kind === null) {
    return 'Choose whether the RAC is held under trust or is an individual contract';
  }
  if (type !== 'RAC' && kind !== null) return 'Only an RAC is a trust or a contract';
  return null;
}
export type SchemeChange = z.infer<typeof schemeChange>;

/**
 * Only the platform's SuperAdmin may choose a password for someone (docs/decisions/0044-invitations.md);
 * without one, the new user is invited by e-mail to choose it (docs/decisions/0044-invitations.md).
 */
const chosenPassword = newPassword.optional();

/**
 * A firm's own accounts are always invited: a client that sends a password is told so rather
 * than having it silently dropped.
 */
const noPassword = z
  .undefined({ error: 'Accounts are invited by e-mail: the person chooses their own password' })
  .optional();

const role = <const T extends readonly [string, ...string[]]>(roles: T) =>
  z.enum(roles, { error: FIELD_MESSAGES.role });

/** The tenant comes from the path, which only a SuperAdmin may name (docs/api.md, "The firm's structure"). */
export const brokerUserInput = z.object({
  email: emailAddress,
  name: recordName,
  role: role(['BrokerAdmin', 'BrokerUser']),
  password: chosenPassword,
});
export type BrokerUserInput = z.infer<typeof brokerUserInput>;

/**
 * POST /api/users: a BrokerAdmin invites a colleague into their own firm, a second administrator
 * or a member of staff (docs/decisions/0143-who-invites-whom.md).
 */
export const colleagueInput = z.object({
  email: emailAddress,
  name: recordName,
  role: role(['BrokerAdmin', 'BrokerUser']),
  password: noPassword,
});
export type ColleagueInput = z.infer<typeof colleagueInput>;

/**
 * An employer's accounts: its administrators and users, and Member accounts, each linked to the
 * one member record (of this employer) it may see.
 */
export const employerUserInput = z
  .object({
    email: emailAddress,
    name: recordName,
    role: role(['EmployerAdmin', 'EmployerUser', 'Member']),
    password: noPassword,
    memberId: idText.optional(),
  })
  .superRefine((input, context) => {
    if ((input.role === 'Member') !== (input.memberId !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['memberId'],
        message: FIELD_MESSAGES.memberForAccount,
      });
    }
  });
export type EmployerUserInput = z.infer<typeof employerUserInput>;

export const brokerView = z.object({
  id: z.string(),
  name: z.string(),
  /**
   * The firm's LEI, the entity maintaining its register of information; null until given.
   * Optional as a scheme's `defaultFundId` is.
   */
  lei: z.string().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BrokerView = z.infer<typeof brokerView>;

export const employerView = z.object({
  id: z.string(),
  brokerId: z.string(),
  name: z.string(),
  croNumber: z.string().nullable(),
  employerRegistrationNumber: z.string().nullable(),
  registeredAddress: z.string().nullable(),
  contactName: z.string().nullable(),
  contactEmail: z.string().nullable(),
  contactPhone: z.string().nullable(),
  payrollFrequency: z.enum(PAYROLL_FREQUENCIES).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type EmployerView = z.infer<typeof employerView>;

export const schemeView = z.object({
  id: z.string(),
  brokerId: z.string(),
  employerId: z.string(),
  name: z.string(),
  type: z.enum(SCHEME_TYPES),
  /** The scheme year's last day, `MM-DD`. */
  yearEnd: z.string(),
  racKind: z.enum(RAC_KINDS).nullable(),
  /**
   * The fund money goes to when a member has made no fund choice; null for none. The service
   * always answers it; it is optional only so that schemes the web UI's own tests write out
   * before this field still type-check.
   */
  defaultFundId: z.string().nullable().optional(),
  /** `SR` and digits. */
  srNumber: z.string().nullable(),
  /** The scheme's LEI, 20 characters; null until given. Optional as `defaultFundId` is. */
  lei: z.string().nullable().optional(),
  /** `YYYY-MM-DD`. */
  startDate: z.string().nullable(),
  /** Whole basis points of salary: 500 is 5%. */
  employeeContributionBasisPoints: z.number().int().nullable(),
  employerContributionBasisPoints: z.number().int().nullable(),
  /** Whether the scheme's rules refund a short-service leaver; optional as `defaultFundId` is. */
  refundsAllowed: z.boolean().optional(),
  /**
   * `active`, or `wound_up` from `woundUpOn` for `windUpReason`
   * (docs/decisions/0146-schemes-wound-up-not-deleted.md); optional as `defaultFundId` is.
   */
  status: z.enum(SCHEME_STATUSES).optional(),
  woundUpOn: z.string().nullable().optional(),
  windUpReason: z.enum(WIND_UP_REASONS).nullable().optional(),
  /** The age statements project to; null until given. Optional as `defaultFundId` is. */
  normalRetirementAge: z.number().int().nullable().optional(),
  /** A DB scheme's accrual rate, `1/60`; null otherwise. */
  accrualRate: z.string().nullable().optional(),
  /** A DB scheme's funding level, a percentage (`95.5`); null otherwise. */
  fundingLevelPct: z.number().nullable().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SchemeView = z.infer<typeof schemeView>;

/**
 * One scheme as its own page reads it (`GET` and `PATCH /api/schemes/:id`): its record, and
 * whether any member belongs to it, deleted ones included, which fixes its type
 * (`schemeTypeFixedBecause`).
 */
export const schemeDetailView = schemeView.extend({
  hasMembers: z.boolean(),
  /** What was said of a wind-up, kept with the scheme and never in the audit log. */
  windUpNote: z.string().nullable().optional(),
});
export type SchemeDetailView = z.infer<typeof schemeDetailView>;

/**
 * A scheme's type never changes once members belong to it, since their contributions, benefits
 * and governance duties follow from it. Deleted members count too: their records are kept under
 * the scheme as it was. Why the scheme's type cannot change, or null when
 * it can: the service refuses a change of type with this sentence, and the scheme's form shows
 * the type read-only with it (docs/decisions/0131-what-people-read.md).
 */
export function schemeTypeFixedBecause(scheme: { hasMembers: boolean }): string | null {
  return scheme.hasMembers ? "A scheme's type cannot change once it has members" : null;
}

/** `GET /api/schemes`: a page of the schemes within reach, or of one employer's. */
export const schemeListQuery = pageQuery.extend({
  employerId: text({ max: 64, trim: false }).optional(),
});
export type SchemeListQuery = z.infer<typeof schemeListQuery>;
