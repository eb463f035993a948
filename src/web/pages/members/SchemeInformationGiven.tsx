import { Button, Group, Modal, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import {
  membershipBeganOn,
  NEW_MEMBER_INFORMATION_WITHIN_MONTHS,
  SCHEME_YEAR_RULES,
  waitsForInformation,
} from '../../../contracts/scheme-year-rules';
import { api } from '../../api/client';
import type { Member } from '../../api/types';
import { IrishDateInput, irishDateRule } from '../../components/IrishDateInput';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { formatDate } from '../../format';
import { FormShell } from '../governance/GovernanceForm';
import { useRefreshGovernance } from '../governance/governanceQueries';
import { memberKey } from './member-page-cache';

/**
 * The day the scheme's information was given to the member after joining (Pensions Act 1990 s.54),
 * and, for those who may correct the member, recording it. The scheme's governance counts the new
 * members still waiting for it (docs/decisions/0122-the-scheme-year.md).
 */
export function SchemeInformationGiven({
  member,
  canRecord,
}: {
  member: Member;
  canRecord: boolean;
}) {
  const [opened, dialog] = useDisclosure(false);
  const given = member.informationSentOn;
  const beganOn = membershipBeganOn(member);
  // Given before they rejoined: owed again for the new membership.
  const owedAgain =
    given !== null && waitsForInformation({ joinedOn: beganOn, informationSentOn: given });
  return (
    <Group gap="sm">
      {/* Shown as the page's other dates are. */}
      <span>
        {given === null
          ? 'Not recorded'
          : owedAgain
            ? `${formatDate(given)}, before they rejoined on ${formatDate(beganOn)}: owed again within ${NEW_MEMBER_INFORMATION_WITHIN_MONTHS} months of rejoining`
            : formatDate(given)}
      </span>
      {canRecord && (
        <Button
          size="compact-sm"
          variant="default"
          onClick={dialog.open}
          aria-label={
            given === null
              ? 'Record that the scheme information was given'
              : owedAgain
                ? 'Record that the scheme information was given again'
                : 'Change the day the scheme information was given'
          }
        >
          {given !== null && !owedAgain ? 'Change' : 'Record'}
        </Button>
      )}
      <Modal
        opened={opened}
        onClose={dialog.close}
        title="Scheme information given"
        centered
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
      >
        {/* Mounted only while open, so each opening starts from the record as it stands. */}
        {opened && <SchemeInformationForm member={member} onClose={dialog.close} />}
      </Modal>
    </Group>
  );
}

function SchemeInformationForm({ member, onClose }: { member: Member; onClose: () => void }) {
  const client = useQueryClient();
  const refreshGovernance = useRefreshGovernance(member.schemeId);
  const today = todayInIreland(new Date());
  const recorded = member.informationSentOn;
  const beganOn = membershipBeganOn(member);
  const rejoined = beganOn !== member.dateJoined;
  const owedAgain =
    recorded !== null && waitsForInformation({ joinedOn: beganOn, informationSentOn: recorded });
  const form = useForm<{ informationSentOn: string }>({
    initialValues: { informationSentOn: owedAgain ? today : (recorded ?? today) },
    // A day already recorded may be taken back (entered in error) by leaving the field empty.
    validate: { informationSentOn: irishDateRule({ required: recorded === null }) },
  });
  const { submit, busy, problem } = useApiSubmit(form, async ({ informationSentOn }) => {
    const sentOn = informationSentOn === '' ? null : informationSentOn;
    // Only a change is sent, so the audit record names it.
    if (sentOn !== recorded) {
      const saved = await api(apiRoutes.members.update, {
        params: { id: member.id },
        body: { informationSentOn: sentOn },
      });
      client.setQueryData(memberKey(member.id), saved);
      notifySuccess(
        saved.informationSentOn
          ? `The scheme information is recorded as given on ${formatDate(saved.informationSentOn)}.`
          : 'The scheme information is recorded as not given.',
      );
      // The scheme's new members waiting for it are counted in its governance.
      await Promise.all([
        client.invalidateQueries({ queryKey: ['schemes', member.schemeId, 'members'] }),
        refreshGovernance(),
      ]);
    }
    onClose();
  });
  return (
    <FormShell
      label="Scheme information given"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Save"
      onCancel={onClose}
    >
      <Text size="sm">
        A new member is given the scheme’s information within {NEW_MEMBER_INFORMATION_WITHIN_MONTHS}{' '}
        months of joining. {sourceInWords(SCHEME_YEAR_RULES.newMemberInformation)}.
      </Text>
      {rejoined && (
        <Text size="sm">
          This member rejoined on {formatDate(beganOn)}.{' '}
          {sourceInWords(SCHEME_YEAR_RULES.rejoinersInformedAgain)}.
        </Text>
      )}
      <IrishDateInput
        label="Given on"
        description={
          recorded === null
            ? 'Day first: DD/MM/YYYY'
            : 'Day first: DD/MM/YYYY. Leave empty if it has not been given'
        }
        required={recorded === null}
        minDate={owedAgain ? beganOn : member.dateJoined}
        maxDate={today}
        data-autofocus
        {...form.getInputProps('informationSentOn')}
      />
    </FormShell>
  );
}
