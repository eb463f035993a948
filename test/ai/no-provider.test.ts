import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RetrievedChunk } from '../../src/server/modules/rag/retrieval.data.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';

/**
 * With AI_PROVIDER=none (the default in development and test) nothing is sent anywhere: chat
 * quotes the most relevant passages, labelled as extracts, and drafts come from the project's
 * templates, labelled as such.
 */
const CHUNKS: RetrievedChunk[] = [
  {
    chunkId: 'chunk-a',
    citation: 'S.I. No. 128/2021 reg. 28',
    title: 'Own-risk assessment',
    sourceKind: 'summary',
    headingPath: [],
    text: 'An own-risk assessment is carried out at least every three years.',
    score: 0.4,
  },
  {
    chunkId: 'chunk-b',
    citation: 'Pensions Act 1990 s. 64AG',
    title: 'Key functions',
    sourceKind: 'text',
    headingPath: [],
    url: 'https://example.ie/64AG',
    text: 'Key function holders report to the trustees.',
    score: 0.9,
  },
];

let t: TestApp;
let consultant: UserRow;
let schemeId: string;
let member: { ppsNumber: string };
let retrieved: string[] = [];

beforeAll(async () => {
  t = await buildTestApp({
    counters: uncountedStore(),
    retrieve: async (question) => {
      retrieved.push(question);
      return CHUNKS;
    },
  });
  const brokerId = await createBroker(t.database, 'Slaney Pensions');
  const employerId = await createEmployer(t.database, brokerId, 'Slaney Foods Ltd');
  schemeId = await createScheme(t.database, { id: employerId, brokerId }, 'Slaney Scheme');
  await createKeyFunctionHolder(
    t.database,
    { brokerId, employerId, schemeId },
    { function: 'internal_audit', alsoServesEmployer: true },
  );
  consultant = await createUser(t.database, { brokerId, role: 'BrokerUser' });
  member = await createMember(
    t.database,
    { brokerId, employerId, schemeId },
    { firstName: 'Nuala', lastName: 'Brennan' },
  );
});
afterAll(() => t.close());

describe('without a provider', () => {
  it('answers with the most relevant passages, labelled as extracts, each headed by whether it is a summary or quoted as written', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', {
      question: 'Who do key function holders report to?',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ answered: true, mode: 'extracts' });
    // Each passage is headed by what it is: the text as written, or a summary, never passed
    // off as the law's words.
    expect(
      body.answer.startsWith(
        'Quoted as written: Pensions Act 1990 s. 64AG, Key functions [[chunk:chunk-b]]',
      ),
    ).toBe(true);
    expect(body.answer).toContain('> Key function holders report to the trustees.');
    expect(body.answer).toContain(
      'Summary in this service’s own words, not the original text: S.I. No. 128/2021 reg. 28, Own-risk assessment [[chunk:chunk-a]]',
    );
    expect(body.citations).toEqual([
      {
        chunkId: 'chunk-b',
        citation: 'Pensions Act 1990 s. 64AG',
        title: 'Key functions',
        url: 'https://example.ie/64AG',
        sourceKind: 'text',
      },
      {
        chunkId: 'chunk-a',
        citation: 'S.I. No. 128/2021 reg. 28',
        title: 'Own-risk assessment',
        sourceKind: 'summary',
      },
    ]);
    const settings = await t.signedInUser({ role: 'BrokerAdmin' });
    const view = await t.requestAs(settings.user, 'GET', '/api/tenant/ai-settings');
    expect(view.json()).toMatchObject({ provider: 'none', usage: { requests: 0 } });
  });

  it('refuses a question holding personal data as a provider would, before retrieval reads it', async () => {
    retrieved = [];
    const refused = [
      `Who do key function holders report to, for PPS ${member.ppsNumber}?`,
      'Who do key function holders report to? Write to nuala@example.ie',
      'Does Nuala Brennan report to the trustees?',
      'Use the key sk-live-abcdefghijklmnopqrstuvwx for key function holders.',
    ];
    for (const question of refused) {
      const response = await t.requestAs(consultant, 'POST', '/api/ai/chat', { question });
      expect(response.statusCode, question).toBe(400);
      expect(response.json().issues).toEqual([
        {
          path: 'question',
          code: 'personal_data',
          message: expect.stringMatching(/^The question/),
        },
      ]);
      expect(response.body).not.toContain(member.ppsNumber);
    }
    expect(retrieved).toEqual([]);
    expect(t.logs.text()).toContain('"securityEvent":"ai.outgoing_refused"');
    expect(t.logs.text()).not.toContain('Brennan');
  });

  it('drafts from the project’s template, labelled as a template, from the scheme facts', async () => {
    const response = await t.requestAs(consultant, 'POST', '/api/ai/drafts', {
      schemeId,
      kind: 'written_policy',
      policyKind: 'internal_audit',
    });
    expect(response.statusCode, response.body).toBe(201);
    const draft = response.json();
    expect(draft).toMatchObject({ status: 'draft', generatedBy: 'template' });
    const lines = draft.content.split('\n');
    expect(lines[0]).toMatch(/^DRAFT FROM TEMPLATE/);
    expect(lines).toContain('Internal audit policy');
    expect(draft.content).toContain('the conflicts of interest protocol applies');
    // Filled in from the scheme's record: its name, never left as a placeholder.
    expect(draft.content).toContain('the trustees of Slaney Scheme manage internal audit');
    expect(draft.content).not.toContain('[scheme name]');
  });
});
