import { Button, Modal, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiRoutes } from '../../contracts/api-routes';
import { api, describeError } from '../api/client';
import type { User } from '../api/types';
import { mayResetSecondFactorOf } from '../auth/can';
import { useSignedIn } from '../auth/session';
import { useStepUp } from '../pages/account/ConfirmItsYou';
import { ConfirmModal } from './ConfirmModal';
import { notifyProblem, notifySuccess } from './notify';

/**
 * Removes the second factors of an account one looks after, when its holder has lost their phone
 * or key and their recovery codes (docs/decisions/0112-second-factor-required-roles.md): for the
 * roles the rule lets this person reset, an active account of theirs that has a second factor,
 * never their own. It needs the administrator's own recent factor, asked for in a dialog when the
 * service wants it.
 */
export function SecondFactorReset({ account }: { account: User }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const [opened, setOpened] = useState(false);
  const stepUp = useStepUp();
  if (
    account.status !== 'active' ||
    !account.secondFactor ||
    !mayResetSecondFactorOf(session, account)
  ) {
    return null;
  }
  const reset = () =>
    stepUp.run(
      async () => {
        await api(apiRoutes.secondFactor.resetOfUser, { params: { id: account.id } });
        // The list then shows no factor to reset until its holder sets one up again.
        await client.invalidateQueries({ queryKey: ['accounts'] });
        notifySuccess(
          `${account.name}'s second factors are removed and they are signed out; they set a new one up when they next sign in.`,
        );
      },
      (error) => notifyProblem(describeError(error)),
    );
  return (
    <>
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        aria-label={`Reset the second factor of ${account.name}`}
        onClick={() => setOpened(true)}
      >
        Reset second factor
      </Button>
      <ConfirmModal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Reset second factor"
        confirmLabel="Reset second factor"
        color="red"
        onConfirm={reset}
      >
        <Text>
          Do this only when {account.name} ({account.email}) has lost their phone or key and their
          recovery codes, and you know it is them asking. Their authenticator app, passkeys and
          recovery codes are removed, they are signed out everywhere and told by e-mail, and they
          set a new factor up when they next sign in.
        </Text>
      </ConfirmModal>
      <Modal
        opened={stepUp.confirmation !== null}
        onClose={stepUp.cancel}
        title="Confirm it is you"
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        centered
      >
        {stepUp.confirmation}
      </Modal>
    </>
  );
}
