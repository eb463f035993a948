import { z } from 'zod';
import { period } from '../../../contracts/contributions.js';
import { pageQuery } from '../../../contracts/pages.js';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/contributions.js';

export const contributionListQuery = pageQuery.extend({
  from: period.optional(),
  to: period.optional(),
});
export type ContributionListQuery = z.infer<typeof contributionListQuery>;

export const idParams = z.object({ id: idText });
