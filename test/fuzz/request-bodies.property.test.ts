import { createId } from '@paralleldrive/cuid2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_IDS } from '../../src/contracts/api-routes.js';
import { type Action, POLICY } from '../../src/contracts/policy.js';
import type { Role } from '../../src/contracts/roles.js';
import { ACTION_EXTENSION } from '../../src/server/platform/http/route-actions.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createKeyFunctionHolder,
  createMember,
  createMemberWhoIs,
  createOpenDataRequest,
  createOraReport,
  createPolicy,
  createRestrictedMember,
  createScheme,
  createTrustee,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { expectPlainEnglish } from '../helpers/plain-english.js';
import {
  collectionOf,
  creationOf,
  exampleBody,
  exampleQuery,
  parametersOf,
  pathWith,
  tableRoute,
} from '../helpers/route-examples.js';
import { createAssumptionSet, createIssuedStatement } from '../helpers/statements.js';

/**
 * Property: whatever body arrives at a POST, PUT or PATCH of the organisation API, the
 * answer is a 2xx or a 400 of the documented shape (409 where an e-mail address is taken), never
 * a 500, and a 400 leaves every table as it was.
 */
let t: TestApp;
let actors: Record<'platform' | 'admin' | 'consultant' | 'member', UserRow>;
let ids: {
  brokerId: string;
  employerId: string;
  schemeId: string;
  userId: string;
  memberId: string;
  contributionId: string;
  fundId: string;
  /** The fund the PATCH route edits, closing it now and then: never the one members choose. */
  editedFundId: string;
  trusteeId: string;
  holderId: string;
  draftId: string;
  approvedPolicyId: string;
  oraId: string;
  aiDraftId: string;
  /** A firm's own projection assumption set, which statement runs name. */
  assumptionsId: string;
};

beforeAll(async () => {
  // Hundreds of requests as one user, about something else than rate limits.
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const staff = {
    platform: await createUser(t.database, { role: 'SuperAdmin' }),
    admin: await createUser(t.database, { brokerId, role: 'BrokerAdmin' }),
    consultant: await createUser(t.database, { brokerId, role: 'BrokerUser' }),
  };
  const target = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  actors = {
    ...staff,
    member: await createUser(t.database, {
      brokerId,
      employerId,
      role: 'Member',
      memberId: member.id,
    }),
  };
  const fund = await t.requestAs(actors.consultant, 'POST', `/api/schemes/${schemeId}/funds`, {
    name: 'Default fund',
  });
  const editedFund = await t.requestAs(
    actors.consultant,
    'POST',
    `/api/schemes/${schemeId}/funds`,
    {
      name: 'Fund under edit',
    },
  );
  const contribution = await t.requestAs(
    actors.consultant,
    'POST',
    `/api/members/${member.id}/contributions`,
    { period: '2026-01', kind: 'employee', amountCents: 1_000_000 },
  );
  ids = {
    brokerId,
    employerId,
    schemeId,
    userId: target.id,
    memberId: member.id,
    contributionId: contribution.json().id,
    fundId: fund.json().id,
    editedFundId: editedFund.json().id,
    trusteeId: await createTrustee(t.database, { brokerId, employerId, schemeId }),
    holderId: await createKeyFunctionHolder(t.database, { brokerId, employerId, schemeId }),
    draftId: await createPolicy(t.database, { brokerId, employerId, schemeId }),
    approvedPolicyId: await createPolicy(
      t.database,
      { brokerId, employerId, schemeId },
      { kind: 'remuneration', status: 'approved', approvedOn: '2023-01-01' },
    ),
    oraId: await createOraReport(t.database, { brokerId, employerId, schemeId }),
    aiDraftId: (
      await t.requestAs(staff.consultant, 'POST', '/api/ai/drafts', {
        schemeId,
        kind: 'ora_outline',
      })
    ).json().id,
    assumptionsId: await createAssumptionSet(t.database, brokerId),
  };
});
afterAll(() => t.close());

const anyJson = fc.oneof(
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 3 }),
);

const name = fc.string({ minLength: 1, maxLength: 200 }).filter((value) => value.trim() !== '');
const nonBlank = (maxLength: number) =>
  fc.string({ minLength: 1, maxLength }).filter((value) => value.trim() !== '');
const email = fc.emailAddress().map((address) => `${createId()}${address}`);
/** Long enough to be accepted: each such body costs a bcrypt hash, so user routes run fewer cases. */
const password = fc.string({ minLength: 12, maxLength: 40 });
const isoDate = fc
  .date({ min: new Date('1901-01-01'), max: new Date('2025-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** A governance date: after 1950, never in the future. */
const governanceDate = fc
  .date({ min: new Date('1951-01-01'), max: new Date('2025-12-31'), noInvalidDate: true })
  .map((date) => date.toISOString().slice(0, 10));
/** A governance entry's document: unlinked, or an id no document has (a 400 naming the field). */
const documentLink = fc.constantFrom(null, 'nosuchdocument0000000000');
const period = fc
  .tuple(fc.integer({ min: 1950, max: 2100 }), fc.integer({ min: 1, max: 12 }))
  .map(([year, month]) => `${year}-${String(month).padStart(2, '0')}`);

/** A corpus document: valid names and formats most of the time, content that always has text. */
const corpusDocument = fc.record({
  source: fc.constantFrom('fuzz-act', 'fuzz-directive', 'fuzz.notes_1'),
  title: name,
  format: fc.constantFrom('text', 'markdown', 'html'),
  content: fc
    .tuple(fc.constantFrom('## Article 5\n', 'Section 64AL\n', '<h2>Art. 2</h2>', ''), name)
    .map(([heading, text]) => `${heading}${text}`),
});

/**
 * Values for a body's fields by the field's name, besides the one the route's example gives:
 * mostly valid, near the edges of what is valid. A field of a name not here keeps its example
 * value, or gets any JSON value in the bodies near the valid shape.
 */
const FIELD_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  name,
  firstName: nonBlank(100),
  lastName: nonBlank(100),
  holderName: fc.uuid(),
  email,
  holderEmail: fc.constantFrom(null, 'holder@example.ie'),
  password,
  dateOfBirth: isoDate,
  appointedOn: governanceDate,
  performedOn: governanceDate,
  occurredOn: governanceDate,
  approvedOn: governanceDate,
  notifiedOn: fc.option(governanceDate),
  endedOn: fc.constant(null),
  salaryCents: fc.nat({ max: 1_000_000_000 }),
  amountCents: fc.nat({ max: 10_000_000 }),
  deltaCents: fc.integer({ min: 1, max: 1_000 }),
  directorCount: fc.nat({ max: 20 }),
  period,
  reason: nonBlank(500),
  description: name,
  title: name,
  version: fc.constantFrom('1.0', '1.1', '2.1'),
  summary: fc.string({ maxLength: 300 }),
  conflictsProtocol: fc.string({ maxLength: 200 }),
  fitnessAndProbity: fc.constantFrom('pending', 'confirmed', 'failed'),
  alsoServesEmployer: fc.boolean(),
  documentId: documentLink,
  isin: fc.constantFrom('IE00B4L5Y983', null),
  question: nonBlank(300),
  content: nonBlank(500),
  apiKey: fc.option(nonBlank(100).filter((key) => key.trim().length >= 8)),
  monthlyRequestLimit: fc.option(fc.integer({ min: 0, max: 10_000 })),
  monthlyTokenLimit: fc.option(fc.integer({ min: 0, max: 10_000_000 })),
  documents: fc.array(corpusDocument, { minLength: 1, maxLength: 2 }),
};

/**
 * Bodies of three kinds, from the route's example (src/contracts/api-routes.ts): valid ones (the
 * example, fresh each time, with fields from their values above), bodies near the valid shape
 * (any field missing or replaced by any JSON value), and bodies of any shape at all.
 */
function bodiesOf(key: string): fc.Arbitrary<unknown> {
  const route = tableRoute(key);
  // The example ids stay in the generated bodies, to be told apart from ids the generator made
  // up; each is replaced by the fixture's record just before sending.
  const example = fc.constant(null).map(() => exampleBody(route, EXAMPLE_IDS));
  const fieldsOf = (body: unknown) =>
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : {};
  const valid = example.chain((body) =>
    fc.record(
      Object.fromEntries(
        Object.entries(fieldsOf(body)).map(([field, value]) => [
          field,
          FIELD_VALUES[field]
            ? fc.oneof(fc.constant(value), FIELD_VALUES[field] as fc.Arbitrary<unknown>)
            : fc.constant(value),
        ]),
      ),
    ),
  );
  const nearlyValid = valid.chain((body) =>
    fc.record(
      Object.fromEntries(
        Object.entries(fieldsOf(body)).map(([field, value]) => [
          field,
          fc.oneof({ weight: 3, arbitrary: fc.constant(value) }, anyJson),
        ]),
      ),
      { requiredKeys: [] },
    ),
  );
  return fc.oneof(
    { weight: 1, arbitrary: example },
    { weight: 2, arbitrary: valid },
    { weight: 4, arbitrary: nearlyValid },
    { weight: 1, arbitrary: fc.anything({ maxDepth: 2 }) },
    { weight: 1, arbitrary: fc.dictionary(fc.string(), anyJson, { maxKeys: 4 }) },
  );
}

/** The body with the fixture's records where the example names records. */
const withFixtureIds = (body: unknown) => {
  let text = JSON.stringify(body ?? null);
  const fixture = {
    employer: ids.employerId,
    scheme: ids.schemeId,
    member: ids.memberId,
    fund: ids.fundId,
    assumptions: ids.assumptionsId,
  };
  for (const [kind, id] of Object.entries(EXAMPLE_IDS)) {
    text = text.replaceAll(
      JSON.stringify(id),
      JSON.stringify(fixture[kind as keyof typeof fixture]),
    );
  }
  return JSON.parse(text);
};

/** The fixture's record a path parameter names, by the kind of record (test/helpers/route-examples.ts). */
const RECORD_OF: Record<string, () => string> = {
  brokers: () => ids.brokerId,
  employers: () => ids.employerId,
  users: () => ids.userId,
  schemes: () => ids.schemeId,
  members: () => ids.memberId,
  contributions: () => ids.contributionId,
  // Its generated bodies may close the fund (`closed: true`): never the one members choose.
  funds: () => ids.editedFundId,
  trustees: () => ids.trusteeId,
  'key-function-holders': () => ids.holderId,
  // Only a draft's title and version change, and only a draft is approved.
  policies: () => ids.draftId,
  'ora-reports': () => ids.oraId,
  'ai/drafts': () => ids.aiDraftId,
};
/** The fixture member's issued statement, planted when first asked for. */
let issuedStatement: Promise<string> | undefined;
/** Routes that act on a record in another state than the kind's usual one. */
const RECORD_IN_STATE: Record<string, () => string | Promise<string>> = {
  'POST /api/policies/{id}/significant-change': () => ids.approvedPolicyId,
  // A step of the lifecycle changes its member: each body gets a member of its own, in the status
  // the step starts from (docs/decisions/0135-members-lifecycle.md).
  'POST /api/members/{id}/leave': () => memberWhoIs('active'),
  'POST /api/members/{id}/retire': () => memberWhoIs('active'),
  'POST /api/members/{id}/death': () => memberWhoIs('active'),
  'POST /api/members/{id}/leaving-choice': () => memberWhoIs('deferred'),
  'POST /api/members/{id}/transfer-out': () => memberWhoIs('deferred'),
  'POST /api/members/{id}/rejoin': () => memberWhoIs('deferred'),
  'POST /api/members/{id}/status-corrections': () => memberWhoIs('deferred'),
  // A breach is closed once, and only once the Commission has been told: each body closes a
  // notified breach of its own (docs/decisions/0138-personal-data-breaches.md).
  'POST /api/data-breaches/{id}/close': () => notifiedBreach(),
  // A step of a data-subject request closes it or extends it: each body gets an open request of
  // its own, received today (docs/decisions/0137-data-subject-requests.md).
  'POST /api/data-requests/{id}/extend': () => openDataRequest(),
  'POST /api/data-requests/{id}/complete': () => openDataRequest(),
  'POST /api/data-requests/{id}/refuse': () => openDataRequest(),
  // Erasure and restriction (docs/decisions/0149-retention-and-erasure.md): each body gets an
  // open erasure request of a member of its own, a member with no restriction, or one to lift.
  'POST /api/data-requests/{id}/erase': async () =>
    createOpenDataRequest(
      t.database,
      { brokerId: ids.brokerId, memberId: await memberWhoIs('active') },
      { kind: 'erasure' },
    ),
  'POST /api/members/{id}/restriction': () => memberWhoIs('active'),
  'POST /api/members/{id}/restriction/lift': () =>
    createRestrictedMember(t.database, {
      brokerId: ids.brokerId,
      employerId: ids.employerId,
      schemeId: ids.schemeId,
    }),
  'POST /api/data-requests/{id}/rectification': () =>
    createOpenDataRequest(
      t.database,
      { brokerId: ids.brokerId, memberId: ids.memberId },
      { kind: 'rectification', receivedOn: '2026-01-05' },
    ),
  // Only a major incident is reported, its initial notification once: each body reports on an
  // incident of its own, classified major (docs/decisions/0139-dora-ict-incidents.md).
  'POST /api/ict-incidents/{id}/reports': () => majorIncident(),
  // A wind-up leaves its scheme read only: each body winds up a scheme of its own, never the
  // fixture's (docs/decisions/0146-schemes-wound-up-not-deleted.md).
  'POST /api/schemes/{id}/wind-up': () => newScheme(),
  // Only a statement made is marked for paper: one issued statement of the fixture's member,
  // marked and unmarked by the bodies in turn (docs/decisions/0141-pension-benefit-statements.md).
  'POST /api/statements/{id}/paper': () => {
    issuedStatement ??= createIssuedStatement(t.database, {
      brokerId: ids.brokerId,
      employerId: ids.employerId,
      schemeId: ids.schemeId,
      memberId: ids.memberId,
    });
    return issuedStatement;
  },
};
async function majorIncident(): Promise<string> {
  const recorded = await t.requestAs(
    actors.admin,
    'POST',
    '/api/ict-incidents',
    withFixtureIds(exampleBody(tableRoute('POST /api/ict-incidents'), EXAMPLE_IDS)) as object,
  );
  if (recorded.statusCode !== 201) throw new Error(`ICT incident failed: ${recorded.body}`);
  const id = recorded.json().id as string;
  const classified = await t.requestAs(
    actors.admin,
    'POST',
    `/api/ict-incidents/${id}/classify`,
    exampleBody(tableRoute('POST /api/ict-incidents/{id}/classify'), EXAMPLE_IDS) as object,
  );
  if (classified.statusCode !== 200) throw new Error(`classify failed: ${classified.body}`);
  return id;
}
async function newScheme(): Promise<string> {
  const made = await t.requestAs(
    actors.admin,
    'POST',
    '/api/schemes',
    withFixtureIds(exampleBody(tableRoute('POST /api/schemes'), EXAMPLE_IDS)) as object,
  );
  if (made.statusCode !== 201) throw new Error(`scheme failed: ${made.body}`);
  return made.json().id as string;
}
async function notifiedBreach(): Promise<string> {
  const recorded = await t.requestAs(
    actors.admin,
    'POST',
    '/api/data-breaches',
    exampleBody(tableRoute('POST /api/data-breaches'), EXAMPLE_IDS) as object,
  );
  if (recorded.statusCode !== 201) throw new Error(`data breach failed: ${recorded.body}`);
  const id = recorded.json().id as string;
  const notified = await t.requestAs(actors.admin, 'POST', `/api/data-breaches/${id}/notify-dpc`, {
    notifiedAt: '2026-01-11T09:00:00Z',
  });
  if (notified.statusCode !== 200) throw new Error(`notify-dpc failed: ${notified.body}`);
  return id;
}
const openDataRequest = () =>
  createOpenDataRequest(t.database, { brokerId: ids.brokerId, memberId: ids.memberId });
const memberWhoIs = (standing: 'active' | 'deferred') =>
  createMemberWhoIs(
    t.database,
    { brokerId: ids.brokerId, employerId: ids.employerId, schemeId: ids.schemeId },
    standing,
  );

/**
 * A record of a kind the fixture was not built with, made once through the route that creates one
 * (`POST …/<kind>`) with its example, as the consultant: a register added later is fuzzed without a
 * line here.
 */
const madeThroughApi = new Map<string, Promise<string>>();
function madeRecord(collection: string): Promise<string> {
  let made = madeThroughApi.get(collection);
  if (made === undefined) {
    made = (async () => {
      const key = creationOf(collection);
      if (key === undefined) throw new Error(`no route creates ${collection}`);
      const response = await t.requestAs(
        actors.consultant,
        'POST',
        await urlOf(key),
        withFixtureIds(exampleBody(tableRoute(key), EXAMPLE_IDS)) as object,
      );
      if (response.statusCode !== 201) throw new Error(`${key} failed: ${response.body}`);
      return response.json().id as string;
    })();
    madeThroughApi.set(collection, made);
  }
  return made;
}

async function urlOf(key: string): Promise<string> {
  const path = key.split(' ')[1] as string;
  const values: Record<string, string> = {};
  for (const parameter of parametersOf(path)) {
    const collection = collectionOf(path, parameter);
    const record = RECORD_IN_STATE[key] ?? RECORD_OF[collection];
    // A fresh pay period each run, so a valid body records rather than needing a reason to correct.
    if (parameter === 'period') values[parameter] = nextPeriod();
    else if (record) values[parameter] = await record();
    else values[parameter] = await madeRecord(collection);
  }
  return `${pathWith(path, values)}${exampleQuery(tableRoute(key))}`;
}

/** The first of the staff roles, and then the Member, that the route's action allows. */
function actorFor(action: Action): UserRow {
  const roles = POLICY[action].roles as Partial<Record<Role, unknown>>;
  const order: Array<[Role, keyof typeof actors]> = [
    ['BrokerUser', 'consultant'],
    ['BrokerAdmin', 'admin'],
    ['SuperAdmin', 'platform'],
    ['Member', 'member'],
  ];
  const found = order.find(([role]) => role in roles);
  if (!found) throw new Error(`${action}: no role of the fixture may carry it out`);
  return actors[found[1]];
}

const tableCounts = () => writableTableCounts(t.database);

/**
 * Waits until the work a 202 queued is done: a statement run is read until it leaves `queued`
 * and `running`. Quiet tables are no sign of it, since one statement's PDF takes longer to make
 * than a poll's interval and the run's last audit record would land in the next body's count.
 */
async function settled(answer: { id?: unknown; status?: unknown }, token: string) {
  if (typeof answer.id !== 'string' || typeof answer.status !== 'string') {
    throw new Error('a 202 answer without the queued work’s id and status');
  }
  for (let tries = 0; tries < 600; tries += 1) {
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/statement-runs/${answer.id}`,
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}` },
    });
    if (!['queued', 'running'].includes(read.json().status)) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the queued work ${answer.id} did not finish in 30 s`);
}

let periods = 0;
/** A pay period not used before in this file: 1990-01, 1990-02, … */
function nextPeriod(): string {
  periods += 1;
  const year = 1990 + Math.floor((periods - 1) / 12);
  return `${year}-${String(((periods - 1) % 12) + 1).padStart(2, '0')}`;
}

interface Operation {
  requestBody?: { content?: object };
  responses?: Record<string, unknown>;
  [ACTION_EXTENSION]?: Action;
}

// The routes are read while the tests are collected, from the API reference of an app built for it.
const described = await buildTestApp();
const spec = described.app.swagger() as { paths: Record<string, Record<string, Operation>> };
await described.close();

/** Every POST, PUT and PATCH that takes a JSON body, but signing in and one's own account's. */
const BODY_ROUTES = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.entries(methods)
    .filter(
      ([method, operation]) =>
        ['post', 'put', 'patch'].includes(method) &&
        !path.startsWith('/api/auth/') &&
        'application/json' in (operation.requestBody?.content ?? {}),
    )
    .map(([method, operation]) => ({ key: `${method.toUpperCase()} ${path}`, operation })),
);

describe('request bodies under property-based bad input', () => {
  it('tries every POST, PUT and PATCH route that takes a JSON body', () => {
    expect(BODY_ROUTES.length).toBeGreaterThan(30);
    expect(BODY_ROUTES.filter(({ key }) => tableRoute(key)?.example?.body === undefined)).toEqual(
      [],
    );
  });

  for (const { key, operation } of BODY_ROUTES) {
    const method = key.split(' ')[0] as 'POST' | 'PUT' | 'PATCH';
    const machine = key.includes(' /api/rag/');
    // A route that documents a 409 answers it for a valid body naming something already taken
    // (an e-mail address, a fund name, a pay period) or a step already taken.
    const conflicts = '409' in (operation.responses ?? {});
    const queues = '202' in (operation.responses ?? {});
    it(
      `${key}: a 2xx or a documented 400, never a 500, and nothing written on a 400`,
      async () => {
        const action = operation[ACTION_EXTENSION];
        const token = machine
          ? t.config.secrets.RAG_INGEST_SECRET
          : await t.tokenFor(actorFor(action as Action));
        const body = bodiesOf(key);
        // Each body that creates an account costs a bcrypt hash; each valid body of a route that
        // queues work (202) waits for it: a statement run that made nothing leaves its date free
        // (docs/decisions/0141), so every valid body for the fixture's scheme queues a run.
        const runs = queues
          ? 20
          : JSON.stringify(tableRoute(key)?.example?.body).includes('"email"')
            ? 40
            : 60;
        const seen = new Set<number>();
        // The counts after a refused body, which nothing has written to since: the next body's
        // "before". Counting every table costs three times a refused request, so a property run
        // that counted twice a body spent two thirds of its time counting. A route whose bodies
        // each get a record of their own (RECORD_IN_STATE) writes it before the body: it counts anew.
        const recordPerBody = key in RECORD_IN_STATE;
        let unchangedSince: Awaited<ReturnType<typeof tableCounts>> | null = null;
        await fc.assert(
          fc.asyncProperty(body, async (generated) => {
            const sent = withFixtureIds(generated);
            // First: a record the route acts on may be made through the API the first time.
            const url = await urlOf(key);
            const before = (recordPerBody ? null : unchangedSince) ?? (await tableCounts());
            unchangedSince = null;
            const response = await t.app.inject({
              method,
              url,
              payload: JSON.stringify(sent),
              remoteAddress: uniqueClientAddress(),
              headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            });
            const status = response.statusCode;
            seen.add(status);
            // A 202 queued work that goes on after the answer (a statement run): it is let finish,
            // so that its writes are not counted against the next body.
            if (status === 202) await settled(response.json(), token);
            // A body naming a record other than the fixture's (a scheme, an employer) names one out
            // of reach, or none: the policy answers 403 for a parent, 404 for a record.
            const fixtureIds = new Set<unknown>([
              ids.employerId,
              ids.schemeId,
              ids.memberId,
              ids.fundId,
              ids.assumptionsId,
            ]);
            const outOfReach =
              typeof sent === 'object' &&
              sent !== null &&
              Object.entries(sent as Record<string, unknown>).some(
                ([field, value]) =>
                  field.endsWith('Id') &&
                  field !== 'documentId' &&
                  typeof value === 'string' &&
                  !fixtureIds.has(value),
              );
            const tolerated =
              status < 300 ||
              status === 400 ||
              (status === 409 && conflicts) ||
              ((status === 403 || status === 404) && outOfReach);
            expect(tolerated, `${status} for ${JSON.stringify(sent)}: ${response.body}`).toBe(true);
            if (status >= 400) {
              const answer = response.json();
              expect(typeof answer.error).toBe('string');
              if (answer.error === 'Validation failed') {
                expect(Array.isArray(answer.issues)).toBe(true);
                // Shown under form fields as they are: plain English (docs/decisions/0052-form-errors-in-plain-english.md).
                for (const issue of answer.issues) expectPlainEnglish(issue.message);
              }
              const after = await tableCounts();
              expect(after).toEqual(before);
              unchangedSince = after;
            }
          }),
          { numRuns: runs },
        );
        // Not vacuous: the generated bodies reached both the refusal and the success path.
        expect(
          [...seen].some((status) => status < 300),
          [...seen].join(),
        ).toBe(true);
        expect(seen.has(400)).toBe(true);
      },
      // A valid body of a route that queues work waits for it: a statement run renders a PDF for
      // each member of the fixture's scheme, which the other routes have filled by then.
      queues ? 120_000 : undefined,
    );
  }
});
