import { type SQL, sql } from 'drizzle-orm';
import { type SourceKind, sourceKindOf } from '../../../contracts/rag.js';
import { rowsOf } from '../../platform/db/database.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { alternativesOf, questionTerms } from './query-expansion.rules.js';

export { questionTerms };

/** One passage of the regulatory corpus, as the chat cites it (docs/api.md, "The AI assistant"). */
export interface RetrievedChunk {
  chunkId: string;
  /** "Pensions Act 1990 s.64AL(1)". */
  citation: string;
  /** The source document's title. */
  title: string;
  /** A summary written for this service, or the text as ingested (contracts/rag.ts). */
  sourceKind: SourceKind;
  headingPath: string[];
  url?: string;
  text: string;
  /** Relevance: higher is better; nothing below MIN_SCORE is ever returned. */
  score: number;
}

export interface RetrieveOptions {
  /** At most this many chunks (default 5, at most 20). */
  limit?: number;
}

export const DEFAULT_LIMIT = 5;
const MAX_LIMIT = 20;
/**
 * Below this a chunk is not returned at all, so the chat says it cannot answer instead of citing
 * something unrelated. Set from the evaluation set (test/rag/eval-set.json; docs/decisions/0069-regulatory-corpus-and-retrieval.md).
 */
export const MIN_SCORE = 0.18;
/** Weights of ts_rank for D, C, B, A: citation, identifiers and headings count far above body text. */
const WEIGHTS = '{0.2, 0.3, 0.6, 1.0}';
/**
 * Chunks scored at most. Only a question made of words most of the corpus holds reaches it; it is
 * then answered from the first chunks found that hold them, which bounds its cost (bench/rag.ts).
 */
const MAX_CANDIDATES = 2_000;
/** The least share of the question's weight a chunk can hold and still reach MIN_SCORE. */
const MIN_SHARE = Math.sqrt(MIN_SCORE);
/**
 * Matches counted per word for its weight, at most: beyond it a word is common whatever the exact
 * count, and counting further would cost a scan of most of the corpus.
 */
const FREQUENCY_CAP = 1_000;

/**
 * Each word's weight, by its rarity: ln((N + 1) / (df + 0.5)), N the chunks in the corpus (from
 * the sources' counts) and df the chunks holding it (counted through the GIN index, at most
 * FREQUENCY_CAP). A word no configuration keeps (a stop word) weighs 0.
 */
async function termWeights(tx: Pick<Transaction, 'execute'>, queries: SQL[]): Promise<number[]> {
  const columns = queries.map(
    (query, index) => sql`case when numnode(${query}) = 0 then -1 else (
        select count(*) from (select 1 from rag_chunks c where c.search @@ ${query}
                               limit ${FREQUENCY_CAP}) as hit) end as ${sql.raw(`t${index}`)}`,
  );
  const [row] = rowsOf<Record<string, number | string>>(
    await tx.execute(sql`
      select (select coalesce(sum(chunk_count), 0) from rag_sources) as size,
             ${sql.join(columns, sql`, `)}`),
  );
  const size = Number(row?.size ?? 0);
  return queries.map((_, index) => {
    const frequency = Number(row?.[`t${index}`] ?? -1);
    return frequency < 0 || size === 0 ? 0 : Math.log((size + 1) / (frequency + 0.5));
  });
}

function hasDigit(term: string): boolean {
  for (const character of term) if (character >= '0' && character <= '9') return true;
  return false;
}

/**
 * The passages of the regulatory corpus that best answer `question`, best first; none when
 * nothing is relevant enough (MIN_SCORE). `tx` is a transaction of the caller's (withActor):
 * the corpus is readable by every tenant's role.
 *
 * How: each word of the question becomes its own query through `plainto_tsquery` (`english`,
 * stemmed; a word with a digit also under `simple`, as typed), so no user text is ever read as
 * tsquery syntax. A chunk holding any of the words is a candidate, ranked by ts_rank over the
 * weighted vector (identifiers, citation and headings above body). Each candidate is then scored
 * by the share of the question it holds, every word weighted by its rarity in the corpus, so a
 * chunk that answers the whole question outranks one that repeats a common word, and a question
 * whose main words the corpus does not know ("cryptocurrency") scores below the threshold.
 */
export async function retrieve(
  tx: Pick<Transaction, 'execute'>,
  question: string,
  options: RetrieveOptions = {},
): Promise<RetrievedChunk[]> {
  const limit = Math.min(Math.max(1, Math.trunc(options.limit ?? DEFAULT_LIMIT)), MAX_LIMIT);
  const terms = questionTerms(question);
  if (terms.length === 0) return [];
  // Identifiers (a word with a digit: "64al", "28") also as typed, under `simple`; other words
  // only stemmed, so the stop words `english` drops ("what", "the") never match anything. Each
  // word is also searched for as the texts say it (query-expansion.rules.ts): a passage holding
  // any of its alternatives holds the word.
  const termQueries = terms.map((term) => {
    const alternatives = alternativesOf(term).map(
      (alternative) => sql`plainto_tsquery('english', ${alternative})`,
    );
    if (hasDigit(term)) alternatives.push(sql`plainto_tsquery('simple', ${term})`);
    return alternatives.length === 1
      ? (alternatives[0] as SQL)
      : sql`(${sql.join(alternatives, sql` || `)})`;
  });
  const weights = await termWeights(tx, termQueries);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  if (total === 0) return [];
  const useful = termQueries
    .map((query, index) => ({ query, weight: weights[index] as number }))
    .filter((term) => term.weight > 0)
    .sort((a, b) => b.weight - a.weight);
  // A chunk scores at most share², so one below MIN_SHARE can never pass. It must therefore hold
  // one of the rarest words whose weights add up to more than 1 - MIN_SHARE of the total: only
  // chunks holding one of those are looked at, which keeps common words from pulling in most of
  // the corpus. Nothing that could pass is left out.
  const selective: SQL[] = [];
  let covered = 0;
  for (const term of useful) {
    selective.push(term.query);
    covered += term.weight;
    if (covered > total * (1 - MIN_SHARE)) break;
  }
  const held = sql.join(
    useful.map(
      (term) => sql`(case when c.search @@ ${term.query} then ${term.weight}::float8 else 0 end)`,
    ),
    sql` + `,
  );
  // What the passage's own headings hold of the question: the headings below the document's
  // first, its title, which every passage of it shares. Among passages that score alike, the
  // one whose heading names what was asked comes first.
  const ownHeld = sql.join(
    useful.map(
      (term) => sql`(case when own.words @@ ${term.query} then ${term.weight}::float8 else 0 end)`,
    ),
    sql` + `,
  );
  const anyTerm = sql.join(
    useful.map((term) => term.query),
    sql` || `,
  );
  const statement: SQL = sql`
    with candidates as (
      select c.id, c.citation, c.heading_path, c.body, c.source,
             ((${held})::float8 / ${total}::float8) as share,
             ts_rank(${WEIGHTS}::float4[], c.search, ${anyTerm}, 1) as rank
        from (select * from rag_chunks c
               where c.search @@ (${sql.join(selective, sql` || `)})
               limit ${MAX_CANDIDATES}) as c
    ),
    scored as (
      select k.*, k.share * k.share * (0.5 + least(k.rank * 10, 0.5)) as score from candidates k
    )
    select k.id, k.citation, k.heading_path, k.body, k.source, s.title, s.url,
           k.score::float8 as score
      from scored k join rag_sources s on s.source = k.source
           cross join lateral (
             select to_tsvector('english', coalesce(string_agg(h.heading, ' '), '')) as words
               from jsonb_array_elements_text(k.heading_path) with ordinality as h(heading, at)
              where h.at > 1
           ) own
     where k.score >= ${MIN_SCORE}
     order by k.score desc, (${ownHeld})::float8 desc, k.rank desc, k.id
     limit ${limit}`;
  const rows = rowsOf<{
    id: string;
    citation: string;
    heading_path: string[] | string;
    body: string;
    source: string;
    title: string;
    url: string | null;
    score: number;
  }>(await tx.execute(statement));
  return rows.map((row) => ({
    chunkId: row.id,
    citation: row.citation,
    title: row.title,
    sourceKind: sourceKindOf(row.source),
    headingPath:
      typeof row.heading_path === 'string' ? JSON.parse(row.heading_path) : row.heading_path,
    ...(row.url ? { url: row.url } : {}),
    text: row.body,
    score: Number(row.score),
  }));
}
