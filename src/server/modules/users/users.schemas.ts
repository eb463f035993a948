import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords.js';
import { pageQuery } from '../../http/pagination.js';
import { emailAddress, idText, text } from '../../http/text.js';
import { ROLES } from '../../tenancy/roles.js';

const email = emailAddress;
const name = text({ max: 200 }).min(1);
/**
 * Optional: without one, the new user is invited by e-mail to choose it (decisions.md §4). Only
 * the platform's SuperAdmin may choose a password for someone (docs/decisions.md, issue 21).
 */
const password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .optional();
/**
 * A firm's own accounts are always invited: a client that sends a password is told so rather
 * than having it silently dropped.
 */
const noPassword = z
  .undefined({
    error: 'Accounts are invited by e-mail: the person chooses their own password',
  })
  .optional();

/** decisions.md §4; the tenant comes from the path, which only a SuperAdmin may name. */
export const brokerUserInput = z.object({
  email,
  name,
  role: z.enum(['BrokerAdmin', 'BrokerUser']),
  password,
});
/** POST /api/users: a BrokerAdmin invites a colleague into their own firm (issue 21). */
export const colleagueInput = z.object({
  email,
  name,
  role: z.enum(['BrokerUser']),
  password: noPassword,
});

/**
 * An employer's accounts: its administrators and users, and Member accounts, each linked to the
 * one member record (of this employer) it may see.
 */
export const employerUserInput = z
  .object({
    email,
    name,
    role: z.enum(['EmployerAdmin', 'EmployerUser', 'Member']),
    password: noPassword,
    memberId: idText.optional(),
  })
  .superRefine((input, context) => {
    if ((input.role === 'Member') !== (input.memberId !== undefined)) {
      context.addIssue({
        code: 'custom',
        path: ['memberId'],
        message: 'is required for a Member account, and only for one',
      });
    }
  });
export type EmployerUserInput = z.infer<typeof employerUserInput>;
export type ColleagueInput = z.infer<typeof colleagueInput>;
export type NewUserInput = z.infer<typeof brokerUserInput> | EmployerUserInput | ColleagueInput;

export const userChange = z
  .object({ name: name.optional(), status: z.enum(['active', 'deactivated']).optional() })
  .refine((change) => change.name !== undefined || change.status !== undefined, {
    message: 'name or status is required',
  });
export type UserChange = z.infer<typeof userChange>;

export const userView = z.object({
  id: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  brokerId: z.string().nullable(),
  employerId: z.string().nullable(),
  memberId: z.string().nullable(),
  /** 'invited' until the person sets their password through the invitation (issue 21). */
  status: z.enum(['invited', 'active', 'deactivated']),
  /** While invited: when the invitation link stops working (a resend renews it). */
  invitedUntil: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type UserView = z.infer<typeof userView>;

/** `/api/me`: the account, with the names the header shows (issue 21, item 9). */
export const meView = userView.extend({
  firmName: z.string().nullable(),
  employerName: z.string().nullable(),
});
export type MeView = z.infer<typeof meView>;

export const userParams = z.object({ id: idText });
export const userListQuery = pageQuery;
