import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { ApiError, api } from '../../api/client';

/** Shared by the scheme page, the import wizard and the payroll grid. */
export const schemeKey = (schemeId: string) => ['schemes', schemeId] as const;

export function useScheme(schemeId: string, enabled = true) {
  return useQuery({
    queryKey: schemeKey(schemeId),
    queryFn: () => api(apiRoutes.schemes.get, { params: { id: schemeId } }),
    enabled,
  });
}

/**
 * The answers a record out of reach gets, as a missing one does: another tenant's id (404) or a
 * malformed one typed into the address bar (400). The page then shows "Not found".
 */
export function isNotFound(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 404 || error.status === 400);
}
