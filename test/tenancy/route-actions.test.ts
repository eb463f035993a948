import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeAction } from '../../src/contracts/permits.js';
import { type Action, ruleOf } from '../../src/contracts/policy.js';
import { patternRequiresSession } from '../../src/server/platform/http/api-paths.js';
import routeActions, { ACTION_EXTENSION } from '../../src/server/platform/http/route-actions.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { PUBLIC_API_ROUTES } from '../helpers/public-routes.js';
import { type RegisteredRoute, watchRoutes } from '../helpers/routes.js';

/**
 * Every route behind the session gate names an action of the policy table (docs/decisions/0055-authorisation-policy-table.md);
 * the app refuses to start with one that does not, and the API reference
 * describes each route's policy from the table.
 */

const watch = watchRoutes();
let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  watch.stop();
});
afterAll(() => t.close());

/** `METHOD /path/{param}`, as the OpenAPI description and the public list write a route. */
const keyOf = (route: RegisteredRoute) =>
  `${route.method} ${route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;

describe('the routes of the app', () => {
  it('name an action the policy table holds, under /api, unless listed as public', () => {
    const api = watch.routes.filter(
      (route) => route.method !== 'HEAD' && (route.url === '/api' || route.url.startsWith('/api/')),
    );
    expect(api.length).toBeGreaterThan(40);
    const unnamed = api
      .filter((route) => route.action === undefined && !PUBLIC_API_ROUTES.has(keyOf(route)))
      .map(keyOf);
    expect(unnamed).toEqual([]);
    const unknown = api
      .filter((route) => route.action !== undefined && ruleOf(route.action) === undefined)
      .map(keyOf);
    expect(unknown).toEqual([]);
    const listed = new Set(api.map(keyOf));
    expect([...PUBLIC_API_ROUTES].filter((key) => !listed.has(key))).toEqual([]);
  });

  it('list as public only routes the session gate leaves open, and name no action on them', () => {
    for (const key of PUBLIC_API_ROUTES) {
      const pattern = (key.split(' ')[1] as string).replace(/\{([A-Za-z0-9_]+)\}/g, ':$1');
      expect(patternRequiresSession(pattern), key).toBe(false);
    }
    const named = watch.routes.filter(
      (route) => PUBLIC_API_ROUTES.has(keyOf(route)) && route.action !== undefined,
    );
    expect(named).toEqual([]);
  });

  it('are described in the API reference by their action’s row of the policy table', () => {
    const spec = t.app.swagger() as {
      paths: Record<string, Record<string, { description?: string; [ACTION_EXTENSION]?: Action }>>;
    };
    let described = 0;
    for (const [path, methods] of Object.entries(spec.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const action = operation[ACTION_EXTENSION];
        if (action === undefined) continue;
        expect(operation.description, `${method} ${path}`).toContain(describeAction(action));
        described += 1;
      }
    }
    expect(described).toBeGreaterThan(40);
    const schemeChange = spec.paths['/api/schemes/{id}']?.patch?.description ?? '';
    expect(schemeChange).toContain(describeAction('scheme.type.set'));
  });
});

describe('an app with a route', () => {
  /** The schemas routes end up with, after the policy has described them. */
  const schemas: Array<Record<string, unknown> | undefined> = [];

  async function appWith(
    url: string,
    config: { action?: string },
  ): Promise<ReturnType<typeof Fastify>> {
    const app = Fastify();
    await app.register(routeActions);
    app.addHook('onRoute', (route) => {
      schemas.push(route.schema as Record<string, unknown> | undefined);
    });
    await app.register(async (routes) => {
      // A name the compiler would refuse, as a route written without the types could carry it.
      routes.get(url, { config: config as { action?: Action } }, async () => ({}));
    });
    return app;
  }

  it('whose action is not in the policy table fails to start', async () => {
    await expect(
      appWith('/api/schemes/:id/approval', { action: 'scheme.approve' }),
    ).rejects.toThrow(
      'GET /api/schemes/:id/approval names scheme.approve, an action the policy table does not hold',
    );
  });

  it('behind the session gate and naming no action fails to start', async () => {
    await expect(appWith('/api/schemes/:id/approval', {})).rejects.toThrow(
      'GET /api/schemes/:id/approval needs a session but names no action of the policy table',
    );
  });

  it('open without a session needs no action', async () => {
    const app = await appWith('/api/health/extra', {});
    await app.ready();
    await app.close();
  });

  it('naming a table action starts, and is described from the table', async () => {
    const app = await appWith('/api/schemes/:id/approval', { action: 'scheme.read' });
    await app.ready();
    expect(schemas.at(-1)).toMatchObject({
      description: describeAction('scheme.read'),
      [ACTION_EXTENSION]: 'scheme.read',
    });
    await app.close();
  });
});
