import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { readCorpus, SHIPPED_CORPUS_DIR } from '../../src/server/modules/rag/corpus-files.data.js';
import { createCorpusIngest } from '../../src/server/modules/rag/ingest.service.js';
import { type RetrieveOptions, retrieve } from '../../src/server/modules/rag/retrieval.data.js';
import type { Database } from '../../src/server/platform/db/database.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { testAuditService } from '../helpers/audit.js';

export function corpusIngest(database: Database) {
  return createCorpusIngest({ database, audit: testAuditService(), now: () => new Date() });
}

/** The starter corpus of `corpus/`, ingested as start-up ingests it. */
export async function ingestStarterCorpus(database: Database) {
  return corpusIngest(database).ingest(SYSTEM_ACTOR, await readCorpus(SHIPPED_CORPUS_DIR));
}

/** Retrieval as the chat runs it: inside a tenant's transaction, under the tenants' role. */
export function retrieveAsTenant(database: Database, question: string, options?: RetrieveOptions) {
  return withActor(database, tenantActor('tenant-reading-corpus'), (tx) =>
    retrieve(tx, question, options),
  );
}
