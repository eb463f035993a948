import { Anchor, Button, Group, Modal, Select, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { formatCents } from '../../../contracts/money';
import { api } from '../../api/client';
import type { Member, MemberStatus, Scheme } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { formatDate } from '../../format';
import { MEMBER_STATUS_OPTIONS, type MemberBody, MemberForm } from '../members/MemberForm';
import { MemberStatusBadge } from '../members/MemberStatusBadge';
import { schemeKey } from './SchemeQueries';

/** Rows per request: one screenful, quick to render however large the scheme is. */
const PAGE_SIZE = 50;

export const schemeMembersKey = (schemeId: string) => ['schemes', schemeId, 'members'] as const;

const columns: Column<Member>[] = [
  {
    key: 'name',
    header: 'Name',
    render: (member) => (
      <Anchor component={Link} to={`/members/${member.id}`}>
        {member.firstName} {member.lastName}
      </Anchor>
    ),
    sortValue: (member) => `${member.lastName} ${member.firstName}`.toLocaleLowerCase('en-IE'),
  },
  {
    key: 'dateOfBirth',
    header: 'Date of birth',
    render: (member) => formatDate(member.dateOfBirth),
    sortValue: (member) => member.dateOfBirth,
  },
  {
    key: 'dateJoined',
    header: 'Joined',
    render: (member) => formatDate(member.dateJoined),
    sortValue: (member) => member.dateJoined,
  },
  {
    // A new member is given the scheme's information after joining (Pensions Act 1990 s.54); those
    // still waiting are counted in the scheme's governance (docs/decisions/0122-the-scheme-year.md).
    key: 'informationSentOn',
    header: 'Scheme information given',
    render: (member) => (member.informationSentOn ? formatDate(member.informationSentOn) : '—'),
    sortValue: (member) => member.informationSentOn ?? '',
  },
  {
    key: 'salary',
    header: 'Salary',
    render: (member) => formatCents(member.salaryCents),
    sortValue: (member) => member.salaryCents,
  },
  {
    key: 'status',
    header: 'Status',
    render: (member) => <MemberStatusBadge status={member.status} />,
    sortValue: (member) => member.status,
  },
  // No PPS number column: every row would say the same, and the number itself is only ever
  // shown through the audited reveal on the member's page.
];

/**
 * The members of a scheme: searched by name and filtered by status on the server, 50 at a time in
 * the order they were added; a sort by a column orders the members shown, and says so while more
 * are still to load (CursorTable).
 */
export function SchemeMembersPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const [adding, add] = useDisclosure(false);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState<MemberStatus | null>(null);
  // The API is asked once typing pauses, not on every keystroke.
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);

  const create = async (body: MemberBody) => {
    const member = await api(apiRoutes.members.create, { params: { id: scheme.id }, body });
    notifications.show({
      color: 'green',
      message: `${member.firstName} ${member.lastName} added to the scheme`,
    });
    add.close();
    // The scheme itself too, its members list among its parts: having members fixes its type.
    await client.invalidateQueries({ queryKey: schemeKey(scheme.id) });
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3}>Members</Title>
        {canChange(session, 'member.create', scheme) && (
          <Button onClick={add.open}>Add member</Button>
        )}
      </Group>
      <Group align="flex-end">
        <TextInput
          label="Search by name"
          type="search"
          placeholder="First or last name"
          value={search}
          onChange={(event) => setSearch(event.currentTarget.value)}
          maxLength={100}
          w={{ base: '100%', sm: 280 }}
        />
        <Select
          label="Status"
          placeholder="All statuses"
          data={MEMBER_STATUS_OPTIONS}
          value={status}
          onChange={(value) => setStatus(value as MemberStatus | null)}
          clearable
          w={{ base: '100%', sm: 200 }}
        />
      </Group>
      <CursorTable
        queryKey={[...schemeMembersKey(scheme.id), { q: debouncedSearch, status }]}
        route={apiRoutes.members.listOfScheme}
        params={{ id: scheme.id }}
        query={{ q: debouncedSearch, status: status ?? undefined, limit: PAGE_SIZE }}
        columns={columns}
        caption={`Members of ${scheme.name}${debouncedSearch ? ` matching “${debouncedSearch}”` : ''}`}
        rowNoun="member"
        empty={debouncedSearch || status ? 'No members match.' : 'This scheme has no members yet.'}
      />
      <Modal
        closeButtonProps={{ 'aria-label': 'Close dialog' }}
        opened={adding}
        onClose={add.close}
        title="Add member"
        size="lg"
        centered
      >
        <MemberForm submitLabel="Add member" onSubmit={create} onCancel={add.close} />
      </Modal>
    </Stack>
  );
}
