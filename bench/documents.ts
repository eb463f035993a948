import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createId } from '@paralleldrive/cuid2';
import S3rver from 's3rver';
import { appEnv } from './foundation.js';
import { median, type Report, rssMegabytes, type Started, startServer, stopServer } from './lib.js';
import { APP_COMMAND, APP_READY, NODE_FLAGS, RUNS } from './settings.js';
import { adminQuery, databaseUrl, seed, signIn } from './tenancy.js';

/**
 * Documents benchmarks (docs/decisions/0062-document-vault.md), through the built service on PostgreSQL: a 20 MiB upload and
 * its download through the signed URL, each against `cp` of the same file on the same disk in the
 * same run; and the server's peak resident memory while 8 uploads of 20 MiB arrive at once. The
 * same again with the bytes in an S3-compatible bucket (s3rver on loopback), where the download
 * is also set against reading the object from the bucket directly: what streaming it through the
 * service costs (docs/decisions/0063-documents-s3-back-end.md).
 */
const MIB = 1024 * 1024;
const FILE_BYTES = 20 * MIB;
const CONCURRENT = 8;
const BOUNDARY = '----benchDocumentBoundary';

interface Target {
  base: string;
  pid: number;
  tokens: string[];
  schemeIds: string[];
}

/** A PDF as the content check sees one (`%PDF-` first), filled with bytes that do not compress. */
async function writeSample(file: string): Promise<void> {
  await writeFile(file, Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_BYTES - 9)]));
}

/** Milliseconds `cp` takes to copy the file to a new name beside it. */
async function copyMs(file: string, into: string): Promise<number> {
  const target = path.join(into, `copy-${createId()}`);
  const began = performance.now();
  await new Promise<void>((resolve, reject) => {
    spawn('cp', [file, target], { stdio: 'ignore' }).on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`cp exited with ${code}`)),
    );
  });
  const ms = performance.now() - began;
  await rm(target, { force: true });
  return ms;
}

/** Streams `file` from disk as a request body between `head` and `tail`; the answer's text. */
function post(
  url: string,
  headers: Record<string, string>,
  file: string,
  size: number,
  head: Buffer,
  tail: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(head.length + size + tail.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.write(head);
    const source = createReadStream(file);
    source.on('error', reject);
    source.on('end', () => outgoing.end(tail));
    source.pipe(outgoing, { end: false });
  });
}

/** One multipart upload, the file streamed from disk as a browser sends it. */
async function upload(
  target: Target,
  user: number,
  file: string,
  name: string,
): Promise<{ ms: number; id: string }> {
  const head = Buffer.from(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="documentType"\r\n\r\nbenefit_statement\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      'Content-Type: application/pdf\r\n\r\n',
  );
  const tail = Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  const { size } = await stat(file);
  const began = performance.now();
  const answer = await post(
    `${target.base}/api/schemes/${target.schemeIds[user]}/documents`,
    {
      authorization: `Bearer ${target.tokens[user]}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    file,
    size,
    head,
    tail,
  );
  if (answer.status !== 201) throw new Error(`upload answered ${answer.status}: ${answer.text}`);
  return { ms: performance.now() - began, id: (JSON.parse(answer.text) as { id: string }).id };
}

/** Reads a whole response body, checking it is the file's length. */
async function readAll(url: URL | string): Promise<void> {
  const file = await fetch(url);
  if (file.status !== 200 || !file.body) throw new Error(`the download answered ${file.status}`);
  let bytes = 0;
  for await (const chunk of file.body) bytes += (chunk as Uint8Array).length;
  if (bytes !== FILE_BYTES) throw new Error(`the download was ${bytes} bytes`);
}

/** Milliseconds from asking for the signed URL to the last byte of the file read. */
async function download(target: Target, id: string): Promise<number> {
  const began = performance.now();
  const issued = await fetch(`${target.base}/api/documents/${id}/url`, {
    headers: { authorization: `Bearer ${target.tokens[0]}` },
  });
  if (issued.status !== 200) throw new Error(`the URL was refused: ${issued.status}`);
  const { url } = (await issued.json()) as { url: string };
  await readAll(new URL(new URL(url).pathname, target.base));
  return performance.now() - began;
}

/** The same file up and down through bare Fastify (bench/bare-file-server.ts). */
async function bareRoundTrip(base: string, file: string): Promise<{ up: number; down: number }> {
  const began = performance.now();
  const answer = await post(
    `${base}/upload`,
    { 'content-type': 'application/octet-stream' },
    file,
    FILE_BYTES,
    Buffer.alloc(0),
    Buffer.alloc(0),
  );
  if (answer.status !== 200) throw new Error(`the bare upload answered ${answer.status}`);
  const up = performance.now() - began;
  const again = performance.now();
  await readAll(`${base}/download`);
  return { up, down: performance.now() - again };
}

const mibPerSecond = (ms: number) => (FILE_BYTES / MIB / (ms / 1000)).toFixed(0);

/** Peak VmRSS sampled every 5 ms while `work` runs, in MB. */
async function peakRss(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = rssMegabytes(pid);
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMegabytes(pid));
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(sampler);
  }
  return Math.max(peak, rssMegabytes(pid));
}

function highWaterMegabytes(pid: number): Promise<number> {
  return readFile(`/proc/${pid}/status`, 'utf8').then(
    (status) => Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024,
  );
}

/** The baselines each figure is set against: cp always, and one more per back end. */
interface Baselines {
  /** Bare Fastify on local disk (bench/bare-file-server.ts), for the local back end. */
  bare: string | null;
  /** Reading the stored object straight from the bucket, for the S3 back end. */
  directRead: ((id: string) => Promise<number>) | null;
}

async function measure(
  report: Report,
  label: string,
  target: Target,
  sample: string,
  scratch: string,
  { bare, directRead }: Baselines,
) {
  // One of each first, so that no side is measured cold.
  const warm = await upload(target, 0, sample, 'warm.pdf');
  await download(target, warm.id);
  await copyMs(sample, scratch);
  if (bare) await bareRoundTrip(bare, sample);
  const uploads: number[] = [];
  const downloads: number[] = [];
  const copies: number[] = [];
  const bareUps: number[] = [];
  const bareDowns: number[] = [];
  const direct: number[] = [];
  // Alternating, so that drift on a shared machine falls on every side alike.
  for (let run = 0; run < RUNS; run += 1) {
    copies.push(await copyMs(sample, scratch));
    const sent = await upload(target, 0, sample, `run-${run}.pdf`);
    uploads.push(sent.ms);
    downloads.push(await download(target, sent.id));
    if (bare) {
      const { up, down } = await bareRoundTrip(bare, sample);
      bareUps.push(up);
      bareDowns.push(down);
    }
    if (directRead) direct.push(await directRead(sent.id));
  }
  const cp = median(copies);
  const row = (what: string, ms: number, baseline: number, named: string) =>
    report(
      what,
      mibPerSecond(ms),
      `${mibPerSecond(baseline)} ${named}`,
      (baseline / ms).toFixed(2),
      '',
    );
  row(`${label}: upload 20 MiB (MiB/s, median of ${RUNS})`, median(uploads), cp, 'cp, same disk');
  if (bare) row('  against bare Fastify', median(uploads), median(bareUps), 'body to a file');
  row('  download 20 MiB via the signed URL', median(downloads), cp, 'cp, same disk');
  if (bare) row('  against bare Fastify', median(downloads), median(bareDowns), 'file streamed');
  if (directRead) {
    row('  against the bucket', median(downloads), median(direct), 'GET from the bucket');
  }
  const idle = rssMegabytes(target.pid);
  const peak = await peakRss(target.pid, () =>
    Promise.all(
      Array.from({ length: CONCURRENT }, (_, user) =>
        upload(target, user, sample, `concurrent-${user}.pdf`),
      ),
    ),
  );
  report(
    `  server peak RSS, ${CONCURRENT} concurrent 20 MiB uploads (MB)`,
    peak.toFixed(0),
    `${idle.toFixed(0)} before; VmHWM ${(await highWaterMegabytes(target.pid)).toFixed(0)}`,
    '',
    '< 300',
  );
}

export async function runDocuments(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const scratch = await mkdtemp(path.join(tmpdir(), 'bench-documents-'));
  const sample = path.join(scratch, 'sample.pdf');
  // Set from the helper below; a holder, since a closure's assignment to a `let` is not tracked.
  const running: { app: Started | null; bare: Started | null; bucket: S3rver | null } = {
    app: null,
    bare: null,
    bucket: null,
  };
  try {
    const seeded = (await seed(url)).slice(0, CONCURRENT);
    await writeSample(sample);
    const targetOf = async (env: Record<string, string>, dataDir: string) => {
      await mkdir(dataDir);
      const app = await startServer(
        APP_COMMAND,
        { ...appEnv(dataDir, 'warn'), DATABASE_URL: url, ...env },
        APP_READY,
      );
      running.app = app;
      const base = `http://127.0.0.1:${app.port}`;
      const tokens: string[] = [];
      for (const [index, tenant] of seeded.entries()) {
        tokens.push(await signIn(base, tenant.email, 100 + index));
      }
      return {
        base,
        pid: app.child.pid as number,
        tokens,
        schemeIds: seeded.map((tenant) => tenant.schemeId),
      };
    };

    const bare = await startServer(
      [...NODE_FLAGS, '--import', 'tsx', 'bench/bare-file-server.ts'],
      { BENCH_DIRECTORY: scratch },
      /listening (\d+)/,
    );
    running.bare = bare;
    await measure(
      report,
      'local disk',
      await targetOf({}, path.join(scratch, 'local')),
      sample,
      scratch,
      {
        bare: `http://127.0.0.1:${bare.port}`,
        directRead: null,
      },
    );
    await stopServer(bare);
    running.bare = null;
    if (running.app) await stopServer(running.app);
    running.app = null;

    const bucket = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(scratch, 's3'),
      configureBuckets: [{ name: 'documents' }],
    });
    running.bucket = bucket;
    const { port } = await bucket.run();
    const endpoint = `http://127.0.0.1:${port}`;
    const { GetObjectCommand, S3Client } = await import('@aws-sdk/client-s3');
    const client = new S3Client({
      region: 'eu-west-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    const pg = (await import('pg')).default;
    const keyOf = async (id: string) => {
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query('select storage_key from documents where id = $1', [id]);
        return `vault/${(rows[0] as { storage_key: string }).storage_key}`;
      } finally {
        await db.end();
      }
    };
    const directRead = async (id: string) => {
      const Key = await keyOf(id);
      const began = performance.now();
      const object = await client.send(new GetObjectCommand({ Bucket: 'documents', Key }));
      let bytes = 0;
      for await (const chunk of object.Body as AsyncIterable<Uint8Array>) bytes += chunk.length;
      if (bytes !== FILE_BYTES) throw new Error(`the bucket returned ${bytes} bytes`);
      return performance.now() - began;
    };
    await measure(
      report,
      'S3 (s3rver)',
      await targetOf(
        {
          STORAGE_URL: `s3://documents/vault?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true`,
          STORAGE_ACCESS_KEY_ID: 'S3RVER',
          STORAGE_SECRET_ACCESS_KEY: 'S3RVER',
        },
        path.join(scratch, 's3-staging'),
      ),
      sample,
      scratch,
      { bare: null, directRead },
    );
    client.destroy();
  } finally {
    if (running.app) await stopServer(running.app);
    if (running.bare) await stopServer(running.bare);
    if (running.bucket) await running.bucket.close();
    await rm(scratch, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}
