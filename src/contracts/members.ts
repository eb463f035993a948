import { z } from 'zod';
import { isIsoDate } from './irish-dates.js';
import { LIFECYCLE_STATUSES, type LifecycleStatus } from './member-lifecycle-rules.js';
import { cents } from './money.js';
import { pageQuery } from './pages.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { parsePpsNumber } from './pps-number.js';
import { EMAIL_MAX_LENGTH, EMAIL_MESSAGE, EMAIL_PATTERN, text } from './text.js';

/**
 * Where a member stands in the scheme (docs/decisions/0135-members-lifecycle.md); a member record
 * is created in any of them, for members taken on with their history, and changes only by the
 * lifecycle's steps after that.
 */
export const MEMBER_STATUSES = LIFECYCLE_STATUSES;
export type MemberStatus = LifecycleStatus;

/** A member's status in words, on the pages and in the copy of their data a member downloads. */
export const MEMBER_STATUS_NAMES: Record<MemberStatus, string> = {
  active: 'Active',
  deferred: 'Deferred (left service)',
  retired: 'Retired',
  transferred_out: 'Transferred out',
  refunded: 'Refunded',
  deceased: 'Deceased',
};

/**
 * The rules for a member's fields, shared by the JSON API, the CSV import and the browser, so
 * that a row of a file is held to exactly what a form is. Messages never repeat the value they refuse: a PPS
 * number must not travel back in an error body.
 */

/** `YYYY-MM-DD` that names a real calendar day. */
export const isoDate = text({ max: 32, trim: false })
  .regex(/^\d{4}-\d{2}-\d{2}$/, FIELD_MESSAGES.isoDate)
  .refine(isIsoDate, FIELD_MESSAGES.realDate);

/** The earliest date of birth or joining taken as plausible. */
const EARLIEST_DATE = '1900-01-01';

/**
 * Normalised to upper case without spaces, and only when its check letter holds
 * (docs/decisions/0028-pps-numbers.md).
 */
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

/**
 * Dates that only make sense together: nobody joins a scheme before being born, or is born in the
 * future. "The future" starts tomorrow in Ireland (`todayInIreland` of the service's clock, issue
 * 21, item 2); `today` is null where no clock is at hand (the request schemas, which run before
 * the service), and the service checks the birth date itself.
 */
export function checkMemberDates(
  fields: { dateOfBirth?: string; dateJoined?: string },
  today: string | null,
  context: z.RefinementCtx,
): void {
  if (today !== null && fields.dateOfBirth !== undefined && fields.dateOfBirth > today) {
    context.addIssue({
      code: 'custom',
      path: ['dateOfBirth'],
      message: FIELD_MESSAGES.bornInFuture,
    });
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

/** A new member (docs/api.md, "Members and money"). */
export const memberInput = z
  .object(memberFieldShape)
  .superRefine((fields, context) => checkMemberDates(fields, null, context));
export type MemberInput = z.infer<typeof memberInput>;

/** Any field of a member may be corrected, the PPS number too; the scheme never changes. */
export const memberChange = z
  .object({
    firstName: memberFieldShape.firstName.optional(),
    lastName: memberFieldShape.lastName.optional(),
    dateOfBirth: memberFieldShape.dateOfBirth.optional(),
    email: memberFieldShape.email,
    address: memberFieldShape.address,
    dateJoined: memberFieldShape.dateJoined.optional(),
    salaryCents: memberFieldShape.salaryCents.optional(),
    status: z
      .never({
        error:
          'A member’s status changes by its own steps: leaving, retiring, transferring out, death or rejoining',
      })
      .optional(),
    /** The day the scheme's information was given to the member after joining (s.54). */
    informationSentOn: isoDate
      .refine((value) => value >= EARLIEST_DATE, FIELD_MESSAGES.dateAfter1900)
      .nullable()
      .optional(),
    ppsNumber: memberFieldShape.ppsNumber.optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  })
  .superRefine((change, context) => checkMemberDates(change, null, context));
export type MemberChange = z.infer<typeof memberChange>;

/**
 * A member as every read shows it: the PPS number only as "on file" (docs/api.md, "Members and
 * money").
 */
export const memberView = z.object({
  id: z.string(),
  brokerId: z.string(),
  employerId: z.string(),
  schemeId: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  dateOfBirth: z.string(),
  email: z.string().nullable(),
  address: z.string().nullable(),
  dateJoined: z.string(),
  salaryCents: z.number().int(),
  status: z.enum(MEMBER_STATUSES),
  /** The day of the latest change of status; null when unchanged since joining. */
  statusOn: z.string().nullable(),
  informationSentOn: z.string().nullable(),
  ppsNumberOnFile: z.literal(true),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

/** The one answer that carries a PPS number in plain text (docs/api.md, "Members and money"). */
export const revealedPps = z.object({ ppsNumber: z.string() });

/** GDPR Art. 15 and 20: everything held about one member, in a portable form. */
export const memberExport = z.object({
  exportedAt: z.string(),
  member: memberView,
  ppsNumber: z.object({ onFile: z.literal(true), note: z.string() }),
  scheme: z.object({ id: z.string(), name: z.string(), type: z.string() }),
  employer: z.object({ id: z.string(), name: z.string() }),
  contributions: z.array(
    z.object({
      id: z.string(),
      period: z.string(),
      kind: z.string(),
      originalAmountCents: z.number().int(),
      amountCents: z.number().int(),
      /** The day the money and its schedule arrived, `YYYY-MM-DD`. */
      receivedOn: z.string(),
      recordedAt: z.string(),
      adjustments: z.array(
        z.object({
          deltaCents: z.number().int(),
          /** Staff notes: absent from a Member's own copy. */
          reason: z.string().optional(),
          recordedAt: z.string(),
        }),
      ),
    }),
  ),
  fundChoices: z.array(
    z.object({
      effectiveFrom: z.string(),
      recordedAt: z.string(),
      allocations: z.array(z.object({ fund: z.string(), percent: z.number().int() })),
    }),
  ),
  /**
   * What the member's units are worth on the day of the export (docs/decisions/0127-dc-money.md):
   * units and prices as decimals with 6 places, money in cents; null in a defined benefit scheme,
   * whose members hold no units.
   */
  holdings: z
    .object({
      on: z.string(),
      /** The funds' values, the money waiting to be invested and the money switching. */
      valueCents: z.number().int(),
      funds: z.array(
        z.object({
          fund: z.string(),
          units: z.string(),
          price: z.string(),
          priceOn: z.string(),
          valueCents: z.number().int(),
        }),
      ),
      uninvestedCents: z.number().int(),
      switchingCents: z.number().int(),
    })
    .nullable(),
  /** Every movement of the member's units, newest first; into their funds positive, out negative. */
  unitTransactions: z.array(
    z.object({
      on: z.string(),
      kind: z.string(),
      fund: z.string(),
      units: z.string(),
      price: z.string(),
      amountCents: z.number().int(),
    }),
  ),
  accounts: z.array(
    z.object({ email: z.string(), role: z.string(), status: z.string(), createdAt: z.string() }),
  ),
  /**
   * The requests the member made under the GDPR, as the firm's register holds them, the earliest
   * received first (docs/decisions/0137-data-subject-requests.md): what was asked, when, by when
   * it was due and how it was answered. The staff's free text stays out of it.
   */
  dataRequests: z.array(
    z.object({
      kind: z.string(),
      receivedOn: z.string(),
      dueOn: z.string(),
      status: z.string(),
      closedOn: z.string().nullable(),
      refusalCitation: z.string().nullable(),
    }),
  ),
  /**
   * The documents about the member, every version held, the oldest first: what each is and when it
   * was stored (the files themselves are read through the portal).
   */
  documents: z.array(
    z.object({
      id: z.string(),
      documentType: z.string(),
      title: z.string().nullable(),
      filename: z.string(),
      version: z.number().int(),
      storedAt: z.string(),
    }),
  ),
  /**
   * What was done with the member's data: each action's code and, for a person, its sentence
   * (src/contracts/audit-text.ts) and who acted as the member knows them; when, as ISO 8601, the
   * form every program reads (the readable copy is the CSV, in words and Irish dates).
   */
  processing: z.array(
    z.object({
      /** The audit record's own id, by which the firm finds it in its log. */
      id: z.string(),
      action: z.string(),
      summary: z.string(),
      actorType: z.string(),
      by: z.string(),
      timestamp: z.string(),
    }),
  ),
});
export type MemberExport = z.infer<typeof memberExport>;

/** `GET /api/schemes/:id/members`: a page of a scheme's members, by status or part of a name. */
export const memberListQuery = pageQuery.extend({
  /** Part of a first or last name, any case. */
  q: text({ max: 100 }).min(1).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;
