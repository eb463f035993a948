import { z } from 'zod';

/**
 * What a person reads when a field is refused (docs/decisions/0052-form-errors-in-plain-english.md): a short sentence in plain
 * English, never a validator's own text ("Too small: expected string to have >=1 characters").
 *
 * Every rule a person meets in a form carries its own sentence (`FIELD_MESSAGES` below and the
 * shared schemas in this folder). This error map is the floor beneath them: a check written
 * without a sentence, or a request an API client shaped wrongly, still gets a readable answer.
 * No sentence repeats the value it refuses, so a PPS number or a password never travels back in
 * an error body (docs/api.md, "Errors").
 *
 * Installed for the whole process (Zod's configuration is global) by `installPlainEnglish`, which
 * every module of this folder that builds a schema calls through `text.ts`; the server and the
 * browser therefore give the same words for the same rule.
 */

const KIND_OF_VALUE: Record<string, string> = {
  string: 'Enter text',
  number: 'Enter a number',
  int: 'Enter a whole number',
  boolean: 'Choose yes or no',
  array: 'Give a list',
  object: 'Give the fields as an object',
  null: 'Leave this empty',
  date: 'Enter a date',
};

/** A list of choices short enough to read out; longer lists are left to the form's own control. */
const MAX_CHOICES_NAMED = 6;

/**
 * A count and its noun, the noun singular for exactly one: "1 problem", "2 problems",
 * "1,250 rows". Every sentence with a count is written by this one helper, in the browser and the
 * service (test/web/plurals.test.ts keeps the web's pages to it). `many` is for a noun whose plural
 * is not its singular with an s.
 */
export function counted(count: number | bigint, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-IE')} ${nounFor(count, one, many)}`;
}

/** The noun alone, for a count shown apart from it: `one` for exactly one, `many` otherwise. */
export function nounFor(count: number | bigint, one: string, many = `${one}s`): string {
  return count === 1 || count === 1n ? one : many;
}

function characters(count: number | bigint): string {
  return counted(count, 'character');
}

function tooSmall(
  issue: Pick<z.core.$ZodIssueTooSmall, 'origin' | 'minimum' | 'inclusive'>,
): string {
  const { minimum, inclusive } = issue;
  switch (issue.origin) {
    case 'string':
      return Number(minimum) <= 1 ? 'Fill this in' : `Use at least ${characters(minimum)}`;
    case 'number':
    case 'int':
    case 'bigint':
      return inclusive === false ? `Enter more than ${minimum}` : `Enter ${minimum} or more`;
    case 'array':
    case 'set':
      return Number(minimum) <= 1 ? 'Add at least one' : `Add at least ${minimum}`;
    default:
      return 'This is too small';
  }
}

function tooBig(issue: Pick<z.core.$ZodIssueTooBig, 'origin' | 'maximum' | 'inclusive'>): string {
  const { maximum, inclusive } = issue;
  switch (issue.origin) {
    case 'string':
      return `Use at most ${characters(maximum)}`;
    case 'number':
    case 'int':
    case 'bigint':
      return inclusive === false ? `Enter less than ${maximum}` : `Enter ${maximum} or less`;
    case 'array':
    case 'set':
      return `Give at most ${maximum}`;
    case 'file':
      return 'This file is too large';
    default:
      return 'This is too large';
  }
}

function invalidValue(issue: Pick<z.core.$ZodIssueInvalidValue, 'values'>): string {
  const named = issue.values.filter(
    (value) => typeof value === 'string' || typeof value === 'number',
  );
  if (named.length === 0 || named.length > MAX_CHOICES_NAMED) return 'Choose one of the options';
  if (named.length === 1) return `Choose ${String(named[0])}`;
  return `Choose one of: ${named.map(String).join(', ')}`;
}

/** The sentence for an issue that no rule gave a sentence of its own. */
export function plainEnglish(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'This is required';
      return KIND_OF_VALUE[issue.expected] ?? 'This is not the right kind of value';
    case 'too_small':
      return tooSmall(issue);
    case 'too_big':
      return tooBig(issue);
    case 'invalid_value':
      return invalidValue(issue);
    case 'invalid_format':
      return issue.format === 'email' ? FIELD_MESSAGES.email : 'This is not in the expected form';
    case 'not_multiple_of':
      return `Enter a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `Not a field this accepts: ${issue.keys.join(', ')}`;
    case 'invalid_union':
      return 'This is not in any of the accepted forms';
    case 'invalid_key':
    case 'invalid_element':
      return 'Some of these entries are not accepted';
    default:
      return 'This is not accepted';
  }
}

let installed = false;

/** Makes `plainEnglish` the words of every Zod schema in this process (once). */
export function installPlainEnglish(): void {
  if (installed) return;
  installed = true;
  z.config({ customError: plainEnglish });
}

/**
 * The sentences of the rules people meet in forms and files, one place for each, read by the
 * API's schemas, the CSV imports and the browser's forms alike. A sentence stands under its
 * field's label, so it need not name the field unless two fields could be confused.
 */
export const FIELD_MESSAGES = {
  required: 'This is required',
  name: 'Enter a name',
  firstName: 'Enter the first name',
  lastName: 'Enter the last name',
  fundName: 'Enter the fund’s name',
  email: 'Enter an e-mail address, like name@example.ie',
  schemeType: 'Choose a scheme type',
  employer: 'Choose an employer',
  role: 'Choose a role',
  memberForAccount: 'Choose the member this account is for (Member accounts only)',
  controlCharacters: 'Remove the control characters (such as tabs or invisible characters)',
  passwordTooShort: (minimum: number) => `Use at least ${minimum} characters`,
  passwordTooLong: (maximum: number) => `Use at most ${maximum} characters`,
  passwordTooCommon: 'This password is too common: choose one that is harder to guess',
  passwordTooGuessable:
    'This password is too easy to guess: avoid repeats, runs such as abcd or qwerty, and common words with a digit or two. A few unrelated words are better',
  currentPassword: 'Enter your current password',
  wrongCurrentPassword: 'This is not your current password',
  samePassword: 'Choose a new password that differs from your current one',
  passwordsDiffer: 'This does not match the new password',
  isoDate: 'Enter a date as YYYY-MM-DD',
  dayFirstDate: 'Enter the date as DD/MM/YYYY, for example 31/01/1985',
  noSuchDay: 'There is no such date: enter it day first, as DD/MM/YYYY, for example 31/01/1985',
  fileDate: 'Enter a date as DD/MM/YYYY (or YYYY-MM-DD)',
  realDate: 'Enter a date that exists on the calendar',
  dateAfter1900: 'Enter a date after 1900',
  bornInFuture: 'The date of birth cannot be in the future',
  joinedBeforeBirth: 'The date joined cannot be before the date of birth',
  ppsNumber: 'Enter a PPS number: 7 digits and a matching check letter',
  euroAmount: 'Enter an amount in euro with at most two decimals, like 1,250.00',
  signedEuroAmount: 'Enter an amount in euro with at most two decimals, like -25.00 or 10.50',
  ambiguousEuroAmount:
    'Write the cents after a full stop, like 12.50: a comma only separates thousands, as in 1,250.00',
  euroTooLarge: 'Enter an amount no larger than €100,000,000.00',
  wholeCents: 'Enter a whole number of cents',
  notNegative: 'Enter 0 or more: an amount cannot be negative',
  notZero: 'Enter an amount other than zero',
  payPeriod: 'Choose a pay period as YYYY-MM',
  monthFirstPeriod: 'Enter the pay period as MM/YYYY, for example 10/2026',
  filePayPeriod: 'Enter a pay period as YYYY-MM or MM/YYYY',
  periodAfter1950: 'Choose a pay period after 1950',
  reason: 'Say why the correction is made',
  receiptAmount: 'Enter the amount paid: more than €0.00',
  receiptReference: 'Enter the payment’s reference, or leave it out',
  voidReason: 'Say why the receipt is removed',
  calendarYear: 'Enter a year as YYYY, like 2026',
  isin: 'Enter an ISIN: 12 characters, like IE00B4L5Y983',
  wholePercent: 'Enter a whole percentage',
  unitPrice:
    'Enter a unit price in euro with a full stop before at most 6 decimals, below 10,000, like 1.234567',
  unitPriceNotZero: 'Enter a unit price above 0',
  fundNameOrIsin: 'Enter the fund’s name or ISIN',
  annualCharge: (maxBasisPoints: number) =>
    `Enter the annual charge in whole basis points, from 0 to ${maxBasisPoints} (${maxBasisPoints / 100}%)`,
  recordId: 'This does not name a record',
  somethingToChange: 'Change at least one field',
  endAfterStart: 'The last day cannot be before the first day',
  dateAfter1950: 'Enter a date after 1950',
  trusteeKind: 'Choose individual or corporate',
  directorCount: 'Enter the number of directors as a whole number',
  directorsOfCorporateOnly: 'Only a corporate trustee has directors',
  endedBeforeAppointed: 'The end date cannot be before the appointment date',
  keyFunction: 'Choose a key function',
  fitnessAndProbity: 'Choose pending, confirmed or failed',
  policyKind: 'Choose a kind of policy',
  title: 'Enter a title',
  version: 'Enter a version, like 1.0',
  describeChange: 'Describe the change',
  oraTrigger: 'Choose scheduled or significant change',
  croNumber: 'Enter the CRO number in digits only, like 654321',
  employerRegistrationNumber:
    'Enter the employer’s registration number with Revenue: 7 digits and 1 or 2 letters, like 1234567T or 1234567TA',
  payrollFrequency: 'Choose weekly, fortnightly, every four weeks or monthly',
  address: 'Enter the address, or leave it out',
  phone: 'Enter a phone number of 7 to 15 digits, like 091 123 4567 or +353 91 123 4567',
  srNumber:
    'Enter the Pensions Authority’s scheme registration number: SR and its digits, like SR123456',
  contributionRate:
    'Enter a percentage of salary from 0 to 100, with at most two decimals, like 5 or 7.5',
  chair: 'Choose whether the trustee chairs the board',
  approvalReference:
    'Enter the meeting or minute reference of the trustees’ decision, like “Board meeting 12 March 2026, minute 4.2”',
} as const;
