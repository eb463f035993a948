import { Stack, Title } from '@mantine/core';
import { apiRoutes } from '../../../contracts/api-routes';
import { MEMBER_TRANSACTION_KIND_LABELS } from '../../../contracts/investments';
import { formatCents } from '../../../contracts/money';
import { MEMBER_PAGE_SIZES } from '../../../contracts/portal';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import type { Member, MemberTransaction } from '../../api/types';
import { type Column, CursorTable } from '../../components/CursorTable';
import { formatDate } from '../../format';
import { transactionsKey } from './member-page-cache';

const columns: Column<MemberTransaction>[] = [
  {
    key: 'on',
    header: 'Date',
    render: (movement) => formatDate(movement.on),
    sortValue: (movement) => movement.on,
  },
  {
    key: 'kind',
    header: 'What happened',
    render: (movement) => MEMBER_TRANSACTION_KIND_LABELS[movement.kind],
  },
  { key: 'fund', header: 'Fund', render: (movement) => movement.fundName ?? '' },
  { key: 'units', header: 'Units', render: (movement) => movement.units ?? '' },
  {
    key: 'price',
    header: 'Unit price',
    render: (movement) => (movement.price === undefined ? '' : `€${movement.price}`),
  },
  {
    key: 'amount',
    header: 'Amount',
    render: (movement) => formatCents(movement.amountCents),
    sortValue: (movement) => movement.amountCents,
  },
];

/**
 * Every movement of the member's units, newest first, in plain words: money invested, switched,
 * charged or paid out, with the units and the price each used (docs/decisions/0127-dc-money.md).
 * Money into the funds is positive, out of them negative.
 */
export function UnitMovementsPanel({ member, own }: { member: Member; own: boolean }) {
  return (
    <Stack gap="sm">
      <Title order={3}>{own ? 'Your transactions' : 'Transactions'}</Title>
      <CursorTable
        queryKey={transactionsKey(member.id)}
        route={apiRoutes.holdings.transactions}
        params={{ id: member.id }}
        query={{ limit: MEMBER_PAGE_SIZES.transactions }}
        staleTime={SEEDED_FRESH_MS}
        columns={columns}
        caption="Every movement of units, newest first"
        empty="Nothing has been invested yet."
        rowNoun="transaction"
      />
    </Stack>
  );
}
