import { Readable } from 'node:stream';
import { z } from 'zod';
import { pageQuery } from '../../../contracts/pages.js';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/imports.js';

export const importParams = z.object({ id: idText });
export const schemeImportsQuery = pageQuery;
export type SchemeImportsQuery = z.infer<typeof schemeImportsQuery>;

/**
 * The request body: CSV text, handed to the handler as the stream it arrives as (the route's own
 * content-type parser), so a file is never held in memory whole. The JSON description tells the
 * API reference what to send.
 */
export const csvBody = z.instanceof(Readable).meta({
  description:
    'CSV, UTF-8, comma-separated, headings on the first line (docs/imports.md); at most 25 MiB.',
  type: 'string',
});
