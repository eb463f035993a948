import {
  Button,
  Checkbox,
  Group,
  List,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { randomId } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import type { DataRequestView } from '../../../contracts/data-requests';
import { todayInIreland } from '../../../contracts/irish-dates';
import { counted } from '../../../contracts/plain-english';
import {
  RECTIFIABLE_FIELD_NAMES,
  RECTIFIABLE_FIELDS,
  RECTIFICATION_RULES,
  type RectifiableField,
} from '../../../contracts/rectification-rules';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api } from '../../api/client';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { formatDate } from '../../format';

import { FormShell } from '../governance/GovernanceForm';

/**
 * A rectification request's completion on the requests page
 * (docs/decisions/0148-rectification-and-recipients.md): the details corrected, the recipients of
 * the old data told of it (those the service knows of proposed), and, once completed, both read
 * back.
 */

/** The details corrected, in words, in the rule module's order. */
export function correctedInWords(fields: readonly RectifiableField[]): string {
  return RECTIFIABLE_FIELDS.filter((field) => fields.includes(field))
    .map((field) => RECTIFIABLE_FIELD_NAMES[field])
    .join(', ');
}

function useRectification(request: DataRequestView) {
  return useQuery({
    queryKey: ['data-requests', 'rectification', request.id, request.status],
    queryFn: () => api(apiRoutes.rectification.get, { params: { id: request.id } }),
  });
}

interface RectifyValues {
  correctedFields: RectifiableField[];
  /** Each with a key of its own, so that a row keeps its fields as others are removed. */
  recipients: Array<{ key: string; name: string; toldOn: string }>;
  note: string;
}

/** Completes a rectification: what was corrected, and who was told of it and when. */
export function RectifyForm({
  request,
  name,
  onClose,
}: {
  request: DataRequestView;
  name: string;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const rectification = useRectification(request);
  const today = todayInIreland(new Date());
  const form = useForm<RectifyValues>({
    initialValues: { correctedFields: [], recipients: [], note: '' },
    validate: {
      correctedFields: (value) =>
        value.length > 0 ? null : 'Choose at least one of the member’s details that was corrected',
      recipients: {
        name: (value) =>
          value.trim() === ''
            ? 'Name the recipient: an organisation or a role, such as the employer’s payroll'
            : null,
        toldOn: irishDateRule({ required: true }),
      },
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    await api(apiRoutes.rectification.complete, {
      params: { id: request.id },
      body: {
        correctedFields: values.correctedFields,
        recipients: values.recipients.map((recipient) => ({
          name: recipient.name.trim(),
          toldOn: recipient.toldOn,
        })),
        ...(values.note.trim() === '' ? {} : { note: values.note }),
      },
    });
    notifySuccess(
      `Completed: ${name}. Told of the correction: ${counted(values.recipients.length, 'recipient')}.`,
    );
    await client.invalidateQueries({ queryKey: ['data-requests'] });
    onClose();
  });
  const listed = new Set(form.values.recipients.map((recipient) => recipient.name));
  return (
    <FormShell
      label="Record the correction"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Complete request"
      onCancel={onClose}
    >
      <Text size="sm">
        {name}. Correct the details on the member’s record first; here the firm records which were
        corrected, and the recipients of the old details who were told of it (
        {sourceInWords(RECTIFICATION_RULES.recipientsTold)}).
      </Text>
      <Checkbox.Group label="Details corrected" required {...form.getInputProps('correctedFields')}>
        <Group gap="md" mt={4}>
          {RECTIFIABLE_FIELDS.map((field) => (
            <Checkbox key={field} value={field} label={RECTIFIABLE_FIELD_NAMES[field]} />
          ))}
        </Group>
      </Checkbox.Group>
      <Stack gap={4}>
        <Text size="sm" fw={500}>
          Recipients the service knows of
        </Text>
        {rectification.isPending ? (
          <Loading label="Finding who had the member’s details" />
        ) : rectification.isError ? (
          <LoadError error={rectification.error} />
        ) : rectification.data.proposedRecipients.length === 0 ? (
          <Text size="sm">None: the service knows of no one the details were disclosed to.</Text>
        ) : (
          <List size="sm" spacing={4} aria-label="Recipients the service knows of">
            {rectification.data.proposedRecipients.map((proposed) => (
              <List.Item key={proposed.name}>
                <Group gap="xs" wrap="nowrap" justify="space-between">
                  <span>
                    {proposed.name}: {proposed.basis}
                  </span>
                  <Button
                    size="compact-sm"
                    variant="default"
                    disabled={listed.has(proposed.name)}
                    aria-label={`Add as told: ${proposed.name}`}
                    onClick={() =>
                      form.insertListItem('recipients', {
                        key: randomId(),
                        name: proposed.name,
                        toldOn: today,
                      })
                    }
                  >
                    Add as told
                  </Button>
                </Group>
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
      {form.values.recipients.map((recipient, index) => (
        <Group key={recipient.key} align="flex-start" gap="xs" wrap="nowrap">
          <TextInput
            label={`Recipient ${index + 1}`}
            description="An organisation or a role"
            required
            style={{ flex: 1 }}
            {...form.getInputProps(`recipients.${index}.name`)}
          />
          <IrishDateInput
            label={`Recipient ${index + 1} told on`}
            description="DD/MM/YYYY"
            required
            maxDate={today}
            minDate={request.receivedOn}
            {...form.getInputProps(`recipients.${index}.toldOn`)}
          />
          <Button
            mt={24}
            size="compact-sm"
            variant="subtle"
            color="red"
            aria-label={`Remove recipient ${index + 1}`}
            onClick={() => form.removeListItem('recipients', index)}
          >
            Remove
          </Button>
        </Group>
      ))}
      <Group>
        <Button
          variant="default"
          size="compact-sm"
          onClick={() =>
            form.insertListItem('recipients', { key: randomId(), name: '', toldOn: today })
          }
        >
          Add another recipient
        </Button>
      </Group>
      <Textarea
        label="Note"
        description="What was done; optional"
        autosize
        minRows={2}
        {...form.getInputProps('note')}
      />
    </FormShell>
  );
}

/** A completed rectification read back: the details corrected and the recipients told. */
export function RectificationDetails({
  request,
  onClose,
}: {
  request: DataRequestView;
  onClose: () => void;
}) {
  const rectification = useRectification(request);
  if (rectification.isPending) return <Loading label="Loading the recipients told" />;
  if (rectification.isError) return <LoadError error={rectification.error} />;
  const { correctedFields, recipients } = rectification.data;
  return (
    <Stack gap="sm">
      <Text size="sm">Details corrected: {correctedInWords(correctedFields)}.</Text>
      {recipients.length === 0 ? (
        <Text size="sm">No recipient was recorded as told: the details went to no one.</Text>
      ) : (
        <Table>
          <Table.Caption>Recipients told of the correction</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Recipient</Table.Th>
              <Table.Th>Told on</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {recipients.map((recipient) => (
              <Table.Tr key={`${recipient.name}-${recipient.toldOn}`}>
                <Table.Td>{recipient.name}</Table.Td>
                <Table.Td>{formatDate(recipient.toldOn)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}
