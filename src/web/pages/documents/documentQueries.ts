import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import type { DocumentType } from '../../../contracts/documents';
import { api, sendWithProgress } from '../../api/client';
import type { SchemeDocument } from '../../api/types';
import { fetchAllPages } from '../../components/allPages';

/** A scheme's documents sit under this key: an upload or a deletion reads them again. */
export const schemeDocumentsKey = (schemeId: string) => ['schemes', schemeId, 'documents'] as const;

/** How often a list with a document still being scanned is read again, to show the verdict. */
const SCAN_POLL_MS = 3000;

/** Every version of every document of the scheme the person may see (a member: member-facing). */
export function useSchemeDocuments(schemeId: string) {
  return useQuery({
    queryKey: schemeDocumentsKey(schemeId),
    queryFn: () =>
      fetchAllPages(apiRoutes.documents.listOfScheme, {
        params: { id: schemeId },
        query: { allVersions: 'true' },
      }),
    refetchInterval: (query) =>
      query.state.data?.items.some((document) => document.scanStatus === 'pending')
        ? SCAN_POLL_MS
        : false,
  });
}

export function useRefreshDocuments(schemeId: string) {
  const client = useQueryClient();
  return () => client.invalidateQueries({ queryKey: schemeDocumentsKey(schemeId) });
}

export interface UploadRequest {
  file: File;
  documentType: DocumentType;
  memberFacing: boolean;
  title?: string;
  memberId?: string;
}

/** Uploads a file to the scheme, reporting the share of it sent so far (0 to 1). */
export function uploadDocument(
  schemeId: string,
  request: UploadRequest,
  onProgress: (fraction: number) => void,
): Promise<SchemeDocument> {
  const form = new FormData();
  // The fields first: the API reads them before the file's bytes arrive.
  form.append('documentType', request.documentType);
  form.append('memberFacing', request.memberFacing ? 'true' : 'false');
  if (request.title) form.append('title', request.title);
  if (request.memberId) form.append('memberId', request.memberId);
  form.append('file', request.file, request.file.name);
  return sendWithProgress(
    apiRoutes.documents.upload,
    { params: { id: schemeId } },
    form,
    (sent, total) => onProgress(total === 0 ? 1 : sent / total),
  );
}

/**
 * Downloads a document: a signed URL, good for five minutes, is asked for and the browser sent to
 * it; the file answers as an attachment, so the page stays where it is.
 */
export async function downloadDocument(id: string): Promise<void> {
  const { url } = await api(apiRoutes.documents.url, { params: { id } });
  window.location.assign(url);
}
