import { Box, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  OBLIGATION_NAMES,
  OBLIGATION_OWNERS,
  POLICY_KIND_NAMES,
} from '../../../contracts/governance-rules';
import { RULE_LABEL_NAMES, sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import type { Compliance, Scheme } from '../../api/types';
import { ScrollTable } from '../../components/ScrollTable';
import { yearEndInWords } from '../../components/scheme-fields';
import { StatusBadge } from './ComplianceParts';
import { type DatedObligation, shownDate, timelineOf } from './governance-helpers';
import { registerKey } from './governanceQueries';

/**
 * Whose duty each dated obligation is, by the id it names: a trustee's name for their training, a
 * policy's kind for its review. Each list is kept under its register's key, so a write to the
 * register reads it again.
 */
function useSubjectNames(schemeId: string) {
  const trustees = useQuery({
    queryKey: [...registerKey(schemeId, 'trustees'), 'names'],
    queryFn: () =>
      api(apiRoutes.trustees.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 100, includeHistory: 'true' },
      }),
  });
  const policies = useQuery({
    queryKey: [...registerKey(schemeId, 'policies'), 'names'],
    queryFn: () =>
      api(apiRoutes.policies.listOfScheme, {
        params: { id: schemeId },
        query: { limit: 100, includeHistory: 'false' },
      }),
  });
  return (obligation: DatedObligation): string | undefined => {
    const id = obligation.subjectId;
    if (id === undefined) return undefined;
    if (obligation.kind === 'trustee_training') {
      return trustees.data?.items.find((trustee) => trustee.id === id)?.name;
    }
    if (obligation.kind === 'written_policy') {
      const policy = policies.data?.items.find((entry) => entry.id === id);
      return policy ? POLICY_KIND_NAMES[policy.kind] : undefined;
    }
    return undefined;
  };
}

/** What falls due, in words: the duty, and whose it is where the duty is one of several. */
function whatIsDue(obligation: DatedObligation, subject: string | undefined): string {
  const name = OBLIGATION_NAMES[obligation.kind];
  return subject === undefined ? name : `${name}: ${subject}`;
}

/**
 * The scheme year (domain.md, "The scheme year"): every duty of the scheme that falls due on a
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
                const what = whatIsDue(obligation, subjectOf(obligation));
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
