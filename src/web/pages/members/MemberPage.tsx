import { Alert, Divider, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { api, describeError } from '../../api/client';
import { scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../common/NotFoundPage';
import { MemberDocuments } from '../documents/MemberDocuments';
import { isNotFound } from '../schemes/SchemeQueries';
import { ContributionsPanel } from './ContributionsPanel';
import { FundChoicesPanel } from './FundChoicesPanel';
import { MemberDetails, memberKey } from './MemberDetails';
import { PensionSummary } from './PensionSummary';

/**
 * `/members/$memberId`: one member's record, contributions and fund choices; a Member's home page,
 * where their scheme's member-facing documents are listed too.
 * A member out of reach (another employer's, another tenant's) answers 404 and shows "Not found".
 */
export function MemberPage() {
  const session = useSignedIn();
  const { memberId = '' } = useParams({ strict: false });
  const member = useQuery({
    queryKey: memberKey(memberId),
    queryFn: () => api(apiRoutes.members.get, { params: { id: memberId } }),
  });

  if (member.isPending) return <Loading label="Loading the member" />;
  if (member.isError) {
    if (isNotFound(member.error)) return <NotFoundPage />;
    return <Alert color="red">{describeError(member.error)}</Alert>;
  }
  return (
    <Stack gap="lg">
      <MemberDetails member={member.data} />
      <PensionSummary member={member.data} />
      {/* A member's home: their scheme's documents, before the long tables (staff use the scheme's tab). */}
      {scopeIn(session, 'document.list') === 'member' && (
        <>
          <Divider />
          <MemberDocuments member={member.data} />
        </>
      )}
      <Divider />
      {/* Fund choices are short; they come before the long contributions table. */}
      <FundChoicesPanel member={member.data} />
      <Divider />
      <ContributionsPanel member={member.data} />
    </Stack>
  );
}
