import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { FastifyInstance, RouteOptions } from 'fastify';

export interface RegisteredRoute {
  method: string;
  /** The pattern as registered, prefix included: `/api/schemes/:id`. */
  url: string;
  /** The action of the policy table the route names, if any. */
  action: string | undefined;
  /** The route's schemas as registered (Zod, fastify-type-provider-zod). */
  schema: RouteOptions['schema'];
}

export interface RouteWatch {
  /** Every route of the watched app, one entry per method, HEAD routes included. */
  routes: RegisteredRoute[];
  /** `METHOD pattern` of every handler that ran, in order. */
  handled: string[];
  /** Stops watching apps built from now on; routes already seen stay. */
  stop(): void;
}

/**
 * Sees every route of the apps built while it watches, from the first one registered: Fastify
 * announces each new instance on the `fastify.initialization` channel before any plugin runs,
 * and an `onRoute` hook added there sees all routes (an `extend` callback comes too late). Each
 * handler is wrapped to record that it ran, so a test can prove that a request never reached one.
 */
export function watchRoutes(): RouteWatch {
  const routes: RegisteredRoute[] = [];
  const handled: string[] = [];
  const onInstance = (message: unknown) => {
    const { fastify } = message as { fastify: FastifyInstance };
    fastify.addHook('onRoute', (route: RouteOptions) => {
      const url = route.url;
      const action = route.config?.action;
      const schema = route.schema;
      for (const method of [route.method].flat()) routes.push({ method, url, action, schema });
      const handler = route.handler;
      const label = `${[route.method].flat().join(',')} ${url}`;
      route.handler = function recorded(this: FastifyInstance, ...args) {
        handled.push(label);
        return handler.apply(this, args);
      };
    });
  };
  subscribe('fastify.initialization', onInstance);
  return { routes, handled, stop: () => unsubscribe('fastify.initialization', onInstance) };
}

/** A request path the pattern matches: each parameter replaced by a plausible value. */
export function concretePath(pattern: string): string {
  return pattern.replace(/:[A-Za-z0-9_]+/g, 'c1x9k2abcdefghij0000').replace(/\*$/, 'anything');
}
