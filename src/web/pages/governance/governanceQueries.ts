import { useQuery, useQueryClient } from '@tanstack/react-query';
import { complianceView } from '../../api/answers';
import { api } from '../../api/client';

/** Every governance read of one scheme sits under this key: one write refreshes them all. */
export const schemeGovernanceKey = (schemeId: string) =>
  ['schemes', schemeId, 'governance'] as const;

/** The tenant-wide reads (the governance dashboard and the calendar) sit under this key. */
export const GOVERNANCE_KEY = ['governance'] as const;

export function useCompliance(schemeId: string) {
  return useQuery({
    queryKey: [...schemeGovernanceKey(schemeId), 'compliance'],
    queryFn: () =>
      api(complianceView, 'GET', `/api/schemes/${encodeURIComponent(schemeId)}/compliance`),
  });
}

/**
 * After any write to a scheme's registers: its registers and standing are read again, and the
 * dashboard and calendar too, so every status shown moves with the write, in place.
 */
export function useRefreshGovernance(schemeId: string): () => Promise<unknown> {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: schemeGovernanceKey(schemeId) }),
      client.invalidateQueries({ queryKey: GOVERNANCE_KEY }),
    ]);
}
