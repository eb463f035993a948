import type { QueryClient } from '@tanstack/react-query';

/**
 * The overview the employer's home page and the firm's dashboard both read
 * (GET /api/overview, docs/decisions/0045-home-pages-by-role.md), under one key.
 */
export const OVERVIEW_KEY = ['overview'] as const;

/**
 * What an upload of members or contributions changes: the scheme's own pages, and the overview,
 * whose recent uploads and latest pay periods it adds to.
 */
export const refreshedByImport = (schemeId: string) =>
  [['schemes', schemeId] as const, OVERVIEW_KEY] as const;

/** Marks stale, and reads again if shown, everything an upload changes, whatever its outcome. */
export async function refreshAfterImport(client: QueryClient, schemeId: string): Promise<void> {
  await Promise.all(
    refreshedByImport(schemeId).map((queryKey) => client.invalidateQueries({ queryKey })),
  );
}
