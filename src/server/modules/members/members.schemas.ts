import { z } from 'zod';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { idText, text } from '../../../contracts/text.js';
import { MEMBER_STATUSES } from '../../db/schema.js';
import { pageQuery } from '../../http/pagination.js';
import { checkMemberDates, memberFieldShape } from './member-fields.js';

export { type MemberInput, memberInput } from './member-fields.js';

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
    status: z.enum(MEMBER_STATUSES).optional(),
    ppsNumber: memberFieldShape.ppsNumber.optional(),
  })
  .refine((change) => Object.values(change).some((value) => value !== undefined), {
    message: FIELD_MESSAGES.somethingToChange,
  })
  .superRefine((change, context) => checkMemberDates(change, null, context));
export type MemberChange = z.infer<typeof memberChange>;

/** A member as every read shows it: the PPS number only as "on file" (decisions.md §5). */
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
  ppsNumberOnFile: z.literal(true),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MemberView = z.infer<typeof memberView>;

export const memberParams = z.object({ id: idText });
export const schemeMembersParams = z.object({ id: idText });

export const memberListQuery = pageQuery.extend({
  /** Part of a first or last name, any case. */
  q: text({ max: 100 }).min(1).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;

/** The one answer that carries a PPS number in plain text (decisions.md §4). */
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
  accounts: z.array(
    z.object({ email: z.string(), role: z.string(), status: z.string(), createdAt: z.string() }),
  ),
  processing: z.array(
    z.object({ action: z.string(), actorType: z.string(), timestamp: z.string() }),
  ),
});
export type MemberExport = z.infer<typeof memberExport>;
