import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RAG_INGEST_PATH } from '../../src/server/modules/rag/rag.routes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { TEST_SECRETS } from '../helpers/config.js';

/**
 * POST /api/rag/ingest (docs/corpus.md; docs/decisions/0069-regulatory-corpus-and-retrieval.md):
 * the RAG_INGEST_SECRET bearer, checked before
 * anything else; never reachable with a session alone; bodies validated with clear messages.
 */

const BEARER = `Bearer ${TEST_SECRETS.RAG_INGEST_SECRET}`;
const document = {
  source: 'route-act',
  title: 'Route Act 2022',
  url: 'https://www.irishstatutebook.ie/eli/2022/act/1/enacted/en/html',
  version: '2022',
  format: 'text',
  content:
    'Section 1\nShort title\nThis Act may be cited as the Route Act 2022.\n\nSection 2\nInterpretation\nWords mean what they say.',
};

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

function post(payload: unknown, headers: Record<string, string> = { authorization: BEARER }) {
  return t.app.inject({
    method: 'POST',
    url: RAG_INGEST_PATH,
    remoteAddress: uniqueClientAddress(),
    headers,
    payload: payload as object,
  });
}

describe('the ingest route', () => {
  it('ingests with the right bearer and answers the counts, then skips the same document', async () => {
    const first = await post({ documents: [document] });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ documents: 1, chunks: 2, unchanged: 0 });
    const again = await post({ documents: [document] });
    expect(again.json()).toEqual({ documents: 1, chunks: 2, unchanged: 2 });
  });

  it.each([
    ['missing', {}],
    ['wrong', { authorization: `Bearer ${'x'.repeat(TEST_SECRETS.RAG_INGEST_SECRET.length)}` }],
    ['the cron secret', { authorization: `Bearer ${TEST_SECRETS.CRON_SECRET}` }],
    ['without the Bearer scheme', { authorization: TEST_SECRETS.RAG_INGEST_SECRET }],
  ])('answers 401 to a %s bearer without reading the body', async (_label, headers) => {
    const response = await post({ documents: 'not even valid' }, headers);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: 'Unauthorized' });
  });

  it('is not reachable with a signed-in session alone, a SuperAdmin’s included', async () => {
    const { token } = await t.signedInUser({ role: 'SuperAdmin' });
    const sessions: Record<string, string>[] = [
      { cookie: `session=${token}` },
      { authorization: `Bearer ${token}` },
    ];
    for (const headers of sessions) {
      const response = await post({ documents: [document] }, headers);
      expect(response.statusCode).toBe(401);
    }
  });

  it('refuses a malformed body with 400 naming each field', async () => {
    const response = await post({
      documents: [{ ...document, source: 'Not A Name', format: 'pdf', content: '   ' }],
    });
    expect(response.statusCode).toBe(400);
    const body = response.body;
    expect(body).toContain('documents.0.source');
    expect(body).toContain('Use lower-case letters');
    expect(body).toContain('Choose text, markdown or html');
    expect(body).toContain('Give the document’s text');
    const empty = await post({ documents: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().issues[0].message).toBe('Add at least one document');
    // Every refusal is a sentence starting with a capital (contracts/plain-english.ts).
    for (const issue of [...response.json().issues, ...empty.json().issues]) {
      expect(issue.message).toMatch(/^[A-Z]/);
    }
    expect((await post({ documents: [{ ...document, extra: 1 }] })).statusCode).toBe(400);
    expect(
      (await post({ documents: [{ ...document, url: 'javascript:alert(1)' }] })).statusCode,
    ).toBe(400);
  });

  it('accepts a document beyond the 1 MiB bound of other routes', async () => {
    const section = (n: number) =>
      `Section ${n}\nHeading ${n}\n${'The trustees shall act prudently. '.repeat(60)}`;
    const content = Array.from({ length: 600 }, (_, index) => section(index + 1)).join('\n\n');
    expect(content.length).toBeGreaterThan(1024 * 1024);
    const response = await post({ documents: [{ ...document, source: 'large-act', content }] });
    expect(response.statusCode).toBe(200);
    expect(response.json().chunks).toBeGreaterThanOrEqual(600);
  });

  it('is never called by the web UI', () => {
    const sources: string[] = [];
    const walk = (folder: string) => {
      for (const name of readdirSync(folder)) {
        const file = path.join(folder, name);
        if (statSync(file).isDirectory()) walk(file);
        else if (/\.(ts|tsx)$/.test(name)) sources.push(readFileSync(file, 'utf8'));
      }
    };
    walk(path.resolve(import.meta.dirname, '../../src/web'));
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.some((source) => source.includes('/api/rag'))).toBe(false);
  });
});
