import { Alert, Stack, Tabs } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { describeError } from '../../api/client';
import { Loading } from '../../components/Loading';
import { NotFoundPage } from '../common/NotFoundPage';
import { FundsPanel } from './FundsPanel';
import { SchemeContributionsPanel } from './SchemeContributionsPanel';
import { SchemeDetails } from './SchemeDetails';
import { SchemeImportsPanel } from './SchemeImportsPanel';
import { SchemeMembersPanel } from './SchemeMembersPanel';
import { isNotFound, useScheme } from './SchemeQueries';

/**
 * `/schemes/$schemeId`: the scheme's details, then its members, contributions per pay period,
 * funds and imports, each in its own tab so that only the one in view loads and renders (a
 * scheme may have 10,000 members).
 */
export function SchemePage() {
  const { schemeId = '' } = useParams({ strict: false });
  const scheme = useScheme(schemeId);

  if (scheme.isPending) return <Loading label="Loading the scheme" />;
  if (scheme.isError) {
    if (isNotFound(scheme.error)) return <NotFoundPage />;
    return <Alert color="red">{describeError(scheme.error)}</Alert>;
  }
  return (
    <Stack gap="lg">
      <SchemeDetails scheme={scheme.data} />
      <Tabs defaultValue="members" keepMounted={false}>
        <Tabs.List aria-label="Parts of the scheme">
          <Tabs.Tab value="members">Members</Tabs.Tab>
          <Tabs.Tab value="contributions">Contributions</Tabs.Tab>
          <Tabs.Tab value="funds">Funds</Tabs.Tab>
          <Tabs.Tab value="imports">Imports</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="members" pt="md">
          <SchemeMembersPanel scheme={scheme.data} />
        </Tabs.Panel>
        <Tabs.Panel value="contributions" pt="md">
          <SchemeContributionsPanel scheme={scheme.data} />
        </Tabs.Panel>
        <Tabs.Panel value="funds" pt="md">
          <FundsPanel scheme={scheme.data} />
        </Tabs.Panel>
        <Tabs.Panel value="imports" pt="md">
          <SchemeImportsPanel scheme={scheme.data} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
