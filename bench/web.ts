import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM_PATH, launchChromium } from '../test/helpers/browser.js';
import { ApiClient, DEV_ACCOUNTS } from '../test/helpers/built-server.js';
import { uniqueClientAddress } from '../test/helpers/clients.js';
import { MEMBER_HEADINGS, memberRow, membersCsv } from '../test/helpers/imports.js';
import { appEnv } from './foundation.js';
import { median, type Report, startServer, stopServer } from './lib.js';
import { APP_COMMAND, APP_READY } from './settings.js';

/**
 * Web UI benchmarks: how much JavaScript the first page load costs, gzipped, and the
 * time to interactive of a scheme's members table with 10,000 members, measured in Debian's
 * chromium, beside the same page for a scheme with none.
 */
const WEB_ROOT = path.resolve('dist/web');
const MEMBERS = 10_000;
/** Page loads per scheme; the median is reported. Alternating, so drift hits both alike. */
const LOADS = 7;
const KB = 1024;

const gzipped = (bytes: Buffer | Uint8Array) => gzipSync(bytes, { level: 9 }).length;
const kilobytes = (bytes: number) => `${(bytes / KB).toFixed(1)} kB`;

/** The scripts and module preloads index.html names: what every first visit downloads. */
function initialScripts(): string[] {
  const html = readFileSync(path.join(WEB_ROOT, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)].map((match) => match[1]);
  const preloads = [
    ...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*\bhref="([^"]+)"/g),
  ].map((match) => match[1]);
  return [...new Set([...scripts, ...preloads])].filter((url): url is string => Boolean(url));
}

function reportBundle(report: Report): void {
  const initial = initialScripts();
  const initialGzip = initial.reduce(
    (sum, url) => sum + gzipped(readFileSync(path.join(WEB_ROOT, url))),
    0,
  );
  const chunks = readdirSync(path.join(WEB_ROOT, 'assets')).filter((name) => name.endsWith('.js'));
  const all = chunks.map((name) => readFileSync(path.join(WEB_ROOT, 'assets', name)));
  const allGzip = all.reduce((sum, bytes) => sum + gzipped(bytes), 0);
  report(
    `Initial JavaScript, gzip -9 (${initial.length} file${initial.length === 1 ? '' : 's'} index.html names)`,
    kilobytes(initialGzip),
    `${kilobytes(allGzip)} all ${chunks.length} chunks`,
    (initialGzip / allGzip).toFixed(2),
    '< 300 kB',
  );
  const initialRaw = initial.reduce(
    (sum, url) => sum + readFileSync(path.join(WEB_ROOT, url)).length,
    0,
  );
  const allRaw = all.reduce((sum, bytes) => sum + bytes.length, 0);
  report(
    '↳ the same, uncompressed',
    kilobytes(initialRaw),
    `${kilobytes(allRaw)} all chunks`,
    '',
    '',
  );
}

/** Every script the page fetched while `visit` ran, gzipped: lazy route chunks included. */
async function scriptsFetched(page: Page, visit: () => Promise<void>): Promise<number> {
  const bodies: Array<Promise<Buffer>> = [];
  const onResponse = (response: import('playwright-core').Response) => {
    if (response.request().resourceType() === 'script') bodies.push(response.body());
  };
  page.on('response', onResponse);
  await visit();
  page.off('response', onResponse);
  return (await Promise.all(bodies)).reduce((sum, body) => sum + gzipped(body), 0);
}

interface Seeded {
  api: ApiClient;
  full: string;
  empty: string;
}

async function seed(baseUrl: string): Promise<Seeded> {
  const api = await ApiClient.signIn(baseUrl, DEV_ACCOUNTS.brokerAdmin);
  const employer = await api.call<{ id: string }>('POST', '/api/employers', {
    name: 'Benchmark Employer Ltd',
  });
  const scheme = (name: string) =>
    api.call<{ id: string }>('POST', '/api/schemes', {
      employerId: employer.id,
      name,
      type: 'DC',
    });
  const full = await scheme('Ten Thousand Members DC Scheme');
  const empty = await scheme('Empty DC Scheme');
  const rows = Array.from({ length: MEMBERS }, () => memberRow());
  const started = performance.now();
  await api.call('POST', `/api/schemes/${full.id}/members/import`, membersCsv(rows));
  process.stdout.write(
    `imported ${MEMBERS} members (${MEMBER_HEADINGS.length} columns) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
  return { api, full: full.id, empty: empty.id };
}

/** The little of the DOM the page-side check reads (this project type-checks without the DOM library). */
interface PageInput {
  disabled: boolean;
  readOnly: boolean;
  labels: ArrayLike<{ textContent: string | null }> | null;
}
interface PageTable {
  caption: { textContent: string | null } | null;
  tBodies: ArrayLike<{ rows: { length: number } }>;
}
interface PageDocument {
  querySelectorAll(selector: 'input'): ArrayLike<PageInput>;
  querySelectorAll(selector: 'table'): ArrayLike<PageTable>;
  body: { textContent: string | null };
}

/**
 * Runs in the page, at every animation frame (so only while the main thread is free): false until
 * the page is ready, then the time since navigation start. It finds the search box and the table
 * by what a person reads: the label and the caption. (A function, not source text: the page's
 * CSP forbids evaluating strings.)
 */
function interactiveMembersTable(wantRows: boolean): false | { ms: number; rows: number } {
  const { document } = globalThis as unknown as { document: PageDocument };
  const search = Array.from(document.querySelectorAll('input')).find((input) =>
    Array.from(input.labels ?? []).some((label) => label.textContent?.startsWith('Search by name')),
  );
  if (!search || search.disabled || search.readOnly) return false;
  const table = Array.from(document.querySelectorAll('table')).find((each) =>
    each.caption?.textContent?.startsWith('Members of'),
  );
  if (!table) return false;
  const rows = table.tBodies[0]?.rows.length ?? 0;
  const emptySaid = document.body.textContent?.includes('This scheme has no members yet.');
  if (wantRows ? rows === 0 : !emptySaid) return false;
  return { ms: performance.now(), rows };
}

interface Visit {
  /** A first visit: a fresh context, no cache, the session cookie only. */
  coldMs: number;
  /** The same page again in that context: scripts and styles from the cache. */
  warmMs: number;
  rows: number;
}

/**
 * From navigation start until, in one animation frame, the members table shows its first page of
 * rows (or says it is empty) and the search box is enabled: the moment a person can read and type.
 */
async function timeToInteractive(
  browser: Browser,
  baseUrl: string,
  token: string,
  schemeId: string,
  expectRows: boolean,
): Promise<Visit> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    locale: 'en-IE',
    viewport: { width: 1280, height: 860 },
    extraHTTPHeaders: { 'x-forwarded-for': uniqueClientAddress() },
  });
  try {
    await context.addCookies([{ name: 'session', value: token, url: baseUrl }]);
    const page = await context.newPage();
    const visit = async () => {
      await page.goto(`/schemes/${schemeId}`, { waitUntil: 'commit' });
      const handle = await page.waitForFunction(interactiveMembersTable, expectRows, {
        polling: 'raf',
        timeout: 60_000,
      });
      return (await handle.jsonValue()) as { ms: number; rows: number };
    };
    const cold = await visit();
    const warm = await visit();
    return { coldMs: cold.ms, warmMs: warm.ms, rows: cold.rows };
  } finally {
    await context.close();
  }
}

/** The API's answer for the table's first page, timed from here: the server's share of the wait. */
async function firstPageMs(api: ApiClient, schemeId: string): Promise<number> {
  const started = performance.now();
  await api.call('GET', `/api/schemes/${schemeId}/members?limit=50`);
  return performance.now() - started;
}

export async function runWeb(report: Report): Promise<void> {
  reportBundle(report);
  if (!existsSync(CHROMIUM_PATH)) {
    report(
      `Members table time to interactive: skipped, no chromium at ${CHROMIUM_PATH}`,
      '',
      '',
      '',
      '',
    );
    return;
  }
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-web-'));
  const app = await startServer(APP_COMMAND, appEnv(dataDir, 'warn'), APP_READY);
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const browser = await launchChromium();
  try {
    const seeded = await seed(baseUrl);
    const { token } = seeded.api;

    // What a first visit downloads in practice, lazy route chunks included.
    const context = await browser.newContext({
      baseURL: baseUrl,
      extraHTTPHeaders: { 'x-forwarded-for': uniqueClientAddress() },
    });
    const page = await context.newPage();
    const signInJs = await scriptsFetched(page, async () => {
      await page.goto('/signin', { waitUntil: 'networkidle' });
    });
    await context.addCookies([{ name: 'session', value: token, url: baseUrl }]);
    const schemeJs = await scriptsFetched(page, async () => {
      await page.goto(`/schemes/${seeded.full}`, { waitUntil: 'networkidle' });
    });
    await context.close();
    report(
      'JavaScript a browser fetches for /signin, gzip -9',
      kilobytes(signInJs),
      `${kilobytes(signInJs + schemeJs)} then /schemes/:id too`,
      '',
      '< 300 kB',
    );

    // One visit each first: chromium's own first start and the server's first queries.
    await timeToInteractive(browser, baseUrl, token, seeded.empty, false);
    await timeToInteractive(browser, baseUrl, token, seeded.full, true);
    const full: Visit[] = [];
    const empty: Visit[] = [];
    for (let run = 0; run < LOADS; run += 1) {
      empty.push(await timeToInteractive(browser, baseUrl, token, seeded.empty, false));
      full.push(await timeToInteractive(browser, baseUrl, token, seeded.full, true));
    }
    const rows = full[0]?.rows ?? 0;
    for (const kind of ['cold', 'warm'] as const) {
      const fullMs = full.map((visit) => (kind === 'cold' ? visit.coldMs : visit.warmMs));
      const emptyMs = empty.map((visit) => (kind === 'cold' ? visit.coldMs : visit.warmMs));
      report(
        kind === 'cold'
          ? `Members table time to interactive, ${MEMBERS} members (${rows} rows shown), first visit (ms)`
          : '↳ the same page again, scripts cached (ms)',
        median(fullMs).toFixed(0),
        `${median(emptyMs).toFixed(0)} empty scheme`,
        (median(fullMs) / median(emptyMs)).toFixed(2),
        '',
      );
      report(
        '  ↳ range over the runs (ms)',
        `${Math.min(...fullMs).toFixed(0)}–${Math.max(...fullMs).toFixed(0)}`,
        `${Math.min(...emptyMs).toFixed(0)}–${Math.max(...emptyMs).toFixed(0)}`,
        '',
        '',
      );
    }

    const apiFull: number[] = [];
    const apiEmpty: number[] = [];
    for (let run = 0; run < 3 * LOADS; run += 1) {
      apiEmpty.push(await firstPageMs(seeded.api, seeded.empty));
      apiFull.push(await firstPageMs(seeded.api, seeded.full));
    }
    report(
      '↳ the API answer for the first 50 members alone, median (ms)',
      median(apiFull).toFixed(1),
      `${median(apiEmpty).toFixed(1)} empty scheme`,
      (median(apiFull) / median(apiEmpty)).toFixed(2),
      '',
    );
  } finally {
    await browser.close();
    await stopServer(app);
    rmSync(dataDir, { recursive: true, force: true });
  }
}
