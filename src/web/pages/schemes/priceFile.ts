import { fileSizeInWords } from '../../../contracts/file-size';
import {
  MAX_PRICE_FILE_BYTES,
  readSchemePriceFile,
  type SchemeFund,
  type SchemePriceFileReading,
} from '../../../contracts/fund-price-file';
import { wholeTextOf } from '../imports/csvPreview';

/**
 * A prices file as the service will read it, before it is sent: decoded by the uploads' one rule
 * (csvPreview.ts), then read
 * against the scheme's funds by the service's own reader (contracts/fund-price-file.ts), so the
 * preview shows the same prices and the same problems at the same lines. A prices file is small
 * enough to be read whole.
 */
export async function readPriceFileToSend(
  file: Blob,
  funds: readonly SchemeFund[],
  today: string,
): Promise<SchemePriceFileReading> {
  if (file.size > MAX_PRICE_FILE_BYTES) {
    return {
      ok: false,
      problems: [
        {
          line: 1,
          message: `The file is larger than ${fileSizeInWords(MAX_PRICE_FILE_BYTES)}: send the prices in parts`,
        },
      ],
    };
  }
  return readSchemePriceFile(await wholeTextOf(file), funds, today);
}
