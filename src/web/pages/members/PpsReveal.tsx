import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import { ConfirmModal } from '../../components/ConfirmModal';
import { ConfirmItsYou, needsStepUp } from '../account/ConfirmItsYou';

/** How long a revealed number stays on screen. */
const SHOWN_FOR_SECONDS = 30;

/**
 * "On file" and, for the broker's staff, the audited reveal: after a confirmation that says the
 * reveal is recorded, the number is shown for 30 seconds and then dropped from state. It is kept
 * nowhere else: not in the query cache, not in a log, and the API answers it with `no-store`.
 * Render it keyed by the member, so that another member's page starts with nothing revealed.
 */
export function PpsReveal({ memberId, canReveal }: { memberId: string; canReveal: boolean }) {
  const [asking, ask] = useDisclosure(false);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [recorded, setRecorded] = useState(false);
  // A reveal needs a second factor confirmed in the last 5 minutes (docs/decisions/0110-second-factor.md).
  const [confirming, setConfirming] = useState(false);

  useEffect(() => {
    if (revealed === null) return;
    const tick = setInterval(() => setSecondsLeft((left) => left - 1), 1_000);
    const hide = setTimeout(() => setRevealed(null), SHOWN_FOR_SECONDS * 1_000);
    return () => {
      clearInterval(tick);
      clearTimeout(hide);
    };
  }, [revealed]);

  const reveal = async () => {
    const { ppsNumber } = await api(apiRoutes.members.revealPps, {
      params: { id: memberId },
    });
    setSecondsLeft(SHOWN_FOR_SECONDS);
    setRevealed(ppsNumber);
    setRecorded(true);
  };

  /** The reveal, or first the confirmation it needs, after which it goes ahead. */
  const revealOrConfirm = async () => {
    try {
      await reveal();
    } catch (error) {
      if (!needsStepUp(error)) throw error;
      setConfirming(true);
    }
  };

  return (
    <Stack gap={4}>
      <Group gap="sm">
        {revealed === null ? (
          <Text span size="sm">
            On file
          </Text>
        ) : (
          <Code fz="md" aria-label="PPS number">
            {revealed}
          </Code>
        )}
        {canReveal && revealed === null && (
          <Button size="compact-sm" variant="light" onClick={ask.open}>
            Reveal
          </Button>
        )}
        {revealed !== null && (
          <Button size="compact-sm" variant="default" onClick={() => setRevealed(null)}>
            Hide now
          </Button>
        )}
      </Group>
      {revealed !== null && (
        <Text size="xs" c="dimmed" aria-live="polite">
          Hidden again in {secondsLeft} s.
        </Text>
      )}
      {confirming && (
        <ConfirmItsYou
          onCancel={() => setConfirming(false)}
          onConfirmed={() => {
            setConfirming(false);
            void revealOrConfirm();
          }}
        />
      )}
      {recorded && (
        <Alert color="blue" variant="light" p="xs" role="status">
          This reveal has been recorded in the audit log.
        </Alert>
      )}
      <ConfirmModal
        opened={asking}
        onClose={ask.close}
        title="Reveal PPS number"
        confirmLabel="Reveal"
        color="blue"
        onConfirm={revealOrConfirm}
      >
        <Text>
          The PPS number will be shown for {SHOWN_FOR_SECONDS} seconds. Every reveal is recorded in
          the audit log with your account and the time. Reveal it only when you need it for your
          work.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
