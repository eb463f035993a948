import { z } from 'zod';
import { pageQuery } from '../../../contracts/pages.js';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/funds.js';

export const fundListQuery = pageQuery.extend({
  includeClosed: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type FundListQuery = z.infer<typeof fundListQuery>;

export const idParams = z.object({ id: idText });
