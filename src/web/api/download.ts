import type { ApiRoute } from '../../contracts/api-routes';
import { type Address, ApiError, addressOf, type LooseRequest } from './client';

/**
 * Fetches a file the API answers as an attachment and hands it to the browser's download, named
 * as the server's Content-Disposition says. Read with fetch rather than followed as a link, so a
 * refusal (a lapsed session, a policy) reads as a message on the page instead of a page of JSON.
 * `fallbackName` is used when the header names no plain file name.
 */
export async function downloadAttachment<R extends ApiRoute & { method: 'GET' }>(
  route: R,
  address: Address<R>,
  options: { accept: string; fallbackName: string; failure: string },
): Promise<void> {
  const response = await fetch(addressOf(route, address as LooseRequest), {
    credentials: 'same-origin',
    headers: { accept: options.accept },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => null)) as {
      error?: string;
      issues?: Array<{ path: string; message: string }>;
    } | null;
    throw new ApiError(response.status, body?.error ?? options.failure, body?.issues);
  }
  const file = await response.blob();
  const name =
    /filename="([\w.-]{1,100})"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ??
    options.fallbackName;
  const fileUrl = URL.createObjectURL(file);
  const link = document.createElement('a');
  link.href = fileUrl;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Long enough for the browser to have taken the file.
  window.setTimeout(() => URL.revokeObjectURL(fileUrl), 60_000);
}
