import { Badge, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { OBLIGATION_NAMES, OBLIGATION_STATUS_LABELS } from '../../../contracts/governance-rules';
import { sourceInWords } from '../../../contracts/rule-sources';
import type { CalendarEntry, ComplianceStatus, Obligation } from '../../api/types';
import type { Column } from '../../components/CursorTable';
import { ScrollTable } from '../../components/ScrollTable';
import {
  calendarEntryKey,
  obligationInWords,
  STATUS_COLOURS,
  shownDate,
} from './governance-helpers';

/** A standing as a word beside a coloured dot: the colour is never the only sign. */
export function StatusBadge({
  status,
  size = 'md',
}: {
  status: ComplianceStatus;
  size?: 'md' | 'lg' | 'xl';
}) {
  return (
    <Badge color={STATUS_COLOURS[status]} variant="dot" size={size} miw="max-content">
      {OBLIGATION_STATUS_LABELS[status]}
    </Badge>
  );
}

/**
 * Each obligation of a scheme: its standing, why, when it falls due and where the rule is, with
 * its label in words ("Law: …"), both as the rule module gives them. An obligation about one
 * entry of a register (a trustee, a key function holder, a policy) names it, where `subjectOf`
 * knows it.
 */
export function ObligationsTable({
  obligations,
  caption,
  subjectOf = () => undefined,
}: {
  obligations: readonly Obligation[];
  caption: string;
  subjectOf?: (obligation: Obligation) => string | undefined;
}) {
  return (
    <ScrollTable minWidth={720} label={caption}>
      <Table striped captionSide="top">
        <Table.Caption ta="left">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Status</Table.Th>
            <Table.Th>Obligation</Table.Th>
            <Table.Th>Reason</Table.Th>
            <Table.Th>Due</Table.Th>
            <Table.Th>Source</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {obligations.map((obligation) => (
            // Obligations carry no id; no two of one scheme share a kind, subject and reason.
            <Table.Tr key={`${obligation.kind}|${obligation.subjectId ?? ''}|${obligation.reason}`}>
              <Table.Td>
                <StatusBadge status={obligation.status} />
              </Table.Td>
              <Table.Td>{obligationInWords(obligation, subjectOf(obligation))}</Table.Td>
              <Table.Td>{obligation.reason}</Table.Td>
              <Table.Td>{shownDate(obligation.dueOn)}</Table.Td>
              <Table.Td>
                <Text size="sm">{sourceInWords(obligation)}</Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** The columns of dated obligations across schemes: the dashboard's and the calendar's. */
export function dueDateColumns(
  schemeLink: (entry: CalendarEntry) => ReactNode,
): Column<CalendarEntry>[] {
  return [
    {
      key: 'dueOn',
      header: 'Due',
      render: (entry) => shownDate(entry.dueOn),
      sortValue: (entry) => entry.dueOn,
    },
    { key: 'status', header: 'Status', render: (entry) => <StatusBadge status={entry.status} /> },
    {
      key: 'scheme',
      header: 'Scheme',
      render: schemeLink,
      sortValue: (entry) => entry.schemeName.toLocaleLowerCase('en-IE'),
    },
    {
      key: 'employer',
      header: 'Employer',
      render: (entry) => entry.employerName,
      sortValue: (entry) => entry.employerName.toLocaleLowerCase('en-IE'),
    },
    {
      key: 'what',
      header: 'What is due',
      render: (entry) => `${OBLIGATION_NAMES[entry.kind]}: ${entry.reason}`,
    },
    {
      key: 'citation',
      header: 'Source',
      render: (entry) => <Text size="sm">{sourceInWords(entry)}</Text>,
    },
  ];
}

/** Dated obligations across schemes, all at once (the dashboard's overdue and due soon). */
export function DueDatesTable({
  entries,
  caption,
  schemeLink,
}: {
  entries: readonly CalendarEntry[];
  caption: string;
  schemeLink: (entry: CalendarEntry) => ReactNode;
}) {
  const columns = dueDateColumns(schemeLink);
  return (
    <ScrollTable minWidth={820} label={caption}>
      <Table striped captionSide="top">
        <Table.Caption ta="left">{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) => (
              <Table.Th key={column.key}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={calendarEntryKey(entry)}>
              {columns.map((column) => (
                <Table.Td key={column.key}>{column.render(entry)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
