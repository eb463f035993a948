import { type FundPriceRow, type PriceFileProblem, readFundPricesCsv } from './dc-money-rules.js';

/**
 * A prices file read against a scheme's funds (docs/decisions/0127-dc-money.md; docs/imports.md,
 * "Fund prices"): the file read by the one CSV reader, then each row's fund found among the
 * scheme's by name or ISIN and its day held to today. The service records what this reads, all
 * rows or none, and the browser's preview shows the same rows and the same problems before a
 * file is sent.
 */

/**
 * A prices file is read whole: at most MAX_PRICE_ROWS rows (dc-money-rules.ts) of a fund's name,
 * a date and a price, which a fund name of the longest fits in with room to spare.
 */
export const MAX_PRICE_FILE_BYTES = 4 * 1024 * 1024;

export interface SchemeFund {
  id: string;
  name: string;
  isin: string | null;
}

export interface PriceToRecord {
  fundId: string;
  on: string;
  /** The unit price in millionths of a euro. */
  micro: bigint;
}

export type SchemePriceFileReading =
  | { ok: true; prices: PriceToRecord[] }
  | { ok: false; problems: PriceFileProblem[] };

/** The funds a cell names: by name whatever its case, or by ISIN. */
function fundsNamed(cell: string, funds: readonly SchemeFund[]): SchemeFund[] {
  const name = cell.toLowerCase();
  const isin = cell.toUpperCase();
  return funds.filter((fund) => fund.name.trim().toLowerCase() === name || fund.isin === isin);
}

/** The row's fund, or what is wrong with the row. */
function fundOfRow(
  row: FundPriceRow,
  funds: readonly SchemeFund[],
  today: string,
): SchemeFund | string {
  if (row.on > today) return 'Date: the day is after today: give prices for days up to today';
  const named = fundsNamed(row.fund, funds);
  if (named.length === 0) return 'Fund: no fund of this scheme has this name or ISIN';
  if (named.length > 1) {
    return 'Fund: more than one fund of this scheme has this ISIN: give the fund’s name instead';
  }
  return named[0] as SchemeFund;
}

/** The prices a file's text gives for the scheme's funds, or every problem with it by line. */
export function readSchemePriceFile(
  text: string,
  funds: readonly SchemeFund[],
  today: string,
): SchemePriceFileReading {
  const prices: PriceToRecord[] = [];
  const firstGiven = new Map<string, number>();
  const reading = readFundPricesCsv(text, (row) => {
    const fund = fundOfRow(row, funds, today);
    if (typeof fund === 'string') return fund;
    // The reader compares the text of the Fund cells; a fund named once by its name and once by
    // its ISIN is the same fund.
    const key = `${fund.id} ${row.on}`;
    const earlier = firstGiven.get(key);
    if (earlier !== undefined) {
      return `The same fund and date as line ${earlier}: give each fund one price a day`;
    }
    firstGiven.set(key, row.line);
    prices.push({ fundId: fund.id, on: row.on, micro: row.priceMicro });
    return null;
  });
  return reading.ok ? { ok: true, prices } : { ok: false, problems: reading.problems };
}
