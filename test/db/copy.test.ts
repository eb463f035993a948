import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inPieces, rowsOf } from '../../src/server/platform/db/database.js';
import { type Transaction, withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createBroker } from '../helpers/factories.js';

/**
 * COPY into a temporary table of the transaction, from a file and from lines made on the fly, on
 * whichever engine the tests run (docs/imports.md, "Phase 2"). Enough lines to pass the embedded
 * database's 4 MiB piece and the server's 256 KiB piece several times, with escapes and text
 * whose UTF-8 bytes are more than its characters.
 */
const TARGET = { table: 'copy_probe', columns: ['n', 'label'] } as const;
const LINES = 6_000;
const label = (n: number) => `Seán\\tÓ Briain ${n} ${'€'.repeat(300)}`;
const lines = function* () {
  for (let n = 1; n <= LINES; n += 1) yield `${n}\t${label(n)}\n`;
};

let t: TestDatabase;
let brokerId: string;
let folder: string;

beforeAll(async () => {
  t = await openTestDatabase();
  brokerId = await createBroker(t.database);
  folder = mkdtempSync(path.join(tmpdir(), 'copy-test-'));
});

afterAll(async () => {
  await t.dispose();
  rmSync(folder, { recursive: true, force: true });
});

async function copied(fill: (tx: Transaction) => Promise<number>) {
  return withActor(t.database, tenantActor(brokerId), async (tx) => {
    await tx.execute(
      sql.raw(
        'create temporary table copy_probe (n integer primary key, label text not null) on commit drop',
      ),
    );
    const count = await fill(tx);
    const rows = rowsOf<{ n: number; label: string; role: string }>(
      await tx.execute(sql.raw('select n, label, current_user as role from copy_probe order by n')),
    );
    return { count, rows };
  });
}

describe('COPY into a temporary table', () => {
  it('takes lines made on the fly, every one once and in full, and leaves the transaction in its own role', async () => {
    const { count, rows } = await copied((tx) => t.database.copyLines(tx, TARGET, lines()));
    expect(count).toBe(LINES);
    expect(rows).toHaveLength(LINES);
    expect(rows[0]).toEqual({ n: 1, label: label(1).replace('\\t', '\t'), role: 'pension_app' });
    expect(rows.at(-1)?.label).toBe(label(LINES).replace('\\t', '\t'));
    expect(rows.map((row) => row.n)).toEqual(Array.from({ length: LINES }, (_, n) => n + 1));
  });

  it('takes a file, every line once and in full', async () => {
    const file = path.join(folder, 'rows.copy');
    writeFileSync(file, [...lines()].join(''));
    const { count, rows } = await copied((tx) => t.database.copyFrom(tx, TARGET, file));
    expect(count).toBe(LINES);
    expect(rows.at(-1)?.label).toBe(label(LINES).replace('\\t', '\t'));
  });

  it('refuses a line that is not a row of the table', async () => {
    const broken = function* () {
      yield* lines();
      yield 'not a number\tx\n';
    };
    await expect(copied((tx) => t.database.copyLines(tx, TARGET, broken()))).rejects.toThrow();
  });
});

describe('COPY lines that fail while they are made', () => {
  it('abandons the COPY and its transaction, and the next transaction runs as usual', async () => {
    const failing = function* () {
      let n = 0;
      for (const line of lines()) {
        n += 1;
        // Past the first pieces, so that some lines have gone to the database already.
        if (n === 4_000) throw new Error('the lines could not be made');
        yield line;
      }
    };
    await expect(copied((tx) => t.database.copyLines(tx, TARGET, failing()))).rejects.toThrow(
      'the lines could not be made',
    );
    const { count, rows } = await copied((tx) => t.database.copyLines(tx, TARGET, lines()));
    expect(count).toBe(LINES);
    expect(rows[0]?.role).toBe('pension_app');
  });
});

describe('gathering COPY lines into pieces', () => {
  it('keeps every line whole and in order, each piece at least the size asked but the last', () => {
    const made = [...inPieces(['ab\n', 'c\n', 'def\n', 'g\n'], 4)];
    expect(made).toEqual(['ab\nc\n', 'def\n', 'g\n']);
    expect([...inPieces([], 4)]).toEqual([]);
  });
});
