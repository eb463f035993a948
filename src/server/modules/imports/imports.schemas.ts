import { z } from 'zod';
import { pageQuery } from '../../../contracts/pages.js';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/imports.js';

export const importParams = z.object({ id: idText });
export const schemeImportsQuery = pageQuery;
export type SchemeImportsQuery = z.infer<typeof schemeImportsQuery>;
