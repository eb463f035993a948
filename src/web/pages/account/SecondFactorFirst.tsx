import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { useSignedIn } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { SecondFactorPanel } from './SecondFactorPanel';

/**
 * What an account that must have a second factor and has none sees, whatever page it opened
 * (docs/decisions/0112-second-factor-required-roles.md): the service refuses it everything else,
 * so the layout shows this in the page's place. Once a factor is set up it stays until the
 * person chooses to go on, so that recovery codes shown once are not taken away unread; then
 * the page they opened appears.
 */
export function SecondFactorFirst({ onContinue }: { onContinue: () => void }) {
  const { secondFactorSetupRequired } = useSignedIn();
  return (
    <Stack gap="lg" maw={560}>
      <PageHeading title="Set up a second factor" />
      {secondFactorSetupRequired ? (
        <Text>
          Your account needs a second factor before you can go on. Once it is set up, the page you
          opened appears.
        </Text>
      ) : (
        <Alert color="green" title="Your second factor is set up">
          <Stack gap="xs">
            <Text size="sm">
              Keep your recovery codes somewhere safe before you go on: they are not shown again.
            </Text>
            <Group>
              <Button onClick={onContinue}>Continue</Button>
            </Group>
          </Stack>
        </Alert>
      )}
      <SecondFactorPanel />
    </Stack>
  );
}
