import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every answer the UI reads is parsed with the API's own response schema
 * (docs/decisions/0056-shared-contracts.md). The types make `api()` and `upload()` take one
 * (src/web/api/client.ts); this keeps any other way of reading the API out of the UI.
 */
describe('the web UI’s reads of the API', () => {
  it('all go through api() or upload(): nothing else in the UI fetches JSON from /api', () => {
    const web = path.resolve(import.meta.dirname, '../../src/web');
    /**
     * Fetches that read no JSON answer of /api: attachments (the audit CSV, the evidence pack
     * ZIP, the auto-enrolment CSV and PDF), whose refusals alone are JSON, and /openapi.json itself.
     */
    const notJsonOfApi = ['api/download.ts', 'api-reference/ApiReference.tsx'];
    /**
     * The streamed answer (`text/event-stream`), which api() cannot read as it comes:
     * its closing answer is parsed with the API's own schema, chatResponse, all the same.
     */
    const streamed = ['pages/ai/ask.ts'];
    const fetching = readdirSync(web, { recursive: true, withFileTypes: true })
      .filter(
        (entry) => entry.isFile() && /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.'),
      )
      .map((entry) => path.relative(web, path.join(entry.parentPath, entry.name)))
      .filter((file) => /\bfetch\(/.test(readFileSync(path.join(web, file), 'utf8')));
    expect(fetching.sort()).toEqual(['api/client.ts', ...notJsonOfApi, ...streamed].sort());
  });
});
