import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  contributions,
  employers,
  imports,
  members,
  schemes,
} from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import type { MemberRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
  csvFile,
  csvLine,
  feedableBody,
  getAs,
  leakedPpsNumbers,
  MEMBER_HEADINGS,
  memberRow,
  membersCsv,
  upload,
  waitFor,
} from '../helpers/imports.js';

/**
 * Nothing is read or written under a deleted scheme or employer
 * (docs/decisions/0038-soft-delete-reaches-beneath.md), and imports are no exception: no file goes
 * into one, and the imports made into it (whose issues describe lines of a file about its members)
 * can no longer be followed.
 */

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

async function scheme() {
  const { members, ...rest } = await schemeFixture(t.database, {
    members: 1,
    users: {
      admin: 'BrokerAdmin',
      consultant: 'BrokerUser',
      hr: 'EmployerAdmin',
      viewer: 'EmployerUser',
      platform: 'SuperAdmin',
    },
  });
  return { ...rest, member: members[0] as MemberRow };
}
type Scheme = Awaited<ReturnType<typeof scheme>>;

/** The scheme marked deleted, as one deleted before schemes with members were wound up instead. */
const deleteScheme = (s: Scheme) =>
  withActor(t.database, platformActor(), (tx) =>
    tx.update(schemes).set({ deletedAt: new Date() }).where(eq(schemes.id, s.schemeId)),
  );

/**
 * Both states are written directly here. A scheme with members is wound up, not deleted
 * (docs/decisions/0146-schemes-wound-up-not-deleted.md), but schemes deleted before that rule keep
 * their members beneath them. An employer with live schemes cannot be deleted, but a scheme created
 * while its employer was being deleted is left live under a deleted employer.
 */
const ANCESTORS = [
  {
    ancestor: 'scheme',
    where: 'a deleted scheme',
    async remove(s: Scheme) {
      await deleteScheme(s);
    },
  },
  {
    ancestor: 'employer',
    where: 'a scheme of a deleted employer',
    async remove(s: Scheme) {
      await withActor(t.database, platformActor(), (tx) =>
        tx.update(employers).set({ deletedAt: new Date() }).where(eq(employers.id, s.employerId)),
      );
    },
  },
] as const;

/** What an import could have written in the scheme: members, contributions, imports, audit. */
async function footprint(s: Scheme) {
  return withActor(t.database, platformActor(), async (tx) => ({
    members: (
      await tx.select({ n: count() }).from(members).where(eq(members.schemeId, s.schemeId))
    )[0]?.n,
    contributions: (
      await tx
        .select({ n: count() })
        .from(contributions)
        .where(eq(contributions.schemeId, s.schemeId))
    )[0]?.n,
    imports: (
      await tx.select({ n: count() }).from(imports).where(eq(imports.schemeId, s.schemeId))
    )[0]?.n,
    audit: (
      await tx.select({ n: count() }).from(auditLog).where(eq(auditLog.tenantId, s.brokerId))
    )[0]?.n,
  }));
}

const contributionsFile = (s: Scheme) =>
  csvFile(
    ['Member ID', 'Pay Period', 'Employee'],
    [{ 'Member ID': s.member.id, 'Pay Period': '2026-03', Employee: '250.00' }],
  );

describe.each(ANCESTORS)('imports under a deleted $ancestor', ({ where, remove }) => {
  it(`no file can be imported into ${where}`, async () => {
    const s = await scheme();
    await remove(s);
    const before = await footprint(s);
    for (const user of [s.consultant, s.hr]) {
      const people = await upload(
        t,
        user,
        `/api/schemes/${s.schemeId}/members/import`,
        membersCsv([memberRow(), memberRow()]),
      );
      expect(people.statusCode).toBe(404);
      const money = await upload(
        t,
        user,
        `/api/schemes/${s.schemeId}/contributions/import`,
        contributionsFile(s),
      );
      expect(money.statusCode).toBe(404);
    }
    expect(await footprint(s)).toEqual(before);
  });

  it(`the imports of ${where} can no longer be followed`, async () => {
    const s = await scheme();
    const done = await upload(
      t,
      s.consultant,
      `/api/schemes/${s.schemeId}/members/import`,
      membersCsv([memberRow()]),
    );
    expect(done.statusCode, done.body).toBe(201);
    const refused = await upload(
      t,
      s.consultant,
      `/api/schemes/${s.schemeId}/contributions/import`,
      csvFile(['Member ID', 'Pay Period', 'Employee'], [{ 'Pay Period': '2026-03' }]),
    );
    expect(refused.statusCode, refused.body).toBe(400);
    await remove(s);
    for (const user of [s.consultant, s.viewer, s.platform]) {
      expect((await getAs(t, user, `/api/schemes/${s.schemeId}/imports`)).statusCode).toBe(404);
      for (const id of [done.json().id, refused.json().importId]) {
        const followed = await getAs(t, user, `/api/imports/${id}`);
        expect(followed.statusCode).toBe(404);
        expect(followed.json()).toEqual({ error: 'Not found' });
      }
    }
  });
});

describe('a scheme deleted while a file for it arrives', () => {
  it('gets none of its rows: the upload answers as for a deleted scheme and writes nothing', async () => {
    const s = await scheme();
    const url = `/api/schemes/${s.schemeId}/members/import`;
    const body = feedableBody();
    const answer = upload(t, s.consultant, url, body.stream);
    body.feed(csvLine(MEMBER_HEADINGS));
    body.feed(membersCsv([memberRow(), memberRow()]).split('\n').slice(1).join('\n'));
    const running = await waitFor(
      () =>
        withActor(t.database, platformActor(), async (tx) => {
          const [row] = await tx.select().from(imports).where(eq(imports.schemeId, s.schemeId));
          return row;
        }),
      20_000,
      100,
    );
    expect(running.status).toBe('running');
    const before = await footprint(s);

    await deleteScheme(s);
    body.feed(membersCsv([memberRow()]).split('\n').slice(1).join('\n'));
    body.end();

    const response = await answer;
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found' });
    const after = await footprint(s);
    expect(after.members).toBe(before.members);
    // The import is closed as refused, audited with counts only, never left running.
    const [settled] = await withActor(t.database, platformActor(), (tx) =>
      tx.select().from(imports).where(eq(imports.id, running.id)),
    );
    expect(settled).toMatchObject({ status: 'rejected', rowsWritten: 0, issueCount: 1 });
    expect(settled?.issues).toEqual([expect.objectContaining({ code: 'scheme_deleted' })]);
    const [record] = await withActor(t.database, platformActor(), (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.entityId, running.id)),
    );
    expect(record?.action).toBe('import.rejected');
  });
});
