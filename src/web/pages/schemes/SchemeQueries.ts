import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';

/** Shared by the scheme page, the import wizard and the payroll grid. */
export const schemeKey = (schemeId: string) => ['schemes', schemeId] as const;

export function useScheme(schemeId: string, enabled = true) {
  return useQuery({
    queryKey: schemeKey(schemeId),
    queryFn: () => api(apiRoutes.schemes.get, { params: { id: schemeId } }),
    enabled,
  });
}
