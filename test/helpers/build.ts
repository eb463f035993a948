import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a test may need built, and the file whose presence says it is. */
const PARTS = {
  web: { script: 'build:web', output: path.resolve('dist/web/index.html') },
  server: { script: 'build:server', output: path.resolve('dist/server/main.js') },
} as const;
export type BuildPart = keyof typeof PARTS;

/** Held while one process builds; the others wait for it to go instead of building again. */
const LOCK = path.resolve('dist/.build-lock');
const OWNER = path.join(LOCK, 'pid');
const GIVE_UP_AFTER_MS = 5 * 60_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock, once no other process holds it; a lock left by a process that died is taken over. */
async function lock(): Promise<void> {
  const giveUpAt = Date.now() + GIVE_UP_AFTER_MS;
  mkdirSync(path.dirname(LOCK), { recursive: true });
  for (;;) {
    try {
      mkdirSync(LOCK);
      writeFileSync(OWNER, String(process.pid));
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    // The owner writes its pid just after making the directory: no pid yet is a build starting.
    const owner = existsSync(OWNER) ? Number(readFileSync(OWNER, 'utf8')) : null;
    if (owner && !alive(owner)) rmSync(LOCK, { recursive: true, force: true });
    if (Date.now() > giveUpAt) throw new Error(`${LOCK} is still held: remove it if no build runs`);
    await sleep(250);
  }
}

function run(script: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn('npm', ['run', '--silent', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`npm run ${script} failed (${code}):\n${output}`)),
    );
  });
}

const missing = (parts: readonly BuildPart[]) =>
  parts.filter((part) => !existsSync(PARTS[part].output));

/**
 * Builds whichever of the web UI and the server is not built yet, so that a test file run on its
 * own in a fresh clone (`npx vitest run <file>`) works without `npm run build` first. It never
 * rebuilds what exists: `npm test` builds everything before it starts (pretest), and a stale
 * build after editing src/web is rebuilt with `npm run build`. The app serves the built UI from
 * dist/web and refuses to start without it (src/server/platform/http/web-ui.ts), as a deployed server does,
 * so the tests build it rather than the app learning to start without one.
 * Parallel workers asking at once build it once: one builds under a lock directory, the others
 * wait for the lock to go and find it built.
 */
export async function ensureBuilt(...parts: BuildPart[]): Promise<void> {
  if (missing(parts).length === 0 && !existsSync(LOCK)) return;
  await lock();
  try {
    for (const part of missing(parts)) await run(PARTS[part].script);
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
