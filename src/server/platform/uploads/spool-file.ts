import { type FileHandle, mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/** Lines are gathered up to about this many characters before each write. */
const WRITE_CHARACTERS = 256 * 1024;
const SPOOL_PREFIX = 'import-';
const SPOOL_SUFFIX = '.copy';

/**
 * The checked rows of one upload, in PostgreSQL's COPY text format, on disk between reading the
 * upload and loading it into the database: memory holds one batch, whatever the file's size.
 * Names and dates of birth are personal data and PPS numbers are already sealed; the file is
 * readable by this process's user only and removed when the import ends, whatever its outcome.
 */
export class SpoolFile {
  private pending = '';

  private constructor(
    readonly path: string,
    private readonly handle: FileHandle,
  ) {}

  static async create(directory: string, name: string): Promise<SpoolFile> {
    await mkdir(directory, { recursive: true, mode: 0o700 });
    const file = path.join(directory, `${SPOOL_PREFIX}${name}${SPOOL_SUFFIX}`);
    return new SpoolFile(file, await open(file, 'wx', 0o600));
  }

  /** Adds one line; true when a batch is ready and `flush` should be awaited. */
  append(line: string): boolean {
    this.pending += line;
    return this.pending.length >= WRITE_CHARACTERS;
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const batch = this.pending;
    this.pending = '';
    await this.handle.write(batch);
  }

  /** Writes what is pending; the file is then complete for COPY. */
  async finish(): Promise<void> {
    await this.flush();
  }

  async discard(): Promise<void> {
    this.pending = '';
    await this.handle.close().catch(() => undefined);
    await rm(this.path, { force: true });
  }
}

/**
 * Spool files outlive their import only when the process died during one. Removed at start-up once
 * older than an hour, which no upload lasts, so an instance sharing the directory keeps its own.
 */
export async function removeStaleSpoolFiles(
  directory: string,
  now: Date,
  maxAgeMs = 60 * 60 * 1000,
): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(SPOOL_PREFIX) || !name.endsWith(SPOOL_SUFFIX)) continue;
    const file = path.join(directory, name);
    const info = await stat(file).catch(() => null);
    if (info && now.getTime() - info.mtimeMs > maxAgeMs) await rm(file, { force: true });
  }
}

/**
 * One value of a COPY text line: `\N` for null; backslash, tab, newline and carriage return
 * escaped, as the format requires of text.
 */
export function copyValue(value: string | number | null): string {
  if (value === null) return '\\N';
  if (typeof value === 'number') return String(value);
  return /[\\\t\n\r]/.test(value)
    ? value
        .replaceAll('\\', '\\\\')
        .replaceAll('\t', '\\t')
        .replaceAll('\n', '\\n')
        .replaceAll('\r', '\\r')
    : value;
}

/** A text[] value of a COPY line, for elements that need no quoting (hex digests). */
export function copyHexArray(values: readonly string[]): string {
  return `{${values.join(',')}}`;
}

export function copyLine(values: ReadonlyArray<string | number | null>): string {
  return `${values.map(copyValue).join('\t')}\n`;
}
