import { z } from 'zod';
import { pageQuery } from '../../../contracts/pages.js';
import { idText, text } from '../../../contracts/text.js';

export * from '../../../contracts/organisation.js';

export const schemeParams = z.object({ id: idText });
export const schemeListQuery = pageQuery.extend({
  employerId: text({ max: 64, trim: false }).optional(),
});
export type SchemeListQuery = z.infer<typeof schemeListQuery>;
