import { Alert, Select, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useSearch } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import type { PortfolioScheme } from '../../../contracts/portfolio';
import { api, describeError } from '../../api/client';
import { SEEDED_FRESH_MS } from '../../api/seeded';
import { can, scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { Loading } from '../../components/Loading';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { PageHeading } from '../../components/PageHeading';
import { portfolioColumns } from '../../components/portfolioColumns';
import { schemeNameColumns } from '../../components/schemeColumns';

const SCHEMES_KEY = ['schemes', 'portfolio'];

function columns({
  spansEmployers,
  governanceShown,
}: {
  spansEmployers: boolean;
  governanceShown: boolean;
}): Column<PortfolioScheme>[] {
  return [
    ...schemeNameColumns<PortfolioScheme>(),
    ...(spansEmployers
      ? [
          {
            key: 'employer',
            header: 'Employer',
            render: (scheme: PortfolioScheme) => scheme.employerName,
            sortValue: (scheme: PortfolioScheme) => scheme.employerName,
          },
        ]
      : []),
    ...portfolioColumns<PortfolioScheme>({
      governanceShown,
      noStanding: (scheme) => (scheme.status === 'wound_up' ? 'Wound up' : 'No registers kept'),
    }),
  ];
}

/**
 * `/schemes`: the schemes within reach (an employer's staff see their own employer's), each with
 * its members, its governance standing and the latest pay period received, in one request
 * (docs/decisions/0144-portfolio-lists.md). The filter by employer is kept in the address
 * (`?employerId=`) so a filtered list can be linked to; the firm's staff pick from the employers
 * the one answer names.
 */
export function SchemesPage() {
  const session = useSignedIn();
  const navigate = useNavigate();
  const search: { employerId?: unknown } = useSearch({ strict: false });
  const employerId = typeof search.employerId === 'string' ? search.employerId : null;
  // Only a reach wider than one employer has employers to filter by.
  const reach = scopeIn(session, 'scheme.list');
  const spansEmployers = reach === 'platform' || reach === 'tenant';
  // The whole list, once: the employers to filter by, and the table's rows, filtered here. The
  // table reads the service again itself only after a change (a new scheme) invalidates it.
  const all = useQuery({
    queryKey: SCHEMES_KEY,
    queryFn: () => api(apiRoutes.portfolio.schemes, { query: {} }),
  });
  if (all.isPending) return <Loading label="Loading schemes" />;
  if (all.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(all.error)}
      </Alert>
    );
  }
  const employers = new Map(all.data.items.map((row) => [row.employerId, row.employerName]));
  const employerName = employerId ? (employers.get(employerId) ?? 'the employer') : null;
  const shown = all.data.items.filter(
    (row) => employerId === null || row.employerId === employerId,
  );
  return (
    <Stack gap="lg">
      <PageHeading title="Schemes">
        {can(session, 'scheme.create') && <NewSchemeButton suggestedEmployerId={employerId} />}
      </PageHeading>
      {spansEmployers && (
        <Select
          label="Employer"
          placeholder="All employers"
          searchable
          clearable
          clearButtonProps={{ 'aria-label': 'Show all employers' }}
          maw={420}
          nothingFoundMessage="No employer with schemes has that name"
          data={[...employers]
            .map(([value, label]) => ({ value, label }))
            .sort((a, b) => a.label.localeCompare(b.label, 'en-IE'))}
          value={employerId}
          onChange={(value) =>
            navigate({ to: '/schemes', search: value === null ? {} : { employerId: value } })
          }
        />
      )}
      <CursorTable
        queryKey={[...SCHEMES_KEY, { employerId }]}
        route={apiRoutes.portfolio.schemes}
        query={{ employerId: employerId ?? undefined }}
        initialPage={{ items: shown, nextCursor: null }}
        staleTime={SEEDED_FRESH_MS}
        columns={columns({
          spansEmployers: spansEmployers && employerId === null,
          governanceShown: can(session, 'compliance.dashboard'),
        })}
        caption={employerName ? `Schemes of ${employerName}` : 'Schemes'}
        rowNoun="scheme"
        empty={employerId ? 'This employer has no schemes yet.' : 'No schemes yet.'}
      />
    </Stack>
  );
}
