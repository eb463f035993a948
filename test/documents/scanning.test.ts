import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documents } from '../../src/server/platform/db/schema.js';
import { createClamdScanner } from '../../src/server/platform/storage/clamd.js';
import { buildTestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import {
  documentForm,
  EICAR,
  SAMPLES,
  startFakeClamd,
  startRealClamd,
} from '../helpers/documents.js';
import {
  createBroker,
  createEmployer,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * Malware scanning (docs/decisions/0062-document-vault.md): with clamd configured a document is pending until scanned, then
 * clean or quarantined, and only a clean one is ever served. Against a stand-in clamd speaking
 * INSTREAM on loopback, and against Debian's clamd where it is installed (.ci/run installs it).
 */
const clock = new Date('2026-03-02T10:00:00Z');

async function scenario(env: Record<string, string>) {
  const t = await buildTestApp({ counters: uncountedStore(), env, now: () => clock });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const staff = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  const upload = async (user: UserRow, name: string, content: Buffer) =>
    t.app.inject({
      method: 'POST',
      url: `/api/schemes/${schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: {
        ...documentForm(name, content).headers,
        authorization: `Bearer ${await t.tokenFor(user)}`,
      },
      payload: documentForm(name, content).payload,
    });
  return { t, staff, upload };
}

/** EICAR inside a PDF's bytes: an accepted type, so the scanner is what refuses it. */
const infectedPdf = Buffer.concat([SAMPLES.pdf, EICAR]);

describe('with a clamd on loopback (INSTREAM)', () => {
  let clamd: Awaited<ReturnType<typeof startFakeClamd>>;
  let s: Awaited<ReturnType<typeof scenario>>;
  beforeAll(async () => {
    clamd = await startFakeClamd();
    s = await scenario({ CLAMD_HOST: '127.0.0.1', CLAMD_PORT: String(clamd.port) });
  });
  afterAll(async () => {
    await s.t.close();
    await clamd.close();
  });

  it('marks a clean file clean and serves it', async () => {
    const response = await s.upload(s.staff, 'clean.pdf', SAMPLES.pdf);
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json().scanStatus).toBe('clean');
    const url = await s.t.requestAs(s.staff, 'GET', `/api/documents/${response.json().id}/url`);
    expect(url.statusCode).toBe(200);
  });

  it('quarantines the EICAR file and never issues a URL for it', async () => {
    const response = await s.upload(s.staff, 'infected.pdf', infectedPdf);
    expect(response.statusCode).toBe(201);
    expect(response.json().scanStatus).toBe('quarantined');
    const url = await s.t.requestAs(s.staff, 'GET', `/api/documents/${response.json().id}/url`);
    expect(url.statusCode).toBe(409);
    expect(url.json().error).toMatch(/malware/);
  });

  it('leaves a document pending while the scanner is down, and the sweep settles it later', async () => {
    await clamd.close();
    const response = await s.upload(s.staff, 'while-down.pdf', SAMPLES.pdf);
    expect(response.statusCode).toBe(201);
    expect(response.json().scanStatus).toBe('pending');
    const id = response.json().id;
    expect((await s.t.requestAs(s.staff, 'GET', `/api/documents/${id}/url`)).statusCode).toBe(409);
    // The scanner is back on a new port: a fresh app with that address runs the sweep.
    clamd = await startFakeClamd();
    const later = await buildTestApp({
      counters: uncountedStore(),
      database: s.t.database,
      env: {
        CLAMD_HOST: '127.0.0.1',
        CLAMD_PORT: String(clamd.port),
        DATA_DIR: s.t.config.dataDir,
      },
      now: () => new Date(clock.getTime() + 10 * 60 * 1000),
    });
    try {
      const counts = await later.app.scheduledJobs
        .get('storage-sweep')
        ?.run({ scheduledFor: clock, runId: 'test' });
      expect(counts).toMatchObject({ scanned: 1, quarantined: 0 });
      const [row] = await ownerOf(s.t.database)
        .select({ scanStatus: documents.scanStatus })
        .from(documents)
        .where(eq(documents.id, id));
      expect(row?.scanStatus).toBe('clean');
    } finally {
      await later.close();
    }
  });
});

describe('the clamd client', () => {
  it('streams a file larger than one chunk and reads the verdict', async () => {
    const clamd = await startFakeClamd();
    try {
      const { writeFile, mkdtemp } = await import('node:fs/promises');
      const { tmpdir } = await import('node:os');
      const path = await import('node:path');
      const directory = await mkdtemp(path.join(tmpdir(), 'pension-scan-'));
      const big = path.join(directory, 'big.bin');
      await writeFile(big, Buffer.concat([Buffer.alloc(3 * 1024 * 1024, 1), EICAR]));
      const scanner = createClamdScanner({ host: '127.0.0.1', port: clamd.port });
      expect(await scanner.scan(big)).toBe('quarantined');
      const small = path.join(directory, 'small.bin');
      await writeFile(small, 'harmless');
      expect(await scanner.scan(small)).toBe('clean');
    } finally {
      await clamd.close();
    }
  });

  it('fails when nothing answers, rather than calling a file clean', async () => {
    const scanner = createClamdScanner({ host: '127.0.0.1', port: 9 });
    await expect(scanner.scan('/dev/null')).rejects.toThrow(/could not be reached/);
  });
});

// Debian's clamav-daemon, with a one-entry signature database the helper writes with sigtool.
const realClamd = await startRealClamd();

describe.skipIf(realClamd === null)('with Debian’s clamd and a test signature database', () => {
  let s: Awaited<ReturnType<typeof scenario>>;
  beforeAll(async () => {
    s = await scenario({ CLAMD_SOCKET: realClamd?.socketPath as string });
  });
  afterAll(async () => {
    await s.t.close();
    realClamd?.stop();
  });

  it('finds the EICAR file itself', async () => {
    const scanner = createClamdScanner({ socketPath: realClamd?.socketPath as string });
    expect(await scanner.scan(realClamd?.eicarFile as string)).toBe('quarantined');
  });

  it('quarantines a PDF carrying the EICAR string and passes a clean PDF', async () => {
    const eicar = await s.upload(s.staff, 'eicar.pdf', infectedPdf);
    expect(eicar.statusCode).toBe(201);
    expect(eicar.json().scanStatus).toBe('quarantined');
    const clean = await s.upload(s.staff, 'clean.pdf', SAMPLES.pdf);
    expect(clean.statusCode).toBe(201);
    expect(clean.json().scanStatus).toBe('clean');
  });
});
