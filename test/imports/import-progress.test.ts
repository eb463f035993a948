import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createUser } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
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

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

async function scheme() {
  const { brokerId, schemeId, admin, viewer } = await schemeFixture(t.database, {
    users: { admin: 'BrokerUser', viewer: 'EmployerUser' },
  });
  return { brokerId, schemeId, admin, viewer, url: `/api/schemes/${schemeId}/members/import` };
}

const rowsText = (count: number) =>
  membersCsv(Array.from({ length: count }, () => memberRow()))
    .split('\n')
    .slice(1)
    .join('\n');

interface Listed {
  id: string;
  status: string;
  rowsRead: number;
  fileSha256: string | null;
  createdAt: string;
  updatedAt: string;
}

describe('following an import', () => {
  it('shows the rows read so far while the upload is still arriving', async () => {
    const { schemeId, admin, viewer, url } = await scheme();
    const body = feedableBody();
    const answer = upload(t, admin, url, body.stream);
    const runningWith = (rows: number) =>
      waitFor(
        async () => {
          const list = await getAs(t, viewer, `/api/schemes/${schemeId}/imports`);
          const [latest] = list.json().items as Listed[];
          return latest && latest.rowsRead >= rows ? latest : null;
        },
        60_000,
        200,
      );

    body.feed(csvLine(MEMBER_HEADINGS) + rowsText(6_000));
    const early = await runningWith(5_000);
    expect(early).toMatchObject({ status: 'running', rowsRead: 5_000, fileSha256: null });
    const one = await getAs(t, viewer, `/api/imports/${early.id}`);
    expect(one.statusCode).toBe(200);
    expect(one.json()).toMatchObject({ status: 'running', rowsRead: 5_000, issues: null });

    body.feed(rowsText(6_000));
    const later = await runningWith(10_000);
    expect(later).toMatchObject({ id: early.id, status: 'running', rowsRead: 10_000 });
    expect(Date.parse(later.updatedAt)).toBeGreaterThanOrEqual(Date.parse(early.updatedAt));

    body.feed(rowsText(500));
    body.end();
    const response = await answer;
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({ id: early.id, rowsRead: 12_500, rowsWritten: 12_500 });
    const done = await getAs(t, viewer, `/api/imports/${early.id}`);
    expect(done.json()).toMatchObject({ status: 'succeeded', rowsRead: 12_500 });
    expect(done.json().finishedAt).not.toBeNull();
  }, 120_000);

  it('lists a scheme’s imports newest first, a page at a time', async () => {
    const { schemeId, admin, viewer, url } = await scheme();
    const ids: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      const response = await upload(t, admin, url, membersCsv([memberRow()]));
      ids.push(response.json().id);
    }
    const bad = await upload(t, admin, url, membersCsv([memberRow({ Salary: 'x' })]));
    ids.push(bad.json().importId);
    const first = await getAs(t, viewer, `/api/schemes/${schemeId}/imports?limit=3`);
    expect(first.statusCode).toBe(200);
    const page = first.json();
    expect(page.items.map((item: Listed) => item.id)).toEqual([ids[3], ids[2], ids[1]]);
    expect(page.items[0]).toMatchObject({ status: 'rejected', issueCount: 1 });
    expect(page.items[0]).not.toHaveProperty('issues');
    const second = await getAs(
      t,
      viewer,
      `/api/schemes/${schemeId}/imports?limit=3&cursor=${page.nextCursor}`,
    );
    expect(second.json()).toEqual({
      items: [expect.objectContaining({ id: ids[0] })],
      nextCursor: null,
    });
    const rejected = await getAs(t, viewer, `/api/imports/${ids[3]}`);
    expect(rejected.json().issues).toEqual([
      expect.objectContaining({ line: 2, column: 'Salary', code: 'invalid_amount' }),
    ]);
    const badCursor = await getAs(t, viewer, `/api/schemes/${schemeId}/imports?cursor=nonsense`);
    expect(badCursor.statusCode).toBe(400);
  });

  it('lets platform staff read an import, and records that they did in the tenant’s chain', async () => {
    const { brokerId, admin, url } = await scheme();
    const created = await upload(t, admin, url, membersCsv([memberRow()]));
    const platform = await createUser(t.database, { role: 'SuperAdmin' });
    const read = await getAs(t, platform, `/api/imports/${created.json().id}`);
    expect(read.statusCode).toBe(200);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, created.json().id));
    expect(records.map((record) => [record.action, record.tenantId])).toEqual([
      ['import.succeeded', brokerId],
      ['import.viewed', brokerId],
    ]);
  });
});
