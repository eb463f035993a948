/**
 * The role the service's pool logs in as (migration 0010): it owns nothing and can only become
 * the restricted roles, so no statement a transaction runs can climb back to a role that
 * sees every tenant (docs/decisions/0040-runtime-database-login.md).
 */
export const RUNTIME_LOGIN_ROLE = 'pension_runtime';

/**
 * The URL the pool connects with. `pooledUrl` (DATABASE_URL) is used as given when it logs in
 * as someone other than the owner of `migrationUrl`; when both name the same user (one URL for
 * everything, as in development, tests and CI) the pool keeps the host and database of
 * `pooledUrl` but logs in as the runtime role, with `runtimePassword` when the server asks for
 * one. The owner's password never travels to the runtime login.
 */
export function runtimeDatabaseUrl(
  pooledUrl: string,
  migrationUrl: string,
  runtimePassword: string | undefined,
): string {
  const pooled = new URL(pooledUrl);
  if (loginOf(pooled) !== loginOf(new URL(migrationUrl))) return pooledUrl;
  pooled.username = RUNTIME_LOGIN_ROLE;
  // A URL without a host (a socket given as ?host=…) has no user part to replace.
  if (pooled.username !== RUNTIME_LOGIN_ROLE) {
    throw new Error(
      `DATABASE_URL has no host to log in to as ${RUNTIME_LOGIN_ROLE}: give that login as DATABASE_URL and the owner as DATABASE_URL_UNPOOLED`,
    );
  }
  pooled.password = runtimePassword ? encodeURIComponent(runtimePassword) : '';
  return pooled.toString();
}

/** libpq's default user is the operating-system user; an empty name stands for that default. */
function loginOf(url: URL): string {
  return decodeURIComponent(url.username);
}
