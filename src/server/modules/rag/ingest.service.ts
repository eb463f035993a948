import { createHash } from 'node:crypto';
import { createId } from '@paralleldrive/cuid2';
import type { CorpusDocument, IngestAnswer } from '../../../contracts/rag.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withPlatformRole } from '../../platform/db/with-actor.js';
import type { PlatformActor } from '../../platform/tenancy/actor.js';
import {
  type ChunkRow,
  chunkHashes,
  deleteChunks,
  findSource,
  insertChunks,
  lockCorpus,
  reorderChunks,
  saveSource,
} from './rag.data.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export interface CorpusIngestDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** How one document's ingest went; the request's answer sums these. */
export interface DocumentOutcome {
  source: string;
  chunks: number;
  unchanged: number;
  inserted: number;
  removed: number;
}

export interface CorpusIngest {
  /**
   * Stores `documents` in the corpus, all or none, and answers the request's counts. The caller
   * has established who is acting: the RAG_INGEST_SECRET bearer (rag.routes.ts), or the service
   * itself at start-up and in the CLI. The corpus is public text shared by every tenant, so there
   * is no tenant or role to check: the policy table governs people, and no person's session can
   * reach this (docs/decisions/0069-regulatory-corpus-and-retrieval.md).
   */
  ingest(
    actor: PlatformActor,
    documents: readonly CorpusDocument[],
    onDocument?: (outcome: DocumentOutcome) => void,
  ): Promise<IngestAnswer>;
}

export function createCorpusIngest({ database, audit, now }: CorpusIngestDeps): CorpusIngest {
  async function ingestOne(
    tx: Transaction,
    actor: PlatformActor,
    document: CorpusDocument,
  ): Promise<DocumentOutcome> {
    const contentSha256 = sha256(document.content);
    const existing = await findSource(tx, document.source);
    if (
      existing &&
      existing.contentSha256 === contentSha256 &&
      existing.title === document.title &&
      existing.url === (document.url ?? null) &&
      existing.version === (document.version ?? null) &&
      existing.format === document.format
    ) {
      // Same text, same version: nothing to read again, which keeps start-up cheap.
      const kept = existing.chunkCount;
      return { source: document.source, chunks: kept, unchanged: kept, inserted: 0, removed: 0 };
    }

    // The chunker and its HTML parser are loaded with the first document that changed: a start-up
    // that finds the shipped corpus unchanged does not carry them
    // (docs/decisions/0079-lazy-loading-for-idle-memory.md).
    const { chunkDocument } = await import('./chunking.rules.js');
    const chunks = chunkDocument(document);
    const stored = await chunkHashes(tx, document.source);
    const wanted = new Map<string, ChunkRow>();
    const order: { id: string; ordinal: number }[] = [];
    for (const chunk of chunks) {
      // The version is part of the hash: a new version replaces every chunk of the old one.
      const hash = sha256(
        JSON.stringify([
          document.version ?? null,
          document.title,
          document.url ?? null,
          chunk.citation,
          chunk.headingPath,
          chunk.body,
        ]),
      );
      if (wanted.has(hash)) continue; // the same passage twice under the same heading
      const ordinal = wanted.size;
      const keptId = stored.get(hash);
      if (keptId) order.push({ id: keptId, ordinal });
      wanted.set(hash, {
        id: keptId ?? createId(),
        source: document.source,
        ordinal,
        citation: chunk.citation,
        headingPath: chunk.headingPath,
        keys: chunk.keys,
        body: chunk.body,
        contentSha256: hash,
      });
    }
    const removed = [...stored].filter(([hash]) => !wanted.has(hash)).map(([, id]) => id);
    const fresh = [...wanted].filter(([hash]) => !stored.has(hash)).map(([, row]) => row);

    await saveSource(tx, {
      source: document.source,
      title: document.title,
      url: document.url ?? null,
      version: document.version ?? null,
      format: document.format,
      contentSha256,
      chunkCount: wanted.size,
      ingestedAt: now(),
    });
    await deleteChunks(tx, removed);
    await reorderChunks(tx, order);
    await insertChunks(tx, fresh);
    await audit.record(tx, actor, {
      action: 'rag_source.ingested',
      entityType: 'rag_source',
      entityId: document.source,
      tenantId: null,
      previousState: existing
        ? { version: existing.version, chunkCount: existing.chunkCount }
        : null,
      // Public names and counts only: the text itself is never audited.
      newState: {
        version: document.version ?? null,
        chunkCount: wanted.size,
        inserted: fresh.length,
        removed: removed.length,
      },
    });
    return {
      source: document.source,
      chunks: wanted.size,
      unchanged: order.length,
      inserted: fresh.length,
      removed: removed.length,
    };
  }

  return {
    async ingest(actor, documents, onDocument) {
      return withPlatformRole(database, async (tx) => {
        await lockCorpus(tx);
        const answer: IngestAnswer = { documents: 0, chunks: 0, unchanged: 0 };
        for (const document of documents) {
          const outcome = await ingestOne(tx, actor, document);
          answer.documents += 1;
          answer.chunks += outcome.chunks;
          answer.unchanged += outcome.unchanged;
          onDocument?.(outcome);
        }
        return answer;
      });
    },
  };
}
