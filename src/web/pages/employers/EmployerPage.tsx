import { Anchor, Button, Stack, Table, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { PAYROLL_FREQUENCY_NAMES } from '../../../contracts/organisation';
import { api } from '../../api/client';
import type { Employer } from '../../api/types';
import { can, employerRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { accountColumns } from '../../components/accountColumns';
import { ConfirmModal } from '../../components/ConfirmModal';
import { CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { NewAccountButton } from '../../components/NewAccountButton';
import { NewSchemeButton } from '../../components/NewSchemeButton';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { schemeColumns } from '../../components/schemeColumns';
import { EmployerFormModal } from './EmployerForm';
import { RemittanceCalendar } from './RemittanceCalendar';

const employerKey = (employerId: string) => ['employers', employerId] as const;

/**
 * `/employers/$employerId`: one employer, its schemes and its accounts, for everyone who may read
 * it; what each may change follows the policy table (src/contracts/policy.ts).
 */
export function EmployerPage() {
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
        <Table variant="vertical" withTableBorder maw={640} aria-label="Employer details">
          <Table.Tbody>
            <EmployerDetails employer={data} />
            <Table.Tr>
              <Table.Th>Created</Table.Th>
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
      {can(session, 'remittance.read', employerRow(data)) && <RemittanceCalendar employer={data} />}
      {can(session, 'employer.users.list', employerRow(data)) && (
        <EmployerAccounts employer={data} />
      )}
    </Stack>
  );
}

/** Shown where a detail has not been given. */
const notRecorded = (
  <Text span c="dimmed">
    Not recorded
  </Text>
);

function DetailRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th w={200}>{label}</Table.Th>
      <Table.Td>{children ?? notRecorded}</Table.Td>
    </Table.Tr>
  );
}

/**
 * The details a broker keeps of an employer (docs/decisions/0132-employer-and-scheme-details.md),
 * each "Not recorded" until given.
 */
function EmployerDetails({ employer }: { employer: Employer }) {
  const contact = [employer.contactName, employer.contactEmail, employer.contactPhone].some(
    (detail) => detail !== null,
  );
  return (
    <>
      <DetailRow label="CRO number">{employer.croNumber}</DetailRow>
      <DetailRow label="Employer registration number">
        {employer.employerRegistrationNumber}
      </DetailRow>
      <DetailRow label="Registered address">
        {employer.registeredAddress && (
          <Text span style={{ whiteSpace: 'pre-line' }}>
            {employer.registeredAddress}
          </Text>
        )}
      </DetailRow>
      <DetailRow label="Payroll frequency">
        {employer.payrollFrequency && PAYROLL_FREQUENCY_NAMES[employer.payrollFrequency]}
      </DetailRow>
      <DetailRow label="Contact person">
        {contact ? (
          <Stack gap={2}>
            {employer.contactName && <Text span>{employer.contactName}</Text>}
            {employer.contactEmail && (
              <Anchor href={`mailto:${employer.contactEmail}`}>{employer.contactEmail}</Anchor>
            )}
            {employer.contactPhone && (
              <Anchor href={`tel:${employer.contactPhone.replace(/[^+\d]/g, '')}`}>
                {employer.contactPhone}
              </Anchor>
            )}
          </Stack>
        ) : null}
      </DetailRow>
    </>
  );
}

function EmployerActions({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
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
        <Button variant="default" onClick={() => setEditing(true)}>
          Edit employer
        </Button>
      )}
      {can(session, 'employer.delete', employerRow(employer)) && (
        <Button color="red" variant="light" onClick={() => setDeleting(true)}>
          Delete employer
        </Button>
      )}
      <EmployerFormModal
        employer={employer}
        opened={editing}
        onClose={() => setEditing(false)}
        onSaved={(saved) => client.setQueryData(employerKey(employer.id), saved)}
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
