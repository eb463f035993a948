import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ingestStarterCorpus, retrieveAsTenant } from './helpers.js';

/**
 * The retrieval evaluation (docs/decisions/0069-regulatory-corpus-and-retrieval.md): recall@5
 * over questions the starter corpus answers, and refusal over questions it cannot. Floors sit a
 * little below what was measured, so a change that makes retrieval worse fails here.
 */
interface EvalSet {
  answerable: { question: string; expected: string[] }[];
  unanswerable: string[];
}
const evalSet = JSON.parse(
  readFileSync(new URL('./eval-set.json', import.meta.url), 'utf8'),
) as EvalSet;

const RECALL_AT_5_FLOOR = 0.9;
const REFUSAL_FLOOR = 0.9;

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await ingestStarterCorpus(t.database);
});
afterAll(() => t.dispose());

describe('retrieval over the starter corpus', () => {
  it(`finds an expected citation in the first five for at least ${RECALL_AT_5_FLOOR} of the answerable questions, and nothing for at least ${REFUSAL_FLOOR} of the unanswerable ones`, async () => {
    const misses: string[] = [];
    let recalled = 0;
    for (const { question, expected } of evalSet.answerable) {
      const found = await retrieveAsTenant(t.database, question, { limit: 5 });
      if (found.some((chunk) => expected.includes(chunk.citation))) recalled += 1;
      else
        misses.push(
          `${question} → ${found.map((chunk) => chunk.citation).join(' | ') || '(nothing)'}`,
        );
    }
    const wronglyAnswered: string[] = [];
    for (const question of evalSet.unanswerable) {
      const found = await retrieveAsTenant(t.database, question, { limit: 5 });
      if (found.length > 0) {
        wronglyAnswered.push(
          `${question} → ${found.map((c) => `${c.citation} ${c.score.toFixed(3)}`).join(' | ')}`,
        );
      }
    }
    const recallAt5 = recalled / evalSet.answerable.length;
    const refusal = 1 - wronglyAnswered.length / evalSet.unanswerable.length;
    process.stdout.write(
      `RAG eval: recall@5 ${recallAt5.toFixed(3)} (${recalled}/${evalSet.answerable.length}), refusal ${refusal.toFixed(3)} (${evalSet.unanswerable.length - wronglyAnswered.length}/${evalSet.unanswerable.length})\n`,
    );
    for (const line of [...misses, ...wronglyAnswered]) process.stdout.write(`  ${line}\n`);
    expect(evalSet.answerable.length).toBeGreaterThanOrEqual(40);
    expect(evalSet.unanswerable.length).toBeGreaterThanOrEqual(10);
    expect(recallAt5).toBeGreaterThanOrEqual(RECALL_AT_5_FLOOR);
    expect(refusal).toBeGreaterThanOrEqual(REFUSAL_FLOOR);
  });
});
