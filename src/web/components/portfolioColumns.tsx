import { Text } from '@mantine/core';
import { type ObligationStatus, severityOf } from '../../contracts/governance-rules';
import { formatPeriod } from '../format';
import { StatusBadge } from '../pages/governance/ComplianceParts';
import type { Column } from './CursorTable';

/**
 * The columns the portfolio lists share (docs/decisions/0144-portfolio-lists.md): how many
 * members, the governance standing in words, and the latest pay period received. Each sorts over
 * the whole list, which the portfolio answers in one piece.
 */
export function portfolioColumns<
  T extends { memberCount: number; governance: ObligationStatus | null; lastPeriod: string | null },
>({
  governanceShown,
  noStanding,
}: {
  governanceShown: boolean;
  /** What stands in the governance column for a row without a standing. */
  noStanding: (row: T) => string;
}): Column<T>[] {
  return [
    {
      key: 'memberCount',
      header: 'Members',
      render: (row) => row.memberCount.toLocaleString('en-IE'),
      sortValue: (row) => row.memberCount,
    },
    ...(governanceShown
      ? [
          {
            key: 'governance',
            header: 'Governance',
            render: (row: T) =>
              row.governance === null ? (
                <Text span size="sm" c="dimmed">
                  {noStanding(row)}
                </Text>
              ) : (
                <StatusBadge status={row.governance} />
              ),
            // Worst first when sorted descending; a row without a standing sorts below OK.
            sortValue: (row: T) => (row.governance === null ? -1 : severityOf(row.governance)),
          },
        ]
      : []),
    {
      key: 'lastPeriod',
      header: 'Last pay period received',
      render: (row) =>
        row.lastPeriod === null ? (
          <Text span size="sm" c="dimmed">
            None yet
          </Text>
        ) : (
          formatPeriod(row.lastPeriod)
        ),
      sortValue: (row) => row.lastPeriod ?? '',
    },
  ];
}
