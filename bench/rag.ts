import { createHash } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { SYSTEM_ACTOR } from '../src/server/modules/auth/provisioning.service.js';
import { chunkDocument } from '../src/server/modules/rag/chunking.rules.js';
import { readCorpus, SHIPPED_CORPUS_DIR } from '../src/server/modules/rag/corpus-files.data.js';
import { createCorpusIngest } from '../src/server/modules/rag/ingest.service.js';
import { type ChunkRow, insertChunks, saveSource } from '../src/server/modules/rag/rag.data.js';
import { retrieve } from '../src/server/modules/rag/retrieval.data.js';
import { auditChainKey } from '../src/server/platform/audit/audit-chain.js';
import { createAuditService } from '../src/server/platform/audit/audit-log.js';
import { type Database, openPglite, rowsOf } from '../src/server/platform/db/database.js';
import { migrate } from '../src/server/platform/db/migrator.js';
import { openPostgres } from '../src/server/platform/db/postgres.js';
import { withActor, withPlatformRole } from '../src/server/platform/db/with-actor.js';
import type { TenantActor } from '../src/server/platform/tenancy/actor.js';
import {
  type EvalSet,
  evalSet,
  evaluate,
  type Found,
  RECALL_AT_5_TARGET,
  recallInWords,
  refusalInWords,
} from '../test/rag/evaluation.js';
import type { Report } from './lib.js';
import { adminQuery, databaseUrl } from './tenancy.js';

/**
 * Corpus and retrieval benchmarks, on PGlite and on PostgreSQL: how well retrieval answers the
 * evaluation's questions over the shipped corpus (recall of the right passage in the first five,
 * off-topic questions refused; test/rag/evaluation.ts), and its latency over a corpus of 20,000
 * chunks (the starter corpus plus synthetic statute text), each beside a bare single-tsquery
 * search of the same table; and ingest throughput of a 5 MB statute-like text through the service
 * (chunking, hashing, inserting, auditing), beside chunking it alone.
 */
const CORPUS_CHUNKS = 20_000;
const INGEST_BYTES = 5 * 1024 * 1024;
const QUERIES = 400;

const READER: TenantActor = {
  userId: 'benchmark',
  email: 'benchmark',
  role: 'BrokerUser',
  tenantId: 'benchmark-tenant',
  employerId: null,
  memberId: null,
  ipAddress: '127.0.0.1',
  userAgent: 'bench',
};

/** A deterministic generator, so both engines get the same corpus. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1_664_525 + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const REGULATORY_WORDS =
  'trustee scheme member benefit contribution employer policy risk audit actuarial outsourcing governance assessment pension retirement fund investment valuation statement disclosure register incident report authority notice review approval function holder'.split(
    ' ',
  );

/** Words of a made-up language, so the synthetic text has a realistic spread of rare terms. */
function vocabulary(next: () => number, size: number): string[] {
  const syllables = ['ka', 'lo', 'mi', 'ren', 'tas', 'vo', 'dre', 'pil', 'sun', 'gar', 'ne', 'thu'];
  const words = new Set<string>();
  while (words.size < size) {
    let word = '';
    const length = 2 + Math.floor(next() * 3);
    for (let i = 0; i < length; i += 1) word += syllables[Math.floor(next() * syllables.length)];
    words.add(word);
  }
  return [...words];
}

function sentence(next: () => number, words: string[]): string {
  const length = 8 + Math.floor(next() * 14);
  const picked: string[] = [];
  for (let i = 0; i < length; i += 1) {
    picked.push(
      next() < 0.25
        ? (REGULATORY_WORDS[Math.floor(next() * REGULATORY_WORDS.length)] as string)
        : (words[Math.floor(next() * words.length)] as string),
    );
  }
  return `${picked.join(' ')}.`;
}

/** Statute-like plain text of about `bytes`: numbered sections with subsections. */
function statuteText(next: () => number, words: string[], bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let section = 1; size < bytes; section += 1) {
    const lines = [`${section}.—(1) ${sentence(next, words)} ${sentence(next, words)}`];
    for (let sub = 2; sub <= 4; sub += 1) {
      lines.push(`(${sub}) ${Array.from({ length: 4 }, () => sentence(next, words)).join(' ')}`);
    }
    const text = lines.join('\n');
    parts.push(text);
    size += text.length + 2;
  }
  return parts.join('\n\n');
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] as number;
}

/** Fills the corpus to CORPUS_CHUNKS with synthetic chunks, written straight to the table. */
async function topUp(database: Database, words: string[], next: () => number): Promise<void> {
  const [{ count } = { count: 0 }] = rowsOf<{ count: number }>(
    await database.db.execute(sql`select count(*)::int as count from rag_chunks`),
  );
  const missing = CORPUS_CHUNKS - count;
  await withPlatformRole(database, async (tx) => {
    await saveSource(tx, {
      source: 'synthetic',
      title: 'Synthetic Regulations 2030',
      url: null,
      version: null,
      format: 'text',
      contentSha256: '0'.repeat(64),
      chunkCount: missing,
      ingestedAt: new Date(),
    });
    const rows: ChunkRow[] = [];
    for (let i = 0; i < missing; i += 1) {
      const section = `${1 + Math.floor(i / 4)}${next() < 0.1 ? 'A' : ''}`;
      rows.push({
        id: createId(),
        source: 'synthetic',
        ordinal: i,
        citation: `Synthetic Regulations 2030 reg. ${section}`,
        headingPath: [`Regulation ${section}`],
        keys: `regulation ${section}`,
        body: Array.from({ length: 6 }, () => sentence(next, words)).join(' '),
        contentSha256: createHash('sha256').update(`synthetic ${i}`).digest('hex'),
      });
    }
    await insertChunks(tx, rows);
  });
}

async function timeRetrieval(
  database: Database,
  questions: string[],
): Promise<{ p50: number; p99: number }> {
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i += 1) {
    const question = questions[i % questions.length] as string;
    const started = performance.now();
    await withActor(database, READER, (tx) => retrieve(tx, question));
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 0.5), p99: percentile(times, 0.99) };
}

/** The baseline: one websearch_to_tsquery, ranked, no term weighting, no threshold. */
function bareSearch(database: Database, question: string): Promise<Found[]> {
  return withActor(database, READER, async (tx) =>
    rowsOf<{ citation: string }>(
      await tx.execute(sql`
        select id, citation, ts_rank_cd(search, q) as rank
          from rag_chunks, websearch_to_tsquery('english', ${question}) q
         where search @@ q order by rank desc limit 5`),
    ),
  );
}

async function timeBareSearch(database: Database, questions: string[]): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < QUERIES; i += 1) {
    const question = questions[i % questions.length] as string;
    const started = performance.now();
    await bareSearch(database, question);
    times.push(performance.now() - started);
  }
  return percentile(times, 0.99);
}

/**
 * The evaluation over the shipped corpus alone (before the synthetic text is added): the service's
 * retrieval beside the bare search, on the questions tuned on and on the held-out ones.
 */
async function reportEvaluation(engine: string, database: Database, report: Report) {
  const service = (question: string) =>
    withActor(database, READER, (tx) => retrieve(tx, question, { limit: 5 }));
  const bare = (question: string) => bareSearch(database, question);
  const sets: [string, EvalSet][] = [
    ['', evalSet],
    ['held-out ', evalSet.heldOut],
  ];
  for (const [name, set] of sets) {
    const ours = await evaluate(service, set);
    const theirs = await evaluate(bare, set);
    report(
      `${engine}: ${name}recall@5, ${set.answerable.length} questions in plain words`,
      recallInWords(ours),
      `bare tsquery ${recallInWords(theirs)}`,
      theirs.recallAt5 > 0 ? (ours.recallAt5 / theirs.recallAt5).toFixed(2) : '—',
      name ? '(not tuned on)' : `≥ ${RECALL_AT_5_TARGET}`,
    );
    report(
      `${engine}: ${name}off-topic refused, ${set.unanswerable.length} questions`,
      refusalInWords(ours),
      `bare tsquery ${refusalInWords(theirs)}`,
      '—',
      name ? '(not tuned on)' : '100%',
    );
  }
}

async function runOn(engine: string, database: Database, report: Report): Promise<void> {
  const next = random(17);
  const words = vocabulary(next, 4_000);
  const audit = createAuditService({
    now: () => new Date(),
    chainKey: auditChainKey('c'.repeat(64)),
  });
  const ingest = createCorpusIngest({ database, audit, now: () => new Date() });
  await ingest.ingest(SYSTEM_ACTOR, await readCorpus(SHIPPED_CORPUS_DIR));
  await reportEvaluation(engine, database, report);

  const content = statuteText(next, words, INGEST_BYTES);
  const document = {
    source: 'bench-act',
    title: 'Bench Act 2030',
    format: 'text' as const,
    content,
  };
  let started = performance.now();
  const chunkedAlone = chunkDocument(document).length;
  const chunkingSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  const answer = await ingest.ingest(SYSTEM_ACTOR, [document]);
  const ingestSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  await ingest.ingest(SYSTEM_ACTOR, [document]);
  const unchangedSeconds = (performance.now() - started) / 1000;
  report(
    `${engine}: ingest 5 MB text (${answer.chunks} chunks)`,
    `${Math.round(answer.chunks / ingestSeconds)} chunks/s (${ingestSeconds.toFixed(1)} s)`,
    `chunking alone ${Math.round(chunkedAlone / chunkingSeconds)} chunks/s`,
    (chunkingSeconds / ingestSeconds).toFixed(2),
    '≥ 500 chunks/s',
  );
  report(
    `${engine}: same 5 MB again (all unchanged)`,
    `${(unchangedSeconds * 1000).toFixed(0)} ms`,
    '—',
    '—',
    '< 1 s',
  );

  await topUp(database, words, next);
  const questions = [
    'How often must trustees carry out an own-risk assessment?',
    '64AL',
    'Article 28 IORP II',
    'When must a personal data breach be notified?',
    'What are the auto-enrolment contribution rates?',
    'trustee register incident report',
    `${words[5]} ${words[50]} policy`,
    'How is cryptocurrency taxed in Ireland?',
  ];
  await timeRetrieval(database, questions.slice(0, 2));
  const { p50, p99 } = await timeRetrieval(database, questions);
  const bareP99 = await timeBareSearch(database, questions);
  report(
    `${engine}: retrieve, ${CORPUS_CHUNKS.toLocaleString('en-IE')} chunks, p50 / p99`,
    `${p50.toFixed(1)} / ${p99.toFixed(1)} ms`,
    `bare tsquery p99 ${bareP99.toFixed(1)} ms`,
    (p99 / bareP99).toFixed(2),
    'p99 < 100 ms',
  );
}

export async function runRag(report: Report): Promise<void> {
  const embedded = await openPglite(null);
  try {
    await migrate(embedded);
    await runOn('PGlite', embedded, report);
  } finally {
    await embedded.close();
  }
  const name = `bench_rag_${Date.now()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const server = await openPostgres(url, url, 4);
  try {
    await migrate(server);
    await runOn('PostgreSQL', server, report);
  } finally {
    await server.close();
    await adminQuery(`drop database ${name}`);
  }
}
