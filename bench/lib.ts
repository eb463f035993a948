import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { START_ENV } from './settings.js';

export interface Started {
  child: ChildProcess;
  port: number;
  /** Milliseconds from spawn to the ready line. */
  startMs: number;
}

/**
 * Spawns a server whose output goes to a file (as logs do in production, and so that the load
 * generator in this process does not spend its CPU draining them), and resolves once that file
 * shows the line `ready` matches, with the port in group 1.
 */
export async function startServer(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<Started> {
  const logFile = path.join(mkdtempSync(path.join(tmpdir(), 'bench-log-')), 'server.log');
  const fd = openSync(logFile, 'w');
  const began = performance.now();
  const child = spawn(process.execPath, args, {
    env: { PATH: process.env.PATH ?? '', ...START_ENV, ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  let exited: number | null = null;
  child.on('exit', (code) => {
    exited = code ?? -1;
  });
  for (;;) {
    const match = ready.exec(readFileSync(logFile, 'utf8'));
    if (match) return { child, port: Number(match[1]), startMs: performance.now() - began };
    if (exited !== null)
      throw new Error(`server exited with ${exited}:\n${readFileSync(logFile, 'utf8')}`);
    await sleep(5);
  }
}

export async function stopServer(started: Started): Promise<void> {
  const exited = new Promise((resolve) => started.child.once('exit', resolve));
  started.child.kill('SIGTERM');
  await exited;
}

export function rssMegabytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
  return kb / 1024;
}

export interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/**
 * Client addresses, as a proxy in front of the service reports them: by default 20,000 clients
 * taking turns, as behind a load balancer of a busy service, each well under the 100 requests a
 * minute of the per-IP limit even at 30,000 requests a second.
 */
export const CLIENT_POOL = 20_000;
let clientNumber = 0;
function nextClientAddress(pool: number): string {
  clientNumber = (clientNumber + 1) % pool;
  return `10.${clientNumber >> 16}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
}

export interface LoadOptions {
  connections?: number;
  /** Requests per second across all connections; unlimited when unset. */
  overallRate?: number;
  /** A JSON body per request (the request becomes a POST): lets every request differ. */
  body?: () => unknown;
  /** Extra headers per request, such as a session token. */
  headers?: () => Record<string, string>;
  /** How many client addresses take turns; 2 ** 24 makes every request a new client. */
  clients?: number;
}

export async function load(url: string, seconds: number, options: LoadOptions = {}): Promise<Load> {
  const { connections = 32, overallRate, body, headers, clients = CLIENT_POOL } = options;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    ...(overallRate ? { overallRate } : {}),
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          ...(body ? { method: 'POST' as const, body: JSON.stringify(body()) } : {}),
          headers: {
            ...request.headers,
            ...(body ? { 'content-type': 'application/json' } : {}),
            ...headers?.(),
            'x-forwarded-for': nextClientAddress(clients),
          },
        }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export interface ClosedLoop {
  completed: number;
  /** Completed requests per second, from the first request to the last answer. */
  rate: number;
  statuses: Map<number, number>;
}

/**
 * `workers` clients each sending a POST and waiting for its answer, for `seconds`; then every
 * request in flight is awaited and counted. Unlike a load generator that stops mid-flight, no
 * work the server did is left out, which matters when each request takes a quarter second.
 */
export async function closedLoop(
  url: string,
  seconds: number,
  workers: number,
  body: () => unknown,
): Promise<ClosedLoop> {
  const statuses = new Map<number, number>();
  let completed = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) {
        const { status } = await timedPost(url, body());
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        completed += 1;
      }
    }),
  );
  return { completed, rate: completed / ((performance.now() - started) / 1000), statuses };
}

/** One request at a time from the next client address; resolves with the milliseconds it took. */
export async function timedPost(
  url: string,
  body: unknown,
): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': nextClientAddress(CLIENT_POOL),
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

/** The rows every benchmark adds to the one table printed at the end. */
export type Report = (
  what: string,
  figure: string,
  baseline: string,
  ratio: string,
  target: string,
) => void;

export function printTable(title: string, rows: string[][]): void {
  const header = ['measure', 'figure', 'baseline (same run)', 'ratio', 'target'];
  const widths = header.map((name, column) =>
    Math.max(name.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join(' | ');
  process.stdout.write(`\n${title}\n${line(header)}\n`);
  for (const row of rows) process.stdout.write(`${line(row)}\n`);
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** CPU time (user + system) the process has used so far, in microseconds. */
export function cpuMicroseconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks / CLOCK_TICKS_PER_SECOND) * 1_000_000;
}
const CLOCK_TICKS_PER_SECOND = 100;

/** Server CPU per request under load: steadier than req/s when the load generator shares the cores. */
export async function cpuPerRequest(
  pid: number,
  url: string,
  seconds: number,
  options: LoadOptions = {},
): Promise<{ microseconds: number; load: Load; requests: number }> {
  const before = cpuMicroseconds(pid);
  const started = performance.now();
  const result = await load(url, seconds, options);
  const elapsed = (performance.now() - started) / 1000;
  const requests = result.requestsPerSecond * elapsed;
  return { microseconds: (cpuMicroseconds(pid) - before) / requests, load: result, requests };
}
