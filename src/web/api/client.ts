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

export async function api<T>(method: Method, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers:
      body === undefined
        ? { accept: 'application/json' }
        : { 'content-type': 'application/json', accept: 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answerOf<T>(response, path);
}

/** Uploads a file as the request body (CSV imports), as it is, without reading it into memory. */
export async function upload<T>(path: string, file: Blob, contentType: string): Promise<T> {
  const response = await fetch(path, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'content-type': contentType, accept: 'application/json' },
    body: file,
  });
  return answerOf<T>(response, path);
}

async function answerOf<T>(response: Response, path: string): Promise<T> {
  if (response.status === 204) return undefined as T;
  const payload = (await response.json().catch(() => null)) as
    | (T & { error?: string; issues?: ApiIssue[] })
    | null;
  if (response.ok) return payload as T;
  if (response.status === 401 && !path.startsWith('/api/auth/')) onSessionEnded();
  throw new ApiError(
    response.status,
    payload?.error ?? messageForStatus(response.status),
    payload?.issues ?? [],
  );
}

function messageForStatus(status: number): string {
  if (status === 429) return 'Too many requests';
  if (status >= 500) return 'The service is unavailable. Please try again shortly.';
  return 'The request failed';
}

/** What a person should read for a failed request. */
export function describeError(error: unknown): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  if (error.status === 429) return 'Too many requests. Please wait a minute and try again.';
  if (error.status === 404)
    return 'Not found. It may have been removed, or it is not yours to see.';
  if (error.status === 403) return 'You do not have permission to do that.';
  return error.error;
}

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
