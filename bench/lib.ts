import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';

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
    env: { PATH: process.env.PATH ?? '', ...env },
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
  p99Ms: number;
  errors: number;
  non2xx: number;
}

let clientNumber = 0;
/** A different client address for every request, as a proxy in front of the service would report. */
function nextClientAddress(): string {
  clientNumber = (clientNumber + 1) % 2 ** 24;
  return `10.${clientNumber >> 16}.${(clientNumber >> 8) & 255}.${clientNumber & 255}`;
}

export async function load(url: string, seconds: number, connections = 32): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    pipelining: 1,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, 'x-forwarded-for': nextClientAddress() },
        }),
      },
    ],
  });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
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
): Promise<{ microseconds: number; load: Load; requests: number }> {
  const before = cpuMicroseconds(pid);
  const started = performance.now();
  const result = await load(url, seconds);
  const elapsed = (performance.now() - started) / 1000;
  const requests = result.requestsPerSecond * elapsed;
  return { microseconds: (cpuMicroseconds(pid) - before) / requests, load: result, requests };
}
