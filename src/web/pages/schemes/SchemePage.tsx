import { Stack, Tabs } from '@mantine/core';
import { useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { DraftsPanel } from '../ai/DraftsPanel';
import { DocumentsPanel } from '../documents/DocumentsPanel';
import { GovernancePanel } from '../governance/GovernancePanel';
import { StatementRunsPanel } from '../statements/StatementRunsPanel';
import { FundsPanel } from './FundsPanel';
import { SchemeContributionsPanel } from './SchemeContributionsPanel';
import { SchemeDetails } from './SchemeDetails';
import { SchemeImportsPanel } from './SchemeImportsPanel';
import { SchemeMembersPanel } from './SchemeMembersPanel';
import { useScheme } from './SchemeQueries';

const TABS = [
  'members',
  'contributions',
  'funds',
  'imports',
  'statements',
  'governance',
  'documents',
  'drafts',
] as const;
type Tab = (typeof TABS)[number];

/**
 * `/schemes/$schemeId`: the scheme's details, then its members, contributions per pay period,
 * funds, imports, Pension Benefit Statement runs, governance, documents and drafts of its governance writing, each in
 * its own tab so that only the one in view loads and renders (a scheme may have 10,000 members). The tab in view is in the address (`?tab=`), so the
 * governance dashboard can link straight to a scheme's governance.
 */
export function SchemePage() {
  const session = useSignedIn();
  const navigate = useNavigate();
  const { schemeId = '' } = useParams({ strict: false });
  const search: { tab?: unknown } = useSearch({ strict: false });
  const scheme = useScheme(schemeId);

  if (scheme.isPending) return <Loading label="Loading the scheme" />;
  if (scheme.isError) return <LoadError error={scheme.error} />;
  const governance = can(session, 'compliance.read', scheme.data);
  const documents = can(session, 'document.list', scheme.data);
  const asked = TABS.find((tab) => tab === search.tab);
  const drafts = can(session, 'ai.draft.list', scheme.data);
  const statements = can(session, 'statement_run.list', scheme.data);
  const tab: Tab =
    asked === undefined ||
    (asked === 'governance' && !governance) ||
    (asked === 'documents' && !documents) ||
    (asked === 'statements' && !statements) ||
    (asked === 'drafts' && !drafts)
      ? 'members'
      : asked;
  return (
    <Stack gap="lg">
      <SchemeDetails scheme={scheme.data} />
      <Tabs
        value={tab}
        onChange={(value) =>
          navigate({
            to: '/schemes/$schemeId',
            params: { schemeId },
            search: value === 'members' || value === null ? {} : { tab: value },
            replace: true,
          })
        }
        keepMounted={false}
      >
        <Tabs.List aria-label="Parts of the scheme">
          <Tabs.Tab value="members">Members</Tabs.Tab>
          <Tabs.Tab value="contributions">Contributions</Tabs.Tab>
          <Tabs.Tab value="funds">Funds</Tabs.Tab>
          <Tabs.Tab value="imports">Imports</Tabs.Tab>
          {statements && <Tabs.Tab value="statements">Statements</Tabs.Tab>}
          {governance && <Tabs.Tab value="governance">Governance</Tabs.Tab>}
          {documents && <Tabs.Tab value="documents">Documents</Tabs.Tab>}
          {drafts && <Tabs.Tab value="drafts">Drafts</Tabs.Tab>}
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
        {statements && (
          <Tabs.Panel value="statements" pt="md">
            <StatementRunsPanel scheme={scheme.data} />
          </Tabs.Panel>
        )}
        {governance && (
          <Tabs.Panel value="governance" pt="md">
            <GovernancePanel scheme={scheme.data} />
          </Tabs.Panel>
        )}
        {documents && (
          <Tabs.Panel value="documents" pt="md">
            <DocumentsPanel scheme={scheme.data} />
          </Tabs.Panel>
        )}
        {drafts && (
          <Tabs.Panel value="drafts" pt="md">
            <DraftsPanel scheme={scheme.data} />
          </Tabs.Panel>
        )}
      </Tabs>
    </Stack>
  );
}
