import { Select, Stack } from '@mantine/core';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { can, scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { AccessGate } from '../../components/AccessGate';
import { useAllEmployers } from '../../components/allPages';
import { CursorTable } from '../../components/CursorTable';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { PageHeading } from '../../components/PageHeading';
import { schemeColumns } from '../../components/schemeColumns';
import { PAGES } from '../../layout/pages';

/**
 * `/schemes`: the schemes within reach (an employer's staff see their own employer's), with a
 * filter by employer kept in the address (`?employerId=`) so a filtered list can be linked to.
 */
export function SchemesPage() {
  return (
    <AccessGate access={PAGES.schemes}>
      <Schemes />
    </AccessGate>
  );
}

function Schemes() {
  const session = useSignedIn();
  const navigate = useNavigate();
  const search: { employerId?: unknown } = useSearch({ strict: false });
  const employerId = typeof search.employerId === 'string' ? search.employerId : null;
  // Only a reach wider than one employer has employers to filter by.
  const reach = scopeIn(session, 'scheme.list');
  const spansEmployers = reach === 'platform' || reach === 'tenant';
  const employers = useAllEmployers();
  const names = new Map(
    (employers.data?.items ?? []).map((employer) => [employer.id, employer.name]),
  );
  return (
    <Stack gap="lg">
      <PageHeading title="Schemes">
        {can(session, 'scheme.create') && <NewSchemeButton suggestedEmployerId={employerId} />}
      </PageHeading>
      {spansEmployers && (
        <Select
          label="Employer"
          placeholder={employers.isPending ? 'Loading employers…' : 'All employers'}
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Show all employers' }}
          maw={420}
          nothingFoundMessage="No employer has that name"
          data={(employers.data?.items ?? []).map((employer) => ({
            value: employer.id,
            label: employer.name,
          }))}
          value={employerId}
          onChange={(value) =>
            navigate({ to: '/schemes', search: value === null ? {} : { employerId: value } })
          }
        />
      )}
      <CursorTable
        queryKey={['schemes', 'list', { employerId }]}
        route={apiRoutes.schemes.list}
        query={{ employerId: employerId ?? undefined }}
        columns={schemeColumns({
          employerName: spansEmployers
            ? (scheme) => names.get(scheme.employerId) ?? 'Unknown employer'
            : undefined,
        })}
        caption={employerId ? `Schemes of ${names.get(employerId) ?? 'the employer'}` : 'Schemes'}
        empty={employerId ? 'This employer has no schemes yet.' : 'No schemes yet.'}
      />
    </Stack>
  );
}
