import { Alert, Button, Group, PasswordInput, Stack, Table, Text, Title } from '@mantine/core';
import { type UseFormReturnType, useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  PASSWORD_RULE_TEXT,
  passwordLengthProblem,
  passwordProblem,
} from '../../../contracts/passwords';
import { FIELD_MESSAGES } from '../../../contracts/plain-english';
import { ROLE_NAMES } from '../../../contracts/roles';
import { ApiError, api, describeError } from '../../api/client';
import { SESSION_KEY, useSignedIn, useSignOut } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { usePasswordProblem } from '../../components/usePasswordProblem';
import { SecondFactorPanel } from './SecondFactorPanel';

interface PasswordValues {
  currentPassword: string;
  newPassword: string;
  confirmation: string;
}

/**
 * `/account`: who is signed in, and the change of their own password, for
 * every role. The account's e-mail address is its sign-in name and is not changed here.
 */
export function AccountPage() {
  const { account } = useSignedIn();
  return (
    <Stack gap="lg" maw={560}>
      <PageHeading title="My account" />
      <Table variant="vertical" withTableBorder aria-label="Your account">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={180}>Name</Table.Th>
            <Table.Td>{account.name}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Signs in as</Table.Th>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>{account.email}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Role</Table.Th>
            <Table.Td>{ROLE_NAMES[account.role]}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Organisation</Table.Th>
            <Table.Td>
              {[account.employerName, account.firmName ?? 'Platform administration']
                .filter(Boolean)
                .join(', ')}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <SecondFactorPanel />
      <ChangePasswordForm email={account.email} />
      <SignOutEverywhere />
    </Stack>
  );
}

/**
 * Signing out ends every session of the account, not only this browser's
 * (docs/decisions/0036-session-epochs.md): said here, for a person who left themselves signed in
 * on another computer or lost a phone.
 */
function SignOutEverywhere() {
  const signOut = useSignOut();
  // Asked first: a tap ends the sessions of colleagues' shared screens and of a phone in a pocket
  // alike, and each is signed in again with a password and a second factor.
  const [asking, ask] = useDisclosure(false);
  return (
    <Stack gap="xs" component="section" aria-labelledby="sign-out-everywhere">
      <Title order={2} size="h3" id="sign-out-everywhere">
        Signed in elsewhere?
      </Title>
      <Text size="sm">
        Signing out ends every session of your account: on this browser and on every other computer,
        phone or browser where you are signed in.
      </Text>
      <Group>
        <Button variant="default" onClick={ask.open}>
          Sign out everywhere
        </Button>
      </Group>
      <ConfirmModal
        opened={asking}
        onClose={ask.close}
        title="Sign out everywhere"
        confirmLabel="Sign out everywhere"
        color="blue"
        onConfirm={signOut}
      >
        <Text>
          You will be signed out on this browser and on every other computer, phone or browser, and
          will need your password to sign in again.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}

/** What the browser can tell before asking: the API checks all of it again, and more. */
function validate(values: PasswordValues) {
  return {
    currentPassword: values.currentPassword === '' ? FIELD_MESSAGES.currentPassword : null,
    newPassword:
      passwordLengthProblem(values.newPassword) ??
      (values.newPassword === values.currentPassword ? FIELD_MESSAGES.samePassword : null),
    confirmation:
      values.confirmation !== values.newPassword ? FIELD_MESSAGES.passwordsDiffer : null,
  };
}

function ChangePasswordForm({ email }: { email: string }) {
  const client = useQueryClient();
  const form = useForm<PasswordValues>({
    initialValues: { currentPassword: '', newPassword: '', confirmation: '' },
    validate,
  });
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const typedProblem = usePasswordProblem(form.values.newPassword);

  const submit = form.onSubmit(async ({ currentPassword, newPassword }) => {
    setProblem(null);
    // The whole rule the service applies, beyond the length `validate` checks
    // (src/contracts/passwords.ts); should its dictionaries fail to load, the service still checks.
    const weak = await passwordProblem(newPassword).catch(() => null);
    if (weak !== null) {
      form.setFieldError('newPassword', weak);
      return;
    }
    setBusy(true);
    try {
      const { message } = await api(apiRoutes.auth.changePassword, {
        body: { currentPassword, newPassword },
      });
      form.reset();
      notifySuccess(message);
    } catch (error) {
      setProblem(problemOf(error, form));
      // The session ended meanwhile: reading it again sends the person to sign in.
      if (error instanceof ApiError && error.status === 401) {
        await client.invalidateQueries({ queryKey: SESSION_KEY });
      }
    } finally {
      setBusy(false);
    }
  });

  return (
    <form onSubmit={submit} noValidate aria-labelledby="change-password">
      <Stack gap="md">
        <PageHeading title="Change password" order={3} id="change-password" />
        <Text size="sm">
          You stay signed in here. Everywhere else you are signed in with this account is signed
          out, and an e-mail tells you the password was changed.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        {/* For password managers: which account's saved password to update. */}
        <input type="email" autoComplete="username" value={email} readOnly hidden />
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          {...form.getInputProps('currentPassword')}
        />
        <PasswordInput
          label="New password"
          description={PASSWORD_RULE_TEXT}
          autoComplete="new-password"
          required
          {...form.getInputProps('newPassword')}
          error={form.errors.newPassword ?? (form.isDirty('newPassword') ? typedProblem : null)}
        />
        <PasswordInput
          label="New password again"
          autoComplete="new-password"
          required
          {...form.getInputProps('confirmation')}
        />
        <Group>
          <Button type="submit" loading={busy}>
            Change password
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/**
 * Puts a refusal under the field it concerns, in words for the person; returns what belongs
 * above the form instead, if anything.
 */
function problemOf(error: unknown, form: UseFormReturnType<PasswordValues>): string | null {
  if (error instanceof ApiError && error.status === 429) {
    return 'Too many attempts to change the password. Please wait up to 15 minutes and try again, or reset your password from the sign-in page.';
  }
  if (error instanceof ApiError && error.status === 401) {
    return 'Your session has ended. Please sign in again.';
  }
  if (error instanceof ApiError && error.issues.length > 0) {
    const elsewhere: string[] = [];
    for (const issue of error.issues) {
      const { message } = issue;
      if (issue.path === 'currentPassword' || issue.path === 'newPassword') {
        form.setFieldError(issue.path, message);
      } else {
        elsewhere.push(message);
      }
    }
    return elsewhere.length > 0 ? elsewhere.join('; ') : null;
  }
  return describeError(error);
}
