import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGovernance } from '../../src/server/modules/governance/governance.data.js';
import type { Database } from '../../src/server/platform/db/database.js';
import {
  withActor,
  withPlatformRole,
  withSchedulerRole,
} from '../../src/server/platform/db/with-actor.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { createBroker, createEmployer, createMember, createScheme } from '../helpers/factories.js';

/**
 * What loadGovernance reads of a scheme's members for the scheme year (scheme-year-rules.ts): the
 * active and deferred members counted (above 100 the annual report is audited), and the active
 * members who joined on or after the day in Ireland the scheme was added, with the day each was
 * given the scheme's information. Read for the tenant's dashboard, for one employer's schemes and
 * for the reminders job's walk over every tenant.
 */
let test: TestDatabase;
let database: Database;
let brokerId: string;
let otherBrokerId: string;
let employerId: string;
let otherEmployerId: string;
/** Added late on 30 June 2026 in UTC: 1 July in Ireland, on summer time. */
let summerScheme: string;
/** No members at all. */
let emptyScheme: string;
/** Of the tenant's other employer: two active members, one of them new. */
let otherEmployerScheme: string;
/** Of another tenant: one active member, new. */
let otherTenantScheme: string;

async function addMember(
  scheme: { brokerId: string; employerId: string; schemeId: string },
  fields: {
    status: string;
    joined: string;
    informationSentOn?: string;
    deleted?: boolean;
  },
): Promise<void> {
  const member = await createMember(database, scheme);
  await withActor(database, platformActor(), (tx) =>
    tx.execute(sql`update members
        set status = ${fields.status}, date_joined = ${fields.joined},
            information_sent_on = ${fields.informationSentOn ?? null},
            deleted_at = ${fields.deleted ? sql`now()` : null}
      where broker_id = ${member.brokerId} and id = ${member.id}`),
  );
}

async function addedAt(schemeId: string, at: string): Promise<void> {
  await withActor(database, platformActor(), (tx) =>
    tx.execute(sql`update schemes set created_at = ${at}::timestamptz where id = ${schemeId}`),
  );
}

beforeAll(async () => {
  test = await openTestDatabase();
  database = test.database;
  brokerId = await createBroker(database, 'Shannon Pensions');
  otherBrokerId = await createBroker(database, 'Liffey Brokers');
  employerId = await createEmployer(database, brokerId, 'Corrib Foods Ltd');
  otherEmployerId = await createEmployer(database, brokerId, 'Burren Bakeries Ltd');
  const otherTenantEmployer = await createEmployer(database, otherBrokerId, 'Boyne Mills Ltd');
  summerScheme = await createScheme(database, { id: employerId, brokerId }, 'Corrib Staff');
  emptyScheme = await createScheme(database, { id: employerId, brokerId }, 'Corrib Directors');
  otherEmployerScheme = await createScheme(
    database,
    { id: otherEmployerId, brokerId },
    'Burren Staff',
  );
  otherTenantScheme = await createScheme(
    database,
    { id: otherTenantEmployer, brokerId: otherBrokerId },
    'Boyne Staff',
  );
  await addedAt(summerScheme, '2026-06-30T23:30:00Z');
  await addedAt(emptyScheme, '2026-06-30T23:30:00Z');
  await addedAt(otherEmployerScheme, '2026-01-10T12:00:00Z');
  await addedAt(otherTenantScheme, '2026-01-10T12:00:00Z');
  const summer = { brokerId, employerId, schemeId: summerScheme };
  // Counted, not new: joined the day before the scheme was added, as Ireland reckons the day.
  await addMember(summer, { status: 'active', joined: '2026-06-30' });
  // New: the day it was added, waiting; and later, given the information.
  await addMember(summer, { status: 'active', joined: '2026-07-01' });
  await addMember(summer, {
    status: 'active',
    joined: '2026-08-15',
    informationSentOn: '2026-08-20',
  });
  // Counted, not chased: deferred.
  await addMember(summer, { status: 'deferred', joined: '2026-09-01' });
  // Neither counted nor chased: left, retired, or deleted.
  await addMember(summer, { status: 'transferred_out', joined: '2026-09-01' });
  await addMember(summer, { status: 'retired', joined: '2026-09-01' });
  await addMember(summer, { status: 'active', joined: '2026-09-01', deleted: true });
  const other = { brokerId, employerId: otherEmployerId, schemeId: otherEmployerScheme };
  await addMember(other, { status: 'active', joined: '2025-05-01' });
  await addMember(other, { status: 'active', joined: '2026-02-01' });
  await addMember(
    { brokerId: otherBrokerId, employerId: otherTenantEmployer, schemeId: otherTenantScheme },
    { status: 'active', joined: '2026-03-01' },
  );
});
afterAll(() => test.dispose());

type Loaded = Awaited<ReturnType<typeof loadGovernance>>;

/** Each scheme's count and new members, in a stable order. */
function memberFactsOf(loaded: Loaded) {
  return Object.fromEntries(
    loaded.map(({ scheme, facts }) => [
      scheme.id,
      {
        members: facts.members,
        newMembers: [...facts.newMembers].sort((a, b) => a.joinedOn.localeCompare(b.joinedOn)),
      },
    ]),
  );
}

const summerFacts = {
  members: 4,
  newMembers: [
    { joinedOn: '2026-07-01', informationSentOn: null },
    { joinedOn: '2026-08-15', informationSentOn: '2026-08-20' },
  ],
};
const otherEmployerFacts = {
  members: 2,
  newMembers: [{ joinedOn: '2026-02-01', informationSentOn: null }],
};
const otherTenantFacts = {
  members: 1,
  newMembers: [{ joinedOn: '2026-03-01', informationSentOn: null }],
};

describe('members as the compliance assessment reads them', () => {
  it('counts the active and deferred, and lists the active who joined since the scheme was added in Ireland', async () => {
    const loaded = await withActor(database, tenantActor(brokerId), (tx) =>
      loadGovernance(tx, { employerId: null }),
    );
    expect(memberFactsOf(loaded)).toEqual({
      [summerScheme]: summerFacts,
      [emptyScheme]: { members: 0, newMembers: [] },
      [otherEmployerScheme]: otherEmployerFacts,
    });
  });

  it('reads only the schemes asked for: one employer’s, or named ones', async () => {
    const ofEmployer = await withActor(database, tenantActor(brokerId), (tx) =>
      loadGovernance(tx, { employerId: otherEmployerId }),
    );
    expect(memberFactsOf(ofEmployer)).toEqual({ [otherEmployerScheme]: otherEmployerFacts });
    const named = await withActor(database, tenantActor(brokerId), (tx) =>
      loadGovernance(tx, { schemeIds: [summerScheme, otherTenantScheme] }),
    );
    expect(memberFactsOf(named)).toEqual({ [summerScheme]: summerFacts });
  });

  it('gives each tenant’s schemes their own members on the walks over every tenant', async () => {
    const expected = {
      [summerScheme]: summerFacts,
      [emptyScheme]: { members: 0, newMembers: [] },
      [otherEmployerScheme]: otherEmployerFacts,
      [otherTenantScheme]: otherTenantFacts,
    };
    const asScheduler = await withSchedulerRole(database, (tx) => loadGovernance(tx, {}));
    expect(memberFactsOf(asScheduler)).toEqual(expected);
    const asPlatform = await withPlatformRole(database, (tx) => loadGovernance(tx, {}));
    expect(memberFactsOf(asPlatform)).toEqual(expected);
    // In batches of two, as the reminders job walks: the same facts, batch by batch.
    const walked: Loaded = [];
    let after: { brokerId: string; schemeId: string } | undefined;
    for (;;) {
      const batch = await withSchedulerRole(database, (tx) =>
        loadGovernance(tx, { ...(after ? { after } : {}), limit: 2 }),
      );
      const tail = batch.at(-1)?.scheme;
      if (!tail) break;
      walked.push(...batch);
      after = { brokerId: tail.brokerId, schemeId: tail.id };
    }
    expect(memberFactsOf(walked)).toEqual(expected);
  });
});
