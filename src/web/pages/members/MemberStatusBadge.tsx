import { Badge } from '@mantine/core';
import type { MemberStatus } from '../../api/types';
import { MEMBER_STATUS_OPTIONS } from './MemberForm';

const STATUS_COLOURS: Record<MemberStatus, string> = {
  active: 'green',
  deferred: 'yellow',
  retired: 'blue',
  transferred_out: 'gray',
  refunded: 'gray',
  deceased: 'dark',
};

export function MemberStatusBadge({ status }: { status: MemberStatus }) {
  const label = MEMBER_STATUS_OPTIONS.find((option) => option.value === status)?.label ?? status;
  return (
    <Badge color={STATUS_COLOURS[status]} variant="dot">
      {label}
    </Badge>
  );
}
