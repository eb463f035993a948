import {
  Accordion,
  Alert,
  Badge,
  Button,
  Group,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { type MemberRetentionView, restrictionInput } from '../../../contracts/retention';
import { RETENTION_RULES } from '../../../contracts/retention-rules';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api, describeError } from '../../api/client';
import type { Member } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { formatDate, formatDateTime } from '../../format';
import { FormModal, FormShell } from '../governance/GovernanceForm';

const retentionKey = (memberId: string) => ['members', memberId, 'retention'] as const;

const KEEP_WORDS: Record<MemberRetentionView['classes'][number]['keep'], string> = {
  while_payable: 'No end day yet',
  until: 'Until a day',
  on_request: 'Erased when asked',
};

const ERASED_WORDS = { member: 'The whole record', contact_details: 'The contact details' };
const TRIGGER_WORDS = {
  request: 'at the member’s request',
  retention_ended: 'when its period ended',
};

/**
 * How long each part of the member's record is kept, why, and until when; the restriction of
 * disputed data; what was erased (docs/decisions/0149-retention-and-erasure.md). For the firm's
 * staff, folded until opened: the member page's one composed request does not carry it.
 */
export function RetentionPanel({ member }: { member: Member }) {
  const [opened, setOpened] = useState<string | null>(null);
  return (
    <Accordion variant="separated" value={opened} onChange={setOpened}>
      <Accordion.Item value="retention">
        <Accordion.Control>Retention and restriction</Accordion.Control>
        <Accordion.Panel>{opened === 'retention' && <Retention member={member} />}</Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

function Retention({ member }: { member: Member }) {
  const session = useSignedIn();
  const [restricting, setRestricting] = useState(false);
  const client = useQueryClient();
  const retention = useQuery({
    queryKey: retentionKey(member.id),
    queryFn: () => api(apiRoutes.retention.get, { params: { id: member.id } }),
  });
  const lift = useApiAction(async () => {
    const view = await api(apiRoutes.retention.lift, { params: { id: member.id } });
    client.setQueryData(retentionKey(member.id), view);
    notifySuccess('The restriction is lifted.');
  });
  if (retention.isError) return <Alert color="red">{describeError(retention.error)}</Alert>;
  if (retention.isPending) return <Text size="sm">Loading the retention schedule…</Text>;
  const view = retention.data;
  const mayRestrict = can(session, 'member.restrict');
  return (
    <Stack gap="sm">
      <Text size="sm">
        {view.paidOutOn
          ? `Every benefit was paid by ${formatDate(view.paidOutOn)}. ${
              view.erasableInFullOn
                ? `The whole record may be erased from ${formatDate(view.erasableInFullOn)}.`
                : ''
            }`
          : 'Not every benefit has been paid: the record is kept, and no end day is known yet.'}
      </Text>
      <Table.ScrollContainer minWidth={640}>
        <Table striped>
          <Table.Caption>Each part of the record, how long it is kept and why</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Part of the record</Table.Th>
              <Table.Th>Kept</Table.Th>
              <Table.Th>Why</Table.Th>
              <Table.Th>Source</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {view.classes.map((entry) => (
              <Table.Tr key={entry.recordClass}>
                <Table.Td>
                  <Text size="sm" fw={500}>
                    {entry.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {entry.holds}
                  </Text>
                </Table.Td>
                <Table.Td>
                  {entry.erasableNow ? (
                    <Badge color="gray" variant="light">
                      May be erased now
                    </Badge>
                  ) : (
                    KEEP_WORDS[entry.keep]
                  )}
                </Table.Td>
                <Table.Td>{entry.reason}</Table.Td>
                <Table.Td>{sourceInWords(entry.source)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {view.restriction ? (
        <Alert color="yellow" title="Restricted">
          <Text size="sm">
            Since {formatDate(view.restriction.restrictedOn)}: {view.restriction.reason}. The record
            is kept and not erased by the retention job while the restriction stands (
            {sourceInWords(RETENTION_RULES.restricted)}).
          </Text>
          {mayRestrict && (
            <Group mt="xs">
              <Button size="compact-sm" variant="default" loading={lift.busy} onClick={lift.run}>
                Lift the restriction
              </Button>
            </Group>
          )}
          {lift.problem && (
            <Text size="sm" c="red" role="alert">
              {lift.problem}
            </Text>
          )}
        </Alert>
      ) : (
        mayRestrict && (
          <Group>
            <Button size="compact-sm" variant="default" onClick={() => setRestricting(true)}>
              Restrict the data
            </Button>
          </Group>
        )
      )}
      {view.erasures.length > 0 && (
        <Stack gap={2}>
          {view.erasures.map((erasure) => (
            <Text size="sm" key={erasure.erasedAt}>
              {ERASED_WORDS[erasure.scope]} erased on {formatDateTime(erasure.erasedAt)},{' '}
              {TRIGGER_WORDS[erasure.trigger]}.
            </Text>
          ))}
        </Stack>
      )}
      <FormModal
        opened={restricting}
        title="Restrict the member’s data"
        onClose={() => setRestricting(false)}
      >
        <RestrictForm member={member} onClose={() => setRestricting(false)} />
      </FormModal>
    </Stack>
  );
}

/** A step with no form: busy while it runs, the service's refusal in words. */
function useApiAction(step: () => Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  return {
    busy,
    problem,
    run: async () => {
      setBusy(true);
      setProblem(null);
      try {
        await step();
      } catch (error) {
        setProblem(describeError(error));
      } finally {
        setBusy(false);
      }
    },
  };
}

function RestrictForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const client = useQueryClient();
  const form = useForm({
    initialValues: { reason: '' },
    validate: validateWith<{ reason: string }>(restrictionInput),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const view = await api(apiRoutes.retention.restrict, {
      params: { id: member.id },
      body: { reason: values.reason },
    });
    client.setQueryData(retentionKey(member.id), view);
    notifySuccess('The member’s data is restricted.');
    onClose();
  });
  return (
    <FormShell
      label="Restrict the member’s data"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Restrict"
      onCancel={onClose}
    >
      <Text size="sm">
        While the accuracy of the data is disputed, or an objection is weighed, the record is kept
        as it is and the retention job leaves it alone ({sourceInWords(RETENTION_RULES.restricted)}
        ).
      </Text>
      <Textarea
        label="What is disputed"
        description="Shown to the firm’s staff; never written to the audit log"
        required
        autosize
        minRows={2}
        data-autofocus
        {...form.getInputProps('reason')}
      />
    </FormShell>
  );
}
