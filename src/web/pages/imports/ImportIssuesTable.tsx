import { Group, Pagination, Table, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { counted } from '../../../contracts/plain-english';
import type { ImportIssue } from '../../api/types';

/** Issues per page: a file can have up to 10,000 listed, far too many to render at once. */
const PAGE_SIZE = 100;
const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
};

/**
 * Every problem the service found in a file, by line (the heading row is line 1) and column, in
 * the service's own words, a page of 100 at a time. Issues about the whole file have no line.
 */
export function ImportIssuesTable({
  issues,
  issueCount,
}: {
  issues: ImportIssue[];
  /** All problems found; more than `issues` when the service listed only the first 10,000. */
  issueCount: number;
}) {
  const [page, setPage] = useState(1);
  // Issues carry no id; their place in the service's list (by line, then column) stands in.
  const numbered = useMemo(
    () => issues.map((issue, position) => ({ ...issue, position })),
    [issues],
  );
  const pages = Math.max(1, Math.ceil(issues.length / PAGE_SIZE));
  const shown = numbered.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE);
  const badLines = new Set(issues.map((issue) => issue.line).filter((line) => line !== null)).size;

  return (
    <>
      <Table.ScrollContainer minWidth={500}>
        <Table striped captionSide="top">
          <Table.Caption style={{ textAlign: 'left' }}>
            {counted(issueCount, 'problem')}
            {badLines > 0 && ` on ${counted(badLines, 'line')}`}
            {issueCount > issues.length &&
              `; the first ${issues.length.toLocaleString('en-IE')} are listed`}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Line</Table.Th>
              <Table.Th>Column</Table.Th>
              <Table.Th>Problem</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shown.map((issue) => (
              <Table.Tr key={issue.position}>
                <Table.Td>{issue.line ?? 'Whole file'}</Table.Td>
                <Table.Td>{issue.column ?? '—'}</Table.Td>
                <Table.Td>{issue.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 && (
        <Group justify="space-between" mt="sm">
          <Text size="sm" c="dimmed">
            Problems {((page - 1) * PAGE_SIZE + 1).toLocaleString('en-IE')}–
            {Math.min(page * PAGE_SIZE, issues.length).toLocaleString('en-IE')}
          </Text>
          <Pagination
            total={pages}
            value={page}
            onChange={setPage}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
            getItemProps={(item) => ({ 'aria-label': `Page ${item}` })}
          />
        </Group>
      )}
    </>
  );
}
