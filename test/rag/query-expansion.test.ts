import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  alternativesOf,
  dictionaryTargets,
  questionTerms,
} from '../../src/server/modules/rag/query-expansion.rules.js';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { ingestStarterCorpus, retrieveAsTenant } from './helpers.js';

/**
 * The search dictionary applied to questions (docs/decisions/0123-retrieval-evaluation-and-expansion.md):
 * people's words searched for as the texts say them, figures and question words left out.
 */
describe('the words a question is searched for', () => {
  it('leaves out the words that only make it a question, and keeps its subject', () => {
    expect(questionTerms('If someone opts out, do they get their money back?')).toEqual([
      'if',
      'opts',
      'out',
      'do',
      'they',
      'their',
      'money back',
    ]);
  });

  it('leaves out sums and figures, which are compared with the rules rather than asked about, and keeps numbers that name a provision', () => {
    expect(questionTerms('Will a worker earning €15,000 a year be enrolled?')).not.toContain('15');
    expect(questionTerms('Will a worker earning €15,000 a year be enrolled?')).not.toContain('000');
    expect(questionTerms('Is 1.5% the rate?')).toEqual(['is', 'the', 'rate']);
    expect(questionTerms('€20000 earnings')).toEqual(['earnings']);
    expect(questionTerms('Article 28 and 64AL')).toEqual(['article', '28', 'and', '64al']);
  });

  it('reads IT in capitals as information technology, and "it" as the pronoun', () => {
    expect(questionTerms('Report an IT incident')).toContain('ict');
    expect(questionTerms('Do we report it?')).toContain('it');
    expect(questionTerms('Do we report it?')).not.toContain('ict');
  });

  it('joins known phrases into one term, searched for as the texts name it', () => {
    expect(questionTerms('When can I leave My Future Fund?')).toContain('my future fund');
    expect(alternativesOf('my future fund')).toEqual(['my future fund', 'automatic enrolment']);
    // An idiom whose words mean something else in the regulations is searched for as itself.
    expect(questionTerms('What is the minimum wage?')).toContain('minimum wage');
    expect(alternativesOf('minimum wage')).toEqual(['minimum wage']);
  });

  it('searches for a plain word as written and as the texts say it, and for an unknown word as written only', () => {
    expect(alternativesOf('earnings')).toEqual(['earnings', 'pay']);
    expect(alternativesOf('auto')).toEqual(['auto', 'automatic']);
    expect(alternativesOf('delete')).toEqual(['delete', 'erase', 'erasure']);
    expect(alternativesOf('cryptocurrency')).toEqual(['cryptocurrency']);
    // Inherited names of an object are not words of the dictionary.
    expect(alternativesOf('constructor')).toEqual(['constructor']);
    expect(alternativesOf('__proto__')).toEqual(['__proto__']);
  });
});

describe('the dictionary against the shipped corpus', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase();
    await ingestStarterCorpus(t.database);
  });
  afterAll(() => t.dispose());

  it('leads only to words the texts hold', async () => {
    const missing = await withActor(t.database, tenantActor('dictionary'), async (tx) => {
      const absent: string[] = [];
      for (const target of dictionaryTargets()) {
        const [row] = rowsOf<{ found: boolean }>(
          await tx.execute(
            sql`select exists (select 1 from rag_chunks
                 where search @@ plainto_tsquery('english', ${target})) as found`,
          ),
        );
        if (!row?.found) absent.push(target);
      }
      return absent;
    });
    expect(missing).toEqual([]);
  });

  it('answers the earnings threshold for auto-enrolment, which neither word of the texts names', async () => {
    const found = await retrieveAsTenant(
      t.database,
      'What is the earnings threshold for auto-enrolment?',
    );
    expect(found.map((chunk) => chunk.citation)).toContain(
      'Automatic Enrolment Retirement Savings System Act 2024 s.50',
    );
  });
});
