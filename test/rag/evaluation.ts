import { readFileSync } from 'node:fs';

/**
 * The retrieval evaluation (docs/decisions/0123-retrieval-evaluation-and-expansion.md), shared by
 * test/rag/eval.test.ts, which holds retrieval to its targets, and `npm run bench -- rag`, which
 * prints the figures beside a baseline measured in the same run.
 */
export interface EvalSet {
  /** Questions as people ask them, each with the citations of the passages that answer it. */
  answerable: { question: string; expected: string[] }[];
  /** Questions the corpus does not answer: nothing may be retrieved for them. */
  unanswerable: string[];
}

/** The set, and the held-out questions written with it that were never used to tune retrieval. */
export const evalSet = JSON.parse(
  readFileSync(new URL('./eval-set.json', import.meta.url), 'utf8'),
) as EvalSet & { heldOut: EvalSet };

/** Recall of the right passage in the first five, at least. */
export const RECALL_AT_5_TARGET = 0.9;
/** Off-topic questions refused: every one. */
export const REFUSAL_TARGET = 1;

export interface Found {
  citation: string;
  score?: number;
}

export interface EvalResult {
  recalled: number;
  answerable: number;
  recallAt5: number;
  refused: number;
  unanswerable: number;
  refusal: number;
  /** Each answerable question missed, with what came back instead. */
  misses: string[];
  /** Each off-topic question that retrieved something, with what. */
  wronglyAnswered: string[];
}

/** Runs every question of the set through `search` (the first five passages it returns). */
export async function evaluate(
  search: (question: string) => Promise<Found[]>,
  set: EvalSet = evalSet,
): Promise<EvalResult> {
  const describe = (found: Found[]) =>
    found
      .map((chunk) =>
        chunk.score === undefined ? chunk.citation : `${chunk.citation} ${chunk.score.toFixed(3)}`,
      )
      .join(' | ') || '(nothing)';
  const misses: string[] = [];
  let recalled = 0;
  for (const { question, expected } of set.answerable) {
    const found = (await search(question)).slice(0, 5);
    if (found.some((chunk) => expected.includes(chunk.citation))) recalled += 1;
    else misses.push(`${question} → ${describe(found)}`);
  }
  const wronglyAnswered: string[] = [];
  for (const question of set.unanswerable) {
    const found = (await search(question)).slice(0, 5);
    if (found.length > 0) wronglyAnswered.push(`${question} → ${describe(found)}`);
  }
  const refused = set.unanswerable.length - wronglyAnswered.length;
  return {
    recalled,
    answerable: set.answerable.length,
    recallAt5: recalled / set.answerable.length,
    refused,
    unanswerable: set.unanswerable.length,
    refusal: refused / set.unanswerable.length,
    misses,
    wronglyAnswered,
  };
}

/** "0.953 (81/85)". */
export const recallInWords = (result: EvalResult) =>
  `${result.recallAt5.toFixed(3)} (${result.recalled}/${result.answerable})`;
/** "100% (25/25)". */
export const refusalInWords = (result: EvalResult) =>
  `${Math.round(result.refusal * 100)}% (${result.refused}/${result.unanswerable})`;
