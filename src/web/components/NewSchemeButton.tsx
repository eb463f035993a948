import { Alert, Button, Group, Modal, NativeSelect, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../contracts/api-routes';
import { api } from '../api/client';
import { useAllEmployers } from './allPages';
import { notifySuccess } from './notify';
import { SchemeYearFields } from './SchemeYearFields';
import { DEFAULT_YEAR_END_VALUES, type SchemeValues, schemeBody } from './scheme-fields';
import { useApiSubmit } from './useApiSubmit';
import { SCHEME_TYPE_NAMES, SCHEME_TYPES, schemeInput, validateWith } from './validation';

/**
 * "New scheme" and its dialog (BrokerUser and up). With `employerId` the scheme is for that
 * employer (the employer's page); without, the person picks one of the tenant's employers,
 * starting from `suggestedEmployerId` (the employer a list is filtered by) when given.
 */
export function NewSchemeButton({
  employerId,
  suggestedEmployerId,
}: {
  employerId?: string;
  suggestedEmployerId?: string | null;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>New scheme</Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title="New scheme"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {/* Mounted only while open, so every opening starts from an empty form. */}
        {opened && (
          <NewSchemeForm
            employerId={employerId}
            suggestedEmployerId={suggestedEmployerId ?? null}
            onClose={() => setOpened(false)}
          />
        )}
      </Modal>
    </>
  );
}

function NewSchemeForm({
  employerId,
  suggestedEmployerId,
  onClose,
}: {
  employerId?: string;
  suggestedEmployerId: string | null;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const employers = useAllEmployers(employerId === undefined);
  const form = useForm<SchemeValues>({
    initialValues: {
      name: '',
      type: '',
      employerId: employerId ?? suggestedEmployerId,
      ...DEFAULT_YEAR_END_VALUES,
      racKind: '',
    },
    validate: validateWith(schemeInput, schemeBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const scheme = await api(apiRoutes.schemes.create, { body: schemeBody(values) });
    await client.invalidateQueries({ queryKey: ['schemes'] });
    await client.invalidateQueries({ queryKey: ['dashboard'] });
    notifySuccess(`Scheme “${scheme.name}” created.`);
    onClose();
    // Straight on to the new scheme, as creating an employer opens the employer: its members and
    // funds are the next things to set up.
    await navigate({ to: '/schemes/$schemeId', params: { schemeId: scheme.id } });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Scheme name" required data-autofocus {...form.getInputProps('name')} />
        <NativeSelect
          label="Scheme type"
          required
          data={[
            { value: '', label: 'Choose a type' },
            ...SCHEME_TYPES.map((type) => ({
              value: type,
              label: `${type}: ${SCHEME_TYPE_NAMES[type]}`,
            })),
          ]}
          {...form.getInputProps('type')}
        />
        <SchemeYearFields form={form} />
        {employerId === undefined && (
          <Select
            label="Employer"
            required
            searchable
            // A scheme needs an employer: choosing it again must not clear it.
            allowDeselect={false}
            nothingFoundMessage="No employer has that name"
            placeholder={employers.isPending ? 'Loading employers…' : 'Choose an employer'}
            data={(employers.data?.items ?? []).map((employer) => ({
              value: employer.id,
              label: employer.name,
            }))}
            {...form.getInputProps('employerId')}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Create scheme
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
