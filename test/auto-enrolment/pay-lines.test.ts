import { deflateRawSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LINE_BYTES,
  PAY_LINES_FORMAT,
  type PayLine,
  PayLinesWriter,
  RECORDS_FORMAT,
  readPayLines,
} from '../../src/server/modules/auto-enrolment/pay-lines.rules.js';

/**
 * The stored form of an upload's pay lines (pay-lines.rules.ts): what is written is read back exactly,
 * in both formats, and a damaged value is refused rather than read as something else.
 */

const SHAPE = { people: 3, schemes: 2 };

const aLine = (change: Partial<PayLine> = {}): PayLine => ({
  person: 0,
  periodStart: 20260105,
  periodEnd: 20260111,
  yearUnits: 1095,
  arrangement: -2,
  grossCents: 80_000,
  employeeCents: 0,
  employerCents: 0,
  ...change,
});

function written(lines: readonly PayLine[]) {
  const writer = new PayLinesWriter(lines.length);
  for (const line of lines) writer.add(line);
  return writer;
}

function readBack(stored: { format: number; lineCount: number; lines: Uint8Array }) {
  const read: PayLine[] = [];
  readPayLines(stored, SHAPE, (line) => read.push({ ...line }));
  return read;
}

const lineArbitrary = fc
  .record({
    person: fc.integer({ min: 0, max: SHAPE.people - 1 }),
    start: fc.date({
      min: new Date('2000-01-01'),
      max: new Date('2099-12-01'),
      noInvalidDate: true,
    }),
    days: fc.integer({ min: 0, max: 30 }),
    yearUnits: fc.integer({ min: 1, max: 56_940 }),
    arrangement: fc.integer({ min: -2, max: SHAPE.schemes - 1 }),
    grossCents: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
    employeeCents: fc.nat({ max: Number.MAX_SAFE_INTEGER }),
    employerCents: fc.nat(),
  })
  .map(({ start, days, ...rest }): PayLine => {
    const number = (date: Date) => Number(date.toISOString().slice(0, 10).replaceAll('-', ''));
    return {
      ...rest,
      periodStart: number(start),
      periodEnd: number(new Date(start.getTime() + days * 86_400_000)),
    };
  });

describe('stored pay lines', () => {
  it('reads back every line exactly as written, as records and deflated', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(lineArbitrary, { minLength: 1, maxLength: 40 }), async (lines) => {
        const writer = written(lines);
        const records = writer.finish();
        expect(records.length).toBe(lines.length * LINE_BYTES);
        expect(
          readBack({ format: RECORDS_FORMAT, lineCount: lines.length, lines: records }),
        ).toEqual(lines);
        expect(
          readBack({
            format: PAY_LINES_FORMAT,
            lineCount: lines.length,
            lines: await writer.finishPacked(),
          }),
        ).toEqual(lines);
      }),
    );
  });

  it('refuses an amount it cannot hold exactly, and a value not fully written', () => {
    for (const cents of [-1, 0.5, Number.MAX_SAFE_INTEGER + 1]) {
      expect(() => written([aLine({ grossCents: cents })]), String(cents)).toThrow(
        /amount out of range/,
      );
    }
    const writer = new PayLinesWriter(2);
    writer.add(aLine());
    expect(() => writer.finish()).toThrow(/1 of 2 lines written/);
  });

  it('refuses a value that does not hold exactly the row’s count of lines', () => {
    const records = written([aLine(), aLine({ person: 1 })]).finish();
    for (const [what, stored] of [
      ['one line fewer than counted', { format: RECORDS_FORMAT, lineCount: 3, lines: records }],
      ['one line more than counted', { format: RECORDS_FORMAT, lineCount: 1, lines: records }],
      ['a byte short', { format: RECORDS_FORMAT, lineCount: 2, lines: records.subarray(1) }],
      [
        'deflated, one line more than counted',
        { format: PAY_LINES_FORMAT, lineCount: 1, lines: deflateRawSync(records) },
      ],
      [
        'deflated, one line fewer than counted',
        { format: PAY_LINES_FORMAT, lineCount: 3, lines: deflateRawSync(records) },
      ],
      ['a format not known', { format: 3, lineCount: 2, lines: records }],
    ] as const) {
      expect(() => readBack(stored), what).toThrow(/pay lines|larger than/i);
    }
  });

  it('never inflates a damaged value past the row’s count of lines', () => {
    // 40 MB of zeros deflate to about 40 kB: read as a row of two lines, it stops at 88 bytes.
    const bomb = deflateRawSync(Buffer.alloc(40 * 1024 * 1024));
    expect(() => readBack({ format: PAY_LINES_FORMAT, lineCount: 2, lines: bomb })).toThrow();
  });

  it('visits only the lines ending within a window, and reads no further into the others', () => {
    const records = written([
      aLine({ periodStart: 20260105, periodEnd: 20260111 }),
      aLine({ periodStart: 20260112, periodEnd: 20260118, person: 1 }),
      aLine({ periodStart: 20260119, periodEnd: 20260125, person: 2 }),
    ]).finish();
    // The third line's person is out of range: outside the window it is never read.
    records.writeInt32BE(SHAPE.people, 2 * LINE_BYTES);
    const read: PayLine[] = [];
    readPayLines(
      { format: RECORDS_FORMAT, lineCount: 3, lines: records },
      SHAPE,
      (line) => read.push({ ...line }),
      { from: 20260111, to: 20260118 },
    );
    expect(read.map((line) => [line.person, line.periodEnd])).toEqual([
      [0, 20260111],
      [1, 20260118],
    ]);
    expect(() =>
      readPayLines({ format: RECORDS_FORMAT, lineCount: 3, lines: records }, SHAPE, () => {}, {
        from: 20260119,
        to: 20260131,
      }),
    ).toThrow(/stored line 2 breaks the format/);
  });

  it('refuses a line that breaks a rule the upload held it to', () => {
    const broken: Record<string, Partial<PayLine>> = {
      'a person the row does not name': { person: SHAPE.people },
      'a negative person': { person: -1 },
      'a scheme the row does not name': { arrangement: SHAPE.schemes },
      'an arrangement below none': { arrangement: -3 },
      'a period ending before it starts': { periodEnd: 20260104 },
      'a month 13': { periodStart: 20261305, periodEnd: 20261311 },
      'a day 0': { periodStart: 20260100 },
      'no share of a year': { yearUnits: 0 },
    };
    for (const [rule, change] of Object.entries(broken)) {
      const records = written([aLine(), aLine(change)]).finish();
      expect(
        () => readBack({ format: RECORDS_FORMAT, lineCount: 2, lines: records }),
        rule,
      ).toThrow(/stored line 1 breaks the format/);
    }
    // A negative amount written past the writer's own check reads as out of range.
    const records = written([aLine()]).finish();
    records.writeInt32BE(-1, 20);
    expect(() => readBack({ format: RECORDS_FORMAT, lineCount: 1, lines: records })).toThrow(
      /stored amount out of range/,
    );
  });
});
