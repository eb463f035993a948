import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokers, users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { createLogger } from '../../src/server/platform/http/logger.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { createUser, type UserRow } from '../helpers/factories.js';
import {
  evidence,
  findPersonalDataLeaks,
  NO_PERSONAL_DATA,
  registerName,
  scanEvidence,
} from '../helpers/leak-registry.js';
import { captureLogs } from '../helpers/logs.js';
import { newPpsNumber } from '../helpers/pps.js';

/**
 * A database error is logged with its SQLSTATE, constraint and table only
 * (docs/decisions/0035-control-characters-and-database-errors.md).
 * Its message ("Failed query: … params: …"), detail ("Key (email)=(…) already exists"), query
 * and parameters quote the row being written, and must never reach a log line.
 */
const NAME = registerName('Siobhán Ní Bhriain');
const ADDRESS = 'siobhán.ní.bhriain@gmaíl.ie';
const HASH = '$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW';

let t: TestApp;
let existing: UserRow;

beforeAll(async () => {
  t = await buildTestApp({
    extend(app) {
      // A write the database refuses, its row full of personal data: the e-mail address is taken.
      app.post('/api/auth/test-forced-unique-violation', async () => {
        await withActor(t.database, platformActor(), (tx) =>
          tx.insert(users).values({
            id: createId(),
            email: existing.email,
            name: NAME,
            passwordHash: HASH,
            role: 'SuperAdmin',
          }),
        );
        return { ok: true };
      });
      // A value PostgreSQL cannot store at all: a NUL byte in a name.
      app.post('/api/auth/test-forced-nul', async () => {
        await withActor(t.database, platformActor(), (tx) =>
          tx.insert(brokers).values({ id: createId(), name: `${NAME}\u0000${ADDRESS}` }),
        );
        return { ok: true };
      });
    },
  });
  existing = await createUser(t.database, { role: 'SuperAdmin', email: ADDRESS });
});
afterAll(() => t.close());

const force = (path: string) =>
  t.app.inject({ method: 'POST', url: path, remoteAddress: uniqueClientAddress() });

function errorLines() {
  return t.logs.entries().filter((line) => line.message === 'unexpected error');
}

describe('a database error in the error log', () => {
  it('is logged by its SQLSTATE, constraint and table, never by the row it was writing', async () => {
    const response = await force('/api/auth/test-forced-unique-violation');
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: 'Internal server error' });
    const line = errorLines().at(-1);
    expect(line?.err).toMatchObject({
      sqlState: '23505',
      constraint: expect.stringMatching(/email/),
      table: 'users',
    });
    const logged = t.logs.text();
    for (const secret of [existing.email, NAME, HASH, 'Failed query', 'params', 'insert into']) {
      expect(logged).not.toContain(secret);
    }
  });

  it('caused by a NUL byte is logged without the value it refused', async () => {
    const response = await force('/api/auth/test-forced-nul');
    expect(response.statusCode).toBe(500);
    const line = errorLines().at(-1);
    expect(line?.err).toMatchObject({ sqlState: expect.stringMatching(/^22/) });
    expect(t.logs.text()).not.toContain(NAME);
    expect(findPersonalDataLeaks(t.logs.text(), '', [NAME])).toEqual(NO_PERSONAL_DATA);
  });

  it('leaves nothing of the row wherever it is logged from: under any key, bare, or as a cause', async () => {
    const failure = await withActor(t.database, platformActor(), (tx) =>
      tx.execute(sql`select ${NAME}::int, ${ADDRESS}::text, ${HASH}::text`),
    ).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(Error);
    const logs = captureLogs();
    const logger = createLogger('info', logs.stream);
    // As the mail worker, an import or the CLI would log it.
    logger.error({ err: failure }, 'email delivery run failed');
    logger.error(failure as Error);
    logger.warn({ failure }, 'import failed');
    logger.error({ err: new Error('import could not be written', { cause: failure }) });
    const text = logs.text();
    for (const secret of [NAME, ADDRESS, HASH, 'Failed query', 'params', 'select']) {
      expect(text).not.toContain(secret);
    }
    const entries = logs.entries();
    expect(entries).toHaveLength(4);
    expect(entries[0]?.err).toMatchObject({ sqlState: '22P02' });
    expect(entries[1]?.message).toBe('database error');
    expect(entries[3]?.err).toMatchObject({
      message: 'import could not be written',
      sqlState: '22P02',
      cause: { sqlState: '22P02' },
    });
  });
});

describe('the personal-data scan run after every test file', () => {
  it('catches each kind of leak it looks for, so that it cannot pass by finding nothing', () => {
    const ppsNumber = newPpsNumber();
    const planted = [
      `{"message":"welcome seán@gmaíl.ie"}`,
      `{"message":"welcome mary@example.ie"}`,
      `{"user":"${NAME}"}`,
      `{"hash":"${HASH}"}`,
      `{"err":{"message":"Failed query: insert into users values ($1)\\nparams: x"}}`,
      `{"err":{"params":["x"]}}`,
      `{"note":"${ppsNumber}"}`,
    ];
    evidence.logs.push(() => planted.join('\n'));
    try {
      const { pps, personal } = scanEvidence();
      expect(pps.known).toEqual([ppsNumber]);
      expect(personal.emailAddresses).toEqual(['seán@gmaíl.ie', 'mary@example.ie']);
      expect(personal.names).toEqual([NAME]);
      expect(personal.passwordHashes).toEqual([HASH]);
      expect(personal.parameterLists).toEqual(['Failed query:', 'params: ', '"params":']);
    } finally {
      evidence.logs.pop();
    }
  });

  it('also reads the response bodies for password hashes and parameter lists', () => {
    evidence.bodies.push(`{"passwordHash":"${HASH}","detail":"params: 1,2"}`);
    try {
      const { personal } = scanEvidence();
      expect(personal.passwordHashes).toEqual([HASH]);
      expect(personal.parameterLists).toEqual(['params: ']);
    } finally {
      evidence.bodies.pop();
    }
  });

  it('finds no address the logger has scrubbed, in any script', () => {
    t.app.log.warn(`could not reach ${ADDRESS} or mary@example.ie`);
    const text = t.logs.text();
    expect(text).toContain('could not reach');
    expect(findPersonalDataLeaks(text, '', []).emailAddresses).toEqual([]);
  });

  it('is clean for this file so far: the forced database errors above left nothing behind', () => {
    expect(scanEvidence().personal).toEqual(NO_PERSONAL_DATA);
  });
});
