import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';
import { tsvector } from './columns.js';

/**
 * The regulatory corpus (docs/decisions/0069-regulatory-corpus-and-retrieval.md): public text,
 * shared by every tenant, so keyed by its own ids rather than by a broker. One row per source
 * document as last ingested; a new version replaces its chunks.
 */
export const ragSources = pgTable(
  'rag_sources',
  {
    /** The caller's stable name for the document, such as `pensions-act-1990`. */
    source: text('source').primaryKey(),
    title: text('title').notNull(),
    url: text('url'),
    version: text('version'),
    format: text('format').notNull(),
    /** SHA-256 of the ingested content: the same content again is skipped whole. */
    contentSha256: text('content_sha256').notNull(),
    chunkCount: integer('chunk_count').notNull(),
    ingestedAt: timestamp('ingested_at', { withTimezone: true, precision: 3 }).notNull(),
  },
  (table) => [
    check('rag_sources_format_known', sql`${table.format} in ('text','markdown','html')`),
    check('rag_sources_sha256_hex', sql`${table.contentSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);

export const ragChunks = pgTable(
  'rag_chunks',
  {
    id: text('id').primaryKey(),
    source: text('source')
      .notNull()
      .references(() => ragSources.source, { onDelete: 'cascade' }),
    /** Position within the source, for reading a source back in order. */
    ordinal: integer('ordinal').notNull(),
    /** "Pensions Act 1990 s.64AL(1)": what an answer cites. */
    citation: text('citation').notNull(),
    headingPath: jsonb('heading_path').$type<string[]>().notNull(),
    /** Identifier spellings of the citation ("64AL", "Article 28", "Art 28") matched as typed. */
    keys: text('keys').notNull(),
    body: text('body').notNull(),
    /** SHA-256 of source version, citation, heading path and body: unchanged chunks are kept. */
    contentSha256: text('content_sha256').notNull(),
    /**
     * Weighted for ranking: citation, identifiers and headings (A) above the body (D). The
     * identifier spellings under the `simple` configuration (no stemming, no stop words: "64al",
     * "art", "28" stay as written), words under `english`.
     */
    search: tsvector('search')
      .notNull()
      .generatedAlwaysAs(
        sql`setweight(to_tsvector('simple', coalesce(keys, '')), 'A') || setweight(to_tsvector('english', coalesce(citation, '') || ' ' || coalesce(heading_path::text, '')), 'A') || setweight(to_tsvector('english', coalesce(body, '')), 'D')`,
      ),
  },
  (table) => [
    unique('rag_chunks_source_hash_key').on(table.source, table.contentSha256),
    index('rag_chunks_search_idx').using('gin', table.search),
    check('rag_chunks_sha256_hex', sql`${table.contentSha256} ~ '^[0-9a-f]{64}$'`),
  ],
);
