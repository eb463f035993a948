import { z } from 'zod';
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

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The answer of a request that returns no body (204): a deletion, a sign-out. */
export const noAnswer = z.undefined();

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

/**
 * A request to the API, its answer parsed with the API's own response schema (`answer`, from
 * src/contracts through `./answers`): what the page uses is what was checked, and a type can
 * only come from a schema, never be asserted (docs/decisions/0056-shared-contracts.md).
 */
export async function api<S extends z.ZodType>(
  answer: S,
  method: Method,
  path: string,
  body?: unknown,
): Promise<z.infer<S>> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answerOf(answer, response, path);
}

/** Uploads a file as the request body (CSV imports), as it is, without reading it into memory. */
export async function upload<S extends z.ZodType>(
  answer: S,
  path: string,
  file: Blob,
  contentType: string,
): Promise<z.infer<S>> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body: file,
  });
  return answerOf(answer, response, path);
}

/**
 * Sends a form with a file and reports how much of it has gone, for a progress bar: fetch tells
 * nothing of an upload's progress, XMLHttpRequest's upload events do. The answer is parsed and a
 * refusal thrown as `api()` does.
 */
export function sendWithProgress<S extends z.ZodType>(
  answer: S,
  path: string,
  form: FormData,
  onProgress: (sent: number, total: number) => void,
): Promise<z.infer<S>> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', path);
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
      const retryAfter = request.getResponseHeader('retry-after');
      settle(answer, request.status, payload, path, retryAfter).then(resolve, reject);
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
    wait === null ? 'a minute' : wait === 1 ? '1 second' : `${wait} seconds`
  }, then try again. Your work is safe.`;
}

/** What a person should read for a failed request. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.status === 429) return paceMessage(error);
  if (error.status === 404)
    return 'Not found. It may have been removed, or it is not yours to see.';
  if (error.status === 403) return 'You do not have permission to do that.';
  return error.error;
}

/** A page of a list (decisions.md §4), as `pageOf` in src/contracts/pages.ts describes it. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A query string from defined values only. */
export function query(
  params: Record<string, string | number | boolean | undefined | null>,
): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}
