import { count } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { members } from '../../src/server/platform/db/schema.js';
import { ROLES, type Role } from '../../src/server/platform/tenancy/roles.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import {
  csvFile,
  getAs,
  leakedPpsNumbers,
  memberRow,
  membersCsv,
  upload,
  withWrongCheckLetter,
} from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';

type Scope = 'own' | 'otherEmployer' | 'otherTenant';
const SCOPES: Scope[] = ['own', 'otherEmployer', 'otherTenant'];
type Outcome = 'ok' | 403 | 404;

let t: TestApp;
let actors: Record<Role, UserRow>;
/** A scheme per scope, and a BrokerAdmin of its tenant to make imports there. */
let targets: Record<Scope, { schemeId: string; admin: UserRow }>;

beforeAll(async () => {
  // Hundreds of requests as one user, about something else than rate limits.
  t = await buildTestApp({ counters: uncountedStore() });
  const tenantA = await createBroker(t.database, 'Tenant A');
  const tenantB = await createBroker(t.database, 'Tenant B');
  const [a1, a2, b1] = [
    await createEmployer(t.database, tenantA, 'A1'),
    await createEmployer(t.database, tenantA, 'A2'),
    await createEmployer(t.database, tenantB, 'B1'),
  ];
  actors = {} as Record<Role, UserRow>;
  for (const role of ROLES) {
    actors[role] = await createUser(t.database, {
      role,
      ...(role === 'SuperAdmin' ? {} : { brokerId: tenantA, employerId: a1 }),
    });
  }
  const adminB = await createUser(t.database, { brokerId: tenantB, role: 'BrokerAdmin' });
  targets = {
    own: {
      schemeId: await createScheme(t.database, { id: a1, brokerId: tenantA }),
      admin: actors.BrokerAdmin,
    },
    otherEmployer: {
      schemeId: await createScheme(t.database, { id: a2, brokerId: tenantA }),
      admin: actors.BrokerAdmin,
    },
    otherTenant: {
      schemeId: await createScheme(t.database, { id: b1, brokerId: tenantB }),
      admin: adminB,
    },
  };
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

const UPLOAD: Record<Role, readonly [Outcome, Outcome, Outcome]> = {
  // Tenant data is written by the tenant's own people (docs/decisions/0022-tenancy-actor-and-row-level-security.md).
  SuperAdmin: [403, 403, 403],
  BrokerAdmin: ['ok', 'ok', 404],
  BrokerUser: ['ok', 'ok', 404],
  EmployerAdmin: ['ok', 404, 404],
  EmployerUser: [403, 403, 403],
  Member: [403, 403, 403],
};
const READ: Record<Role, readonly [Outcome, Outcome, Outcome]> = {
  SuperAdmin: ['ok', 'ok', 'ok'],
  BrokerAdmin: ['ok', 'ok', 404],
  BrokerUser: ['ok', 'ok', 404],
  EmployerAdmin: ['ok', 404, 404],
  EmployerUser: ['ok', 404, 404],
  Member: [403, 403, 403],
};

function expectOutcome(response: { statusCode: number; json(): unknown }, outcome: Outcome) {
  if (outcome === 'ok') {
    expect(response.statusCode).toBeGreaterThanOrEqual(200);
    expect(response.statusCode).toBeLessThan(300);
  } else {
    expect(response.statusCode).toBe(outcome);
    expect(response.json()).toEqual({ error: outcome === 403 ? 'Forbidden' : 'Not found' });
  }
}

describe('who may import into a scheme', () => {
  for (const kind of ['members', 'contributions'] as const) {
    for (const role of ROLES) {
      SCOPES.forEach((scope, index) => {
        const outcome = UPLOAD[role][index] as Outcome;
        it(`POST ${kind} import as ${role} into a scheme in ${scope}: ${outcome}`, async () => {
          const { schemeId } = targets[scope];
          // Contributions need a member of the scheme first; the file names it.
          let file = membersCsv([memberRow()]);
          if (kind === 'contributions') {
            const row = memberRow();
            const seeded = await upload(
              t,
              targets[scope].admin,
              `/api/schemes/${schemeId}/members/import`,
              membersCsv([row]),
            );
            expect(seeded.statusCode).toBe(201);
            file = csvFile(
              ['PPSN', 'Period', 'Employee'],
              [{ PPSN: row.PPSN, Period: '2026-01', Employee: '10' }],
            );
          }
          const response = await upload(
            t,
            actors[role],
            `/api/schemes/${schemeId}/${kind}/import`,
            file,
          );
          expectOutcome(response, outcome);
        });
      });
    }
  }

  it('refuses before reading the body: a Member posting 30 MiB gets 403, not 413', async () => {
    const response = await upload(
      t,
      actors.Member,
      `/api/schemes/${targets.own.schemeId}/members/import`,
      'x'.repeat(30 * 1024 * 1024),
    );
    expect(response.statusCode).toBe(403);
  });

  it('answers 404 for a scheme that does not exist, and 415 for a body that is not CSV', async () => {
    const missing = await upload(
      t,
      actors.BrokerAdmin,
      '/api/schemes/nosuchscheme/members/import',
      membersCsv([memberRow()]),
    );
    expect(missing.statusCode).toBe(404);
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${targets.own.schemeId}/members/import`,
      payload: { rows: [] },
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${await t.tokenFor(actors.BrokerAdmin)}` },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json()).toEqual({ error: 'Unsupported media type' });
    const charset = await upload(
      t,
      actors.BrokerAdmin,
      `/api/schemes/${targets.own.schemeId}/members/import`,
      membersCsv([memberRow()]),
      { 'content-type': 'text/csv; charset=utf-8' },
    );
    expect(charset.statusCode).toBe(201);
  });
});

describe('who may follow imports', () => {
  const importIn: Partial<Record<Scope, string>> = {};
  beforeAll(async () => {
    for (const scope of SCOPES) {
      const { schemeId, admin } = targets[scope];
      const made = await upload(
        t,
        admin,
        `/api/schemes/${schemeId}/members/import`,
        membersCsv([memberRow()]),
      );
      importIn[scope] = made.json().id;
    }
  });

  for (const role of ROLES) {
    SCOPES.forEach((scope, index) => {
      const outcome = READ[role][index] as Outcome;
      it(`GET a scheme's imports and one import as ${role} in ${scope}: ${outcome}`, async () => {
        const list = await getAs(
          t,
          actors[role],
          `/api/schemes/${targets[scope].schemeId}/imports`,
        );
        expectOutcome(list, outcome);
        const one = await getAs(t, actors[role], `/api/imports/${importIn[scope]}`);
        expectOutcome(one, outcome);
      });
    });
  }
});

describe('whatever text arrives as a file', () => {
  const headings = fc.constantFrom(
    'PPSN',
    'pps no',
    'First Name',
    'Surname',
    'DOB',
    'Date Joined',
    'Salary',
    'Salary Cents',
    'Status',
    'Email',
    'Period',
    'Employee',
    'AVC',
    'Member ID',
    'Notes',
    '',
  );
  const cells = fc.oneof(
    fc.constantFrom(
      '',
      '2020-01-01',
      '31/12/1999',
      '2026-01',
      '55,000.00',
      '-1',
      '0',
      'active',
      'x@example.ie',
    ),
    fc.constant(null).map(() => newPpsNumber()),
    fc.constant(null).map(() => withWrongCheckLetter(newPpsNumber())),
    fc.string({ maxLength: 12 }),
    fc.constantFrom('"', '""', ',', '\n', '\r\n', '\\', '\t', '\u0000', '€'),
  );
  const files = fc.oneof(
    fc.string({ maxLength: 400 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc
      .tuple(
        fc.uniqueArray(headings, { minLength: 1, maxLength: 8 }),
        fc.array(fc.array(cells, { maxLength: 9 }), { maxLength: 8 }),
      )
      .map(([names, rows]) => [names.join(','), ...rows.map((row) => row.join(','))].join('\n')),
  );

  for (const kind of ['members', 'contributions'] as const) {
    it(`${kind}: 201, 400 or 409 with the documented body, never a 500, and nothing written on a refusal`, async () => {
      const url = `/api/schemes/${targets.own.schemeId}/${kind}/import`;
      const seen = new Set<number>();
      await fc.assert(
        fc.asyncProperty(files, async (file) => {
          const before = (await ownerOf(t.database).select({ n: count() }).from(members))[0]?.n;
          const response = await upload(t, actors.BrokerUser, url, file);
          seen.add(response.statusCode);
          expect([201, 400, 409], response.body).toContain(response.statusCode);
          expect(leakedPpsNumbers(response.body)).toEqual([]);
          if (response.statusCode !== 201) {
            expect(typeof response.json().error).toBe('string');
            expect((await ownerOf(t.database).select({ n: count() }).from(members))[0]?.n).toBe(
              before,
            );
          }
          if (response.statusCode === 400) expect(Array.isArray(response.json().issues)).toBe(true);
        }),
        { numRuns: 80 },
      );
      expect(seen.has(400)).toBe(true);
    }, 120_000);
  }
});
