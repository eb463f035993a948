import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { count, eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { auditLog, imports, members } from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { onPostgres, ownerOf } from '../helpers/database.js';
import { schemeFixture } from '../helpers/fixtures.js';
import {
  feedableBody,
  leakedPpsNumbers,
  memberRow,
  membersCsv,
  upload,
  waitFor,
} from '../helpers/imports.js';

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterEach(async () => {
  // Whatever became of an import, its spool file (personal data) is gone: at the latest just
  // after the answer, or, for a client that went away, just after the import was marked failed.
  const spool = path.join(t.config.dataDir, 'tmp');
  await waitFor(
    async () => ((await readdir(spool).catch(() => [])).length === 0 ? true : null),
    2_000,
  );
});
afterAll(async () => {
  expect(leakedPpsNumbers(t.logs.text())).toEqual([]);
  await t.close();
});

async function scheme() {
  const { brokerId, schemeId, admin } = await schemeFixture(t.database, {
    users: { admin: 'BrokerAdmin' },
  });
  return { brokerId, schemeId, admin, url: `/api/schemes/${schemeId}/members/import` };
}

const membersOf = async (schemeId: string) =>
  (
    await ownerOf(t.database)
      .select({ n: count() })
      .from(members)
      .where(eq(members.schemeId, schemeId))
  )[0]?.n ?? 0;
const importsOf = (schemeId: string) =>
  ownerOf(t.database).select().from(imports).where(eq(imports.schemeId, schemeId));

/** A trigger, created by the tables' owner, that runs `body` for the member named `marker`. */
async function onInsertOfMember(marker: string, body: string): Promise<() => Promise<void>> {
  await ownerOf(t.database).execute(
    sql.raw(`create function test_member_trap() returns trigger language plpgsql as $$
      begin
        if new.first_name = '${marker}' then ${body}; end if;
        return new;
      end $$`),
  );
  await ownerOf(t.database).execute(
    sql.raw(
      'create trigger test_member_trap before insert on members for each row execute function test_member_trap()',
    ),
  );
  return async () => {
    await ownerOf(t.database).execute(sql.raw('drop trigger test_member_trap on members'));
    await ownerOf(t.database).execute(sql.raw('drop function test_member_trap()'));
  };
}

describe('an import the database fails part way', () => {
  it('writes nothing and is marked failed when an INSERT fails on row 40 of 50', async () => {
    const { brokerId, schemeId, admin, url } = await scheme();
    const removeTrap = await onInsertOfMember(
      'Explode',
      "raise exception 'simulated storage failure'",
    );
    try {
      const rows = Array.from({ length: 50 }, (_, index) =>
        memberRow(index === 39 ? { 'First Name': 'Explode' } : {}),
      );
      const response = await upload(t, admin, url, membersCsv(rows));
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ error: 'Internal server error' });
      expect(await membersOf(schemeId)).toBe(0);
      const [failed] = await importsOf(schemeId);
      expect(failed).toMatchObject({ status: 'failed', rowsRead: 50, rowsWritten: 0 });
      const audit = await ownerOf(t.database)
        .select()
        .from(auditLog)
        .where(eq(auditLog.tenantId, brokerId));
      expect(audit.map((record) => record.action)).toEqual(['import.failed']);
    } finally {
      await removeTrap();
    }
    // With the fault gone, the same file goes in whole.
    const retried = await upload(t, admin, url, membersCsv([memberRow(), memberRow()]));
    expect(retried.statusCode).toBe(201);
  });

  it.runIf(onPostgres)(
    'writes nothing when the importing connection is terminated during the INSERT',
    async () => {
      const { schemeId, admin, url } = await scheme();
      const removeTrap = await onInsertOfMember('Sleepy', 'perform pg_sleep(60)');
      try {
        const rows = Array.from({ length: 200 }, (_, index) =>
          memberRow(index === 150 ? { 'First Name': 'Sleepy' } : {}),
        );
        const answer = upload(t, admin, url, membersCsv(rows));
        // The importing backend, asleep inside phase 2's INSERT: terminate it for real.
        const pid = await waitFor(async () => {
          const found = await ownerOf(t.database).execute(
            sql`select pid from pg_stat_activity where datname = current_database() and wait_event = 'PgSleep'`,
          );
          return rowsOf<{ pid: number }>(found)[0]?.pid;
        });
        await ownerOf(t.database).execute(sql`select pg_terminate_backend(${pid})`);
        const response = await answer;
        expect(response.statusCode).toBe(503);
        expect(response.json()).toEqual({ error: 'Service unavailable' });
        expect(await membersOf(schemeId)).toBe(0);
        const [failed] = await importsOf(schemeId);
        expect(failed).toMatchObject({ status: 'failed', rowsWritten: 0 });
      } finally {
        await removeTrap();
      }
    },
  );

  it('writes nothing and is marked failed when the client goes away mid-upload', async () => {
    const { schemeId, admin, url } = await scheme();
    const body = feedableBody();
    const answer = upload(t, admin, url, body.stream);
    body.feed(membersCsv(Array.from({ length: 6_000 }, () => memberRow())));
    await waitFor(async () => {
      const [running] = await importsOf(schemeId);
      return running && running.rowsRead >= 5_000 ? running : null;
    });
    body.stream.destroy(new Error('client went away'));
    await answer.catch(() => undefined);
    const [failed] = await waitFor(async () => {
      const found = await importsOf(schemeId);
      return found[0]?.status === 'failed' ? found : null;
    });
    expect(failed).toMatchObject({ status: 'failed', rowsRead: 5_000, rowsWritten: 0 });
    expect(await membersOf(schemeId)).toBe(0);
  }, 60_000);
});

describe('a file over 25 MiB', () => {
  it('is refused with 413 from its declared length, before anything is read or recorded', async () => {
    const { schemeId, admin, url } = await scheme();
    const response = await upload(t, admin, url, 'x'.repeat(25 * 1024 * 1024 + 1));
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Payload too large' });
    expect(await importsOf(schemeId)).toEqual([]);
  });

  it('is refused with 413 once the bytes streamed pass the limit, and the import says why', async () => {
    const { schemeId, admin, url } = await scheme();
    const body = feedableBody();
    const answer = upload(t, admin, url, body.stream);
    const mebibyte = `${'a,b,c\n'.repeat(Math.floor((1024 * 1024) / 6))}`;
    body.feed('Unknown heading\n');
    for (let n = 0; n < 26; n += 1) body.feed(mebibyte);
    body.end();
    const response = await answer;
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'Payload too large' });
    expect(response.headers.connection).toBe('close');
    const [refused] = await importsOf(schemeId);
    expect(refused).toMatchObject({
      status: 'rejected',
      issues: [expect.objectContaining({ code: 'too_large' })],
    });
  });
});
