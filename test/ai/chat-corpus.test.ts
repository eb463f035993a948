import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withCorpusReader } from '../../src/server/platform/db/with-actor.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { ingestStarterCorpus } from '../rag/helpers.js';

/**
 * The service as `npm start` wires it: chat retrieves from the regulatory corpus (the starter
 * corpus here), in a read-only transaction of the tenants' role with no tenant set, so retrieval
 * reaches the public corpus and nothing of any firm.
 */
let t: TestApp;
let consultant: UserRow;

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore() });
  await ingestStarterCorpus(t.database);
  const brokerId = await createBroker(t.database, 'Corrib Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Corrib Foods Ltd');
  const schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Corrib Scheme');
  await createMember(t.database, { brokerId, employerId, schemeId });
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
});
afterAll(() => t.close());

describe('chat over the shipped corpus', () => {
  it('answers a common question from the corpus, citing the sections it quotes', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', {
      question: 'How often must trustees carry out an own-risk assessment?',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ answered: true, mode: 'extracts' });
    expect(body.citations.length).toBeGreaterThan(0);
    expect(body.citations.map((cited: { citation: string }) => cited.citation).join(' ')).toMatch(
      /64AL|Art\. 28/,
    );
    // Each extract is headed by its citation once, not by the citation and its Act's name again.
    expect(body.answer).toMatch(/Pensions Act 1990 s\.64AL\(\d\) \[\[chunk:/);
    expect(body.answer).not.toMatch(/s\.64AL\(\d\), Pensions Act 1990/);
  });

  it('says of every passage of the shipped corpus that it is a summary in the service’s own words, never a quotation of the Act', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', {
      question: 'How often must trustees carry out an own-risk assessment?',
    });
    const body = response.json();
    expect(body.citations.length).toBeGreaterThan(0);
    for (const cited of body.citations) expect(cited.sourceKind, cited.citation).toBe('summary');
    const headings = (body.answer as string)
      .split('\n')
      .filter((line) => line.includes('[[chunk:'));
    expect(headings.length).toBe(body.citations.length);
    for (const heading of headings) {
      expect(heading).toMatch(/^Summary in this service’s own words, not the original text: /);
    }
    expect(body.answer).not.toMatch(/Quoted as written/);
  });

  it('answers the earnings threshold for auto-enrolment from section 50 of the Act’s summary: €20,000', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', {
      question: 'What is the earnings threshold for auto-enrolment?',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body.answered).toBe(true);
    expect(body.citations.map((cited: { citation: string }) => cited.citation)).toContain(
      'Automatic Enrolment Retirement Savings System Act 2024 s.50',
    );
    expect(body.answer).toContain('€20,000');
  });

  it('says the corpus does not answer a question outside it', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', {
      question: 'What does an Irish dog licence cost?',
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({ answered: false, citations: [], mode: 'extracts' });
  });

  it('retrieves in a transaction that can read the corpus and no firm’s rows, and writes nothing', async () => {
    const seen = await withCorpusReader(t.database, async (tx) => {
      const counts: number[] = [];
      for (const table of ['rag_chunks', 'members', 'schemes']) {
        const result = (await tx.execute(
          sql`select count(*)::int as n from ${sql.identifier(table)}`,
        )) as unknown as { rows: Array<{ n: number }> };
        counts.push(Number(result.rows[0]?.n));
      }
      return counts;
    });
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen.slice(1)).toEqual([0, 0]);
    await expect(
      withCorpusReader(t.database, (tx) => tx.execute(sql`delete from rag_chunks`)),
    ).rejects.toThrow();
  });
});
