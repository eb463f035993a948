import { INVITATION_VALID_HOURS } from '../../contracts/accounts';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import { notifySuccess } from './notify';
import { useApiAction } from './useApiSubmit';

/** What a new invitation's notice says of its link, from the one rule of how long it works. */
export const INVITATION_LINK_WORKS = `Its link works for ${INVITATION_VALID_HOURS} hours.`;

/**
 * Sends a new invitation to an account that has not been set up: its earlier link stops working
 * and the new one works for INVITATION_VALID_HOURS (docs/decisions/0044-invitations.md). `refresh`
 * refreshes what shows the account; the notice names who it went to.
 */
export function useResendInvitation(
  accountId: string,
  { refresh, sentTo }: { refresh: () => Promise<void>; sentTo: string },
) {
  return useApiAction(async () => {
    await api(apiRoutes.users.resendInvitation, { params: { id: accountId } });
    await refresh();
    notifySuccess(`A new invitation is on its way to ${sentTo}. ${INVITATION_LINK_WORKS}`);
  });
}
