import type { Logger } from 'pino';
import { SYSTEM_ACTOR } from '../auth/index.js';
import { readCorpus, SHIPPED_CORPUS_DIR } from './corpus-files.data.js';
import type { CorpusIngest } from './ingest.service.js';

/**
 * Start-up ingest of the starter corpus shipped in `corpus/` (docs/decisions/0069-regulatory-corpus-and-retrieval.md),
 * so a fresh installation can answer the common questions. Idempotent and
 * cheap when nothing changed: a document whose content and version match what is stored is
 * skipped without being chunked. A missing folder is logged, not fatal: the chat then answers
 * that it cannot help until a corpus is ingested.
 */
export async function ingestShippedCorpus(
  ingest: CorpusIngest,
  logger: Logger,
  folder: string = SHIPPED_CORPUS_DIR,
): Promise<void> {
  let documents: Awaited<ReturnType<typeof readCorpus>>;
  try {
    documents = await readCorpus(folder);
  } catch (error) {
    logger.warn({ err: error }, 'starter corpus not readable: nothing ingested');
    return;
  }
  const answer = await ingest.ingest(SYSTEM_ACTOR, documents);
  if (answer.chunks !== answer.unchanged) {
    logger.info(answer, 'starter corpus ingested');
  }
}
