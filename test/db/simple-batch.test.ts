import fc from 'fast-check';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlineValues, NotInlinableError } from '../../src/server/db/simple-batch.js';
import { onPostgres, openTestDatabase, type TestDatabase } from '../helpers/database.js';

/**
 * Issue 18: values written into a statement's text for a simple-protocol message
 * (docs/decisions.md, "Request path (issue 18)") must mean exactly what the bound parameters
 * meant, whatever they hold.
 */
describe('writing bound values into a statement', () => {
  it('replaces $n only outside quotes, quoted identifiers, dollar quotes and comments', () => {
    const text = `select '$1', "$1", $tag$ $1 $tag$, $$ $2 $$ -- $1
      /* $2 */ , $1, $2, a$1 from t where x = $10`;
    const values = ['one', 'two', 3, 4, 5, 6, 7, 8, 9, 'ten'];
    expect(inlineValues(text, values)).toBe(`select '$1', "$1", $tag$ $1 $tag$, $$ $2 $$ -- $1
      /* $2 */ , E'one', E'two', a$1 from t where x = E'ten'`);
  });

  it('writes null, numbers, booleans, dates, bytes and JSON as pg binds them', () => {
    const at = new Date('2026-01-02T03:04:05.678Z');
    const written = inlineValues('select $1, $2, $3, $4, $5, $6', [
      null,
      42,
      true,
      at,
      Buffer.from([0, 1, 255]),
      { a: "it's" },
    ]);
    expect(written).toContain('null, ');
    expect(written).toContain(`E'42', E'true', E'`);
    expect(written).toContain(`E'\\\\x0001ff'`);
    expect(written).toContain(`E'{"a":"it''s"}'`);
  });

  it('doubles quotes and backslashes, so no value can end its literal', () => {
    expect(inlineValues('select $1', [`a'b\\c';--`])).toBe(`select E'a''b\\\\c'';--'`);
  });

  it('refuses what it cannot write (a NUL character) rather than guess', () => {
    expect(() => inlineValues('select $1', ['a\0b'])).toThrow(NotInlinableError);
  });
});

describe.runIf(onPostgres)('on PostgreSQL, a written value reads back as it was bound', () => {
  let t: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    t = await openTestDatabase({ migrated: false });
    client = new pg.Client({ connectionString: t.url as string });
    await client.connect();
  });
  afterAll(async () => {
    await client.end();
    await t.dispose();
  });

  it('for any string, under either setting of standard_conforming_strings', async () => {
    const text = fc.string({ unit: 'binary', maxLength: 40 }).filter((s) => !s.includes('\0'));
    for (const conforming of ['on', 'off']) {
      await client.query(`set standard_conforming_strings = ${conforming}`);
      await fc.assert(
        fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), async (values) => {
          const placeholders = values.map((_, n) => `$${n + 1}::text`).join(', ');
          const written = inlineValues(`select ${placeholders}`, values);
          const bound = await client.query({
            text: `select ${placeholders}`,
            values,
            rowMode: 'array',
          });
          const simple = await client.query({ text: `select 1; ${written}`, rowMode: 'array' });
          const rows = (simple as unknown as pg.QueryResult[])[1]?.rows;
          expect(rows).toEqual(bound.rows);
        }),
        { numRuns: 100 },
      );
    }
  });
});
