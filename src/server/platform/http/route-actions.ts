import type { FastifyPluginAsync, FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import { describeAction } from '../../../contracts/permits.js';
import { type Action, ruleOf } from '../../../contracts/policy.js';
import { patternRequiresSession } from './api-paths.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The action of the policy table (contracts/policy.ts) the route carries out. Every route
     * behind the session gate names one; its service asks for the same one first.
     */
    action?: Action;
    /** Actions its service asks for besides, for some requests (a scheme's type) or fields. */
    alsoChecks?: readonly Action[];
  }
}

/** The OpenAPI extension that names a route's action, read by the tenant-isolation matrix. */
export const ACTION_EXTENSION = 'x-action';

/**
 * Every route behind the session gate names its action of the policy table, and only actions the
 * table holds: a route that does not fails the start, so a new route cannot go out unclassified
 * (docs/decisions/0055-authorisation-policy-table.md). The route's description in the API reference is
 * written from the table, so it can never say something else than what is enforced.
 */
const routeActions: FastifyPluginAsync = async (app) => {
  app.addHook('onRoute', (route) => {
    const label = `${[route.method].flat().join(',')} ${route.url}`;
    const action = route.config?.action;
    if (action === undefined) {
      if (patternRequiresSession(route.url)) {
        throw new Error(`${label} needs a session but names no action of the policy table`);
      }
      return;
    }
    const alsoChecks = route.config?.alsoChecks ?? [];
    for (const named of [action, ...alsoChecks]) {
      if (ruleOf(named) === undefined) {
        throw new Error(`${label} names ${named}, an action the policy table does not hold`);
      }
    }
    const schema: FastifySchema & Record<string, unknown> = { ...route.schema };
    schema.description = [
      schema.description,
      describeAction(action),
      ...alsoChecks.map((other) => `Besides, for some requests: ${describeAction(other)}`),
    ]
      .filter((part) => part !== undefined)
      .join('\n\n');
    schema[ACTION_EXTENSION] = action;
    route.schema = schema;
  });
};

export default fp(routeActions, { name: 'route-actions' });
