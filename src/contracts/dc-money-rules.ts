import { z } from 'zod';
import { CsvReader, isTooWide, MAX_ROW_CHARACTERS, rowShape, spreadsheetColumn } from './csv.js';
import { MAX_FUND_NAME, percentLines } from './fund-shapes.js';
import { headingKey } from './imports.js';
import { formatIrishDate, lastDayOfMonth, readIrishDate } from './irish-dates.js';
import { isoDate } from './members.js';
import { FIELD_MESSAGES } from './plain-english.js';
import { productPolicy, type RuleSource } from './rule-sources.js';
import { hasControlCharacters, text } from './text.js';

/**
 * The money of a defined contribution (DC) scheme held in funds (docs/decisions/0127-dc-money.md):
 * unit prices and units as exact decimals, the units a sum of money buys or sells, money shared
 * across a fund choice, the monthly charge, a file of prices and the request bodies that carry
 * prices and switches. Pure code, shared by the server and the browser, so a page shows exactly the
 * units and cents the service records.
 *
 * Money stays in whole cents (src/contracts/money.ts). Unit prices and units have up to 6 decimal
 * places and are never floats: in code they are `bigint` millionths ("micro"), in text and JSON a
 * decimal string (`1.234500`), and every sum here is integer arithmetic on bigint.
 */

/** Decimal places of a unit price and of a number of units. */
export const UNIT_DECIMALS = 6;
/** Millionths in one: a price or a number of units of 1 is this many micro. */
export const MICRO = 1_000_000n;

/*
 * Decimals.
 */

/**
 * The highest unit price, €9,999.999999: a price is below €10,000. The bound is what makes units
 * reconcile to the cent (see `unitsFor`): units are kept to a millionth, so a number of units is
 * off by at most half a millionth, and at a price below €10,000 that is less than half a cent.
 * No fund is priced near it; a price in the tens of thousands is a typing mistake.
 */
export const MAX_UNIT_PRICE_MICRO = 10_000n * MICRO - 1n;

/**
 * Longer text is refused before any pattern runs (docs/decisions/0034-linear-patterns.md): a price
 * has at most 11 characters (`9999.999999`), with room for spaces around it; a CSV cell may be
 * 64 KiB.
 */
export const MAX_UNIT_PRICE_TEXT = 32;

/** One to four whole digits, then at most six decimals after a full stop; nothing else. */
const UNIT_PRICE = /^(\d{1,4})(?:\.(\d{1,6}))?$/;

export type DecimalReading = { ok: true; micro: bigint } | { ok: false; message: string };

/**
 * A unit price as a fund manager or a person writes it, in micro: digits with a full stop before
 * at most 6 decimals (`1`, `1.2345`, `9999.999999`), spaces around it ignored. Refused, never
 * guessed: commas (a thousands separator or a decimal comma), an exponent, a sign, a currency sign,
 * 10,000 or more, and zero. The message of a refusal never repeats the text.
 */
export function readUnitPrice(input: string): DecimalReading {
  if (input.length > MAX_UNIT_PRICE_TEXT) return { ok: false, message: FIELD_MESSAGES.unitPrice };
  const match = UNIT_PRICE.exec(input.trim());
  if (!match) return { ok: false, message: FIELD_MESSAGES.unitPrice };
  const micro =
    BigInt(match[1] as string) * MICRO + BigInt((match[2] ?? '').padEnd(UNIT_DECIMALS, '0'));
  if (micro === 0n) return { ok: false, message: FIELD_MESSAGES.unitPriceNotZero };
  return { ok: true, micro };
}

/** Micro as a decimal with always 6 places: `1.234500`, `-0.000001`, `0.000000`. */
export function formatDecimal6(micro: bigint): string {
  const negative = micro < 0n;
  const magnitude = negative ? -micro : micro;
  const decimals = String(magnitude % MICRO).padStart(UNIT_DECIMALS, '0');
  return `${negative ? '-' : ''}${magnitude / MICRO}.${decimals}`;
}

/**
 * A unit price in a request body: a decimal string by the rule of `readUnitPrice` (a JSON number
 * is refused, as it may already have been rounded by binary floating point), given on as the same
 * price written to 6 places (`1.2345` becomes `1.234500`).
 */
export const unitPrice = text({ max: MAX_UNIT_PRICE_TEXT, tooLong: FIELD_MESSAGES.unitPrice })
  .min(1, FIELD_MESSAGES.unitPrice)
  .transform((value, context) => {
    const reading = readUnitPrice(value);
    if (!reading.ok) {
      context.addIssue({ code: 'custom', message: reading.message });
      return z.NEVER;
    }
    return formatDecimal6(reading.micro);
  });

/*
 * Units bought or sold for money.
 */

/**
 * `numerator / denominator` rounded to the nearest whole number, a half away from zero;
 * `denominator` is positive.
 */
function roundedQuotient(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const magnitude = negative ? -numerator : numerator;
  let quotient = magnitude / denominator;
  if ((magnitude % denominator) * 2n >= denominator) quotient += 1n;
  return negative ? -quotient : quotient;
}

/**
 * 10^10: a cent is 10^4 millionths of a euro, and a millionth of a unit costs a millionth of the
 * price, so units (micro) = cents × 10^10 / price (micro), and cents = units × price / 10^10.
 */
const CENTS_TO_UNITS_MICRO = (MICRO * MICRO) / 100n;

function checkPrice(priceMicro: bigint): void {
  if (priceMicro <= 0n || priceMicro > MAX_UNIT_PRICE_MICRO) {
    throw new RangeError('A unit price is above 0 and below 10,000');
  }
}

/**
 * The units, in micro, that `amountCents` buys at `priceMicro`, rounded half away from zero to 6
 * places (DC_MONEY_RULES.unitsRounding). A negative amount (a correction) gives negative units:
 * units sold, rounded the same way as the units the same positive amount would buy.
 *
 * Units reconcile to the money: `valueCents(unitsFor(a, p), p) === a` for every whole amount `a`
 * and every price `p` up to MAX_UNIT_PRICE_MICRO. In micro, the exact units are
 * `x = a × 10^10 / p`, and `unitsFor` gives `u` with `|u − x| ≤ 1/2` (half a millionth of a unit).
 * `valueCents` rounds `u × p / 10^10 = a + (u − x) × p / 10^10`, and since `p < 10^10` the part
 * after `a` is strictly less than 1/2 in size: the nearest whole number is `a` itself, with no tie
 * to break. In euro: half a millionth of a unit at a price below €10,000 is under half a cent.
 */
export function unitsFor(amountCents: number, priceMicro: bigint): bigint {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError('An amount is whole cents');
  checkPrice(priceMicro);
  return roundedQuotient(BigInt(amountCents) * CENTS_TO_UNITS_MICRO, priceMicro);
}

/** Units times price in whole cents, rounded half away from zero. */
export function valueCents(unitsMicro: bigint, priceMicro: bigint): number {
  checkPrice(priceMicro);
  const cents = roundedQuotient(unitsMicro * priceMicro, CENTS_TO_UNITS_MICRO);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER) || cents < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('A value beyond whole cents a number holds exactly');
  }
  return Number(cents);
}

/*
 * Splitting money across a fund choice.
 */

export interface PercentLine {
  fundId: string;
  /** Whole percent; the lines of one split add up to 100. */
  percent: number;
}

export interface FundAmount {
  fundId: string;
  amountCents: number;
}

/**
 * `amountCents` shared across a fund choice, every cent placed (DC_MONEY_RULES.splitRounding):
 * each fund first gets the whole cents of its share (toward zero for a negative amount), then the
 * cents left over, fewer than there are lines, go one each to the funds with the largest
 * remainders, the earlier line first on a tie. The parts add up to the amount exactly, each is
 * within a cent of its exact share, and they come in the lines' order. The percentages are whole
 * and add up to 100, as a fund choice's do (`percentLines` in funds.ts); anything else is a fault
 * of the caller.
 */
export function splitByPercent(
  amountCents: number,
  lines: ReadonlyArray<PercentLine>,
): FundAmount[] {
  if (!Number.isSafeInteger(amountCents)) throw new RangeError('An amount is whole cents');
  let total = 0;
  for (const line of lines) {
    if (!Number.isInteger(line.percent) || line.percent < 0) {
      throw new RangeError('A share is a whole percentage, 0 or more');
    }
    total += line.percent;
  }
  if (total !== 100) throw new RangeError('The percentages of a split add up to 100');

  const negative = amountCents < 0;
  const parts = sharesOf(
    BigInt(Math.abs(amountCents)),
    lines.map((line) => BigInt(line.percent)),
    100n,
  );
  return lines.map((line, index) => {
    const cents = Number(parts[index] as bigint);
    return { fundId: line.fundId, amountCents: negative && cents !== 0 ? -cents : cents };
  });
}

/**
 * `amount` (0 or more whole cents) shared in proportion to `weights`, whose sum is `total`: each
 * share first gets its whole cents, then the cents left over, fewer than there are shares, go one
 * each to the shares with the largest remainders, the earlier share first on a tie. The shares add
 * up to the amount exactly and each is within a cent of its exact part.
 */
function sharesOf(amount: bigint, weights: readonly bigint[], total: bigint): bigint[] {
  const parts = weights.map((weight) => {
    const exact = amount * weight;
    return { cents: exact / total, remainder: exact % total };
  });
  let left = parts.reduce((rest, part) => rest - part.cents, amount);
  const byRemainder = parts
    .map((_, index) => index)
    .sort((a, b) => {
      const first = (parts[a] as (typeof parts)[number]).remainder;
      const second = (parts[b] as (typeof parts)[number]).remainder;
      return first === second ? a - b : first > second ? -1 : 1;
    });
  for (const index of byRemainder) {
    if (left === 0n) break;
    (parts[index] as (typeof parts)[number]).cents += 1n;
    left -= 1n;
  }
  return parts.map((part) => part.cents);
}

/** Units of a fund held, and the price they would sell at. */
export interface FundHolding {
  fundId: string;
  unitsMicro: bigint;
  priceMicro: bigint;
}

/** Units sold out of a fund for money: both negative, as money out of a member's funds is. */
export interface FundSale {
  fundId: string;
  unitsMicro: bigint;
  amountCents: number;
}

/**
 * `amountCents` (0 or more) sold out of what a member holds (DC_MONEY_RULES.negativeCorrections):
 * each fund gives a part pro rata to the value of its units at its price, every cent placed as
 * `splitByPercent` places them (the whole cents of each share, then the cents left over one each
 * to the largest remainders, the earlier fund first on a tie), and sells the units that part buys
 * back (`unitsFor`), so each sale reconciles to the cent. No part is more than its fund is worth,
 * so no fund sells more units than it has: a part that is the whole of its fund's value sells
 * every unit. Where everything held is worth no more than the amount, every unit is sold, each
 * fund for its value, and the sales come to less than the amount: the rest is the caller's to keep
 * as money owed. Sales come in the funds' order; a fund that gives nothing has none.
 */
export function sellByValue(amountCents: number, held: ReadonlyArray<FundHolding>): FundSale[] {
  if (!Number.isSafeInteger(amountCents) || amountCents < 0) {
    throw new RangeError('An amount to sell is whole cents, 0 or more');
  }
  const funds = held
    .filter((fund) => fund.unitsMicro > 0n)
    .map((fund) => ({ ...fund, valueCents: valueCents(fund.unitsMicro, fund.priceMicro) }));
  const sellAll = (fund: (typeof funds)[number]): FundSale => ({
    fundId: fund.fundId,
    unitsMicro: -fund.unitsMicro,
    // 0 - x, not -x: units worth less than half a cent sell for 0 cents, never -0.
    amountCents: 0 - fund.valueCents,
  });
  const worth = funds.reduce((total, fund) => total + BigInt(fund.valueCents), 0n);
  const amount = BigInt(amountCents);
  if (worth <= amount) return funds.map(sellAll);

  const shares = sharesOf(
    amount,
    funds.map((fund) => BigInt(fund.valueCents)),
    worth,
  );
  const sales: FundSale[] = [];
  funds.forEach((fund, index) => {
    const cents = Number(shares[index] as bigint);
    if (cents === 0) return;
    if (cents >= fund.valueCents) {
      sales.push(sellAll(fund));
      return;
    }
    // Less than the whole value buys back fewer units than are held: the units are off their
    // exact value by at most half a millionth, worth less than half a cent below €10,000.
    const units = unitsFor(cents, fund.priceMicro);
    sales.push(
      units < fund.unitsMicro
        ? { fundId: fund.fundId, unitsMicro: -units, amountCents: -cents }
        : sellAll(fund),
    );
  });
  return sales;
}

/*
 * The monthly charge.
 */

/** The highest annual management charge a scheme's fund may carry: 500 basis points, 5%. */
export const MAX_ANNUAL_CHARGE_BASIS_POINTS = 500;

/** Basis points in one, and months in a year: a month's charge is units × bps / 120,000. */
const BASIS_POINTS_A_MONTH = 10_000n * 12n;

/** An annual charge in the words a fund factsheet uses: `1.50% a year`, or `None`. */
export function annualChargeWords(basisPoints: number): string {
  if (basisPoints === 0) return 'None';
  return `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, '0')}% a year`;
}

/** An annual management charge in a request body: whole basis points, 0 to 500. */
export const annualChargeBasisPoints = z
  .number({ error: FIELD_MESSAGES.annualCharge(MAX_ANNUAL_CHARGE_BASIS_POINTS) })
  .int(FIELD_MESSAGES.annualCharge(MAX_ANNUAL_CHARGE_BASIS_POINTS))
  .min(0, FIELD_MESSAGES.annualCharge(MAX_ANNUAL_CHARGE_BASIS_POINTS))
  .max(MAX_ANNUAL_CHARGE_BASIS_POINTS, FIELD_MESSAGES.annualCharge(MAX_ANNUAL_CHARGE_BASIS_POINTS));

/**
 * The units, in micro, a month's charge cancels from a holding of `unitsMicro`
 * (DC_MONEY_RULES.annualCharge): a twelfth of the annual basis points, rounded half away from
 * zero to 6 places; nothing for no charge or no units.
 */
export function monthlyChargeUnits(unitsMicro: bigint, annualChargeBasisPoints: number): bigint {
  if (
    !Number.isInteger(annualChargeBasisPoints) ||
    annualChargeBasisPoints < 0 ||
    annualChargeBasisPoints > MAX_ANNUAL_CHARGE_BASIS_POINTS
  ) {
    throw new RangeError('An annual charge is whole basis points, 0 to 500');
  }
  return roundedQuotient(unitsMicro * BigInt(annualChargeBasisPoints), BASIS_POINTS_A_MONTH);
}

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** The day a month's charge is taken: the month's last day, `YYYY-MM-DD`, of a `YYYY-MM`. */
export function chargeDayOf(month: string): string {
  const match = month.length === 7 ? MONTH.exec(month) : null;
  if (!match) throw new RangeError('A month is written YYYY-MM');
  return lastDayOfMonth(month);
}

/*
 * A file of prices.
 */

/** A file of more price rows is refused: a year of daily prices for forty funds fits. */
export const MAX_PRICE_ROWS = 10_000;

/** The columns of a prices file, each by the one heading it is known by. */
export const PRICE_COLUMNS = { fund: 'Fund', on: 'Date', price: 'Price' } as const;
type PriceColumn = keyof typeof PRICE_COLUMNS;

/** No heading is longer; a longer heading cell is unknown without being read. */
const MAX_HEADING = 100;

export interface FundPriceRow {
  /** The line the row starts on; the heading row is line 1. */
  line: number;
  /** The fund's name or ISIN as the file writes it, trimmed. */
  fund: string;
  /** `YYYY-MM-DD`. */
  on: string;
  priceMicro: bigint;
  /** The price written to 6 places, `1.234500`. */
  price: string;
}

export interface PriceFileProblem {
  line: number;
  /** A sentence that never quotes a cell of a row. */
  message: string;
}

export type FundPricesReading =
  | { ok: true; rows: FundPriceRow[] }
  | { ok: false; problems: PriceFileProblem[] };

const COLUMN_OF_KEY = new Map<string, PriceColumn>(
  (Object.keys(PRICE_COLUMNS) as PriceColumn[]).map((column) => [
    headingKey(PRICE_COLUMNS[column]),
    column,
  ]),
);

const COLUMN_LIST = `${PRICE_COLUMNS.fund}, ${PRICE_COLUMNS.on} and ${PRICE_COLUMNS.price}`;

/**
 * A heading cell the file has that is not one of the columns, by its text when it looks like a
 * heading (letters and a little punctuation), else by its place: a file without its heading row
 * starts with a row of prices.
 */
function unknownHeading(cell: string, index: number): string {
  return cell.length <= 60 && /^[\p{L}][\p{L} ._()&'/-]{0,59}$/u.test(cell)
    ? cell
    : spreadsheetColumn(index);
}

/** A whole number with its thousands separated by commas: `10,000`. */
const grouped = (count: number) => String(count).replace(/\B(?=(\d{3})+$)/g, ',');

const capitalised = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);

/** The headings' places, and a problem for each unknown, repeated or missing heading. */
function readPriceHeadings(
  cells: readonly string[],
  line: number,
  problems: PriceFileProblem[],
): Map<PriceColumn, number> {
  const places = new Map<PriceColumn, number>();
  cells.forEach((raw, index) => {
    const heading = raw.trim();
    if (heading === '') return;
    const column =
      heading.length <= MAX_HEADING ? COLUMN_OF_KEY.get(headingKey(heading)) : undefined;
    if (column === undefined) {
      problems.push({
        line,
        message: `${capitalised(unknownHeading(heading, index))} is not a column of a prices file: its columns are ${COLUMN_LIST}`,
      });
    } else if (places.has(column)) {
      problems.push({
        line,
        message: `${capitalised(spreadsheetColumn(index))} repeats the ${PRICE_COLUMNS[column]} column`,
      });
    } else places.set(column, index);
  });
  for (const column of Object.keys(PRICE_COLUMNS) as PriceColumn[]) {
    if (!places.has(column)) {
      problems.push({
        line,
        message: `The heading row has no ${PRICE_COLUMNS[column]} column: a prices file has the columns ${COLUMN_LIST}`,
      });
    }
  }
  return places;
}

/** A cell's problem, said under its column's heading. */
const inColumn = (line: number, column: PriceColumn, message: string): PriceFileProblem => ({
  line,
  message: `${PRICE_COLUMNS[column]}: ${message}`,
});

function fundOf(cell: string): { ok: true; value: string } | { ok: false; message: string } {
  // A fund's name or ISIN: no fund has a longer name.
  if (cell.length > MAX_FUND_NAME) {
    return { ok: false, message: `Use at most ${MAX_FUND_NAME} characters` };
  }
  if (cell === '') return { ok: false, message: FIELD_MESSAGES.fundNameOrIsin };
  if (hasControlCharacters(cell)) return { ok: false, message: FIELD_MESSAGES.controlCharacters };
  return { ok: true, value: cell };
}

function dateOf(cell: string): { ok: true; value: string } | { ok: false; message: string } {
  const reading = readIrishDate(cell);
  if (reading.ok) return reading;
  return {
    ok: false,
    message: reading.reason === 'no_such_day' ? FIELD_MESSAGES.realDate : FIELD_MESSAGES.fileDate,
  };
}

/**
 * A file of unit prices (docs/decisions/0127-dc-money.md), read with the one CSV reader
 * (src/contracts/csv.ts) so the browser's preview and the service find the same problems. Its
 * columns are `Fund` (the fund's name or ISIN as written; which of the scheme's funds it names is
 * the service's to find), `Date` (`YYYY-MM-DD` or `DD/MM/YYYY`, as the other imports read dates)
 * and `Price` (`readUnitPrice`). Headings match whatever their case, spacing and punctuation, as
 * the other imports' do, in any order. A heading that is none of these refuses the file, as the
 * other imports refuse an unknown heading: a column ignored might say the prices are not what they
 * seem (a bid price beside an offer price, another currency).
 *
 * All rows or none: either every row is read, or the answer lists every problem at once, each by
 * its line (the heading row is line 1) in line order: each unknown, repeated or missing heading,
 * each row that is not valid CSV, each bad cell, a row with more cells than headings (its cells
 * then not checked, as they may be under the wrong headings), and a fund and date given twice
 * (the fund compared whatever its case), at the later line. A file of more than
 * MAX_PRICE_ROWS rows is refused at the first row past the limit, and the rows after it are not
 * checked.
 *
 * `checkRow`, where given, is asked of each row read without a problem, in line order, and what
 * it answers is that row's problem, among the others at once: the service finds each row's fund
 * among the scheme's this way (docs/decisions/0127-dc-money.md).
 */
export function readFundPricesCsv(
  input: string,
  checkRow?: (row: FundPriceRow) => string | null,
): FundPricesReading {
  const problems: PriceFileProblem[] = [];
  const rows: FundPriceRow[] = [];
  // Set as the reader hands over rows: typed so that the checks after reading see that.
  let headingLine = null as number | null;
  let places: Map<PriceColumn, number> | null = null;
  let shape: ReturnType<typeof rowShape> | null = null;
  let rowsRead = 0;
  /** The line each fund and date was first given on: the fund in lower case, a NUL, the date. */
  const firstGiven = new Map<string, number>();

  const reader = new CsvReader(MAX_ROW_CHARACTERS, (record) => {
    if (headingLine === null) {
      headingLine = record.line;
      if ('malformed' in record) {
        problems.push({ line: record.line, message: `The heading row ${record.malformed}` });
      } else {
        places = readPriceHeadings(record.cells, record.line, problems);
        shape = rowShape(record.cells);
      }
      return;
    }
    // As the other imports: no row is read under a heading row that is not CSV.
    if (places === null || shape === null) return;
    rowsRead += 1;
    if (rowsRead > MAX_PRICE_ROWS) {
      if (rowsRead === MAX_PRICE_ROWS + 1) {
        problems.push({
          line: record.line,
          message: `The file has more than ${grouped(MAX_PRICE_ROWS)} rows of prices: split it into files of at most that many`,
        });
      }
      return;
    }
    if ('malformed' in record) {
      problems.push({ line: record.line, message: `The row ${record.malformed}` });
      return;
    }
    const { line, cells } = record;
    const shaped = shape(cells, line);
    for (const issue of shaped) {
      problems.push({ line, message: `${capitalised(issue.column ?? 'a cell')} ${issue.message}` });
    }
    // Its cells may be under the wrong headings: what is said of them would mislead.
    if (shaped.some(isTooWide)) return;
    const found = places;
    const cell = (column: PriceColumn) => {
      const index = found.get(column);
      return index === undefined ? null : (cells[index] ?? '').trim();
    };
    const fundCell = cell('fund');
    const dateCell = cell('on');
    const priceCell = cell('price');
    const fund = fundCell === null ? null : fundOf(fundCell);
    const on = dateCell === null ? null : dateOf(dateCell);
    const price = priceCell === null ? null : readUnitPrice(priceCell);
    if (fund?.ok === false) problems.push(inColumn(line, 'fund', fund.message));
    if (on?.ok === false) problems.push(inColumn(line, 'on', on.message));
    if (price?.ok === false) problems.push(inColumn(line, 'price', price.message));
    if (!(fund?.ok && on?.ok && price?.ok)) return;
    const key = `${fund.value.toLowerCase()}\u0000${on.value}`;
    const earlier = firstGiven.get(key);
    if (earlier !== undefined) {
      problems.push({
        line,
        message: `The same fund and date as line ${earlier}: give each fund one price a day`,
      });
      return;
    }
    firstGiven.set(key, line);
    const row = {
      line,
      fund: fund.value,
      on: on.value,
      priceMicro: price.micro,
      price: formatDecimal6(price.micro),
    };
    const refused = checkRow?.(row) ?? null;
    if (refused !== null) {
      problems.push({ line, message: refused });
      return;
    }
    rows.push(row);
  });
  reader.push(input);
  reader.end();

  if (headingLine === null) {
    return {
      ok: false,
      problems: [
        { line: 1, message: `The file is empty: its first line names the columns ${COLUMN_LIST}` },
      ],
    };
  }
  if (problems.length === 0 && rows.length === 0) {
    problems.push({ line: headingLine, message: 'The file has no prices under its heading row' });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rows };
}

/*
 * Request bodies.
 */

/** The most prices one request may give a fund. */
export const MAX_PRICES_A_REQUEST = 1_000;

/** A fund's prices, each day once: `{ prices: [{ on, price }] }`. */
export const fundPricesInput = z.object({
  prices: z
    .array(z.object({ on: isoDate, price: unitPrice }))
    .min(1, 'Give at least one price')
    .max(MAX_PRICES_A_REQUEST, `Give at most ${grouped(MAX_PRICES_A_REQUEST)} prices at a time`)
    .superRefine((prices, context) => {
      const seen = new Set<string>();
      prices.forEach((entry, index) => {
        if (seen.has(entry.on)) {
          context.addIssue({
            code: 'custom',
            path: [index, 'on'],
            message: `The day ${formatIrishDate(entry.on)} is given more than once: give one price a day`,
          });
        }
        seen.add(entry.on);
      });
    }),
});
export type FundPricesInput = z.infer<typeof fundPricesInput>;

/**
 * A switch of everything a member holds into the funds and percentages given
 * (DC_MONEY_RULES.switchPricing), held to the rule of a fund choice.
 */
export const switchInput = z.object({ to: percentLines });
export type SwitchInput = z.infer<typeof switchInput>;

/*
 * Where each rule comes from.
 */

/**
 * Whether a scheme's members hold units in funds: DC, PRSA and RAC schemes do; a DB scheme's
 * contributions fund the scheme as a whole (docs/decisions/0127-dc-money.md, "Which schemes").
 */
export const holdsUnits = (schemeType: string): boolean => schemeType !== 'DB';

/**
 * The rules of DC money, each with its source
 * (docs/decisions/0120-rules-labelled-law-guidance-policy.md). How a scheme's money is invested,
 * priced and charged is market practice and this service's choice, not statute
 * (docs/decisions/0127-dc-money.md): no rule here is law.
 */
export const DC_MONEY_RULES = {
  investmentDate: productPolicy(
    "A contribution is invested at each fund's first price on or after the day both the money and its contribution schedule are received, in the fund choice in force on that day; in the scheme's default fund when the member has made no choice",
  ),
  unitsRounding: productPolicy(
    'Units are kept to 6 decimal places, rounded half away from zero; the money is the record, and units times price reconciles to it to the cent',
  ),
  splitRounding: productPolicy(
    'Money shared across a fund choice gives each fund the whole cents of its share, and the cents left over one each to the funds with the largest remainders, the earlier fund first on a tie',
  ),
  switchPricing: productPolicy(
    "A switch sells the units of each fund held at that fund's first price on or after the day the switch is asked for, and buys each target fund at its first price after the sale",
  ),
  annualCharge: productPolicy(
    "The annual management charge is taken monthly by cancelling units on the month's last day at the latest price on or before it: a twelfth of the annual basis points of the units held",
  ),
  negativeCorrections: productPolicy(
    'A correction that takes money back sells what the member holds, whatever their fund choice: each fund at its first price on or after the day the correction is received, pro rata to the value of its units, never more units than are held; what the funds cannot cover stays owed as money not invested',
  ),
  priceCorrections: productPolicy(
    'A price a transaction has used is never edited: a correction is a new price record, and every transaction of the members it affects is replayed from its date',
  ),
} as const satisfies Record<string, RuleSource>;
