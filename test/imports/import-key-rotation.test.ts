import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPpsKeyring } from '../../src/server/platform/crypto/pps-keyring.js';
import { contributions, members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { TEST_SECRETS } from '../helpers/config.js';
import { ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
} from '../helpers/factories.js';
import { csvFile, leakedPpsNumbers, memberRow, membersCsv, upload } from '../helpers/imports.js';

/**
 * During a key rotation the ring holds a new current key and the previous one, and members not yet
 * re-encrypted carry the previous key's lookup hash (the factories seal with the test key, which
 * is the previous key here). An import must still find them.
 */
const CURRENT_KEY = 'c'.repeat(64);
const ring = createPpsKeyring({
  current: CURRENT_KEY,
  previous: TEST_SECRETS.PPS_ENCRYPTION_KEY,
});

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({
    env: {
      PPS_ENCRYPTION_KEY: CURRENT_KEY,
      PPS_ENCRYPTION_KEY_PREVIOUS: TEST_SECRETS.PPS_ENCRYPTION_KEY,
    },
  });
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

it('finds members sealed under the previous key, and seals new ones under the current key', async () => {
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const admin = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  const old = await createMember(t.database, { brokerId, employerId, schemeId });

  const again = await upload(
    t,
    admin,
    `/api/schemes/${schemeId}/members/import`,
    membersCsv([memberRow({ PPSN: old.ppsNumber })]),
  );
  expect(again.statusCode).toBe(400);
  expect(again.json().issues).toEqual([
    expect.objectContaining({ line: 2, code: 'already_member' }),
  ]);

  const fresh = memberRow();
  const added = await upload(
    t,
    admin,
    `/api/schemes/${schemeId}/members/import`,
    membersCsv([fresh]),
  );
  expect(added.statusCode, added.body).toBe(201);
  const [stored] = await ownerOf(t.database)
    .select()
    .from(members)
    .where(eq(members.lastName, fresh.Surname));
  expect(stored?.ppsKeyId).toBe(ring.currentKeyId);
  expect(stored?.ppsLookup).toBe(ring.lookup(brokerId, fresh.PPSN));

  const paid = await upload(
    t,
    admin,
    `/api/schemes/${schemeId}/contributions/import`,
    csvFile(
      ['PPSN', 'Period', 'Employer'],
      [
        { PPSN: old.ppsNumber, Period: '2026-01', Employer: '100' },
        { PPSN: fresh.PPSN, Period: '2026-01', Employer: '100' },
      ],
    ),
  );
  expect(paid.statusCode, paid.body).toBe(201);
  const recorded = await ownerOf(t.database)
    .select({ memberId: contributions.memberId })
    .from(contributions)
    .where(eq(contributions.schemeId, schemeId));
  expect(recorded.map((row) => row.memberId).sort()).toEqual([old.id, stored?.id].sort());
});
