import { type QueryClient, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import type { Me, SessionUser } from '../api/types';

export const SESSION_KEY = ['session'] as const;

/** Who is signed in: the session user, with their account (name, member record) when there is one. */
export interface Session {
  user: SessionUser;
  account: Me;
  /**
   * The account's role must have a second factor and it has none: until it sets one up, the
   * service refuses everything else (docs/decisions/0112-second-factor-required-roles.md).
   */
  secondFactorSetupRequired: boolean;
}

export async function loadSession(): Promise<Session | null> {
  const { user, secondFactorSetupRequired = false } = await api(apiRoutes.auth.session);
  if (!user) return null;
  return { user, account: await api(apiRoutes.users.me), secondFactorSetupRequired };
}

export function useSession() {
  return useQuery({ queryKey: SESSION_KEY, queryFn: loadSession, staleTime: 60_000 });
}

/**
 * Reads the session anew and waits for it. After signing in this must finish before the first
 * signed-in page renders: the cache still holds the "signed out" answer that sent the person to
 * the sign-in page, and a layout reading it would send them straight back (docs/decisions/0042-signed-in-rate-limits-and-session-handling.md).
 */
export function reloadSession(client: QueryClient): Promise<Session | null> {
  return client.fetchQuery({ queryKey: SESSION_KEY, queryFn: loadSession, staleTime: 0 });
}

/** The signed-in session; only pages under the signed-in layout use it. */
export function useSignedIn(): Session {
  const { data } = useSession();
  if (!data) throw new Error('useSignedIn outside the signed-in layout');
  return data;
}

export function useSignOut() {
  const client = useQueryClient();
  return async () => {
    await api(apiRoutes.auth.signOut).catch(() => undefined);
    client.clear();
    window.location.assign('/signin');
  };
}
