import { Alert, Button, Group, Loader, Table, Text } from '@mantine/core';
import { type QueryKey, useInfiniteQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { api, describeError, type Page } from '../api/client';

export interface Column<T> {
  key: string;
  header: string;
  render: (row: T) => ReactNode;
  /** The value to sort by within the loaded rows; columns without one do not sort. */
  sortValue?: (row: T) => string | number;
}

/**
 * A table over one of the API's cursor-paginated lists: first page on mount, "Load more" while a
 * next cursor exists, and sorting of the loaded rows by a column.
 */
export function CursorTable<T extends { id: string }>({
  queryKey,
  path,
  columns,
  empty,
  caption,
}: {
  queryKey: QueryKey;
  /** The list endpoint with its filters; `cursor` is added here. */
  path: string;
  columns: Column<T>[];
  empty: string;
  caption: string;
}) {
  const [sort, setSort] = useState<{ key: string; ascending: boolean } | null>(null);
  const pages = useInfiniteQuery({
    queryKey,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api<Page<T>>(
        'GET',
        pageParam === null
          ? path
          : `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(pageParam)}`,
      ),
    getNextPageParam: (last) => last.nextCursor,
  });
  if (pages.isPending) return <Loader role="status" aria-label="Loading" />;
  if (pages.isError) return <Alert color="red">{describeError(pages.error)}</Alert>;
  const rows = pages.data.pages.flatMap((page) => page.items);
  const sortColumn = columns.find((column) => column.key === sort?.key);
  const sorted =
    sortColumn?.sortValue && sort
      ? [...rows].sort((a, b) => {
          const left = sortColumn.sortValue?.(a) ?? '';
          const right = sortColumn.sortValue?.(b) ?? '';
          const order = left < right ? -1 : left > right ? 1 : 0;
          return sort.ascending ? order : -order;
        })
      : rows;
  return (
    <>
      <Table.ScrollContainer minWidth={600}>
        <Table striped highlightOnHover captionSide="top">
          <Table.Caption style={{ textAlign: 'left' }}>{caption}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
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
            {sorted.map((row) => (
              <Table.Tr key={row.id}>
                {columns.map((column) => (
                  <Table.Td key={column.key}>{column.render(row)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {rows.length === 0 && <Text c="dimmed">{empty}</Text>}
      {pages.hasNextPage && (
        <Group justify="center" mt="sm">
          <Button
            variant="light"
            loading={pages.isFetchingNextPage}
            onClick={() => pages.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </>
  );
}
