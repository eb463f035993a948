import { z } from 'zod';

/**
 * The parts each module's route declarations are built from (src/contracts/manifests): a route's
 * method, path, schemas and example, held to each other by their types. The table of every route,
 * src/contracts/api-routes.ts, is put together from the modules' manifests.
 */

export type ApiMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteSchemas {
  /** The query string, as the route's `querystring` schema reads it. */
  readonly query?: z.ZodType;
  /** The JSON body, as the route's `body` schema reads it. */
  readonly body?: z.ZodType;
  /** The body of the success answer (`nothing` for a 204). */
  readonly answer?: z.ZodType;
  /** What a client sends to the route, as an example (see `RouteExample`). */
  readonly example?: RouteExample;
}

/**
 * A request the route accepts, as an API client would write it: shown in the API reference, and
 * sent by the suites that try every route (the tenant-isolation matrix, the fuzz and
 * control-character suites), so a new route is tried by them from this one declaration. Where the
 * body names another record it writes an id of `EXAMPLE_IDS`, which those suites replace by their
 * own records' ids; a field that must be unique (an e-mail address, a PPS number, a fund's name, a
 * pay period) they replace by a fresh value.
 */
export interface RouteExample {
  /** The query string the route is tried with. */
  readonly query?: Readonly<Record<string, string>>;
  /** A JSON body the route accepts. */
  readonly body?: unknown;
}

/** The ids an example body writes for the records it names. */
export const EXAMPLE_IDS = {
  employer: 'k1employer0example000001',
  scheme: 'k1scheme0example00000001',
  member: 'k1member0example00000001',
  fund: 'k1fund0example0000000001',
  assumptions: 'k1assumptions0example001',
} as const;

export interface ApiRoute<M extends ApiMethod = ApiMethod, P extends string = string>
  extends RouteSchemas {
  readonly method: M;
  readonly path: P;
}

/** The answer of a route that answers 204 with no body: a deletion, a sign-out. */
export const nothing = z.undefined();

/** The names of a path's parameters: `'id' | 'period'` of `/api/schemes/:id/payroll/:period`. */
export type PathParamName<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | PathParamName<`/${Rest}`>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** A value for each parameter of a path. */
export type PathParams<P extends string> = { readonly [Name in PathParamName<P>]: string };

export type RoutePath = `/api/${string}`;

/** The schemas with the example's body held to the body schema's input type. */
export type Checked<S extends RouteSchemas> = S & {
  readonly example?: {
    readonly body?: S['body'] extends z.ZodType ? z.input<S['body']> : unknown;
  };
};

export function route<
  const M extends ApiMethod,
  const P extends RoutePath,
  const S extends RouteSchemas,
>(method: M, path: P, schemas: Checked<S>): ApiRoute<M, P> & S {
  return Object.freeze({ method, path, ...schemas });
}

/** A route with no schema in src/contracts. */
export type Bare = Record<never, never>;

export const get = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('GET', path, schemas);
export const post = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('POST', path, schemas);
export const put = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('PUT', path, schemas);
export const patch = <const P extends RoutePath, const S extends RouteSchemas = Bare>(
  path: P,
  schemas: Checked<S> = {} as Checked<S>,
) => route('PATCH', path, schemas);
export const remove = <const P extends RoutePath>(path: P) =>
  route('DELETE', path, { answer: nothing });
