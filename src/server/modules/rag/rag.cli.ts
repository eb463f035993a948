import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { SYSTEM_ACTOR } from '../auth/index.js';
import { CorpusFileError, readCorpus } from './corpus-files.data.js';
import { createCorpusIngest } from './ingest.service.js';

export interface CliOutput {
  /** The summary line, on standard output. */
  out(line: string): void;
  /** The progress bar, on standard error, so a script reading standard output sees only the summary. */
  progress(text: string): void;
  /** A terminal: the bar is redrawn in place; otherwise one line per document. */
  interactive: boolean;
}

const BAR_WIDTH = 30;

/** The bar for `done` of `total` documents, with the one just finished. */
export function progressBar(done: number, total: number, label: string): string {
  const filled = total === 0 ? BAR_WIDTH : Math.round((done / total) * BAR_WIDTH);
  return `[${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${done}/${total} ${label}`;
}

/**
 * `npm run cli -- rag:ingest <folder|manifest>` (README, "Ingesting the official texts"): reads
 * the documents, then ingests them in one transaction as the platform, drawing a bar per document.
 * Exits 1 naming the file when a document cannot be read or is not a valid corpus document.
 */
export async function ragIngestCommand(
  database: Database,
  audit: AuditService,
  target: string,
  output: CliOutput,
): Promise<number> {
  let documents: Awaited<ReturnType<typeof readCorpus>>;
  try {
    documents = await readCorpus(target);
  } catch (error) {
    if (error instanceof CorpusFileError || (error as NodeJS.ErrnoException).code === 'ENOENT') {
      output.progress(
        `rag:ingest: ${error instanceof CorpusFileError ? error.message : 'no such file or folder'}\n`,
      );
      return 1;
    }
    throw error;
  }
  const ingest = createCorpusIngest({ database, audit, now: () => new Date() });
  let done = 0;
  output.progress(
    `${progressBar(0, documents.length, 'reading')}${output.interactive ? '' : '\n'}`,
  );
  const answer = await ingest.ingest(SYSTEM_ACTOR, documents, (outcome) => {
    done += 1;
    const label = `${outcome.source}: ${outcome.chunks} chunks, ${outcome.unchanged} unchanged`;
    const bar = progressBar(done, documents.length, label);
    output.progress(output.interactive ? `\r\x1b[2K${bar}` : `${bar}\n`);
  });
  if (output.interactive) output.progress('\n');
  output.out(
    `Ingested ${answer.documents} document(s): ${answer.chunks} chunk(s), ${answer.unchanged} unchanged.`,
  );
  return 0;
}
