import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../contracts/api-routes';
import {
  type Address,
  callRoute,
  type ListRoute,
  type LooseRequest,
  type Page,
  type RowOf,
} from '../api/client';

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
export async function fetchAllPages<R extends ListRoute>(
  list: R,
  address: Address<R>,
  maxRows = 2000,
): Promise<AllRows<RowOf<R>>> {
  // Typed by the parameters above; handed on as they are (client.ts, `callRoute`).
  const route = list as ListRoute<RowOf<R>>;
  const { params, query } = address as LooseRequest;
  const items: RowOf<R>[] = [];
  let cursor: string | null = null;
  do {
    const page: Page<RowOf<R>> = await callRoute(route, {
      params,
      query: { ...query, limit: 100, cursor },
    });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null && items.length < maxRows);
  return { items, complete: cursor === null };
}

/** The employers within the actor's reach, for pickers, filters and names in tables. */
export function useAllEmployers(enabled = true) {
  return useQuery({
    queryKey: ['employers', 'all'],
    queryFn: () => fetchAllPages(apiRoutes.employers.list, {}),
    enabled,
    staleTime: 30_000,
  });
}
