import { Button, Group, Modal, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import { todayInIreland } from '../../../contracts/irish-dates';
import { sourceInWords } from '../../../contracts/rule-sources';
import {
  NEW_MEMBER_INFORMATION_WITHIN_MONTHS,
  SCHEME_YEAR_RULES,
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
  return (
    <Group gap="sm">
      {/* Shown as the page's other dates are. */}
      <span>{given ? formatDate(given) : 'Not recorded'}</span>
      {canRecord && (
        <Button
          size="compact-sm"
          variant="default"
          onClick={dialog.open}
          aria-label={
            given
              ? 'Change the day the scheme information was given'
              : 'Record that the scheme information was given'
          }
        >
          {given ? 'Change' : 'Record'}
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
  const form = useForm<{ informationSentOn: string }>({
    initialValues: { informationSentOn: recorded ?? today },
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
      <IrishDateInput
        label="Given on"
        description={
          recorded === null
            ? 'Day first: DD/MM/YYYY'
            : 'Day first: DD/MM/YYYY. Leave empty if it has not been given'
        }
        required={recorded === null}
        minDate={member.dateJoined}
        maxDate={today}
        data-autofocus
        {...form.getInputProps('informationSentOn')}
      />
    </FormShell>
  );
}
