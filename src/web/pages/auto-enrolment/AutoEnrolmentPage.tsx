import {
  Anchor,
  Badge,
  Button,
  Chip,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import type {
  AssessedEmployee,
  AssessmentView,
  StatusTotals,
} from '../../../contracts/auto-enrolment';
import {
  AE_STATUS_LABELS,
  AE_STATUS_MEANINGS,
  type AeStatus,
  SHORTFALL_PERIOD,
} from '../../../contracts/auto-enrolment-rules';
import { isIsoDate, todayInIreland } from '../../../contracts/irish-dates';
import { formatCents } from '../../../contracts/money';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api, describeError } from '../../api/client';
import { downloadAttachment } from '../../api/download';
import type { Employer } from '../../api/types';
import { can, employerRow } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { IrishDateInput } from '../../components/IrishDateInput';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { notifyProblem } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { QueryPanel } from '../../components/QueryPanel';
import { ScrollTable } from '../../components/ScrollTable';
import { formatDate } from '../../format';
import { useStepUp } from '../account/ConfirmItsYou';
import {
  employeeName,
  inOrderOfAction,
  STATUS_COLORS,
  STATUS_ORDER,
  type StatusFilter,
  withStatus,
} from './ae-helpers';
import { AE_KEY } from './aeQueries';
import { CostComparison } from './CostComparison';
import { PayrollUploads } from './PayrollUploads';

const counter = new Intl.NumberFormat('en-IE');

/**
 * `/employers/$employerId/auto-enrolment`: the employer's readiness for automatic enrolment on a
 * day (today unless another is picked), over the window the rule module sets: how many employees
 * stand at each status, each employee's reasons in the rule module's words with their citation,
 * how far each falls short in euro, the CSV and the PDF summary, and the cost comparison
 * (docs/api.md, "Auto-enrolment readiness"; the Automatic Enrolment Retirement Savings System Act
 * 2024, as contracts/auto-enrolment-rules.ts cites it).
 */
export function AutoEnrolmentPage() {
  const { employerId = '' } = useParams({ strict: false });
  const employer = useQuery({
    queryKey: ['employers', employerId],
    queryFn: () => api(apiRoutes.employers.get, { params: { id: employerId } }),
  });
  if (employer.isPending) return <Loading label="Loading the employer" />;
  if (employer.isError) return <LoadError error={employer.error} />;
  return <Assessment employer={employer.data} />;
}

function Assessment({ employer }: { employer: Employer }) {
  const session = useSignedIn();
  const today = todayInIreland(new Date());
  const [entry, setEntry] = useState(today);
  // The last readable day stays assessed while another is being typed.
  const [asOf, setAsOf] = useState(today);
  const report = useQuery({
    queryKey: [...AE_KEY, employer.id, 'report', asOf],
    queryFn: () =>
      api(apiRoutes.autoEnrolment.assessment, { params: { id: employer.id }, query: { asOf } }),
  });
  const row = employerRow(employer);

  return (
    <Stack gap="xl">
      <Stack gap="xs">
        <PageHeading title="Automatic enrolment">
          {can(session, 'ae_payroll.import', row) && (
            <Button component={Link} to={`/employers/${employer.id}/auto-enrolment/upload`}>
              Upload a payroll file
            </Button>
          )}
        </PageHeading>
        <Text>
          Readiness of{' '}
          <Anchor component={Link} to={`/employers/${employer.id}`} underline="always">
            {employer.name}
          </Anchor>{' '}
          for My Future Fund, from the payroll files uploaded.
        </Text>
      </Stack>
      <Group align="flex-end" gap="md">
        <IrishDateInput
          label="Assess as of"
          value={entry}
          onChange={(value) => {
            setEntry(value);
            if (isIsoDate(value)) setAsOf(value);
          }}
          w={200}
        />
        {can(session, 'auto_enrolment.export', row) && (
          <DownloadButton
            label="Download CSV"
            route={apiRoutes.autoEnrolment.exportCsv}
            employerId={employer.id}
            asOf={asOf}
            accept="text/csv"
            fallbackName="auto-enrolment.csv"
          />
        )}
        {can(session, 'auto_enrolment.summary', row) && (
          <DownloadButton
            label="Download PDF summary"
            route={apiRoutes.autoEnrolment.summaryPdf}
            employerId={employer.id}
            asOf={asOf}
            accept="application/pdf"
            fallbackName="auto-enrolment-summary.pdf"
          />
        )}
      </Group>
      <QueryPanel query={report} loading="Assessing the payroll">
        {(data) => <Report report={data} />}
      </QueryPanel>
      {can(session, 'auto_enrolment.cost', row) && (
        <CostComparison employerId={employer.id} asOf={asOf} />
      )}
      {can(session, 'ae_payroll.list', row) && (
        <PayrollUploads
          employerId={employer.id}
          canDelete={can(session, 'ae_payroll.delete', row)}
        />
      )}
    </Stack>
  );
}

function DownloadButton({
  label,
  route,
  employerId,
  asOf,
  accept,
  fallbackName,
}: {
  label: string;
  route: typeof apiRoutes.autoEnrolment.exportCsv | typeof apiRoutes.autoEnrolment.summaryPdf;
  employerId: string;
  asOf: string;
  accept: string;
  fallbackName: string;
}) {
  const [busy, setBusy] = useState(false);
  // The CSV lists every employee's pay: it needs a recent second factor where the account has one.
  const stepUp = useStepUp();
  const download = async () => {
    setBusy(true);
    await stepUp.run(
      () =>
        downloadAttachment(
          route,
          { params: { id: employerId }, query: { asOf } },
          { accept, fallbackName, failure: 'The download failed' },
        ),
      (error) => notifyProblem(describeError(error)),
    );
    setBusy(false);
  };
  return (
    <Stack gap="xs">
      <Button variant="light" loading={busy} onClick={() => void download()}>
        {label}
      </Button>
      {stepUp.confirmation}
    </Stack>
  );
}

function Report({ report }: { report: AssessmentView }) {
  const [filter, setFilter] = useState<StatusFilter>('all');
  const shown = withStatus(inOrderOfAction(report.employees), filter);
  return (
    <Stack gap="lg">
      <Text>
        Pay periods ending from <strong>{formatDate(report.windowStart)}</strong> to{' '}
        <strong>{formatDate(report.windowEnd)}</strong> are assessed.
      </Text>
      <Text size="sm" c="dimmed">
        A shortfall is for {SHORTFALL_PERIOD}, all of their pay periods together; the cost
        comparison below is the employer’s cost a year.
      </Text>
      <StatusCounts totals={report.totals} />
      <Stack gap="sm" component="section" aria-labelledby="ae-employees">
        <Title order={3} id="ae-employees">
          Employees
        </Title>
        {report.employees.length === 0 ? (
          <Text>No employees yet: upload a payroll file to assess them.</Text>
        ) : (
          <>
            <Chip.Group
              multiple={false}
              value={filter}
              onChange={(value) => setFilter(value as StatusFilter)}
            >
              <Group gap="xs" role="group" aria-label="Employees to show">
                <Chip value="all">All ({counter.format(report.employees.length)})</Chip>
                {STATUS_ORDER.map((status) => (
                  <Chip key={status} value={status}>
                    {AE_STATUS_LABELS[status]} ({counter.format(report.totals[status])})
                  </Chip>
                ))}
              </Group>
            </Chip.Group>
            <EmployeesTable employees={shown} filter={filter} />
          </>
        )}
      </Stack>
    </Stack>
  );
}

function StatusCounts({ totals }: { totals: StatusTotals }) {
  return (
    <SimpleGrid
      cols={{ base: 2, sm: 3, lg: 5 }}
      component="section"
      aria-label="Employees by status"
    >
      {STATUS_ORDER.map((status) => (
        <Paper
          key={status}
          withBorder
          p="md"
          component="section"
          aria-label={`${AE_STATUS_LABELS[status]}: ${totals[status]}`}
        >
          <Stack gap={4} align="flex-start">
            <StatusBadge status={status} />
            <Text fz={32} fw={700} lh={1.2}>
              {counter.format(totals[status])}
            </Text>
            <Text size="sm">{AE_STATUS_MEANINGS[status]}</Text>
          </Stack>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

export function StatusBadge({ status }: { status: AeStatus }) {
  return (
    // Wraps rather than cutting the label short in a narrow card or column.
    <Badge
      color={STATUS_COLORS[status]}
      variant="light"
      h="auto"
      styles={{ label: { whiteSpace: 'normal', overflow: 'visible' } }}
    >
      {AE_STATUS_LABELS[status]}
    </Badge>
  );
}

function EmployeesTable({
  employees,
  filter,
}: {
  employees: AssessedEmployee[];
  filter: StatusFilter;
}) {
  if (employees.length === 0) return <Text>No employee has this status.</Text>;
  return (
    <ScrollTable minWidth={760} label="Employees and their automatic-enrolment status">
      <Table striped captionSide="top">
        <Table.Caption ta="left">
          {filter === 'all'
            ? 'Every employee in the payroll, what needs acting on first'
            : `Employees: ${AE_STATUS_LABELS[filter].toLowerCase()}`}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Employee</Table.Th>
            <Table.Th miw={190}>Status</Table.Th>
            <Table.Th>Why</Table.Th>
            <Table.Th ta="right">
              Shortfall{' '}
              <Text span size="xs" fw={400} display="block">
                over {SHORTFALL_PERIOD}
              </Text>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {employees.map((employee) => (
            <Table.Tr key={employee.employeeId}>
              <Table.Td>
                <EmployeeName employee={employee} />
              </Table.Td>
              <Table.Td>
                <StatusBadge status={employee.status} />
              </Table.Td>
              <Table.Td>
                <Stack gap={4} component="ul" m={0} pl="md">
                  {employee.reasons.map((reason) => (
                    <Text component="li" size="sm" key={reason.code}>
                      {reason.message}{' '}
                      <Text span size="xs" c="dimmed">
                        ({sourceInWords(reason)})
                      </Text>
                    </Text>
                  ))}
                </Stack>
              </Table.Td>
              <Table.Td ta="right">
                {employee.shortfallCents === undefined ? '—' : formatCents(employee.shortfallCents)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ScrollTable>
  );
}

/** The employee as the payroll names them; a member's name opens their record. */
function EmployeeName({ employee }: { employee: AssessedEmployee }) {
  const name = employeeName(employee);
  if (employee.memberId) {
    return (
      <Anchor component={Link} to={`/members/${employee.memberId}`}>
        {name}
      </Anchor>
    );
  }
  return <>{name}</>;
}
