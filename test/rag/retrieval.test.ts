import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { MIN_SCORE, questionTerms } from '../../src/server/modules/rag/retrieval.data.js';
import { openTestDatabase, type TestDatabase } from '../helpers/database.js';
import { corpusIngest, ingestStarterCorpus, retrieveAsTenant } from './helpers.js';

/** Retrieval by full-text search (docs/decisions/0069-regulatory-corpus-and-retrieval.md). */

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  await ingestStarterCorpus(t.database);
  // Distractors: the identifiers in body text, where they must rank below the provisions named.
  await corpusIngest(t.database).ingest(SYSTEM_ACTOR, [
    {
      source: 'distractors',
      title: 'Practice notes',
      format: 'markdown',
      content: [
        '## Deadlines',
        'Reply within 28 days. Article numbers such as 28 appear in many places; see also 64AL in passing.',
        '## Registers',
        'Keep registers up to date and minute every trustee meeting.',
      ].join('\n'),
    },
  ]);
});
afterAll(() => t.dispose());

describe('retrieval', () => {
  it('ranks the section an identifier names first: "64AL"', async () => {
    const found = await retrieveAsTenant(t.database, '64AL');
    expect(found[0]?.citation).toMatch(/^Pensions Act 1990 s\.64AL\(\d\)$/);
    expect(found[0]?.url).toBe(
      'https://revisedacts.lawreform.ie/eli/1990/act/25/front/revised/en/html',
    );
    expect(found[0]?.title).toBe('Pensions Act 1990');
    expect(found[0]?.headingPath[1]).toBe('Section 64AL — Own-risk assessment');
    const distractor = found.findIndex((chunk) => chunk.citation.startsWith('Practice notes'));
    expect(distractor === -1 || distractor > 0).toBe(true);
  });

  it('ranks the article first whether it is written "Article 28", "Art. 28" or "art 28" with its directive', async () => {
    for (const question of [
      'Article 28 IORP II',
      'IORP II Art. 28',
      'art 28 Directive 2016/2341',
    ]) {
      const found = await retrieveAsTenant(t.database, question);
      expect(found[0]?.citation, question).toBe('Directive (EU) 2016/2341 Art. 28');
    }
  });

  it('answers best first, scores never below the threshold, at most the limit', async () => {
    const found = await retrieveAsTenant(t.database, 'key function holder fit and proper', {
      limit: 3,
    });
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(3);
    const scores = found.map((chunk) => chunk.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((score) => score >= MIN_SCORE)).toBe(true);
  });

  it('returns nothing for a question the corpus cannot answer, or one of stop words only', async () => {
    expect(await retrieveAsTenant(t.database, 'How is cryptocurrency taxed in Ireland?')).toEqual(
      [],
    );
    expect(await retrieveAsTenant(t.database, 'Do I need a licence for my dog?')).toEqual([]);
    expect(await retrieveAsTenant(t.database, 'what is the')).toEqual([]);
    expect(await retrieveAsTenant(t.database, '')).toEqual([]);
    expect(await retrieveAsTenant(t.database, '?!*&|')).toEqual([]);
  });

  it('reads tsquery syntax in a question as plain words', async () => {
    for (const question of [
      "risk & !management | (audit:* <-> 'x'",
      "64AL')) or 1=1 --",
      '\\ " \' : * ( ) < > !',
    ]) {
      await expect(retrieveAsTenant(t.database, question)).resolves.toBeInstanceOf(Array);
    }
    const found = await retrieveAsTenant(t.database, 'own-risk & assessment | !trustees');
    expect(found[0]?.citation).toMatch(/Art\. 28|s\.64AL/);
  });

  it('splits a question into at most twelve distinct words without a pattern, keeping letters beyond ASCII', () => {
    expect(questionTerms('Cén fáth? Section 64AL, s.64AL(1) & Art. 28')).toEqual([
      'cén',
      'fáth',
      'section',
      '64al',
      's',
      '1',
      'art',
      '28',
    ]);
    expect(
      questionTerms('one two three four five six seven eight nine ten eleven twelve thirteen'),
    ).toHaveLength(12);
    expect(questionTerms(`${'a'.repeat(65)} b`)).toEqual(['b']);
  });
});
