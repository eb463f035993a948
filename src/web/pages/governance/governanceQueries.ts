import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import type { Obligation } from '../../api/types';
import { subjectNameOf } from './governance-helpers';

/** Every governance read of one scheme sits under this key: one write refreshes them all. */
export const schemeGovernanceKey = (schemeId: string) =>
  ['schemes', schemeId, 'governance'] as const;

/** The tenant-wide reads (the governance dashboard and the calendar) sit under this key. */
export const GOVERNANCE_KEY = ['governance'] as const;

export function useCompliance(schemeId: string) {
  return useQuery({
    queryKey: [...schemeGovernanceKey(schemeId), 'compliance'],
    queryFn: () => api(apiRoutes.compliance.ofScheme, { params: { id: schemeId } }),
  });
}

/**
 * The registers of a scheme, each listed under its own key below the scheme's governance; the
 * training of each trustee sits below `training`.
 */
export type Register =
  | 'trustees'
  | 'holders'
  | 'policies'
  | 'ora'
  | 'changes'
  | 'training'
  | 'filings'
  | 'conflicts';

export const registerKey = (schemeId: string, register: Register) =>
  [...schemeGovernanceKey(schemeId), register] as const;

/**
 * After a write to a scheme's registers: the registers it touched and the scheme's standing are
 * read again, so the status moves with the write, in place; the dashboard and calendar are marked
 * stale, read again when next shown. Only what the write touched is read: a person filling in the
 * registers would otherwise spend their per-minute allowance of requests on lists that did not
 * change.
 */
export function useRefreshGovernance(
  schemeId: string,
): (...registers: Register[]) => Promise<unknown> {
  const client = useQueryClient();
  return (...registers) =>
    Promise.all([
      ...registers.map((register) =>
        client.invalidateQueries({ queryKey: registerKey(schemeId, register) }),
      ),
      client.invalidateQueries({ queryKey: [...schemeGovernanceKey(schemeId), 'compliance'] }),
      client.invalidateQueries({ queryKey: GOVERNANCE_KEY }),
    ]);
}

/**
 * The scheme's trustees, past and present, read once under the trustees' key: for naming whose
 * duty an obligation is, and for choosing the trustee a conflict of interest is declared by.
 */
export function useTrusteeNames(schemeId: string) {
  return useQuery({
    queryKey: [...registerKey(schemeId, 'trustees'), 'names'],
    queryFn: () =>
      api(apiRoutes.trustees.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 100, includeHistory: 'true' },
      }),
  });
}

/**
 * Whose duty each obligation is, by the id it names (subjectNameOf): the scheme's trustees, key
 * function holders and policies, read once for the compliance table and the timeline alike. Each
 * list is kept under its register's key, so a write to the register reads it again.
 */
export function useSubjectNames(
  schemeId: string,
): (obligation: Pick<Obligation, 'kind' | 'subjectId'>) => string | undefined {
  const trustees = useTrusteeNames(schemeId);
  const holders = useQuery({
    queryKey: [...registerKey(schemeId, 'holders'), 'names'],
    queryFn: () =>
      api(apiRoutes.keyFunctionHolders.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 100, includeHistory: 'true' },
      }),
  });
  const policies = useQuery({
    queryKey: [...registerKey(schemeId, 'policies'), 'names'],
    queryFn: () =>
      api(apiRoutes.policies.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 100, includeHistory: 'false' },
      }),
  });
  return (obligation) =>
    subjectNameOf(obligation, {
      trustees: trustees.data?.items,
      holders: holders.data?.items,
      policies: policies.data?.items,
    });
}
