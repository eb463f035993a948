import {
  Alert,
  Button,
  Code,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  PPS_REVEAL_NOTE_MAX,
  PPS_REVEAL_REASON_WORDS,
  PPS_REVEAL_REASONS,
  type PpsRevealInput,
  type PpsRevealReason,
  ppsRevealInput,
} from '../../../contracts/pps-reveal';
import { api, describeError } from '../../api/client';
import { DateTime } from '../../components/DateTime';
import { ScrollTable } from '../../components/ScrollTable';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { ConfirmItsYou, needsStepUp } from '../account/ConfirmItsYou';

interface ReasonValues {
  reason: PpsRevealReason | null;
  note: string;
}

/** The body the reveal takes: no empty note. */
const revealBody = ({ reason, note }: ReasonValues) => ({
  reason: reason ?? undefined,
  ...(note.trim() === '' ? {} : { note }),
});

/** How long a revealed number stays on screen. */
const SHOWN_FOR_SECONDS = 30;

/**
 * "On file" and, for the broker's staff, the audited reveal: after saying why (a reason from the
 * list, and a note for "Another reason": docs/decisions/0145-a-reason-for-a-pps-reveal.md), the
 * number is shown for 30 seconds and then dropped from state. It is kept
 * nowhere else: not in the query cache, not in a log, and the API answers it with `no-store`.
 * Render it keyed by the member, so that another member's page starts with nothing revealed.
 */
export function PpsReveal({
  memberId,
  canReveal,
  canListReveals = false,
}: {
  memberId: string;
  canReveal: boolean;
  /** Whether the reader may see who revealed it and why (a BrokerAdmin). */
  canListReveals?: boolean;
}) {
  const [asking, ask] = useDisclosure(false);
  const [listing, list] = useDisclosure(false);
  // The reason given, kept only until the reveal it was given for goes through.
  const [reason, setReason] = useState<PpsRevealInput | null>(null);
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

  const reveal = async (why: PpsRevealInput) => {
    const { ppsNumber } = await api(apiRoutes.members.revealPps, {
      params: { id: memberId },
      body: why,
    });
    setReason(null);
    setSecondsLeft(SHOWN_FOR_SECONDS);
    setRevealed(ppsNumber);
    setRecorded(true);
  };

  /** The reveal, or first the confirmation it needs, after which it goes ahead. */
  const revealOrConfirm = async (why: PpsRevealInput) => {
    try {
      await reveal(why);
    } catch (error) {
      if (!needsStepUp(error)) throw error;
      setReason(why);
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
        {canListReveals && (
          <Button size="compact-sm" variant="subtle" onClick={list.open}>
            Who revealed it
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
            if (reason) void revealOrConfirm(reason);
          }}
        />
      )}
      {recorded && (
        <Alert color="blue" variant="light" p="xs" role="status">
          This reveal has been recorded in the audit log.
        </Alert>
      )}
      <Modal
        opened={asking}
        onClose={ask.close}
        title="Reveal PPS number"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {asking && (
          <RevealReasonForm
            onCancel={ask.close}
            onReveal={async (why) => {
              await revealOrConfirm(why);
              ask.close();
            }}
          />
        )}
      </Modal>
      <Modal
        opened={listing}
        onClose={list.close}
        title="Who revealed the PPS number"
        size="xl"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {listing && <RevealsTable memberId={memberId} />}
      </Modal>
    </Stack>
  );
}

/** Why the number is needed: a reason from the list, and a note, which "Another reason" needs. */
function RevealReasonForm({
  onCancel,
  onReveal,
}: {
  onCancel: () => void;
  onReveal: (why: PpsRevealInput) => Promise<void>;
}) {
  const form = useForm<ReasonValues>({
    initialValues: { reason: null, note: '' },
    validate: validateWith(ppsRevealInput, revealBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, (values) =>
    onReveal(ppsRevealInput.parse(revealBody(values))),
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
        <Text>
          The PPS number will be shown for {SHOWN_FOR_SECONDS} seconds. Every reveal is recorded in
          the audit log with your account, the time and the reason you give.
        </Text>
        <Select
          label="Why do you need it?"
          required
          data-autofocus
          data={PPS_REVEAL_REASONS.map((value) => ({
            value,
            label: PPS_REVEAL_REASON_WORDS[value],
          }))}
          {...form.getInputProps('reason')}
        />
        <Textarea
          label="Note"
          description={`Required for another reason. Kept with the reveal for the firm’s administrators, not in the audit log. At most ${PPS_REVEAL_NOTE_MAX} characters.`}
          required={form.getValues().reason === 'other'}
          autosize
          minRows={2}
          {...form.getInputProps('note')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Reveal
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The member's latest reveals, newest first. */
function RevealsTable({ memberId }: { memberId: string }) {
  const reveals = useQuery({
    queryKey: ['members', memberId, 'pps-reveals'],
    queryFn: () => api(apiRoutes.members.ppsReveals, { params: { id: memberId } }),
    staleTime: 0,
  });
  if (reveals.isPending) return <Text size="sm">Loading the reveals…</Text>;
  if (reveals.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(reveals.error)}
      </Alert>
    );
  }
  if (reveals.data.items.length === 0) {
    return <Text size="sm">No one has revealed this PPS number.</Text>;
  }
  return (
    <ScrollTable minWidth={560} label="PPS number reveals">
      <Table captionSide="top">
        <Table.Caption ta="left">PPS number reveals, newest first</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>When</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>Why</Table.Th>
            <Table.Th>Note</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {reveals.data.items.map((reveal) => (
            <Table.Tr key={reveal.id}>
              <Table.Td>
                <DateTime value={reveal.revealedAt} />
              </Table.Td>
              <Table.Td>{reveal.revealedBy ?? 'An account no longer held'}</Table.Td>
              <Table.Td>{PPS_REVEAL_REASON_WORDS[reveal.reason]}</Table.Td>
              <Table.Td>{reveal.note ?? '—'}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}
