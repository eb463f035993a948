import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/ai.js';
export { type PageQuery, pageQuery } from '../../../contracts/pages.js';

export const idParams = z.object({ id: idText });
