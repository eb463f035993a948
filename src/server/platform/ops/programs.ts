import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/** A program on PATH, or null. */
export function programOnPath(name: string): string | null {
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder && existsSync(path.join(folder, name))) return path.join(folder, name);
  }
  return null;
}

/**
 * A PostgreSQL program: on PATH first, else the newest of Debian's and Ubuntu's side-by-side
 * installs (/usr/lib/postgresql/<version>/bin), which keep `initdb` and `pg_ctl` off PATH and
 * often `pg_dump` too. Found at run time, so that no machine's layout is written into the code.
 */
export function postgresProgram(name: string): string | null {
  const onPath = programOnPath(name);
  if (onPath) return onPath;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root) : [];
  const newestFirst = versions
    .filter((version) => /^\d+(\.\d+)?$/.test(version))
    .sort((a, b) => Number(b) - Number(a));
  for (const version of newestFirst) {
    const candidate = path.join(root, version, 'bin', name);
    if (existsSync(candidate)) return candidate;
  }
  return null;
}
