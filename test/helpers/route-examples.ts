import { createId } from '@paralleldrive/cuid2';
import { type ApiRoute, EXAMPLE_IDS, listApiRoutes } from '../../src/contracts/api-routes.js';
import { newPpsNumber } from './pps.js';

/**
 * Requests built from the route table's examples (src/contracts/api-routes.ts, `RouteExample`),
 * for the suites that try every route: the tenant-isolation matrix, the fuzz suite and the
 * control-character suite. A route added to the table with its example is tried by all three
 * without a line of its own in any of them.
 */

/** A route of the table by its key in the API reference: `PATCH /api/members/{id}`. */
export function tableRoute(key: string): ApiRoute | undefined {
  return TABLE.get(key);
}

const TABLE = new Map(
  listApiRoutes().map(({ route }) => [
    `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`,
    route,
  ]),
);

/**
 * The kind of record a path parameter names, read from the path as REST writes it: the segments
 * before the parameter back to the one before it. `schemes` in `/api/schemes/{id}/members`,
 * `payroll/imports` in `/api/employers/{id}/payroll/imports/{importId}`, `ai/drafts` in
 * `/api/ai/drafts/{id}`.
 */
export function collectionOf(path: string, parameter: string): string {
  const segments = path.split('/').slice(2);
  const at = segments.indexOf(`{${parameter}}`);
  if (at < 0) throw new Error(`${path} has no parameter ${parameter}`);
  const before = segments.slice(0, at);
  const previous = before.findLastIndex((segment) => segment.startsWith('{'));
  return before.slice(previous + 1).join('/');
}

/**
 * The route that creates a record of a kind, `POST …/<kind>`, by its key in the API reference:
 * `POST /api/schemes/{id}/trustees` for `trustees`, `POST /api/trustees/{id}/training` for
 * `training`. The one lookup of the suites that make records of kinds they were not built with.
 */
export function creationOf(collection: string): string | undefined {
  return [...TABLE.keys()].find((key) => key.startsWith('POST ') && key.endsWith(`/${collection}`));
}

/**
 * The routes the table names `<group>.create`, each with the kind of record it makes: every
 * register a firm keeps, for a suite that needs one record of each.
 */
export function creationRoutes(): Array<{ key: string; route: ApiRoute; collection: string }> {
  return listApiRoutes()
    .filter(({ name, route }) => name.endsWith('.create') && route.method === 'POST')
    .map(({ route }) => {
      const key = `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`;
      return { key, route, collection: route.path.split('/').at(-1) as string };
    });
}

/** The names of a path's parameters, in order: `['id', 'period']`. */
export function parametersOf(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** A path with each parameter given its value. */
export function pathWith(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`no value for ${name} in ${path}`);
    return encodeURIComponent(value);
  });
}

/** The example's query string, with its leading `?`, or nothing. */
export function exampleQuery(route: ApiRoute | undefined): string {
  const query = route?.example?.query;
  return query === undefined ? '' : `?${new URLSearchParams(query)}`;
}

let periods = 0;
/** A pay period not used before by this process's examples: 2000-01, 2000-02, … */
export function freshPeriod(): string {
  periods += 1;
  const year = 2000 + Math.floor((periods - 1) / 12);
  return `${year}-${String(((periods - 1) % 12) + 1).padStart(2, '0')}`;
}

let periodEnds = 0;
/** How many earlier years the examples go back through before starting again. */
const PERIOD_END_YEARS = 70;
/**
 * The same day of an earlier year each time: 2024-12-31, then 2023-12-31, … back 70 years and
 * round again. Test files may share a worker and this count, so it wraps rather than run below
 * the earliest day a filing takes; 70 in a row are distinct, more than one scheme ever gets.
 */
function earlierPeriodEnd(example: string): string {
  periodEnds = (periodEnds % PERIOD_END_YEARS) + 1;
  return `${Number(example.slice(0, 4)) - periodEnds}${example.slice(4)}`;
}

/**
 * The fields that must be unique where they are kept, each with a fresh value: two requests with
 * the same example body would otherwise meet a conflict (a taken e-mail address, PPS number, fund
 * name, pay period or filing period) instead of the behaviour under test.
 */
const FRESH: Record<string, (example: string) => string> = {
  email: () => `new-${createId()}@example.ie`,
  ppsNumber: () => newPpsNumber(),
  name: (example) => `${example} ${createId().slice(0, 6)}`,
  holderName: (example) => `${example} ${createId().slice(0, 6)}`,
  period: () => freshPeriod(),
  periodEnd: earlierPeriodEnd,
};

/**
 * The example body of a route made ready to send: each id of `EXAMPLE_IDS` replaced by the
 * record of that kind the caller holds, each field that must be unique given a fresh value.
 */
export function exampleBody(
  route: ApiRoute | undefined,
  ids: Record<keyof typeof EXAMPLE_IDS, string>,
): unknown {
  const body = route?.example?.body;
  if (body === undefined) return undefined;
  const byExample = new Map<string, string>(
    Object.entries(EXAMPLE_IDS).map(([kind, id]) => [id, ids[kind as keyof typeof EXAMPLE_IDS]]),
  );
  const ready = (value: unknown, key: string | undefined): unknown => {
    if (typeof value === 'string') {
      const id = byExample.get(value);
      if (id !== undefined) return id;
      const fresh = key === undefined ? undefined : FRESH[key];
      return fresh ? fresh(value) : value;
    }
    if (Array.isArray(value)) return value.map((item) => ready(item, undefined));
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([field, inner]) => [field, ready(inner, field)]),
      );
    }
    return value;
  };
  return ready(body, undefined);
}
