import { Anchor, Button, DataList, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents } from '../../../contracts/money';
import type { MemberPageView } from '../../../contracts/portal';
import { api, describeError } from '../../api/client';
import { downloadAttachment } from '../../api/download';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Member } from '../../api/types';
import { can, memberRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { formatDate } from '../../format';
import { useStepUp } from '../account/ConfirmItsYou';
import { ContactDetailsButton } from './ContactDetailsButton';
import { type MemberChanges, MemberForm } from './MemberForm';
import { MemberStatusBadge } from './MemberStatusBadge';
import { memberKey, memberSummaryKey } from './member-page-cache';
import { PortalAccount } from './PortalAccount';
import { PpsReveal } from './PpsReveal';
import { SchemeInformationGiven } from './SchemeInformationGiven';

/** Saves the GDPR export as a file: the service's JSON document, as it answered it. */
async function downloadExport(member: Member): Promise<void> {
  const data = await api(apiRoutes.members.export, { params: { id: member.id } });
  const url = URL.createObjectURL(
    new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }),
  );
  const link = document.createElement('a');
  link.href = url;
  link.download = `member-${member.id}.json`;
  // Firefox starts a download only from a link in the document, and only after this task ends.
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The member's name as the page heading, their record, and correcting, deleting and exporting it;
 * `changes` is false beneath a wound-up scheme, where the record is only read and exported.
 */
export function MemberDetails({
  member,
  changes,
  portalAccount,
}: {
  member: Member;
  changes: boolean;
  /** The member's portal account, as the page's answer carries it. */
  portalAccount: MemberPageView['portalAccount'];
}) {
  const session = useSignedIn();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [editing, edit] = useDisclosure(false);
  const [deleting, askDelete] = useDisclosure(false);
  const [exporting, setExporting] = useState(false);
  const row = memberRow(member);
  // Worded for the member when it is their own record they read.
  const ownRecord = session.account.memberId === member.id;
  // Not everyone who reads a member reads the scheme's record (a member reads only their own),
  // so only those who do get the link. Its name comes with the pension summary the page holds.
  const readsScheme = can(session, 'scheme.read');
  const summary = useQuery({
    queryKey: memberSummaryKey(member.id),
    queryFn: () => api(apiRoutes.members.summary, { params: { id: member.id } }),
    enabled: readsScheme,
    staleTime: SEEDED_FRESH_MS,
  });
  const fullName = `${member.firstName} ${member.lastName}`;

  const save = async (body: MemberChanges) => {
    const saved = await api(apiRoutes.members.update, { params: { id: member.id }, body });
    client.setQueryData(memberKey(member.id), saved);
    void client.invalidateQueries({ queryKey: ['schemes', member.schemeId, 'members'] });
    notifications.show({ color: 'green', message: 'Member saved' });
    edit.close();
  };

  const remove = async () => {
    await api(apiRoutes.members.remove, { params: { id: member.id } });
    notifications.show({ color: 'green', message: `${fullName} deleted` });
    // Leave first: refreshing the deleted member while the page is shown would answer 404.
    await navigate({ to: '/schemes/$schemeId', params: { schemeId: member.schemeId } });
    client.removeQueries({ queryKey: memberKey(member.id) });
    void client.invalidateQueries({ queryKey: ['schemes', member.schemeId, 'members'] });
  };

  // An export needs a second factor confirmed in the last five minutes where the account has one.
  const stepUp = useStepUp();
  const exported = (save: () => Promise<void>) => async () => {
    setExporting(true);
    await stepUp.run(
      async () => {
        await save();
        notifications.show({ color: 'green', message: 'The data export was downloaded' });
      },
      (error) => notifications.show({ color: 'red', message: describeError(error) }),
    );
    setExporting(false);
  };
  const exportData = exported(() => downloadExport(member));
  const exportCsv = exported(() =>
    downloadAttachment(
      apiRoutes.members.exportCsv,
      { params: { id: member.id } },
      { accept: 'text/csv', fallbackName: `member-${member.id}.csv`, failure: 'The export failed' },
    ),
  );
  const exportPdf = exported(() =>
    downloadAttachment(
      apiRoutes.members.exportPdf,
      { params: { id: member.id } },
      {
        accept: 'application/pdf',
        fallbackName: `member-${member.id}.pdf`,
        failure: 'The export failed',
      },
    ),
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-start">
        <Group gap="sm">
          <Title order={2}>{fullName}</Title>
          <MemberStatusBadge status={member.status} />
        </Group>
        <Group gap="xs">
          {changes && can(session, 'member.update', row) && (
            <Button variant="default" onClick={edit.open}>
              Edit member
            </Button>
          )}
          {changes && can(session, 'member.contact.update', row) && (
            <ContactDetailsButton member={member} />
          )}
          {!ownRecord && <PortalAccount member={member} portalAccount={portalAccount} />}
          {can(session, 'member.export', row) &&
            (ownRecord ? (
              <>
                {/* A member's own copy to read first: every value in words (portal.service.ts). */}
                <Button variant="default" onClick={exportPdf} loading={exporting}>
                  Download my data (PDF)
                </Button>
                <Button variant="default" onClick={exportCsv} loading={exporting}>
                  Download my data (spreadsheet)
                </Button>
                {/* The same data for a program, to move it elsewhere (GDPR Art. 20). */}
                <Button variant="subtle" onClick={exportData} loading={exporting}>
                  Download my data for another provider
                </Button>
              </>
            ) : (
              <>
                <Button variant="default" onClick={exportData} loading={exporting}>
                  Export data (GDPR)
                </Button>
                {/* The same data as a file anyone can open in a spreadsheet. */}
                <Button variant="default" onClick={exportCsv} loading={exporting}>
                  Export as CSV
                </Button>
                {/* The readable copy sent in answer to an access request (GDPR Art. 15). */}
                <Button variant="default" onClick={exportPdf} loading={exporting}>
                  Export as PDF
                </Button>
              </>
            ))}
          {changes && can(session, 'member.delete', row) && (
            <Button color="red" variant="light" onClick={askDelete.open}>
              Delete member
            </Button>
          )}
        </Group>
      </Group>
      {stepUp.confirmation}
      <DataList labelWidth="10rem">
        {readsScheme && (
          <DataList.Item>
            <DataList.ItemLabel>Scheme</DataList.ItemLabel>
            <DataList.ItemValue>
              <Anchor component={Link} to={`/schemes/${member.schemeId}`}>
                {summary.data?.scheme.name ?? 'The member’s scheme'}
              </Anchor>
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Date of birth</DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(member.dateOfBirth)}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Date joined</DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(member.dateJoined)}</DataList.ItemValue>
        </DataList.Item>
        {/* A duty the administrator records: a member reads the day once there is one. */}
        {!(ownRecord && member.informationSentOn === null) && (
          <DataList.Item>
            <DataList.ItemLabel>
              {ownRecord ? 'Scheme information given to you on' : 'Scheme information given on'}
            </DataList.ItemLabel>
            <DataList.ItemValue>
              <SchemeInformationGiven
                member={member}
                canRecord={changes && can(session, 'member.update', row)}
              />
            </DataList.ItemValue>
          </DataList.Item>
        )}
        <DataList.Item>
          <DataList.ItemLabel>Salary</DataList.ItemLabel>
          <DataList.ItemValue>{formatCents(member.salaryCents)} a year</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>E-mail address</DataList.ItemLabel>
          <DataList.ItemValue>{member.email ?? '—'}</DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>Postal address</DataList.ItemLabel>
          <DataList.ItemValue style={{ whiteSpace: 'pre-line' }}>
            {member.address ?? '—'}
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>PPS number</DataList.ItemLabel>
          <DataList.ItemValue>
            <PpsReveal
              key={member.id}
              memberId={member.id}
              canReveal={can(session, 'member.pps.reveal', row)}
              canListReveals={can(session, 'member.pps.reveals.list', row)}
            />
          </DataList.ItemValue>
        </DataList.Item>
        <DataList.Item>
          <DataList.ItemLabel>
            {ownRecord ? 'Your details last updated' : 'Record last changed'}
          </DataList.ItemLabel>
          <DataList.ItemValue>{formatDate(member.updatedAt)}</DataList.ItemValue>
        </DataList.Item>
      </DataList>

      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={editing}
        onClose={edit.close}
        title="Edit member"
        size="lg"
        centered
      >
        <MemberForm member={member} submitLabel="Save" onSubmit={save} onCancel={edit.close} />
      </Modal>
      <ConfirmModal
        opened={deleting}
        onClose={askDelete.close}
        title="Delete member"
        confirmLabel="Delete member"
        onConfirm={remove}
      >
        <Text>
          Delete {fullName}? The member disappears from every list and page. The record, their
          contributions and fund choices are kept for the retention period, and the deletion is
          recorded in the audit log.
        </Text>
      </ConfirmModal>
    </Stack>
  );
}
