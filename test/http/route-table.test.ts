import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type ApiRoute, listApiRoutes, nothing } from '../../src/contracts/api-routes.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { type RegisteredRoute, watchRoutes } from '../helpers/routes.js';

/**
 * The server and the web UI read every route from one table, src/contracts/api-routes.ts
 * (docs/decisions/0113-one-route-table.md): the server registers each with the table's method and
 * path, the UI sends each request to an address built from it. This holds the table and the app
 * the tests build to each other both ways, so a route added, moved or renamed on one side only
 * fails here instead of in a person's browser; and where the table names a schema, it is the one
 * the route validates with, so the UI's types and parsing are the server's.
 */

const watch = watchRoutes();
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  watch.stop();
});
afterAll(() => t.close());

const keyOf = (method: string, path: string) => `${method} ${path}`;
const isApi = (path: string) => path === '/api' || path.startsWith('/api/');

/** The app's /api routes, HEAD left out (Fastify adds one to each GET). */
function registeredApiRoutes(): RegisteredRoute[] {
  return watch.routes.filter((route) => route.method !== 'HEAD' && isApi(route.url));
}

/** The routes of the table that the list of registered ones lacks, and those it lacks. */
function differences(table: readonly ApiRoute[], registered: readonly RegisteredRoute[]) {
  const tableKeys = new Set(table.map((route) => keyOf(route.method, route.path)));
  const registeredKeys = new Set(registered.map((route) => keyOf(route.method, route.url)));
  return {
    notRegistered: [...tableKeys].filter((key) => !registeredKeys.has(key)).sort(),
    notInTable: [...registeredKeys].filter((key) => !tableKeys.has(key)).sort(),
  };
}

/** A schema as JSON Schema, to compare two that were built apart (`pageOf(x)` twice). */
function described(schema: unknown, io: 'input' | 'output'): string {
  return JSON.stringify(z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }));
}

type Schemas = { querystring?: unknown; body?: unknown; response?: Record<string, unknown> };

describe('the route table', () => {
  it('names each method and path once, every path under /api', () => {
    const routes = listApiRoutes();
    expect(routes.length).toBeGreaterThan(100);
    const keys = routes.map(({ route }) => keyOf(route.method, route.path));
    expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
    expect(routes.filter(({ route }) => !isApi(route.path))).toEqual([]);
  });

  it('finds a route on one side only, either way', () => {
    const table: ApiRoute[] = [
      { method: 'GET', path: '/api/members/:id' },
      { method: 'PATCH', path: '/api/members/:id' },
    ];
    const registered = (method: string, url: string): RegisteredRoute => ({
      method,
      url,
      action: undefined,
      schema: undefined,
    });
    expect(
      differences(table, [
        registered('GET', '/api/members/:memberId'),
        registered('PUT', '/api/members/:id'),
      ]),
    ).toEqual({
      notRegistered: ['GET /api/members/:id', 'PATCH /api/members/:id'],
      notInTable: ['GET /api/members/:memberId', 'PUT /api/members/:id'],
    });
  });

  it('is registered by the app, each route with its method and path, and holds every /api route the app registers', () => {
    const registered = registeredApiRoutes();
    expect(registered.length).toBeGreaterThan(100);
    expect(
      differences(
        listApiRoutes().map(({ route }) => route),
        registered,
      ),
    ).toEqual({ notRegistered: [], notInTable: [] });
  });

  it('holds the schemas the routes validate their query and body and write their answer with', () => {
    const byKey = new Map(
      registeredApiRoutes().map((route) => [keyOf(route.method, route.url), route]),
    );
    let compared = 0;
    for (const { name, route } of listApiRoutes()) {
      const registered = byKey.get(keyOf(route.method, route.path));
      const schema = (registered?.schema ?? {}) as Schemas;
      if (route.query) {
        expect(described(schema.querystring, 'input'), `${name}: query`).toBe(
          described(route.query, 'input'),
        );
        compared += 1;
      }
      if (route.body) {
        expect(described(schema.body, 'input'), `${name}: body`).toBe(
          described(route.body, 'input'),
        );
        compared += 1;
      }
      if (route.answer) {
        const successes = Object.keys(schema.response ?? {}).filter((status) =>
          /^2\d\d$/.test(status),
        );
        if (route.answer === nothing) {
          // No body: a 204, or no answer described at all (the sign-out).
          expect(
            successes.filter((status) => status !== '204'),
            `${name}: answer`,
          ).toEqual([]);
        } else {
          expect(successes, `${name}: answer`).toHaveLength(1);
          const status = successes[0] as string;
          expect(described(schema.response?.[status], 'output'), `${name}: answer`).toBe(
            described(route.answer, 'output'),
          );
        }
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThan(150);
  });

  it('gives an example body for every route that reads JSON, one its body schema accepts', () => {
    const byKey = new Map(
      registeredApiRoutes().map((route) => [keyOf(route.method, route.url), route]),
    );
    const spec = t.app.swagger() as {
      paths: Record<string, Record<string, { requestBody?: { content?: object } }>>;
    };
    // As the API reference describes the route: a JSON body, not a CSV file or a form.
    const readsJson = (route: ApiRoute) => {
      const operation =
        spec.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
      return 'application/json' in (operation?.requestBody?.content ?? {});
    };
    const withoutExample = listApiRoutes()
      .filter(({ route }) => readsJson(route) && route.example?.body === undefined)
      .map(({ name }) => name);
    expect(withoutExample).toEqual([]);
    let checked = 0;
    for (const { name, route } of listApiRoutes()) {
      const body = (byKey.get(keyOf(route.method, route.path))?.schema as Schemas | undefined)
        ?.body;
      if (route.example?.body === undefined) continue;
      expect(readsJson(route), `${name}: an example for a route that reads no JSON`).toBe(true);
      const parsed = (body as z.ZodType).safeParse(route.example.body);
      expect(parsed.error?.issues ?? [], name).toEqual([]);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(40);
  });

  it('gives example queries its query schema accepts', () => {
    const withQuery = listApiRoutes().filter(({ route }) => route.example?.query !== undefined);
    expect(withQuery.length).toBeGreaterThan(5);
    for (const { name, route } of withQuery) {
      expect(route.query, name).toBeDefined();
      const parsed = (route.query as z.ZodType).safeParse(route.example?.query);
      expect(parsed.error?.issues ?? [], name).toEqual([]);
    }
  });

  it('shows each example body in the API reference, beside the body it fits', () => {
    const spec = t.app.swagger() as {
      paths: Record<
        string,
        Record<string, { requestBody?: { content?: Record<string, { example?: unknown }> } }>
      >;
    };
    const post = spec.paths['/api/schemes/{id}/members']?.post;
    expect(post?.requestBody?.content?.['application/json']?.example).toMatchObject({
      firstName: 'Aoife',
    });
  });
});

describe('the route modules of the server', () => {
  const root = path.resolve(import.meta.dirname, '../..');
  /** An /api path registered as written: `app.get('/api/…'`, `url: '/api/…'`. */
  const HAND_WRITTEN = /(?:\bapp\.(?:get|post|put|patch|delete|head|all)\(\s*|\burl:\s*)['"`]\/api/;

  it('the scan finds a path registered by hand', () => {
    expect(HAND_WRITTEN.test("app.get('/api/members/:id', { schema }, handler)")).toBe(true);
    expect(HAND_WRITTEN.test('app.post(\n    `/api/ai/drafts/:id/review`,')).toBe(true);
    expect(HAND_WRITTEN.test("app.route({ method: 'GET', url: '/api/overview', handler })")).toBe(
      true,
    );
    expect(HAND_WRITTEN.test('...routeOf(apiRoutes.members.get),')).toBe(false);
    expect(HAND_WRITTEN.test("app.get('/files/:documentId/:token', options, handler)")).toBe(false);
  });

  it('register every /api route from the table, never from a path of their own', () => {
    const modules = readdirSync(path.join(root, 'src/server'), {
      recursive: true,
      withFileTypes: true,
    })
      .filter(
        (entry) => entry.isFile() && entry.name.endsWith('.ts') && !entry.name.includes('.test.'),
      )
      .map((entry) => path.join(entry.parentPath, entry.name));
    const found = modules.flatMap((file) => {
      const source = readFileSync(file, 'utf8');
      // A call's first argument may be on the next line.
      return [...source.matchAll(new RegExp(HAND_WRITTEN.source, 'g'))].map(
        (match) => `${path.relative(root, file)}: ${match[0]}`,
      );
    });
    expect(found).toEqual([]);
  });
});
