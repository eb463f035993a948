import {
  Alert,
  Button,
  Code,
  Group,
  List,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import {
  codeBody,
  type SecondFactorStatus,
  type TotpSetup,
} from '../../../contracts/second-factor';
import { describeError } from '../../api/client';
import {
  addPasskey,
  confirmTotp,
  newRecoveryCodes,
  passkeyProblem,
  passkeysSupported,
  removePasskey,
  removeTotp,
  secondFactorStatusOf,
  startTotp,
} from '../../auth/second-factor';
import { reloadSession } from '../../auth/session';
import { DateTime } from '../../components/DateTime';
import { ConfirmItsYou, needsStepUp } from './ConfirmItsYou';
import { QrCode } from './QrCode';

const SECOND_FACTOR_KEY = ['second-factor'] as const;

/**
 * The account's second factors (docs/decisions/0110-second-factor.md, 0111-passkeys.md): the
 * authenticator app set up with a QR code or its secret as text, passkeys by name, and recovery
 * codes, shown once. A change that needs a recent confirmation asks for it and then goes ahead.
 */
export function SecondFactorPanel() {
  const client = useQueryClient();
  const status = useQuery({ queryKey: SECOND_FACTOR_KEY, queryFn: secondFactorStatusOf });
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [waiting, setWaiting] = useState<(() => Promise<void>) | null>(null);

  /** Runs a change; one that needs a recent factor waits for the person to confirm it. */
  const change = async (
    action: () => Promise<void>,
    describe: (error: unknown) => string | null = describeError,
  ) => {
    setProblem(null);
    try {
      await action();
      await Promise.all([status.refetch(), reloadSession(client)]);
    } catch (error) {
      if (needsStepUp(error)) setWaiting(() => action);
      else setProblem(describe(error));
    }
  };

  if (status.isPending) return <Text aria-label="Loading second factors">Loading…</Text>;
  if (status.isError) return <Alert color="red">{describeError(status.error)}</Alert>;
  const current = status.data;
  const none = !current.totp && current.passkeys.length === 0;

  return (
    <Stack gap="md" component="section" aria-labelledby="second-factor-heading">
      <Title order={2} size="h3" id="second-factor-heading">
        Second factor
      </Title>
      {current.required && none && (
        <Alert color="yellow" title="Set up a second factor to continue">
          Your role can see members' PPS numbers, so your account needs a second factor before
          anything else: an authenticator app on your phone, or a passkey.
        </Alert>
      )}
      {!current.required && none && (
        <Text size="sm">
          A second factor keeps your account safe even if your password is found out: an
          authenticator app on your phone, or a passkey.
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
      {waiting && (
        <ConfirmItsYou
          onCancel={() => setWaiting(null)}
          onConfirmed={() => {
            const action = waiting;
            setWaiting(null);
            void change(action);
          }}
        />
      )}
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      <AuthenticatorApp status={current} onChange={change} onRecoveryCodes={setCodes} />
      <Passkeys status={current} onChange={change} onRecoveryCodes={setCodes} />
      {!none && (
        <Stack gap="xs">
          <Title order={3} size="h4">
            Recovery codes
          </Title>
          <Text size="sm">
            {current.recoveryCodesLeft} of 10 left. Each signs you in once if you lose your phone or
            passkey.
          </Text>
          <Group>
            <Button
              variant="default"
              onClick={() => change(async () => setCodes((await newRecoveryCodes()).recoveryCodes))}
            >
              New recovery codes
            </Button>
          </Group>
        </Stack>
      )}
    </Stack>
  );
}

type Change = (
  action: () => Promise<void>,
  describe?: (error: unknown) => string | null,
) => Promise<void>;

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <Alert color="blue" title="Your recovery codes">
      <Stack gap="xs">
        <Text size="sm">
          Keep these somewhere safe, away from your phone: each signs you in once if you lose your
          second factor. They are shown only now.
        </Text>
        <List aria-label="Recovery codes" listStyleType="none" spacing={2}>
          {codes.map((code) => (
            <List.Item key={code}>
              <Code fz="sm">{code}</Code>
            </List.Item>
          ))}
        </List>
        <Group>
          <Button size="compact-sm" onClick={onDone}>
            I have saved these codes
          </Button>
        </Group>
      </Stack>
    </Alert>
  );
}

function AuthenticatorApp({
  status,
  onChange,
  onRecoveryCodes,
}: {
  status: SecondFactorStatus;
  onChange: Change;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const [setup, setSetup] = useState<TotpSetup | null>(null);
  const [code, setCode] = useState('');
  const [codeProblem, setCodeProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    // The API's own check of the body, first: an empty code is told under the field, unsent.
    const checked = codeBody.safeParse({ code });
    if (!checked.success) {
      setCodeProblem(checked.error.issues[0]?.message ?? null);
      return;
    }
    setBusy(true);
    setCodeProblem(null);
    await onChange(
      async () => {
        const { recoveryCodes } = await confirmTotp(code);
        setSetup(null);
        setCode('');
        onRecoveryCodes(recoveryCodes);
      },
      (error) => {
        // A wrong code is told under the field alone; anything else above the panel.
        const issue = (error as { issues?: Array<{ message: string }> }).issues?.[0];
        if (issue) {
          setCodeProblem(issue.message);
          return null;
        }
        return describeError(error);
      },
    );
    setBusy(false);
  };

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Authenticator app
      </Title>
      {status.totp && !setup && (
        <Group>
          <Text size="sm">Set up: sign-ins ask for the code it shows.</Text>
          <Button
            variant="default"
            color="red"
            onClick={() =>
              onChange(async () => {
                await removeTotp();
              })
            }
          >
            Remove the authenticator app
          </Button>
        </Group>
      )}
      {!status.totp && !setup && (
        <Group>
          <Button onClick={() => onChange(async () => setSetup(await startTotp()))}>
            Set up an authenticator app
          </Button>
        </Group>
      )}
      {setup && (
        <form onSubmit={confirm} noValidate aria-label="Set up an authenticator app">
          <Stack gap="sm">
            <Text size="sm">
              Scan this code with your authenticator app (Microsoft Authenticator, Google
              Authenticator and others), or type the secret into it. Then enter the six digits it
              shows.
            </Text>
            <QrCode text={setup.otpauthUrl} label="QR code for your authenticator app" />
            <Text size="sm">
              Secret:{' '}
              <Code fz="sm" aria-label="Secret for your authenticator app">
                {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
              </Code>
            </Text>
            <TextInput
              label="Code from the app"
              autoComplete="one-time-code"
              inputMode="numeric"
              required
              value={code}
              error={codeProblem}
              onChange={(event) => setCode(event.currentTarget.value)}
            />
            <Group>
              <Button type="submit" loading={busy}>
                Confirm the app
              </Button>
              <Button variant="subtle" onClick={() => setSetup(null)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Stack>
  );
}

function Passkeys({
  status,
  onChange,
  onRecoveryCodes,
}: {
  status: SecondFactorStatus;
  onChange: Change;
  onRecoveryCodes: (codes: string[]) => void;
}) {
  const [name, setName] = useState('');
  const [nameProblem, setNameProblem] = useState<string | null>(null);
  const supported = passkeysSupported();

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() === '') {
      setNameProblem('Name the passkey, so you can tell it from others (“Work laptop”).');
      return;
    }
    setNameProblem(null);
    await onChange(async () => {
      const added = await addPasskey(name.trim());
      setName('');
      if (added.recoveryCodes) onRecoveryCodes(added.recoveryCodes);
    }, passkeyProblem);
  };

  return (
    <Stack gap="xs">
      <Title order={3} size="h4">
        Passkeys
      </Title>
      {status.passkeys.length > 0 && (
        <Table withTableBorder aria-label="Your passkeys">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Added</Table.Th>
              <Table.Th>Last used</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {status.passkeys.map((passkey) => (
              <Table.Tr key={passkey.id}>
                <Table.Td>{passkey.name}</Table.Td>
                <Table.Td>
                  <DateTime value={passkey.createdAt} />
                </Table.Td>
                <Table.Td>
                  {passkey.lastUsedAt ? <DateTime value={passkey.lastUsedAt} /> : 'Not yet'}
                </Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    variant="default"
                    aria-label={`Remove ${passkey.name}`}
                    onClick={() =>
                      onChange(async () => {
                        await removePasskey(passkey.id);
                      })
                    }
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {supported ? (
        <form onSubmit={add} noValidate aria-label="Add a passkey">
          <Group align="end">
            <TextInput
              label="Passkey name"
              placeholder="Work laptop"
              value={name}
              error={nameProblem}
              onChange={(event) => setName(event.currentTarget.value)}
            />
            <Button type="submit">Add a passkey</Button>
          </Group>
        </form>
      ) : (
        <Text size="sm">This browser cannot make passkeys.</Text>
      )}
    </Stack>
  );
}
