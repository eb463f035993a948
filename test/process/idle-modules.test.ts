import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BuiltServer, startBuiltServer } from '../helpers/built-server.js';

/**
 * What an instance loads that it does not use stays out of its memory
 * (docs/decisions/0079-lazy-loading-for-idle-memory.md): the built server on PGlite, with no S3
 * bucket, no AI provider and no virus scanner configured, run with a loader hook of this folder
 * (record-modules.mjs) that writes down every module the process loads, from start-up through a
 * served request to a clean shutdown.
 */
const RECORDER = pathToFileURL(path.resolve('test/process/record-modules.mjs')).href;

let server: BuiltServer;
let recordDir: string;
let loaded: string[] = [];
let exit: { code: number | null; signal: string | null };

beforeAll(async () => {
  recordDir = mkdtempSync(path.join(tmpdir(), 'idle-modules-'));
  const record = path.join(recordDir, 'modules.txt');
  server = await startBuiltServer({
    NODE_OPTIONS: `--import=${RECORDER}`,
    MODULE_RECORD_FILE: record,
  });
  const response = await fetch(`${server.baseUrl}/api/health/live`);
  expect(response.status).toBe(200);
  exit = await server.terminate();
  loaded = readFileSync(record, 'utf8').split('\n').filter(Boolean);
}, 60_000);

afterAll(async () => {
  await server?.stop();
  rmSync(recordDir, { recursive: true, force: true });
});

const packageLoaded = (name: string) =>
  loaded.some((url) => url.includes(`/node_modules/${name}/`));
const serverModuleLoaded = (file: string) =>
  loaded.some((url) => url.endsWith(`/dist/server/${file}`));

describe('an instance on PGlite with no S3, AI provider or scanner configured', () => {
  it('was watched from start to a clean exit: the recorder saw the modules it does use', () => {
    expect(exit.code).toBe(0);
    expect(packageLoaded('fastify')).toBe(true);
    expect(packageLoaded('@electric-sql/pglite')).toBe(true);
    expect(serverModuleLoaded('app.js')).toBe(true);
  });

  it('has not loaded the S3 SDK or the S3 back end', () => {
    expect(loaded.filter((url) => /\/node_modules\/(@aws-sdk|@smithy)\//.test(url))).toEqual([]);
    expect(serverModuleLoaded('modules/documents/s3-storage.js')).toBe(false);
  });

  it('has not loaded the AI SDK or the provider layer', () => {
    expect(loaded.filter((url) => /\/node_modules\/(ai|@ai-sdk)\//.test(url))).toEqual([]);
    expect(serverModuleLoaded('modules/ai/provider.js')).toBe(false);
  });

  it('has not loaded the virus scanner’s client', () => {
    expect(serverModuleLoaded('modules/documents/clamd.js')).toBe(false);
  });

  it('has not loaded pdfkit or its font engine before any PDF is made', () => {
    expect(loaded.filter((url) => /\/node_modules\/(pdfkit|fontkit)\//.test(url))).toEqual([]);
  });

  it('has not loaded Node’s bundled fetch client, which an ESM import of node:http brings in', () => {
    expect(loaded).toContain('builtin:NativeModule http');
    expect(loaded.filter((entry) => entry.includes('undici'))).toEqual([]);
  });
});
