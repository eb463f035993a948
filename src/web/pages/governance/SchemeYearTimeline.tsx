import { Box, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { OBLIGATION_OWNERS } from '../../../contracts/governance-rules';
import { RULE_LABEL_NAMES, sourceInWords } from '../../../contracts/rule-sources';
import type { Compliance, Scheme } from '../../api/types';
import { ScrollTable } from '../../components/ScrollTable';
import { yearEndInWords } from '../../components/scheme-fields';
import { StatusBadge } from './ComplianceParts';
import { obligationInWords, shownDate, timelineOf } from './governance-helpers';
import { useSubjectNames } from './governanceQueries';

/**
 * The scheme year (docs/decisions/0122-the-scheme-year.md): every duty of the scheme that falls due on a
 * day, soonest first, with who carries it out and its standing; why it stands so, and where the
 * rule comes from, one click away.
 */
export function SchemeYearTimeline({
  scheme,
  compliance,
}: {
  scheme: Scheme;
  compliance: Compliance;
}) {
  const subjectOf = useSubjectNames(scheme.id);
  const entries = timelineOf(compliance.obligations);
  const caption = 'What falls due in the scheme year, soonest first';
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-scheme-year">
      <Title order={3} id="governance-scheme-year">
        Scheme year
      </Title>
      <Text size="sm">
        The scheme year ends on {yearEndInWords(scheme.yearEnd)}. A duty with no date yet, such as a
        register still to be filled in, shows under Compliance above.
      </Text>
      {entries.length === 0 ? (
        <Text>Nothing has a due date yet.</Text>
      ) : (
        <ScrollTable minWidth={760} label={caption}>
          <Table striped captionSide="top">
            <Table.Caption ta="left">{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Due</Table.Th>
                <Table.Th>What is due</Table.Th>
                <Table.Th>Who carries it out</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Why, and the rule</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((obligation) => {
                const what = obligationInWords(obligation, subjectOf(obligation));
                return (
                  // Obligations carry no id; no two of one scheme share a kind, subject and reason.
                  <Table.Tr
                    key={`${obligation.kind}|${obligation.subjectId ?? ''}|${obligation.reason}`}
                  >
                    <Table.Td>{shownDate(obligation.dueOn)}</Table.Td>
                    <Table.Td>{what}</Table.Td>
                    <Table.Td>{OBLIGATION_OWNERS[obligation.kind]}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={obligation.status} />
                    </Table.Td>
                    <Table.Td>
                      <Box component="details">
                        <Box component="summary" style={{ cursor: 'pointer' }}>
                          {RULE_LABEL_NAMES[obligation.label]}
                          <VisuallyHidden>
                            , for {what}: why it stands so, and where the rule comes from
                          </VisuallyHidden>
                        </Box>
                        <Stack gap={4} mt={4}>
                          <Text size="sm">{obligation.reason}</Text>
                          <Text size="sm">{sourceInWords(obligation)}</Text>
                        </Stack>
                      </Box>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
