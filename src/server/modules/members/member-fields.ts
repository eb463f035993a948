import { z } from 'zod';
import { isIsoDate, todayInIreland } from '../../../contracts/irish-dates.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, EMAIL_PATTERN, text } from '../../../contracts/text.js';
import { MEMBER_STATUSES } from '../../db/schema.js';
import { ValidationError } from '../../http/http-error.js';
import { parsePpsNumber } from './pps-number.js';

/**
 * The rules for a member's fields, shared by the JSON API and the CSV import so that a row of a
 * file is held to exactly what a form is. Messages never repeat the value they refuse: a PPS
 * number must not travel back in an error body.
 */

/** `YYYY-MM-DD` that names a real calendar day. */
export const isoDate = text({ max: 32, trim: false })
  .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.isoDate)
  .refine(isIsoDate, FIELD_MESSAGES.realDate);

/** The earliest date of birth or joining taken as plausible. */
const EARLIEST_DATE = '1900-01-01';

/** Normalised to upper case without spaces, and only when its check letter holds (domain.md). */
export const ppsNumber = text({
  max: 20,
  trim: false,
  tooLong: FIELD_MESSAGES.ppsNumber,
}).transform((value, context) => {
  const parsed = parsePpsNumber(value);
  if (parsed === null) {
    context.addIssue({
      code: 'custom',
      message: FIELD_MESSAGES.ppsNumber,
    });
    return z.NEVER;
  }
  return parsed;
});

/** Euro cents as a whole number; a year's salary above €100 million is a typing mistake. */
export const cents = z
  .number()
  .int(FIELD_MESSAGES.wholeCents)
  .min(0, FIELD_MESSAGES.notNegative)
  .max(10_000_000_000);

/** No minimum length: an empty cell of the CSV import is `null` before it gets here. */
export const memberEmail = text({ max: EMAIL_MAX_LENGTH }).regex(EMAIL_PATTERN, EMAIL_MESSAGE);

const personName = (message: string) => text({ max: 100 }).min(1, message);

export const memberFieldShape = {
  firstName: personName(FIELD_MESSAGES.firstName),
  lastName: personName(FIELD_MESSAGES.lastName),
  dateOfBirth: isoDate.refine((value) => value >= EARLIEST_DATE, FIELD_MESSAGES.dateAfter1900),
  email: memberEmail.nullable().optional(),
  address: text({ max: 500, multiline: true }).nullable().optional(),
  dateJoined: isoDate.refine((value) => value >= EARLIEST_DATE, FIELD_MESSAGES.dateAfter1900),
  salaryCents: cents,
  status: z.enum(MEMBER_STATUSES).default('active'),
  ppsNumber,
};

const BORN_IN_FUTURE = FIELD_MESSAGES.bornInFuture;

/**
 * Dates that only make sense together: nobody joins a scheme before being born, or is born in the
 * future. "The future" starts tomorrow in Ireland (`todayInIreland` of the service's clock, issue
 * 21, item 2); `today` is null where no clock is at hand (the request schemas, which run before
 * the service), and the service checks the birth date itself (`refuseFutureBirth`).
 */
export function checkMemberDates(
  fields: { dateOfBirth?: string; dateJoined?: string },
  today: string | null,
  context: z.RefinementCtx,
): void {
  if (today !== null && fields.dateOfBirth !== undefined && fields.dateOfBirth > today) {
    context.addIssue({ code: 'custom', path: ['dateOfBirth'], message: BORN_IN_FUTURE });
  }
  if (
    fields.dateOfBirth !== undefined &&
    fields.dateJoined !== undefined &&
    fields.dateJoined < fields.dateOfBirth
  ) {
    context.addIssue({
      code: 'custom',
      path: ['dateJoined'],
      message: FIELD_MESSAGES.joinedBeforeBirth,
    });
  }
}

/**
 * The one member rule that needs a clock, applied by the service with its own (`now`), so that
 * the day is the day in Ireland at the request's time and a test can set that time.
 */
export function refuseFutureBirth(dateOfBirth: string | undefined, at: Date): void {
  if (dateOfBirth !== undefined && dateOfBirth > todayInIreland(at)) {
    throw new ValidationError([{ path: 'dateOfBirth', code: 'custom', message: BORN_IN_FUTURE }]);
  }
}

/** A new member (decisions.md §4 field names). */
export const memberInput = z
  .object(memberFieldShape)
  .superRefine((fields, context) => checkMemberDates(fields, null, context));
export type MemberInput = z.infer<typeof memberInput>;
