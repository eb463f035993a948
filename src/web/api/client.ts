import type { z } from 'zod';
import type { ApiRoute, PathParamName, PathParams } from '../../contracts/api-routes';
import { counted } from '../../contracts/plain-english';
import { SECOND_FACTOR_SETUP_REQUIRED, STEP_UP_REQUIRED } from '../../contracts/second-factor';
/**
 * The one way the UI talks to the API: JSON over fetch with the session cookie. A failure becomes
 * an ApiError carrying the status and the server's `error` and `issues`, so forms can show the
 * same validation messages as the API.
 */
export interface ApiIssue {
  path: string;
  code?: string;
  message: string;
  line?: number;
  column?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    readonly issues: ApiIssue[] = [],
    /** A 429's `Retry-After`, in seconds, when the service sent one. */
    readonly retryAfterSeconds: number | null = null,
  ) {
    super(error);
    this.name = 'ApiError';
  }
}

/** Told when any request finds the session gone, so the app can send the user to sign in. */
let onSessionEnded: () => void = () => undefined;
export function whenSessionEnds(handler: () => void): void {
  onSessionEnded = handler;
}

/**
 * An answer that is not what the API's own schema says it is: the page and the service are out
 * of step (a page loaded before a release, say). Shown as a failure to try again, never used.
 */
export class UnexpectedAnswerError extends Error {
  constructor(readonly path: string) {
    super('The service answered in a form this page does not know');
    this.name = 'UnexpectedAnswerError';
  }
}

/** Values a query string may carry, where the route's query has no schema in src/contracts. */
export type QueryValues = Readonly<Record<string, string | number | boolean | null | undefined>>;

type QueryOf<R extends ApiRoute> = R extends { query: z.ZodType }
  ? z.input<R['query']>
  : QueryValues;

/** What a route's address needs: a value for each parameter of its path, and its query. */
export type Address<R extends ApiRoute> = ([PathParamName<R['path']>] extends [never]
  ? { params?: undefined }
  : { params: PathParams<R['path']> }) & { query?: QueryOf<R> };

/**
 * A body as a form sends it: the fields of the route's body schema, each with its own type, any of
 * them not filled in yet. Whether it is complete is the schema's to say, in the form's own
 * validation (the same schema) and again on the server.
 */
type FormBody<T> = T extends readonly unknown[]
  ? T
  : T extends object
    ? { [Field in keyof T]?: T[Field] | undefined }
    : T;

/** A request to a route: its address and, where it takes one, its body as its schema reads it. */
export type RequestOf<R extends ApiRoute> = Address<R> &
  (R extends { body: z.ZodType }
    ? { body: FormBody<z.input<R['body']>> }
    : R['method'] extends 'GET' | 'DELETE'
      ? { body?: undefined }
      : { body?: unknown });

/** Optional when nothing in it is required (a route with no parameters, query or body). */
type Parts<T> = Record<never, never> extends T ? [request?: T] : [request: T];

/** A route whose answer has its schema in the table: the only kind `api()` reads. */
export type AnsweredRoute = ApiRoute & { readonly answer: z.ZodType };

/** What a route answers, typed by the schema it is parsed with. */
export type AnswerOf<R extends AnsweredRoute> = z.infer<R['answer']>;

/** A GET of a cursor-paginated list (docs/api.md, "Requests and answers"): a page of rows. */
export type ListRoute<T = unknown> = AnsweredRoute & {
  readonly method: 'GET';
  readonly answer: z.ZodType<Page<T>>;
};

/** One row of a list route's pages. */
export type RowOf<R extends ListRoute> = AnswerOf<R> extends Page<infer T> ? T : never;

/** The parts of a request as helpers that are generic over routes hold them. */
export interface LooseRequest {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: object;
  readonly body?: unknown;
}

/**
 * The address of a route: each `:parameter` of its path replaced by its value, percent-encoded,
 * and the query's values that are set (undefined, null and '' are left out). Every request of the
 * UI is sent to an address built here from the route table, src/contracts/api-routes.ts.
 */
export function urlOf<R extends ApiRoute>(route: R, ...[address]: Parts<Address<R>>): string {
  return addressOf(route, (address ?? {}) as LooseRequest);
}

/** `urlOf()` for the few helpers that are generic over routes (see `callRoute`). */
export function addressOf(route: ApiRoute, { params, query }: LooseRequest): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
    const value = params?.[name];
    // An empty value would name another route: a list, not one of its members.
    if (value === undefined || value === '') {
      throw new Error(`The address of ${route.method} ${route.path} needs its ${name}`);
    }
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * A request to a route of the table, its answer parsed with the route's own answer schema (from
 * src/contracts): what the page uses is what was checked, and a type can only come from a schema,
 * never be asserted (docs/decisions/0056-shared-contracts.md). The route gives the method and the
 * path; the request gives the path's parameters, the query and the body, typed by the table.
 */
export function api<R extends AnsweredRoute>(
  route: R,
  ...[request]: Parts<RequestOf<R>>
): Promise<AnswerOf<R>> {
  return callRoute(route, (request ?? {}) as LooseRequest);
}

/**
 * `api()` for the few helpers that are generic over routes (a table of any list, every page of
 * one): they type the request their own callers give them, and hand it on as it is.
 */
export async function callRoute<R extends AnsweredRoute>(
  route: R,
  request: LooseRequest,
): Promise<AnswerOf<R>> {
  const url = addressOf(route, request);
  const { body } = request;
  const response = await fetch(url, {
    method: route.method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answerOf<R['answer']>(route.answer, response, url);
}

/** Uploads a file as the request body (CSV imports), as it is, without reading it into memory. */
export async function upload<R extends AnsweredRoute & { method: 'POST' }>(
  route: R,
  address: Address<R>,
  file: Blob,
  contentType: string,
): Promise<AnswerOf<R>> {
  const url = addressOf(route, address as LooseRequest);
  const response = await fetch(url, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body: file,
  });
  return answerOf<R['answer']>(route.answer, response, url);
}

/**
 * Sends a form with a file and reports how much of it has gone, for a progress bar: fetch tells
 * nothing of an upload's progress, XMLHttpRequest's upload events do. The answer is parsed and a
 * refusal thrown as `api()` does.
 */
export function sendWithProgress<R extends AnsweredRoute & { method: 'POST' }>(
  route: R,
  address: Address<R>,
  form: FormData,
  onProgress: (sent: number, total: number) => void,
): Promise<AnswerOf<R>> {
  const url = addressOf(route, address as LooseRequest);
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', url);
    request.setRequestHeader('accept', 'application/json');
    request.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress(event.loaded, event.total);
    });
    request.addEventListener('load', () => {
      let payload: unknown = null;
      try {
        payload = request.responseText === '' ? undefined : JSON.parse(request.responseText);
      } catch {
        payload = null;
      }
      settle<R['answer']>(
        route.answer,
        request.status,
        payload,
        url,
        request.getResponseHeader('retry-after'),
      ).then(resolve, reject);
    });
    request.addEventListener('error', () =>
      reject(
        new ApiError(
          0,
          'The upload did not reach the service. Check the connection and try again.',
        ),
      ),
    );
    request.send(form);
  });
}

async function answerOf<S extends z.ZodType>(
  answer: S,
  response: Response,
  path: string,
): Promise<z.infer<S>> {
  const payload: unknown =
    response.status === 204 ? undefined : await response.json().catch(() => null);
  return settle(answer, response.status, payload, path, response.headers.get('retry-after'));
}

/** An answer's body checked against its schema, or the refusal it carries as an ApiError. */
async function settle<S extends z.ZodType>(
  answer: S,
  status: number,
  payload: unknown,
  path: string,
  retryAfter: string | null,
): Promise<z.infer<S>> {
  if (status >= 200 && status < 300) {
    const parsed = answer.safeParse(payload);
    if (!parsed.success) throw new UnexpectedAnswerError(path);
    return parsed.data;
  }
  throw refusalOf(status, payload, path, retryAfter);
}

/**
 * The ApiError of a refused request, from its status and JSON body; a 401 tells the app the
 * session has ended. For the few requests that are not read through `api()`: a streamed answer.
 */
export function refusalOf(
  status: number,
  payload: unknown,
  path: string,
  retryAfter: string | null = null,
): ApiError {
  if (status === 401 && !path.startsWith('/api/auth/')) onSessionEnded();
  const refusal = (payload ?? {}) as { error?: unknown; issues?: ApiIssue[] };
  const seconds = retryAfter === null ? Number.NaN : Number(retryAfter);
  return new ApiError(
    status,
    typeof refusal.error === 'string' ? refusal.error : messageForStatus(status),
    Array.isArray(refusal.issues) ? refusal.issues : [],
    Number.isInteger(seconds) && seconds > 0 ? seconds : null,
  );
}

function messageForStatus(status: number): string {
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'The service is unavailable. Please try again shortly.';
  return 'The request failed';
}

/**
 * A signed-in person's 429: their own pace met their allowance
 * (docs/decisions/0106-limits-for-a-person-working-fast.md), which says nothing of the service.
 */
export function paceMessage(error: ApiError): string {
  const wait = error.retryAfterSeconds;
  return `You are going faster than the service allows; wait ${
    wait === null ? 'a minute' : counted(wait, 'second')
  }, then try again. Your work is safe.`;
}

/** What a person should read for a failed request. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.status === 429) return paceMessage(error);
  if (error.status === 404)
    return 'Not found. It may have been removed, or it is not yours to see.';
  // Two refusals a person can act on say what to do: set up a second factor, or confirm it again
  // (docs/decisions/0110-second-factor.md, 0112-second-factor-required-roles.md).
  if (
    error.status === 403 &&
    (error.error === SECOND_FACTOR_SETUP_REQUIRED || error.error === STEP_UP_REQUIRED)
  )
    return error.error;
  if (error.status === 403) return 'You do not have permission to do that.';
  return error.error;
}

/**
 * A page of a list (docs/api.md, "Requests and answers"), as `pageOf` in src/contracts/pages.ts
 * describes it.
 */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}
