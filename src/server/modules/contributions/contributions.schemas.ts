import { z } from 'zod';
import { period } from '../../../contracts/contributions.js';
import { idText } from '../../../contracts/text.js';
import { pageQuery } from '../../http/pagination.js';

export * from '../../../contracts/contributions.js';

export const contributionListQuery = pageQuery.extend({
  from: period.optional(),
  to: period.optional(),
});
export type ContributionListQuery = z.infer<typeof contributionListQuery>;

export const idParams = z.object({ id: idText });
