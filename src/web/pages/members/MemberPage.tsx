import { Divider, Stack } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { acceptsChanges } from '../../../contracts/scheme-wind-up';
import { api } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import { can, memberRow, scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { MemberDocuments } from '../documents/MemberDocuments';
import { MemberStatements } from '../statements/MemberStatements';
import { ContributionsPanel } from './ContributionsPanel';
import { FundChoicesPanel } from './FundChoicesPanel';
import { FundSwitchPanel } from './FundSwitchPanel';
import { MemberDetails } from './MemberDetails';
import { MembershipPanel } from './MembershipPanel';
import {
  chartFrom,
  DEFAULT_CHART_RANGE,
  memberKey,
  memberPageKey,
  seedMemberPage,
} from './member-page-cache';
import { PensionSummary } from './PensionSummary';
import { PensionValuePanel } from './PensionValuePanel';
import { RetentionPanel } from './RetentionPanel';
import { UnitMovementsPanel } from './UnitMovementsPanel';
import { YourDataPanel } from './YourDataPanel';

/**
 * `/members/$memberId`: one member's record, their membership (status, service, leaving and the
 * steps that change it), what a DC member's pension is worth, their contributions, fund choices,
 * switches and transactions, their Pension Benefit Statements; a Member's home page, where their scheme's member-facing documents
 * are listed too, and "Your data": their rights and their requests about their data. The page asks the service once for all it shows (member-page-cache.ts); each
 * panel then keeps its own part up to date.
 * A member out of reach (another employer's, another tenant's) answers 404 and shows "Not found".
 */
export function MemberPage() {
  const session = useSignedIn();
  const client = useQueryClient();
  const { memberId = '' } = useParams({ strict: false });
  const page = useQuery({
    queryKey: memberPageKey(memberId),
    queryFn: async () => {
      const composed = await api(apiRoutes.members.page, {
        params: { id: memberId },
        query: { chartFrom: chartFrom(DEFAULT_CHART_RANGE) },
      });
      seedMemberPage(client, composed);
      return composed;
    },
  });
  // The record itself, handed over by the page's answer; read again after a change to it.
  const member = useQuery({
    queryKey: memberKey(memberId),
    queryFn: () => api(apiRoutes.members.get, { params: { id: memberId } }),
    enabled: page.isSuccess,
    staleTime: SEEDED_FRESH_MS,
  });

  if (page.isError) return <LoadError error={page.error} />;
  if (member.isError) return <LoadError error={member.error} />;
  if (page.isPending || member.isPending) return <Loading label="Loading the member" />;
  const own = session.account.memberId === member.data.id;
  // A DC member's page leads with what the pension is worth; a DB scheme's members hold no units.
  const invested = page.data.money !== null;
  // Beneath a wound-up scheme the record is read only: no panel offers a change the service
  // refuses (docs/decisions/0146-schemes-wound-up-not-deleted.md).
  const changes = acceptsChanges(page.data.summary.scheme);
  const membership = (
    <MembershipPanel
      member={member.data}
      schemeType={page.data.summary.scheme.type}
      changes={changes}
    />
  );
  return (
    <Stack gap="lg">
      <MemberDetails
        member={member.data}
        changes={changes}
        portalAccount={page.data.portalAccount}
      />
      {/* Staff read where the member stands first; a member reads first what their pension is worth. */}
      {!own && membership}
      {invested && <PensionValuePanel member={member.data} own={own} />}
      <PensionSummary member={member.data} />
      {own && membership}
      {can(session, 'statement.list', memberRow(member.data)) && (
        <>
          <Divider />
          <MemberStatements member={member.data} own={own} />
        </>
      )}
      {/* A member's home: their scheme's documents, before the long tables (staff use the scheme's tab). */}
      {scopeIn(session, 'document.list') === 'member' && (
        <>
          <Divider />
          <MemberDocuments member={member.data} />
        </>
      )}
      <Divider />
      {/* Fund choices are short; they come before the long contributions table. */}
      <FundChoicesPanel member={member.data} changes={changes} />
      {invested && (
        <>
          <Divider />
          <FundSwitchPanel member={member.data} own={own} changes={changes} />
          <Divider />
          <UnitMovementsPanel member={member.data} own={own} />
        </>
      )}
      <Divider />
      <ContributionsPanel member={member.data} changes={changes} />
      {/* The member's own rights over their data, and their requests: the member alone; the
          firm's staff record one on the data requests page. */}
      {own && scopeIn(session, 'data_request.create') === 'member' && (
        <>
          <Divider />
          <YourDataPanel member={member.data} />
        </>
      )}
      {/* How long the record is kept, and its restriction: the firm's staff only. */}
      {can(session, 'member.retention.read') && <RetentionPanel member={member.data} />}
    </Stack>
  );
}
