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
import { INVITATION_VALID_HOURS } from '../../contracts/accounts';
import { apiRoutes } from '../../contracts/api-routes';
import type { InvitationPlace } from '../../contracts/invitations';
import { ROLE_NAMES } from '../../contracts/roles';
import { callRoute } from '../api/client';
import { invitableBy } from '../auth/can';
import { useSignedIn } from '../auth/session';
import { MemberPicker } from './MemberPicker';
import { notifySuccess } from './notify';
import { useApiSubmit } from './useApiSubmit';
import { INVITATION_LINK_WORKS } from './useResendInvitation';
import { type AccountRole, type AccountValues, accountBody, validateWith } from './validation';

/**
 * Where the API creates an account, with the values of its path: a broker firm's accounts
 * (SuperAdmin), the BrokerAdmin's own colleagues, or an employer's (BrokerAdmin, EmployerAdmin).
 * The route's body schema is the form's; the roles offered are the ones it takes that the
 * signed-in person may give there (contracts/invitations.ts).
 */
export type AccountTarget =
  | { route: typeof apiRoutes.brokers.createUser; params: { brokerId: string } }
  | { route: typeof apiRoutes.users.invite; params?: undefined }
  | { route: typeof apiRoutes.employers.createUser; params: { id: string } };

const placeOf = (target: AccountTarget): InvitationPlace =>
  target.route === apiRoutes.employers.createUser ? 'employer' : 'firm';

/** The member an invitation from their own page is for: the account is theirs, as a Member. */
export interface InvitedMember {
  id: string;
  name: string;
  email: string | null;
}

const ROLE_DESCRIPTIONS: Record<AccountRole, string> = {
  BrokerAdmin: 'Runs the firm: employers, accounts and the audit log.',
  BrokerUser: 'Works on schemes, members and contributions.',
  EmployerAdmin: "Keeps the employer's record, schemes and members up to date.",
  EmployerUser: "Reads the employer's schemes, members and contributions.",
  Member: 'Sees their own member record and changes their fund choices.',
};

/**
 * "New account" and its dialog. `target` is where the API creates it (`AccountTarget`). A Member
 * account is linked to one member record of `employerId`, or, from a member's own page, to
 * `member`. The person is invited by e-mail to set their own password; only the platform's
 * SuperAdmin may choose one for them (`choosePassword`).
 */
export function NewAccountButton({
  target,
  employerId,
  member,
  choosePassword = false,
  onCreated,
}: {
  target: AccountTarget;
  employerId?: string;
  member?: InvitedMember;
  choosePassword?: boolean;
  /** What else the page reads again once the account is made (the member page's account state). */
  onCreated?: () => Promise<void>;
}) {
  const [opened, setOpened] = useState(false);
  const title = member ? 'Invite to the member portal' : 'New account';
  return (
    <>
      <Button variant={member ? 'default' : 'filled'} onClick={() => setOpened(true)}>
        {title}
      </Button>
      <Modal
        opened={opened}
        onClose={() => setOpened(false)}
        title={title}
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {/* Mounted only while open, so every opening starts from an empty form. */}
        {opened && (
          <NewAccountForm
            target={target}
            employerId={employerId}
            member={member}
            choosePassword={choosePassword}
            onCreated={onCreated}
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
  member,
  choosePassword,
  onCreated,
  onClose,
}: {
  target: AccountTarget;
  employerId?: string;
  member?: InvitedMember;
  choosePassword: boolean;
  onCreated?: () => Promise<void>;
  onClose: () => void;
}) {
  const session = useSignedIn();
  const client = useQueryClient();
  const schema = target.route.body;
  const mayGive = invitableBy(session, placeOf(target));
  const taken: readonly AccountRole[] = schema.shape.role.options;
  const roles = member ? (['Member'] as const) : taken.filter((option) => mayGive.includes(option));
  // The one role the inviter may give here, when there is one only: it is said, not offered as a
  // choice of one.
  const onlyRole = roles.length === 1 ? (roles[0] ?? null) : null;
  const form = useForm<AccountValues>({
    // Otherwise no role is preselected: what an account may do is a deliberate choice.
    initialValues: {
      name: member?.name ?? '',
      email: member?.email ?? '',
      role: onlyRole,
      password: '',
      memberId: member?.id ?? null,
    },
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
    await onCreated?.();
    notifySuccess(
      account.status === 'invited'
        ? `Invitation sent to ${account.name}. ${INVITATION_LINK_WORKS}`
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
            <Text>{ROLE_NAMES[onlyRole]}</Text>
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
                  label={ROLE_NAMES[option]}
                  description={ROLE_DESCRIPTIONS[option]}
                />
              ))}
            </Stack>
          </Radio.Group>
        )}
        {role === 'Member' && member === undefined && employerId !== undefined && (
          <MemberPicker
            purpose="account"
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
            They will get an e-mail inviting them to set their password. The link works for{' '}
            {INVITATION_VALID_HOURS} hours, and you can send a new one from their account.
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
