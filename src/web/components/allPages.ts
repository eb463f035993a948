import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { employerView, pageOf } from '../api/answers';
import { api, type Page, query } from '../api/client';

export interface AllRows<T> {
  items: T[];
  /** False when `maxRows` stopped the walk before the list's end. */
  complete: boolean;
}

/**
 * Every row of a cursor-paginated list, a full page (100) at a time, stopping after `maxRows`.
 * For short lists a page needs whole (a tenant's employers for a picker, a count on the
 * dashboard), never for members or contributions.
 */
export async function fetchAllPages<T>(
  item: z.ZodType<T>,
  path: string,
  params: Record<string, string | undefined> = {},
  maxRows = 2000,
): Promise<AllRows<T>> {
  const items: T[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<T> = await api(
      pageOf(item),
      'GET',
      `${path}${query({ ...params, limit: 100, cursor })}`,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && items.length < maxRows);
  return { items, complete: cursor === null };
}

/** The employers within the actor's reach, for pickers, filters and names in tables. */
export function useAllEmployers(enabled = true) {
  return useQuery({
    queryKey: ['employers', 'all'],
    queryFn: () => fetchAllPages(employerView, '/api/employers'),
    enabled,
    staleTime: 30_000,
  });
}
