import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { writableTableCounts } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
  type UserRow,
} from '../helpers/factories.js';
import { csvFile, memberRow, membersCsv, upload } from '../helpers/imports.js';
import { newPpsNumber } from '../helpers/pps.js';
import { exampleBody, tableRoute } from '../helpers/route-examples.js';
import { createAssumptionSet } from '../helpers/statements.js';

/**
 * A NUL byte in a text field would reach PostgreSQL, which cannot store it, and the error it raised
 * (500) would carry the whole row into the log. So every string of every body, query and path
 * parameter refuses C0 and C1 control characters and DEL with the standard 400, before anything is
 * written. The cases are generated from the API description, so a field added later is covered
 * without editing this file. Passwords are the exception
 * (docs/decisions/0035-control-characters-and-database-errors.md): they are only ever hashed, never
 * stored, shown or sent to the database, and may hold any character.
 */
let t: TestApp;
let platform: UserRow;
let admin: UserRow;
let ids: Record<
  | 'brokerId'
  | 'employerId'
  | 'schemeId'
  | 'userId'
  | 'memberId'
  | 'fundId'
  | 'contributionId'
  | 'assumptionsId',
  string
>;

beforeAll(async () => {
  // Hundreds of requests as one user, about something else than rate limits.
  t = await buildTestApp({ counters: uncountedStore() });
  const brokerId = await createBroker(t.database);
  const employerId = await createEmployer(t.database, brokerId);
  const schemeId = await createScheme(t.database, { id: employerId, brokerId });
  const member = await createMember(t.database, { brokerId, employerId, schemeId });
  platform = await createUser(t.database, { role: 'SuperAdmin' });
  admin = await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
  const target = await createUser(t.database, { brokerId, employerId, role: 'EmployerUser' });
  const fund = await t.requestAs(admin, 'POST', `/api/schemes/${schemeId}/funds`, {
    name: 'Default fund',
  });
  const contribution = await t.requestAs(admin, 'POST', `/api/members/${member.id}/contributions`, {
    period: '2026-01',
    kind: 'employee',
    amountCents: 100_000,
  });
  expect([fund.statusCode, contribution.statusCode]).toEqual([201, 201]);
  ids = {
    brokerId,
    employerId,
    schemeId,
    userId: target.id,
    memberId: member.id,
    fundId: fund.json().id,
    contributionId: contribution.json().id,
    assumptionsId: await createAssumptionSet(t.database, brokerId),
  };
});
afterAll(() => t.close());

/**
 * The body each route accepts, so that the one control character is the only thing wrong: the
 * route's example from the route table (src/contracts/api-routes.ts), with this file's records.
 * The change of password's example names a password that is not the admin's: a poisoned new one
 * must not succeed in changing it and end the session every other case here uses.
 */
function validBody(key: string): unknown {
  return exampleBody(tableRoute(key), {
    employer: ids.employerId,
    scheme: ids.schemeId,
    member: ids.memberId,
    fund: ids.fundId,
    assumptions: ids.assumptionsId,
  });
}

interface JsonSchema {
  type?: string;
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
}
interface Operation {
  parameters?: Array<{ in: string; name: string; schema?: JsonSchema }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

/** Paths to every string the schema reads: `allocations.0.fundId` for one inside an array. */
function stringPaths(schema: JsonSchema | undefined, path: string[] = []): string[][] {
  if (!schema) return [];
  if (schema.anyOf) return schema.anyOf.flatMap((option) => stringPaths(option, path)).slice(0, 1);
  if (schema.type === 'string') return [path];
  if (schema.type === 'object') {
    return Object.entries(schema.properties ?? {}).flatMap(([key, property]) =>
      stringPaths(property, [...path, key]),
    );
  }
  if (schema.type === 'array') return stringPaths(schema.items, [...path, '0']);
  return [];
}

function operations(): Array<{ method: string; path: string; operation: Operation }> {
  const spec = t.app.swagger() as { paths: Record<string, Record<string, Operation>> };
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      operation,
    })),
  );
}

const PARAMETER_VALUE: Record<string, () => string> = {
  brokerId: () => ids.brokerId,
  id: () => ids.memberId,
};
/** The id a path parameter names in each route, so that the request is valid but for the one value. */
function urlOf(path: string, replace?: { name: string; value: string }): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (replace?.name === name) return encodeURIComponent(replace.value);
    if (name === 'period') return '2026-01';
    if (path.startsWith('/api/schemes/')) return ids.schemeId;
    if (path.startsWith('/api/employers/')) return ids.employerId;
    if (path.startsWith('/api/users/')) return ids.userId;
    if (path.startsWith('/api/funds/')) return ids.fundId;
    if (path.startsWith('/api/contributions/')) return ids.contributionId;
    if (path.startsWith('/api/imports/')) return ids.memberId;
    return (PARAMETER_VALUE[name] ?? (() => ids.memberId))();
  });
}

function withValueAt(body: unknown, path: string[], value: string): unknown {
  const copy = structuredClone(body) as Record<string, unknown>;
  let target: Record<string, unknown> = copy;
  // A field the example leaves out (an optional list) is made, so its strings are tried too.
  path.slice(0, -1).forEach((key, index) => {
    target[key] ??= /^\d+$/.test(path[index + 1] as string) ? [] : {};
    target = target[key] as Record<string, unknown>;
  });
  const last = path.at(-1) as string;
  const current = target[last];
  target[last] =
    typeof current === 'string' && current.length > 1
      ? `${current.slice(0, 1)}${value}${current.slice(1)}`
      : value;
  return copy;
}

const tableCounts = () => writableTableCounts(t.database);

let marks = 0;
/** A value with a NUL in it, and a mark no other request used, to look for in the logs. */
function poisoned(character = '\u0000'): { value: string; mark: string } {
  marks += 1;
  const mark = `Qz${marks}Ni`;
  return { value: `${mark}${character}x`, mark };
}

async function send(method: string, url: string, body?: unknown) {
  return t.app.inject({
    method: method as 'POST',
    url,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    remoteAddress: uniqueClientAddress(),
    headers: {
      // Broker firms are the SuperAdmin's; everything inside one, its BrokerAdmin's. Scheduled
      // jobs and the corpus ingest take their secret's bearer instead of a session.
      authorization: url.startsWith('/api/cron/')
        ? `Bearer ${t.config.secrets.CRON_SECRET}`
        : url.startsWith('/api/rag/')
          ? `Bearer ${t.config.secrets.RAG_INGEST_SECRET}`
          : `Bearer ${await t.tokenFor(url.startsWith('/api/brokers') ? platform : admin)}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
  });
}

describe('control characters in request text', () => {
  it('have a valid body for every route that takes JSON, to poison one field at a time', () => {
    const bodyRoutes = operations()
      .filter(({ operation }) => operation.requestBody?.content?.['application/json'])
      .map(({ method, path }) => `${method} ${path}`);
    expect(bodyRoutes.length).toBeGreaterThan(40);
    expect(bodyRoutes.filter((key) => validBody(key) === undefined)).toEqual([]);
  });

  it('a NUL in any string of any JSON body is a 400 naming the field; nothing is written or logged', async () => {
    let cases = 0;
    for (const { method, path, operation } of operations()) {
      const schema = operation.requestBody?.content?.['application/json']?.schema;
      for (const field of stringPaths(schema)) {
        const { value, mark } = poisoned();
        const body = withValueAt(validBody(`${method} ${path}`), field, value);
        const before = await tableCounts();
        const response = await send(method, urlOf(path), body);
        const label = `${method} ${path} ${field.join('.')}: ${response.body}`;
        if (/password/i.test(field.at(-1) as string)) {
          expect(response.statusCode, label).toBeLessThan(500);
        } else {
          expect(response.statusCode, label).toBe(400);
          expect(response.json(), label).toMatchObject({ error: 'Validation failed' });
          expect(
            response.json().issues.map((issue: { path: string }) => issue.path),
            label,
          ).toContain(field.join('.'));
          expect(await tableCounts(), label).toEqual(before);
        }
        expect(t.logs.text(), label).not.toContain(mark);
        cases += 1;
      }
    }
    expect(cases).toBeGreaterThan(40);
  });

  it('a NUL in any string query or path parameter is a 400, never a 500', async () => {
    let cases = 0;
    for (const { method, path, operation } of operations()) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.schema?.type !== 'string' || !['query', 'path'].includes(parameter.in))
          continue;
        const { value, mark } = poisoned();
        const url =
          parameter.in === 'path'
            ? urlOf(path, { name: parameter.name, value })
            : `${urlOf(path)}?${parameter.name}=${encodeURIComponent(value)}`;
        const response = await send(method, url, validBody(`${method} ${path}`));
        const label = `${method} ${path} ${parameter.in} ${parameter.name}: ${response.body}`;
        expect(response.statusCode, label).toBe(400);
        // Query values never reach the access log; a path is logged as sent (it holds ids only).
        if (parameter.in === 'query') expect(t.logs.text(), label).not.toContain(mark);
        cases += 1;
      }
    }
    expect(cases).toBeGreaterThan(30);
  });

  it('every C0 control, DEL and C1 control, and the invisible characters that reorder text, is refused in a name; line breaks and tabs only where lines are', async () => {
    const c0 = Array.from({ length: 32 }, (_, index) => index);
    const deleteAndC1 = Array.from({ length: 33 }, (_, index) => 0x7f + index);
    for (const code of [...c0, ...deleteAndC1]) {
      const { value } = poisoned(String.fromCharCode(code));
      const response = await send('POST', '/api/employers', { name: value });
      expect(response.statusCode, `U+${code.toString(16).padStart(4, '0')}`).toBe(400);
    }
    // The invisible characters that reverse or split a name: a name could otherwise read
    // backwards on a page or in the audit log, or two names that look the same differ.
    for (const code of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]) {
      const response = await send('POST', '/api/employers', {
        name: `Bantry ${String.fromCharCode(code)}Foods Ltd`,
      });
      expect(response.statusCode, `U+${code.toString(16)}`).toBe(400);
    }
    for (const code of [0x200b, 0x2060, 0xfeff]) {
      const response = await send('POST', '/api/employers', {
        name: `Bantry${String.fromCharCode(code)} Foods Ltd`,
      });
      expect(response.statusCode, `U+${code.toString(16)}`).toBe(400);
    }
    // Joiners and direction marks some scripts' keyboards write are text, and kept.
    const joined = await send('POST', '/api/employers', {
      name: 'Bantry\u200c\u200d Foods\u200e Ltd',
    });
    expect(joined.statusCode, joined.body).toBe(201);
    const address = await send('PATCH', `/api/members/${ids.memberId}`, {
      address: '1 Main Street\r\nGalway\tH91',
    });
    expect(address.statusCode).toBe(200);
    expect(address.json().address).toBe('1 Main Street\r\nGalway\tH91');
    const broken = await send('PATCH', `/api/members/${ids.memberId}`, { address: 'a\u0000b' });
    expect(broken.statusCode).toBe(400);
  });

  it('a CSV row with a control character in any cell is refused by its line and column', async () => {
    const before = await tableCounts();
    const rows = [
      memberRow(),
      memberRow({ 'First Name': 'Ao\u0000ife' }),
      memberRow({ Address: '1 Main Street\u0001' }),
      memberRow({ Email: 'a\u0000@example.ie', PPSN: `${newPpsNumber()}\u0000` }),
    ];
    const refused = await upload(
      t,
      admin,
      `/api/schemes/${ids.schemeId}/members/import`,
      membersCsv(rows),
    );
    expect(refused.statusCode).toBe(400);
    const issues = refused
      .json()
      .issues.map(
        (issue: { line: number; column: string; code: string }) =>
          `${issue.line} ${issue.column} ${issue.code}`,
      );
    expect(issues.sort()).toEqual(
      [
        '3 First Name control_character',
        '4 Address control_character',
        '5 Email control_character',
        '5 PPSN control_character',
      ].sort(),
    );
    const contributionsFile = csvFile(
      ['Member ID', 'Period', 'Employee'],
      [{ 'Member ID': `${ids.memberId}\u0000`, Period: '2026-03', Employee: '100.00' }],
    );
    const contributions = await upload(
      t,
      admin,
      `/api/schemes/${ids.schemeId}/contributions/import`,
      contributionsFile,
    );
    expect(contributions.statusCode).toBe(400);
    expect(contributions.json().issues).toEqual([
      expect.objectContaining({ line: 2, column: 'Member ID', code: 'control_character' }),
    ]);
    // The refused imports are recorded as such; no member or contribution was written.
    const after = await tableCounts();
    const tablesWithoutImportRecords = ({
      audit_log: _audit,
      imports: _imports,
      ...others
    }: Record<string, number>) => others;
    expect(tablesWithoutImportRecords(after)).toEqual(tablesWithoutImportRecords(before));
  });
});
