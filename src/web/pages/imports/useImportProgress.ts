import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import type { ImportKind, ImportSummary } from '../../api/types';
import { useUploadProgress } from './useUploadProgress';

/**
 * Follows a scheme's import while the browser still sends it: the newest running import of this
 * kind by this user that was not listed before the upload (see useUploadProgress).
 */
export function useImportProgress({
  schemeId,
  kind,
  userId,
  earlierIds,
  active,
}: {
  schemeId: string;
  kind: ImportKind;
  userId: string;
  earlierIds: ReadonlySet<string> | null;
  active: boolean;
}): ImportSummary | null {
  return useUploadProgress({
    list: async () =>
      (
        await api(apiRoutes.imports.listOfScheme, {
          params: { id: schemeId },
          query: { limit: 10 },
        })
      ).items,
    read: (id) => api(apiRoutes.imports.get, { params: { id } }),
    ours: (item) => item.kind === kind && item.createdBy === userId,
    earlierIds,
    active,
  });
}
