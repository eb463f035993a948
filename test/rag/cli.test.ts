import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { progressBar, ragIngestCommand } from '../../src/server/modules/rag/rag.cli.js';
import { ragChunks } from '../../src/server/platform/db/schema.js';
import { testAuditService } from '../helpers/audit.js';
import { openTestDatabase, ownerOf, type TestDatabase } from '../helpers/database.js';

/** `npm run cli -- rag:ingest <folder|manifest>` (README, "Ingesting the official texts"). */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.dispose());

function run(target: string) {
  const out: string[] = [];
  const progress: string[] = [];
  return ragIngestCommand(t.database, testAuditService(), target, {
    out: (line) => out.push(line),
    progress: (text) => progress.push(text),
    interactive: false,
  }).then((code) => ({ code, out, progress: progress.join('') }));
}

describe('rag:ingest', () => {
  it('ingests every Markdown, HTML and text file of a folder, drawing progress on standard error', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rag-folder-'));
    writeFileSync(
      path.join(folder, 'gdpr.md'),
      '# GDPR notes\n## Article 33\nBreaches within 72 hours.',
    );
    writeFileSync(
      path.join(folder, 'dora.html'),
      '<h2>Article 19</h2><p>Report major incidents.</p>',
    );
    writeFileSync(
      path.join(folder, 'Pensions Act.txt'),
      '64AL.—(1) Carry out an ORA.\n(2) Proportionately.',
    );
    writeFileSync(path.join(folder, 'notes.pdf'), 'ignored');
    const result = await run(folder);
    expect(result.code).toBe(0);
    expect(result.out).toEqual(['Ingested 3 document(s): 4 chunk(s), 0 unchanged.']);
    expect(result.progress).toContain('[----------');
    expect(result.progress).toContain(`${'#'.repeat(30)}] 3/3`);
    const stored = await ownerOf(t.database)
      .select({ citation: ragChunks.citation })
      .from(ragChunks)
      .where(eq(ragChunks.source, 'pensions-act'));
    expect(stored.map((row) => row.citation)).toEqual([
      'Pensions Act s.64AL(1)',
      'Pensions Act s.64AL(2)',
    ]);

    const again = await run(folder);
    expect(again.out).toEqual(['Ingested 3 document(s): 4 chunk(s), 4 unchanged.']);
  });

  it('ingests a manifest, giving its version to documents without one', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rag-manifest-'));
    writeFileSync(path.join(folder, 'a.md'), '## Article 1\nOne.');
    writeFileSync(
      path.join(folder, 'manifest.json'),
      JSON.stringify({
        version: '7',
        documents: [{ source: 'manifest-a', title: 'Doc A', file: 'a.md', format: 'markdown' }],
      }),
    );
    const result = await run(path.join(folder, 'manifest.json'));
    expect(result.out).toEqual(['Ingested 1 document(s): 1 chunk(s), 0 unchanged.']);
  });

  it('exits 1 naming the file when a document is not valid, and for a missing folder', async () => {
    const folder = mkdtempSync(path.join(tmpdir(), 'rag-bad-'));
    writeFileSync(path.join(folder, 'empty.md'), '   ');
    const bad = await run(folder);
    expect(bad.code).toBe(1);
    expect(bad.progress).toContain('empty.md: content: Give the document’s text');
    const missing = await run(path.join(folder, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.progress).toContain('no such file or folder');
  });

  it('draws a bar of thirty cells', () => {
    expect(progressBar(1, 3, 'x')).toBe(`[${'#'.repeat(10)}${'-'.repeat(20)}] 1/3 x`);
  });
});
