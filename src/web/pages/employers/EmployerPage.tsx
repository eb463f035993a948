import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { api } from '../../api/client';
import type { Employer } from '../../api/types';
import { can, employerRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { AccessGate } from '../../components/AccessGate';
import { accountColumns } from '../../components/accountColumns';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { NameFormModal } from '../../components/NameFormModal';
import { NewAccountButton } from '../../components/NewAccountButton';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { schemeColumns } from '../../components/schemeColumns';
import { PAGES } from '../../layout/pages';

const employerKey = (employerId: string) => ['employers', employerId] as const;

/**
 * `/employers/$employerId`: one employer, its schemes and its accounts, for everyone who may read
 * it; what each may change follows the policy table (decisions.md §3).
 */
export function EmployerPage() {
  return (
    <AccessGate access={PAGES.employer}>
      <EmployerView />
    </AccessGate>
  );
}

function EmployerView() {
  const { employerId = '' } = useParams({ strict: false });
  const session = useSignedIn();
  const employer = useQuery({
    queryKey: employerKey(employerId),
    queryFn: () => api(apiRoutes.employers.get, { params: { id: employerId } }),
  });
  if (employer.isPending) return <Loading label="Loading the employer" />;
  if (employer.isError) return <LoadError error={employer.error} />;
  const { data } = employer;
  return (
    <Stack gap="xl">
      <Stack gap="md">
        <PageHeading title={data.name}>
          <EmployerActions employer={data} />
        </PageHeading>
        <Table variant="vertical" withTableBorder maw={560}>
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={160}>Created</Table.Th>
              <Table.Td>
                <DateTime value={data.createdAt} />
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Last changed</Table.Th>
              <Table.Td>
                <DateTime value={data.updatedAt} />
              </Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {can(session, 'auto_enrolment.read', employerRow(data)) && (
          <Anchor component={Link} to={`/employers/${data.id}/auto-enrolment`}>
            Automatic enrolment readiness
          </Anchor>
        )}
        {can(session, 'ae_payroll.import', employerRow(data)) && (
          <Anchor component={Link} to={`/employers/${data.id}/auto-enrolment/upload`}>
            Upload a payroll file for automatic enrolment
          </Anchor>
        )}
        {can(session, 'audit.read') && (
          <Anchor
            renderRoot={(props) => (
              <Link {...props} to="/audit" search={{ entityType: 'employer', entityId: data.id }} />
            )}
          >
            Audit history of this employer
          </Anchor>
        )}
      </Stack>
      <EmployerSchemes employer={data} />
      {can(session, 'employer.users.list', employerRow(data)) && (
        <EmployerAccounts employer={data} />
      )}
    </Stack>
  );
}

function EmployerActions({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const remove = async () => {
    await api(apiRoutes.employers.remove, { params: { id: employer.id } });
    notifySuccess(`Employer “${employer.name}” deleted.`);
    await navigate({ to: '/employers' });
    client.removeQueries({ queryKey: employerKey(employer.id) });
    await client.invalidateQueries({ queryKey: ['employers'] });
  };
  return (
    <>
      {can(session, 'employer.update', employerRow(employer)) && (
        <Button variant="default" onClick={() => setRenaming(true)}>
          Rename employer
        </Button>
      )}
      {can(session, 'employer.delete', employerRow(employer)) && (
        <Button color="red" variant="light" onClick={() => setDeleting(true)}>
          Delete employer
        </Button>
      )}
      <NameFormModal
        opened={renaming}
        onClose={() => setRenaming(false)}
        title="Rename employer"
        label="Employer name"
        submitLabel="Save name"
        initialName={employer.name}
        save={async (values) => {
          const renamed = await api(apiRoutes.employers.update, {
            params: { id: employer.id },
            body: values,
          });
          client.setQueryData(employerKey(employer.id), renamed);
          await client.invalidateQueries({ queryKey: ['employers'] });
          return renamed;
        }}
        savedMessage={(values) => `Employer renamed to “${values.name.trim()}”.`}
      />
      <ConfirmModal
        opened={deleting}
        onClose={() => setDeleting(false)}
        title="Delete employer"
        confirmLabel="Delete employer"
        onConfirm={remove}
      >
        <Text>
          Delete “{employer.name}”? It disappears from every list; the audit log keeps its history.
          An employer that still has schemes cannot be deleted.
        </Text>
      </ConfirmModal>
    </>
  );
}

function EmployerSchemes({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  return (
    <Stack gap="sm" component="section" aria-labelledby="employer-schemes">
      <PageHeading order={3} id="employer-schemes" title="Schemes">
        {can(session, 'scheme.create', employerRow(employer)) && (
          <NewSchemeButton employerId={employer.id} />
        )}
      </PageHeading>
      <CursorTable
        queryKey={['schemes', 'list', { employerId: employer.id }]}
        route={apiRoutes.schemes.list}
        query={{ employerId: employer.id }}
        columns={schemeColumns()}
        caption={`Schemes of ${employer.name}`}
        empty="This employer has no schemes yet."
      />
    </Stack>
  );
}

function EmployerAccounts({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  return (
    <Stack gap="sm" component="section" aria-labelledby="employer-accounts">
      <PageHeading order={3} id="employer-accounts" title="Accounts">
        {can(session, 'employer.users.create', employerRow(employer)) && (
          <NewAccountButton
            target={{ route: apiRoutes.employers.createUser, params: { id: employer.id } }}
            employerId={employer.id}
          />
        )}
      </PageHeading>
      <CursorTable
        queryKey={['accounts', 'employer', employer.id]}
        route={apiRoutes.employers.listUsers}
        params={{ id: employer.id }}
        columns={accountColumns({ withStatusAction: can(session, 'user.update') })}
        caption={`Accounts of ${employer.name}`}
        empty="This employer has no accounts yet."
      />
    </Stack>
  );
}
