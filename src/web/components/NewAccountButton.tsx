import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { apiRoutes } from '../../contracts/api-routes';
import { callRoute } from '../api/client';
import { MemberPicker } from './MemberPicker';
import { notifySuccess } from './notify';
import { useApiSubmit } from './useApiSubmit';
import { type AccountRole, type AccountValues, accountBody, validateWith } from './validation';

/**
 * Where the API creates an account, with the values of its path: a broker firm's accounts
 * (SuperAdmin), the BrokerAdmin's own colleagues, or an employer's (BrokerAdmin). The route's
 * body schema is the form's, so the roles offered are the ones it takes.
 */
export type AccountTarget =
  | { route: typeof apiRoutes.brokers.createUser; params: { brokerId: string } }
  | { route: typeof apiRoutes.users.invite; params?: undefined }
  | { route: typeof apiRoutes.employers.createUser; params: { id: string } };

const ROLE_DESCRIPTIONS: Record<AccountRole, string> = {
  BrokerAdmin: 'Runs the firm: employers, accounts and the audit log.',
  BrokerUser: 'Works on schemes, members and contributions.',
  EmployerAdmin: "Keeps the employer's record, schemes and members up to date.",
  EmployerUser: "Reads the employer's schemes, members and contributions.",
  Member: 'Sees their own member record and changes their fund choices.',
};

/**
 * "New account" and its dialog. `target` is where the API creates it (`AccountTarget`). A Member
 * account is linked to one member record of `employerId`. The person is invited by e-mail to set
 * their own password; only the platform's SuperAdmin may choose one for them (`choosePassword`).
 */
export function NewAccountButton({
  target,
  employerId,
  choosePassword = false,
}: {
  target: AccountTarget;
  employerId?: string;
  choosePassword?: boolean;
}) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button onClick={() => setOpened(true)}>New account</Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title="New account"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {/* Mounted only while open, so every opening starts from an empty form. */}
        {opened && (
          <NewAccountForm
            target={target}
            employerId={employerId}
            choosePassword={choosePassword}
            onClose={() => setOpened(false)}
          />
        )}
      </Modal>
    </>
  );
}

function NewAccountForm({
  target,
  employerId,
  choosePassword,
  onClose,
}: {
  target: AccountTarget;
  employerId?: string;
  choosePassword: boolean;
  onClose: () => void;
}) {
  const client = useQueryClient();
  const schema = target.route.body;
  const roles: readonly AccountRole[] = schema.shape.role.options;
  // The one role the route takes, when it takes one only (a BrokerAdmin's colleagues): it is
  // said, not offered as a choice of one.
  const onlyRole = roles.length === 1 ? (roles[0] ?? null) : null;
  const form = useForm<AccountValues>({
    // Otherwise no role is preselected: what an account may do is a deliberate choice.
    initialValues: { name: '', email: '', role: onlyRole, password: '', memberId: null },
    validate: validateWith(schema, accountBody),
    onValuesChange: (values, previous) => {
      if (values.role !== previous.role && values.role !== 'Member' && values.memberId !== null) {
        form.setFieldValue('memberId', null);
      }
    },
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const account = await callRoute(target.route, {
      params: target.params,
      body: accountBody(values),
    });
    await client.invalidateQueries({ queryKey: ['accounts'] });
    notifySuccess(
      account.status === 'invited'
        ? `Invitation sent to ${account.name}. Its link works for 72 hours.`
        : `Account created for ${account.name}.`,
    );
    onClose();
  });
  const role = form.getValues().role;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <TextInput label="Full name" required data-autofocus {...form.getInputProps('name')} />
        <TextInput
          label="E-mail address"
          type="email"
          required
          autoComplete="off"
          {...form.getInputProps('email')}
        />
        {onlyRole !== null ? (
          <Stack gap={2} role="group" aria-labelledby="new-account-role">
            <Text size="sm" fw={500} id="new-account-role">
              Role
            </Text>
            <Text>{onlyRole}</Text>
            <Text size="sm" c="dimmed">
              {ROLE_DESCRIPTIONS[onlyRole]}
            </Text>
          </Stack>
        ) : (
          <Radio.Group label="Role" required {...form.getInputProps('role')}>
            <Stack gap="xs" mt="xs">
              {roles.map((option) => (
                <Radio
                  key={option}
                  value={option}
                  label={option}
                  description={ROLE_DESCRIPTIONS[option]}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {role === 'Member' && employerId !== undefined && (
          <MemberPicker
            employerId={employerId}
            value={form.getValues().memberId}
            onChange={(memberId) => form.setFieldValue('memberId', memberId)}
            error={form.errors.memberId}
          />
        )}
        {choosePassword ? (
          <PasswordInput
            label="Password (optional)"
            description="Leave empty and the new user is invited by e-mail to choose their own."
            autoComplete="new-password"
            {...form.getInputProps('password')}
          />
        ) : (
          <Text size="sm" c="dimmed">
            They will get an e-mail inviting them to set their password. The link works for 72
            hours, and you can send a new one from their account.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {choosePassword && form.getValues().password !== ''
              ? 'Create account'
              : 'Send invitation'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
