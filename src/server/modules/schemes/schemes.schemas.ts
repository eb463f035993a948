import { z } from 'zod';
import { SCHEME_TYPES } from '../../../contracts/organisation.js';
import { idText, text } from '../../../contracts/text.js';
import { pageQuery } from '../../http/pagination.js';

export {
  type SchemeChange,
  type SchemeInput,
  schemeChange,
  schemeInput,
} from '../../../contracts/organisation.js';

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
