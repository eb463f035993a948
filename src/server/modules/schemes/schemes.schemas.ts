import { isCuid } from '@paralleldrive/cuid2';
import { z } from 'zod';
import { SCHEME_TYPES } from '../../db/schema.js';
import { pageQuery } from '../../http/pagination.js';
import { idText, text } from '../../http/text.js';

const cuid2 = idText.refine((value) => isCuid(value), 'must be a CUID2 id');
const name = text({ max: 200 }).min(1);

/** service-spec §2.5 and §4: employerId a CUID2, name 1 to 200 characters, type one of four. */
export const schemeInput = z.object({
  employerId: cuid2,
  name,
  type: z.enum(SCHEME_TYPES),
});
export type SchemeInput = z.infer<typeof schemeInput>;

/** The employer of a scheme never changes: a scheme moving employer is a new scheme. */
export const schemeChange = z
  .object({ name: name.optional(), type: z.enum(SCHEME_TYPES).optional() })
  .refine((change) => change.name !== undefined || change.type !== undefined, {
    message: 'name or type is required',
  });
export type SchemeChange = z.infer<typeof schemeChange>;

export const schemeView = z.object({
  id: z.string(),
  brokerId: z.string(),
  employerId: z.string(),
  name: z.string(),
  type: z.enum(SCHEME_TYPES),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SchemeView = z.infer<typeof schemeView>;

export const schemeParams = z.object({ id: idText });
export const schemeListQuery = pageQuery.extend({
  employerId: text({ max: 64, trim: false }).optional(),
});
export type SchemeListQuery = z.infer<typeof schemeListQuery>;
