import { Button, List, Paper, Stack, Text, Title } from '@mantine/core';
import { apiRoutes } from '../../../contracts/api-routes';
import type { LifecycleView } from '../../../contracts/member-lifecycle';
import {
  LEAVING_OPTION_NAMES,
  PRESERVATION_MONTHS,
} from '../../../contracts/member-lifecycle-rules';
import { RULE_LABEL_NAMES, RULE_LABELS, type RuleLabel } from '../../../contracts/rule-sources';
import { downloadAttachment } from '../../api/download';
import type { Member } from '../../api/types';
import { useApiAction } from '../../components/useApiSubmit';
import { formatDate } from '../../format';

type Leaving = NonNullable<LifecycleView['leaving']>;

const isRuleLabel = (label: string): label is RuleLabel =>
  (RULE_LABELS as readonly string[]).includes(label);

/** A source as the pages show one: its label in words, then the citation as the service gave it. */
const sourceLine = ({ label, citation }: { label: string; citation: string }) =>
  `${isRuleLabel(label) ? RULE_LABEL_NAMES[label] : label}: ${citation}`;

/**
 * The leaving statement, as a file: read through the route table with the session, so that a
 * refusal reads as a message on the page.
 */
export function LeavingStatementButton({ member }: { member: Member }) {
  const download = useApiAction(() =>
    downloadAttachment(
      apiRoutes.lifecycle.leavingStatement,
      { params: { id: member.id } },
      {
        accept: 'application/pdf',
        fallbackName: 'leaving-statement.pdf',
        failure: 'The leaving statement could not be made',
      },
    ),
  );
  return (
    <Button variant="light" onClick={download.run} loading={download.busy}>
      Download the leaving statement (PDF)
    </Button>
  );
}

/**
 * What a leaver may do, and why: each option with the rule behind it, the sources with their
 * labels (law, guidance or product policy), the choice once made, and the statement to give them
 * (docs/decisions/0135-members-lifecycle.md). Worded for the member on their own record.
 */
export function LeavingOptions({
  member,
  leaving,
  own,
  mayDownload,
}: {
  member: Member;
  leaving: Leaving;
  own: boolean;
  mayDownload: boolean;
}) {
  const years = PRESERVATION_MONTHS / 12;
  return (
    <Paper withBorder p="md" component="section" aria-label="Options on leaving">
      <Stack gap="xs">
        <Title order={4}>Options on leaving</Title>
        <Text>
          {own ? 'You left' : 'Left'} service on {formatDate(leaving.leftOn)}.{' '}
          {leaving.preservationEntitled
            ? `With at least ${years} years of qualifying service, ${own ? 'you are' : 'the member is'} entitled to a preserved benefit.`
            : `With less than ${years} years of qualifying service, ${own ? 'you are' : 'the member is'} not entitled to a preserved benefit.`}
        </Text>
        <List spacing="xs" aria-label="Options">
          {leaving.options.map((option) => (
            <List.Item key={option.option}>
              <Text fw={600}>{option.name}</Text>
              <Text size="sm">{option.why}</Text>
            </List.Item>
          ))}
        </List>
        {leaving.chosen !== null && (
          <Text>
            {own ? 'You chose' : 'Chosen'}: {LEAVING_OPTION_NAMES[leaving.chosen]}.
          </Text>
        )}
        {leaving.sources.length > 0 && (
          <>
            <Text size="sm" fw={600}>
              Where these rules come from
            </Text>
            <List size="sm" spacing={2} aria-label="Where these rules come from">
              {leaving.sources.map((source) => (
                <List.Item key={`${source.label} ${source.citation}`}>
                  {sourceLine(source)}
                </List.Item>
              ))}
            </List>
          </>
        )}
        {mayDownload && (
          <div>
            <LeavingStatementButton member={member} />
          </div>
        )}
      </Stack>
    </Paper>
  );
}
