import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CorpusDocument } from '../../src/contracts/rag.js';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { auditLog, ragChunks, ragSources } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { verifyTestChains } from '../helpers/audit.js';
import { openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';
import { corpusIngest } from './helpers.js';

/** Hash skipping and version replacement (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.dispose());

const act = (sections: string[], version?: string): CorpusDocument => ({
  source: 'test-act',
  title: 'Test Act 2020',
  format: 'markdown',
  content: sections.map((body, index) => `## Section ${index + 1}\n${body}`).join('\n\n'),
  ...(version ? { version } : {}),
});

const chunksOf = (source: string) =>
  ownerOf(t.database)
    .select()
    .from(ragChunks)
    .where(eq(ragChunks.source, source))
    .orderBy(ragChunks.ordinal);

describe('ingesting a document', () => {
  const ingest = () => corpusIngest(t.database);

  it('stores one chunk per section, each with its citation', async () => {
    const answer = await ingest().ingest(SYSTEM_ACTOR, [
      act(['Alpha duty.', 'Beta duty.', 'Gamma duty.']),
    ]);
    expect(answer).toEqual({ documents: 1, chunks: 3, unchanged: 0 });
    const stored = await chunksOf('test-act');
    expect(stored.map((chunk) => [chunk.ordinal, chunk.citation, chunk.body])).toEqual([
      [0, 'Test Act 2020 s.1', 'Alpha duty.'],
      [1, 'Test Act 2020 s.2', 'Beta duty.'],
      [2, 'Test Act 2020 s.3', 'Gamma duty.'],
    ]);
  });

  it('skips the same content again, touching nothing', async () => {
    const before = await chunksOf('test-act');
    const answer = await ingest().ingest(SYSTEM_ACTOR, [
      act(['Alpha duty.', 'Beta duty.', 'Gamma duty.']),
    ]);
    expect(answer).toEqual({ documents: 1, chunks: 3, unchanged: 3 });
    expect(await chunksOf('test-act')).toEqual(before);
  });

  it('keeps unchanged chunks by their hash and replaces only the changed one', async () => {
    const before = await chunksOf('test-act');
    const answer = await ingest().ingest(SYSTEM_ACTOR, [
      act(['Alpha duty.', 'Beta duty, amended.', 'Gamma duty.']),
    ]);
    expect(answer).toEqual({ documents: 1, chunks: 3, unchanged: 2 });
    const after = await chunksOf('test-act');
    expect(after[0]?.id).toBe(before[0]?.id);
    expect(after[2]?.id).toBe(before[2]?.id);
    expect(after[1]?.id).not.toBe(before[1]?.id);
    expect(after[1]?.body).toBe('Beta duty, amended.');
  });

  it('replaces every chunk of a source when a new version of it arrives, and the old ones are gone', async () => {
    const before = await chunksOf('test-act');
    const answer = await ingest().ingest(SYSTEM_ACTOR, [
      act(['Alpha duty.', 'Beta duty, amended.'], '2021'),
    ]);
    expect(answer).toEqual({ documents: 1, chunks: 2, unchanged: 0 });
    const after = await chunksOf('test-act');
    expect(after).toHaveLength(2);
    for (const old of before) expect(after.map((chunk) => chunk.id)).not.toContain(old.id);
    const [source] = await ownerOf(t.database)
      .select()
      .from(ragSources)
      .where(eq(ragSources.source, 'test-act'));
    expect(source).toMatchObject({ version: '2021', chunkCount: 2, title: 'Test Act 2020' });
  });

  it('audits each changed source in the platform chain, with counts and no text', async () => {
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, 'test-act'))
      .orderBy(auditLog.chainIndex);
    // Four ingests, one of which changed nothing.
    expect(records.map((record) => record.action)).toEqual([
      'rag_source.ingested',
      'rag_source.ingested',
      'rag_source.ingested',
    ]);
    expect(records.every((record) => record.tenantId === null)).toBe(true);
    expect(JSON.stringify(records)).not.toContain('duty');
    expect((await verifyTestChains(t.database)).broken).toEqual([]);
  });

  it('stores all documents of a call or none', async () => {
    const good: CorpusDocument = { ...act(['One.']), source: 'all-or-none' };
    const broken: CorpusDocument = {
      ...act(['Two.']),
      source: 'unknown-format',
      format: 'pdf' as 'text',
    };
    await expect(corpusIngest(t.database).ingest(SYSTEM_ACTOR, [good, broken])).rejects.toThrow();
    expect(await chunksOf('all-or-none')).toEqual([]);
  });
});

describe('the corpus tables', () => {
  it('are readable by every tenant, and changed by none', async () => {
    const actor = tenantActor('any-tenant');
    const rows = await withActor(t.database, actor, (tx) => tx.select().from(ragChunks));
    expect(rows.length).toBeGreaterThan(0);
    // 42501: insufficient_privilege, the grant missing rather than a policy filtering rows.
    await expect(
      withActor(t.database, actor, (tx) => tx.execute(sql`delete from rag_chunks`)),
    ).rejects.toMatchObject({ cause: { code: '42501' } });
    await expect(
      withActor(t.database, actor, (tx) =>
        tx.execute(sql`update rag_sources set title = 'changed'`),
      ),
    ).rejects.toMatchObject({ cause: { code: '42501' } });
  });
});
