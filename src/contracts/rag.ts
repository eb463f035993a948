import { z } from 'zod';
import { FIELD_MESSAGES } from './plain-english.js';
import { text } from './text.js';

/**
 * The regulatory corpus's ingest (docs/corpus.md;
 * docs/decisions/0069-regulatory-corpus-and-retrieval.md). Public regulatory text only: never
 * scheme, member or tenant data. Every refusal is a plain-English sentence starting with a capital
 * (contracts/plain-english.ts).
 */
export const CORPUS_FORMATS = ['text', 'markdown', 'html'] as const;
export type CorpusFormat = (typeof CORPUS_FORMATS)[number];

/** One document's content: an official text of a few megabytes at most (the Pensions Act is ~3 MB). */
export const MAX_CORPUS_DOCUMENT_CHARS = 10_000_000;
/** Documents per request; a whole corpus is sent as several requests or through the CLI. */
export const MAX_CORPUS_DOCUMENTS = 50;
/** The ingest route's body bound: the largest single document as JSON with room for escaping. */
export const MAX_INGEST_BODY_BYTES = 24 * 1024 * 1024;

/** A stable name the caller gives a document: what a later version of it replaces. */
const SOURCE_NAME = /^[a-z0-9][a-z0-9._-]{0,119}$/;

/**
 * What a source's passages are, as everything that shows them says
 * (docs/decisions/0124-summaries-labelled-as-summaries.md): `summary`, a summary written in its
 * author's own words, never the wording of the provision it is headed by (the starter corpus,
 * corpus/README.md); `text`, the words of the document as it was ingested, which docs/corpus.md
 * asks to be the official text as published.
 */
export const SOURCE_KINDS = ['summary', 'text'] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

/**
 * A source whose name starts so holds a summary (every source of corpus/manifest.json does). The
 * name is the one thing every ingest path keeps with the passages, so it says what they are.
 */
export const SUMMARY_SOURCE_PREFIX = 'summary-';

export function sourceKindOf(source: string): SourceKind {
  return source.startsWith(SUMMARY_SOURCE_PREFIX) ? 'summary' : 'text';
}

export const corpusDocument = z.strictObject({
  /** Starting `summary-` (SUMMARY_SOURCE_PREFIX) for a summary, so it is never shown as the law. */
  source: text({ max: 120 }).regex(
    SOURCE_NAME,
    'Use lower-case letters, digits, dots, hyphens or underscores, such as pensions-act-1990',
  ),
  title: text({ max: 200 }).min(1, FIELD_MESSAGES.title),
  url: z
    .url({ protocol: /^https?$/, error: 'Enter an http or https address' })
    .max(2000)
    .optional(),
  version: text({ max: 100 }).min(1, 'Enter a version').optional(),
  format: z.enum(CORPUS_FORMATS, { error: 'Choose text, markdown or html' }),
  content: text({ max: MAX_CORPUS_DOCUMENT_CHARS, trim: false, multiline: true }).refine(
    (value) => value.trim().length > 0,
    'Give the document’s text',
  ),
});
export type CorpusDocument = z.infer<typeof corpusDocument>;

export const ingestRequest = z.strictObject({
  documents: z
    .array(corpusDocument)
    .min(1, 'Add at least one document')
    .max(MAX_CORPUS_DOCUMENTS, `Send at most ${MAX_CORPUS_DOCUMENTS} documents at a time`),
});

/** Counts over the request: documents read, chunks now stored for them, chunks kept as they were. */
export const ingestAnswer = z.object({
  documents: z.number().int(),
  chunks: z.number().int(),
  unchanged: z.number().int(),
});
export type IngestAnswer = z.infer<typeof ingestAnswer>;
