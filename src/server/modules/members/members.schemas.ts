import { z } from 'zod';
import { MEMBER_STATUSES } from '../../../contracts/members.js';
import { pageQuery } from '../../../contracts/pages.js';
import { idText, text } from '../../../contracts/text.js';

export * from '../../../contracts/members.js';

export const memberParams = z.object({ id: idText });
export const schemeMembersParams = z.object({ id: idText });

export const memberListQuery = pageQuery.extend({
  /** Part of a first or last name, any case. */
  q: text({ max: 100 }).min(1).optional(),
  status: z.enum(MEMBER_STATUSES).optional(),
});
export type MemberListQuery = z.infer<typeof memberListQuery>;
