import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createId } from '@paralleldrive/cuid2';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { appEnv } from './foundation.js';
import { type Report, type Started, startServer, stopServer } from './lib.js';
import { APP_COMMAND, APP_READY } from './settings.js';
import { adminQuery, databaseUrl, seed, signIn } from './tenancy.js';

/**
 * Auto-enrolment benchmark (docs/decisions/0068-auto-enrolment-readiness.md), on PostgreSQL, against the real server process: an employer
 * with 10,000 employees and twelve months of weekly payroll (520,000 rows), uploaded as four
 * quarterly files through POST /api/employers/:id/payroll/import (each under the 25 MiB limit),
 * then assessed through GET /api/employers/:id/auto-enrolment; beside a raw COPY of the same rows
 * into a plain table, and with the server's peak RSS.
 */
const EMPLOYEES = 10_000;
const WEEKS = 52;
const QUARTERS = 4;
const HEADINGS =
  'PPS Number,Date of Birth,Period Start,Period End,Gross Pay,Employee Pension,Employer Pension,Arrangement';

const CHECK_ALPHABET = 'WABCDEFGHIJKLMNOPQRSTUV';
const WEIGHTS = [8, 7, 6, 5, 4, 3, 2];

/** The n-th valid PPS number of this run (docs/decisions/0028-pps-numbers.md), distinct per n. */
function ppsNumber(n: number): string {
  const digits = String(n).padStart(7, '0');
  const sum = WEIGHTS.reduce((total, weight, index) => total + weight * Number(digits[index]), 0);
  return `${digits}${CHECK_ALPHABET[sum % 23]}`;
}

const isoDay = (days: number) =>
  new Date(Date.UTC(2026, 0, 5) + days * 86_400_000).toISOString().slice(0, 10);

/**
 * One quarter of weekly payroll, Monday to Sunday from 05/01/2026: a third of the employees pay 3%
 * with 3% from the employer into the scheme, a sixth hold a PRSA by direct debit, the rest nothing.
 */
function quarterFile(quarter: number, schemeId: string): Buffer {
  const lines = [HEADINGS];
  const weeks = WEEKS / QUARTERS;
  for (let week = quarter * weeks; week < (quarter + 1) * weeks; week += 1) {
    const start = isoDay(week * 7);
    const end = isoDay(week * 7 + 6);
    for (let n = 0; n < EMPLOYEES; n += 1) {
      const gross = 300 + (n % 900);
      const pension = n % 3 === 0 ? `${(gross * 0.03).toFixed(2)}` : '';
      const arrangement = n % 3 === 0 ? schemeId : n % 6 === 1 ? 'PRSA' : '';
      const born = `${1960 + (n % 45)}-0${1 + (n % 9)}-1${n % 10}`;
      lines.push(
        `${ppsNumber(n + 1)},${born},${start},${end},${gross}.00,${pension},${pension},${arrangement}`,
      );
    }
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

/** The most resident memory the process has had since it started (kernel's high-water mark). */
function peakRssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/**
 * The baseline: the same CSV rows COPY'd as they are into a plain table with no checks, keys or
 * indexes, dropped afterwards (the service refuses to start beside a table without row-level
 * security).
 */
async function rawCopy(url: string, files: Buffer[]): Promise<number> {
  const connection = new pg.Client({ connectionString: url });
  await connection.connect();
  try {
    await connection.query(
      'create table bench_raw_payroll (pps text, date_of_birth text, period_start text, period_end text, gross text, employee text, employer text, arrangement text)',
    );
    const started = performance.now();
    for (const file of files) {
      await pipeline(
        Readable.from([file]),
        connection.query(
          copyFrom('copy bench_raw_payroll from stdin with (format csv, header true)'),
        ),
      );
    }
    return performance.now() - started;
  } finally {
    await connection.query('drop table if exists bench_raw_payroll');
    await connection.end();
  }
}

export async function runAutoEnrolment(report: Report): Promise<void> {
  const name = `pension_bench_${createId()}`;
  await adminQuery(`create database ${name}`);
  const url = databaseUrl(name);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bench-auto-enrolment-'));
  let app: Started | null = null;
  try {
    const [tenant] = await seed(url);
    if (!tenant) throw new Error('no tenant was seeded');
    const files = Array.from({ length: QUARTERS }, (_, quarter) =>
      quarterFile(quarter, tenant.schemeId),
    );
    const rows = EMPLOYEES * WEEKS;
    const copyMs = await rawCopy(url, files);

    app = await startServer(
      APP_COMMAND,
      { ...appEnv(dataDir, 'warn'), DATABASE_URL: url },
      APP_READY,
    );
    const base = `http://127.0.0.1:${app.port}`;
    const token = await signIn(base, tenant.email, 1);
    const idle = peakRssMegabytes(app.child.pid as number);
    const uploadStarted = performance.now();
    let written = 0;
    for (const [index, file] of files.entries()) {
      const response = await fetch(`${base}/api/employers/${tenant.employerId}/payroll/import`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'text/csv',
          'x-forwarded-for': `10.252.0.${index + 1}`,
        },
        body: file,
      });
      const body = await response.text();
      if (response.status !== 201) {
        throw new Error(`upload answered ${response.status}: ${body.slice(0, 500)}`);
      }
      written += (JSON.parse(body) as { rowsWritten: number }).rowsWritten;
    }
    const uploadMs = performance.now() - uploadStarted;
    if (written !== rows) throw new Error(`the uploads wrote ${written} rows, not ${rows}`);
    const assessStarted = performance.now();
    const assessed = await fetch(
      `${base}/api/employers/${tenant.employerId}/auto-enrolment?asOf=2026-12-31`,
      { headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': '10.252.0.9' } },
    );
    const view = (await assessed.json()) as { employees: unknown[]; totals: unknown };
    const assessMs = performance.now() - assessStarted;
    if (assessed.status !== 200 || view.employees.length !== EMPLOYEES) {
      throw new Error(`the assessment answered ${assessed.status}`);
    }
    const totalMs = uploadMs + assessMs;
    const megabytes = files.reduce((sum, file) => sum + file.length, 0) / 1024 / 1024;
    report(
      `Upload ${rows.toLocaleString('en-IE')} payroll rows (${EMPLOYEES.toLocaleString('en-IE')} employees, ${QUARTERS} files, ${megabytes.toFixed(1)} MiB) and assess (ms)`,
      totalMs.toFixed(0),
      `${copyMs.toFixed(0)} raw COPY of the same rows into a plain table`,
      (copyMs / totalMs).toFixed(2),
      '>= 0.25',
    );
    report('  of which the four uploads (ms)', uploadMs.toFixed(0), '', '', '');
    report('  of which the assessment of 10,000 employees (ms)', assessMs.toFixed(0), '', '', '');
    report(
      '  server peak RSS (MB, VmHWM)',
      peakRssMegabytes(app.child.pid as number).toFixed(0),
      `${idle.toFixed(0)} after start-up`,
      '',
      '< 300',
    );
  } finally {
    if (app) await stopServer(app);
    rmSync(dataDir, { recursive: true, force: true });
    await adminQuery(`drop database if exists ${name} with (force)`);
  }
}
