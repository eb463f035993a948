import type { PriceFileProblem } from '../../../contracts/dc-money-rules.js';
import {
  readSchemePriceFile,
  type SchemeFund,
  type SchemePriceFileReading,
} from '../../../contracts/fund-price-file.js';
import { textFaultMessage, UploadText } from '../../platform/uploads/upload-text.js';

/**
 * A prices file of a scheme's funds (docs/decisions/0127-dc-money.md; docs/imports.md, "Fund
 * prices") turned into the prices to record, or every problem with it by line: its bytes decoded
 * as every upload's are, then read against the scheme's funds by the rule the browser's preview
 * runs too (`readSchemePriceFile`). All rows or none.
 */

export type PriceFileReading = SchemePriceFileReading;

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

export type { PriceToRecord } from '../../../contracts/fund-price-file.js';

export function readPriceFile(
  bytes: Buffer,
  funds: readonly SchemeFund[],
  today: string,
): PriceFileReading {
  const { text, problem } = textOf(bytes);
  const reading = readSchemePriceFile(text, funds, today);
  if (reading.ok && problem === null) return reading;
  const problems = [...(problem ? [problem] : []), ...(reading.ok ? [] : reading.problems)];
  return { ok: false, problems: problems.sort((a, b) => a.line - b.line) };
}
