import { MODULES } from './manifests/index.js';
import type { ApiRoute } from './route-kit.js';

export { passkeyOptions, type SignInAnswer, signInAnswer } from './manifests/auth.js';
export {
  type ApiMethod,
  type ApiRoute,
  EXAMPLE_IDS,
  nothing,
  type PathParamName,
  type PathParams,
  type RouteExample,
  type RouteSchemas,
} from './route-kit.js';

/**
 * Every route of the API, in one table (docs/decisions/0113-one-route-table.md): its method, its
 * path as Fastify writes a pattern (`/api/members/:id`), and, where src/contracts holds them, the
 * schemas of its query, its body and its answer. The server registers each route with the method
 * and path written here, and the web UI builds every address it sends a request to from here, so
 * neither side writes a path of its own; a test holds the table and the routes the app registers
 * to each other, both ways.
 *
 * Each module declares its own routes in its manifest (src/contracts/manifests); this is their
 * union, keyed by the groups the manifests name.
 */

/** One object of all the modules' route groups. */
type UnionToIntersection<U> = (U extends unknown ? (whole: U) => void : never) extends (
  whole: infer I,
) => void
  ? I
  : never;
type AllRoutes = UnionToIntersection<(typeof MODULES)[number]['routes']>;

export const apiRoutes: AllRoutes = Object.freeze(
  Object.assign({}, ...MODULES.map((module) => module.routes)),
);

/** Every route of the table with its name (`members.get`), in the table's order. */
export function listApiRoutes(): Array<{ name: string; route: ApiRoute }> {
  return Object.entries(apiRoutes).flatMap(([group, routes]) =>
    Object.entries(routes as Record<string, ApiRoute>).map(([name, entry]) => ({
      name: `${group}.${name}`,
      route: entry,
    })),
  );
}
