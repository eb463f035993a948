import type { ApiMethod, ApiRoute } from '../../../contracts/api-routes.js';

/**
 * The method and URL a route of the table is registered under: each route module spreads this into
 * `app.route()`, so that the server answers at the address the web UI sends to, both read from
 * src/contracts/api-routes.ts (docs/decisions/0113-one-route-table.md).
 */
export function routeOf<M extends ApiMethod, P extends string>(
  route: ApiRoute<M, P>,
): { method: M; url: P } {
  return { method: route.method, url: route.path };
}
