import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import pino from 'pino';
import { buildApp, createRateLimitStore, DEFAULT_WEB_ROOT } from '../src/server/app.js';
import type { RetrievedChunk } from '../src/server/modules/rag/retrieval.data.js';
import { loadConfig } from '../src/server/platform/config/config.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { startFakeProvider } from '../test/helpers/fake-ai-provider.js';
import { appEnv } from './foundation.js';
import type { Report } from './lib.js';
import { adminQuery, databaseUrl, seed, signIn } from './tenancy.js';

/**
 * AI chat benchmark, on PostgreSQL: how much of a chat request's time is the
 * service's own (session, policy, retrieval hand-off, the member lookup for the guard's denylist,
 * the usage counter and its audit record, the guard, the SDK, the citation check) when the
 * provider takes one second, measured per request as the client's time less the time the fake
 * provider spent from the request's first byte to the end of its answer. Target: under 10%.
 * The app runs in this process so chat can be given a retrieval over fixed passages, whose ids the
 * fake provider's answer cites; the corpus search's own time is `npm run bench -- rag`'s figure
 * (p50 8 ms, p99 67 ms over 20,000 chunks on PostgreSQL), to be added to this one.
 */
const PROVIDER_DELAY_MS = 1000;
const SEQUENTIAL = 10;
const CONCURRENT = 10;

const CHUNKS: RetrievedChunk[] = Array.from({ length: 6 }, (_, index) => ({
  chunkId: `bench-chunk-${index}`,
  citation: `S.I. No. 128/2021 reg. ${20 + index}`,
  title: `Governance passage ${index}`,
  sourceKind: 'text',
  headingPath: ['Governance'],
  text: 'Trustees establish an effective system of governance with written policies, reviewed at least every three years. '.repeat(
    8,
  ),
  score: 1 - index / 10,
}));

export async function runAi(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-ai-'));
  const fake = await startFakeProvider();
  fake.reply = () => ({
    delayMs: PROVIDER_DELAY_MS,
    text: 'Policies are reviewed at least every three years [[chunk:bench-chunk-0]].',
  });
  const [tenant] = await seed(url);
  const config = loadConfig({
    ...appEnv(dataDir, 'warn'),
    DATABASE_URL: url,
    AI_PROVIDER: 'openai',
    AI_API_KEY: 'bench-provider-key-0001',
    AI_MODEL: 'fake-model',
    AI_BASE_URL: fake.baseUrl,
  });
  const database = await openPostgres(url, url, 10);
  const logger = pino({ level: 'warn' });
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  try {
    app = await buildApp({
      config,
      database,
      logger,
      now: () => new Date(),
      counters: await createRateLimitStore(config, logger),
      pause: async () => undefined,
      webRoot: DEFAULT_WEB_ROOT,
      retrieve: async () => CHUNKS,
    });
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const token = await signIn(base, (tenant as { email: string }).email, 1);
    const ask = async (stream: boolean) => {
      const started = performance.now();
      const response = await fetch(`${base}/api/ai/chat`, {
        method: 'POST',
        headers: {
          cookie: `session=${token}`,
          'content-type': 'application/json',
          origin: base,
          ...(stream ? { accept: 'text/event-stream' } : {}),
        },
        body: JSON.stringify({ question: 'How often are written policies reviewed?' }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`chat answered ${response.status}`);
      return performance.now() - started;
    };
    const measure = async (label: string, run: () => Promise<number[]>) => {
      fake.requests.length = 0;
      const totals = await run();
      const total = totals.reduce((sum, ms) => sum + ms, 0);
      const provider = fake.requests.reduce((sum, request) => sum + request.handledMs, 0);
      const outside = (total - provider) / total;
      report(
        label,
        `${((total - provider) / totals.length).toFixed(1)} ms outside the provider`,
        `${(total / totals.length).toFixed(0)} ms a request`,
        `${(outside * 100).toFixed(2)}% of it outside`,
        '< 10%',
      );
    };
    await ask(false);
    await measure(`chat, ${SEQUENTIAL} in turn, JSON`, async () => {
      const times: number[] = [];
      for (let n = 0; n < SEQUENTIAL; n += 1) times.push(await ask(false));
      return times;
    });
    await measure(`chat, ${SEQUENTIAL} in turn, streamed`, async () => {
      const times: number[] = [];
      for (let n = 0; n < SEQUENTIAL; n += 1) times.push(await ask(true));
      return times;
    });
    await measure(`chat, ${CONCURRENT} at once, JSON`, () =>
      Promise.all(Array.from({ length: CONCURRENT }, () => ask(false))),
    );
  } finally {
    await app?.close();
    await database.close();
    await fake.close();
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database ${name} with (force)`);
  }
}
