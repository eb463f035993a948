import { Checkbox, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import type { StatementView } from '../../../contracts/statements';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { DateTime } from '../../components/DateTime';
import { notifyProblem, notifySuccess } from '../../components/notify';
import { QueryPanel } from '../../components/QueryPanel';
import { PINNED_END, ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';
import { OpenStatementButton } from './StatementRunPage';
import { memberStatementsKey, runPaperKey } from './statementQueries';

/**
 * A member's Pension Benefit Statements, the latest first
 * (docs/decisions/0141-pension-benefit-statements.md): on their own page, those issued to them;
 * to the firm's staff, every one made, issued or not yet.
 */
export function MemberStatements({ member, own }: { member: Member; own: boolean }) {
  const session = useSignedIn();
  const mayMarkPaper = can(session, 'statement.paper', memberRow(member));
  const statements = useQuery({
    queryKey: memberStatementsKey(member.id),
    queryFn: () => api(apiRoutes.memberStatements.list, { params: { id: member.id } }),
    // Handed over by the member page's one request (member-page-cache.ts).
    staleTime: SEEDED_FRESH_MS,
  });
  return (
    <Stack gap="sm" component="section" aria-labelledby="member-statements">
      <Title order={3} id="member-statements">
        {own ? 'Your benefit statements' : 'Pension Benefit Statements'}
      </Title>
      <QueryPanel
        query={statements}
        loading="Loading the benefit statements"
        isEmpty={(data) => data.length === 0}
        empty={
          own
            ? 'You have no benefit statement yet. Your scheme gives you one at least once a year.'
            : 'No statement has been made for this member.'
        }
      >
        {(data) => (
          <ScrollTable minWidth={480} label="Pension Benefit Statements">
            <Table>
              <Table.Caption>
                {own
                  ? 'Your Pension Benefit Statements, the latest first'
                  : 'The member’s Pension Benefit Statements, the latest first'}
              </Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Information date</Table.Th>
                  <Table.Th>Scheme</Table.Th>
                  <Table.Th>Issued</Table.Th>
                  {mayMarkPaper && <Table.Th>On paper</Table.Th>}
                  {/* Pinned, as a list's buttons are (docs/decisions/0046): a phone opens the
                    statement without scrolling to it. */}
                  <Table.Th style={PINNED_END}>Statement</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.map((statement) => (
                  <Table.Tr key={statement.id}>
                    <Table.Td>{formatDate(statement.informationDate)}</Table.Td>
                    <Table.Td>{statement.figures.schemeName}</Table.Td>
                    <Table.Td>
                      {statement.issuedAt ? <DateTime value={statement.issuedAt} /> : 'Not yet'}
                    </Table.Td>
                    {mayMarkPaper && (
                      <Table.Td>
                        <PaperCheckbox statement={statement} />
                      </Table.Td>
                    )}
                    <Table.Td style={PINNED_END}>
                      <OpenStatementButton
                        statementId={statement.id}
                        label={`Open the statement at ${formatDate(statement.informationDate)} (PDF)`}
                      />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </ScrollTable>
        )}
      </QueryPanel>
      {own && (
        <Text size="sm">
          To have your statements on paper too, ask your scheme’s administrator: they will post them
          to you.
        </Text>
      )}
    </Stack>
  );
}

/**
 * Whether the member asked for this statement on paper: ticked, it is on its run's printing
 * list (docs/decisions/0141-pension-benefit-statements.md, "Paper on request").
 */
function PaperCheckbox({ statement }: { statement: StatementView }) {
  const client = useQueryClient();
  // The choice as it was ticked, shown at once while it is saved; null once saved or refused.
  const [pending, setPending] = useState<boolean | null>(null);
  const when = formatDate(statement.informationDate);
  const mark = (paper: boolean) => {
    setPending(paper);
    api(apiRoutes.memberStatements.paper, { params: { id: statement.id }, body: { paper } })
      .then(async (saved) => {
        client.setQueryData<StatementView[]>(memberStatementsKey(saved.memberId), (list) =>
          list?.map((one) => (one.id === saved.id ? saved : one)),
        );
        await client.invalidateQueries({ queryKey: runPaperKey(saved.runId) });
        notifySuccess(
          paper
            ? `The statement at ${when} is on the printing list.`
            : `The statement at ${when} is off the printing list.`,
        );
      })
      .catch((error: unknown) => notifyProblem(describeError(error)))
      .finally(() => setPending(null));
  };
  return (
    <Checkbox
      aria-label={`The member asked for the statement at ${when} on paper`}
      checked={pending ?? statement.paper}
      disabled={pending !== null}
      onChange={(event) => mark(event.currentTarget.checked)}
    />
  );
}
