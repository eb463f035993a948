import { Alert, Button, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { counted } from '../../contracts/plain-english';
import {
  type Address,
  callRoute,
  describeError,
  type ListRoute,
  type LooseRequest,
  type RowOf,
} from '../api/client';
import { Loading } from './Loading';
import { PINNED_END, ScrollTable } from './ScrollTable';

export interface Column<T> {
  /** `actions`: the row's buttons, pinned to the table's right edge (`PINNED_END`). */
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The value to sort by within the loaded rows; columns without one do not sort. */
  sortValue?: (row: T) => string | number;
}

type Sort = { key: string; ascending: boolean };

/**
 * A table over one of the API's cursor-paginated lists: first page on mount, "Load more" while a
 * next cursor exists, sorting of the rows shown by a column, and, for lists whose endpoint has no
 * text search of its own (employers, accounts), a search box over the rows shown. While more
 * rows are still to load, a sort or a search says in plain words that it covers the rows shown
 * only, and how many, rather than pretending to cover the whole list.
 */
export function CursorTable<R extends ListRoute>(
  props: {
    queryKey: QueryKey;
    /** The list's route: every page is parsed with its answer schema. */
    route: R;
    columns: Column<RowOf<R>>[];
    empty: string;
    caption: string;
    /** A search over the loaded rows: its label, and the text of a row it matches against. */
    search?: { label: string; text: (row: RowOf<R>) => string };
    /** What a row is, to count the rows shown: "member", or "row" when not said. */
    rowNoun?: string;
    /** How long a first page handed over by a composed page is taken as fresh. */
    staleTime?: number;
    /**
     * The first page, when the page already holds it (a list answered whole, filtered in the
     * browser): shown at once, and read again only once `staleTime` has passed.
     */
    initialPage?: { items: RowOf<R>[]; nextCursor: string | null };
    /** The narrowest the table is laid out, in CSS pixels: it scrolls sideways below it. */
    minWidth?: number;
    /** The list's parameters and filters (`params`, `query`); `cursor` is added here. */
  } & Address<R> &
    // Rows are told apart by their id, or, in a list whose rows have none, by `rowKey`.
    (RowOf<R> extends { id: string }
      ? { rowKey?: undefined }
      : { rowKey: (row: RowOf<R>) => string }),
) {
  const { queryKey, columns, empty, caption, search: searchBy, rowNoun = 'row' } = props;
  // Typed by the props above; handed on as they are (client.ts, `callRoute`).
  const { params, query } = props as LooseRequest;
  const route = props.route as ListRoute<RowOf<R>>;
  const rowKey = props.rowKey ?? ((row: RowOf<R>) => (row as { id: string }).id);
  const [sort, setSort] = useState<Sort | null>(null);
  const [search, setSearch] = useState('');
  const pages = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      callRoute(route, { params, query: { ...query, cursor: pageParam ?? undefined } }),
    getNextPageParam: (last) => last.nextCursor,
    staleTime: props.staleTime,
    ...(props.initialPage
      ? { initialData: { pages: [props.initialPage], pageParams: [null] } }
      : {}),
  });
  if (pages.isPending) return <Loading label={`Loading ${caption.toLowerCase()}`} />;
  if (pages.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(pages.error)}
      </Alert>
    );
  }

  const loaded = pages.data.pages.flatMap((page) => page.items);
  const needle = search.trim().toLocaleLowerCase('en-IE');
  const matching =
    needle === '' || !searchBy
      ? loaded
      : loaded.filter((row) => searchBy.text(row).toLocaleLowerCase('en-IE').includes(needle));
  const rows = sorted(matching, columns, sort);
  const shown = counted(loaded.length, rowNoun);
  const sortedBy = columns.find((column) => column.key === sort?.key)?.header;

  return (
    <Stack gap="sm">
      {searchBy && (
        <TextInput
          label={searchBy.label}
          description={
            pages.hasNextPage
              ? `Searches the ${shown} shown; load more to search the rest.`
              : undefined
          }
          type="search"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maw={420}
        />
      )}
      <ScrollTable minWidth={props.minWidth ?? 600} label={caption}>
        <Table striped highlightOnHover captionSide="top">
          <Table.Caption ta="left">{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  style={column.key === 'actions' ? PINNED_END : undefined}
                  aria-sort={
                    sort?.key === column.key
                      ? sort.ascending
                        ? 'ascending'
                        : 'descending'
                      : undefined
                  }
                >
                  {column.sortValue ? (
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      onClick={() =>
                        setSort((current) => ({
                          key: column.key,
                          ascending: current?.key === column.key ? !current.ascending : true,
                        }))
                      }
                    >
                      {column.header}
                      {sort?.key === column.key ? (sort.ascending ? ' ▲' : ' ▼') : ''}
                    </Button>
                  ) : (
                    column.header
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)}>
                {columns.map((column) => (
                  <Table.Td
                    key={column.key}
                    style={column.key === 'actions' ? PINNED_END : undefined}
                  >
                    {column.render(row)}
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {sortedBy !== undefined && pages.hasNextPage && (
        <Text size="sm" role="status">
          Sorted by {sortedBy.toLowerCase()}: the {shown} shown here only. Load more to sort the
          rest with them.
        </Text>
      )}
      {loaded.length === 0 && <Text c="dimmed">{empty}</Text>}
      {loaded.length > 0 && rows.length === 0 && (
        <Text c="dimmed" role="status">
          None of the {shown} shown matches “{search.trim()}”.
        </Text>
      )}
      {pages.hasNextPage && (
        <Group justify="center">
          <Button
            variant="light"
            loading={pages.isFetchingNextPage}
            onClick={() => pages.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function sorted<T>(rows: T[], columns: Column<T>[], sort: Sort | null): T[] {
  const sortValue = columns.find((column) => column.key === sort?.key)?.sortValue;
  if (!sort || !sortValue) return rows;
  return [...rows].sort((a, b) => {
    const left = sortValue(a);
    const right = sortValue(b);
    const order =
      typeof left === 'string' && typeof right === 'string'
        ? left.localeCompare(right, 'en-IE', { sensitivity: 'base' })
        : left < right
          ? -1
          : left > right
            ? 1
            : 0;
    return sort.ascending ? order : -order;
  });
}
