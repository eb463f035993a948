import {
  type FundPriceRow,
  type PriceFileProblem,
  readFundPricesCsv,
} from '../../../contracts/dc-money-rules.js';
import { textFaultMessage, UploadText } from '../../platform/uploads/upload-text.js';

/**
 * A prices file of a scheme's funds (docs/decisions/0127-dc-money.md; docs/imports.md, "Fund
 * prices") turned into the prices to record, or every problem with it by line: the file read by
 * the one reader the browser's preview runs too (`readFundPricesCsv`), then each row's fund found
 * among the scheme's by name or ISIN and its day held to today. All rows or none.
 */

export interface SchemeFund {
  id: string;
  name: string;
  isin: string | null;
}

export interface PriceToRecord {
  fundId: string;
  on: string;
  micro: bigint;
}

export type PriceFileReading =
  | { ok: true; prices: PriceToRecord[] }
  | { ok: false; problems: PriceFileProblem[] };

/** The file's text, UTF-8 or Windows-1252 as the other uploads are read (upload-text.ts). */
function textOf(bytes: Buffer): { text: string; problem: PriceFileProblem | null } {
  const decoder = new UploadText();
  const first = decoder.write(bytes);
  const foundInFirst = decoder.fault;
  const text = first + decoder.end();
  const fault = decoder.fault;
  if (fault === null) return { text, problem: null };
  const before = foundInFirst ? first.slice(0, fault.at) : text.slice(0, first.length + fault.at);
  const line = before.split('\n').length;
  return {
    text,
    problem: {
      line,
      message: textFaultMessage(fault, line),
    },
  };
}

/** The funds a cell names: by name whatever its case, or by ISIN. */
function fundsNamed(cell: string, funds: readonly SchemeFund[]): SchemeFund[] {
  const name = cell.toLowerCase();
  const isin = cell.toUpperCase();
  return funds.filter((fund) => fund.name.trim().toLowerCase() === name || fund.isin === isin);
}

export function readPriceFile(
  bytes: Buffer,
  funds: readonly SchemeFund[],
  today: string,
): PriceFileReading {
  const { text, problem } = textOf(bytes);
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
  if (reading.ok && problem === null) return { ok: true, prices };
  const problems = [...(problem ? [problem] : []), ...(reading.ok ? [] : reading.problems)];
  return { ok: false, problems: problems.sort((a, b) => a.line - b.line) };
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
