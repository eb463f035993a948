import { z } from 'zod';
import { idText } from '../../../contracts/text.js';

export * from '../../../contracts/investments.js';

export const idParams = z.object({ id: idText });

/**
 * A prices file as the import route reads it: CSV text (docs/imports.md, "Fund prices"), small
 * enough to be read whole (at most MAX_PRICE_ROWS rows). The description tells the API
 * reference what to send.
 */
export const priceFileBody = z.instanceof(Buffer).meta({
  description:
    'CSV, UTF-8 or Windows-1252, comma-separated, with the headings Fund, Date and Price on the first line.',
  type: 'string',
});
