import { z } from 'zod';
import {
  type BrokerUserInput,
  type ColleagueInput,
  type EmployerUserInput,
  recordName,
} from '../../../contracts/organisation.js';
import { pageQuery } from '../../../contracts/pages.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import { idText } from '../../../contracts/text.js';
import { ROLES } from '../../tenancy/roles.js';

export {
  brokerUserInput,
  colleagueInput,
  type EmployerUserInput,
  employerUserInput,
} from '../../../contracts/organisation.js';
export type { ColleagueInput };
export type NewUserInput = BrokerUserInput | EmployerUserInput | ColleagueInput;

export const userChange = z
  .object({ name: recordName.optional(), status: z.enum(['active', 'deactivated']).optional() })
  .refine((change) => change.name !== undefined || change.status !== undefined, {
    message: FIELD_MESSAGES.somethingToChange,
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
