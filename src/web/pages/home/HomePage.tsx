import { Anchor, Button, List, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { apiRoutes } from '../../../contracts/api-routes';
import { savedInWords } from '../../../contracts/imports';
import { counted } from '../../../contracts/plain-english';
import { api, describeError } from '../../api/client';
import type { Overview } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { PageHeading } from '../../components/PageHeading';
import { ScrollTable } from '../../components/ScrollTable';
import { remittanceCalendarQuery, thisMonth } from '../employers/remittanceQueries';
import {
  dueHeading,
  dueStanding,
  memberNeedText,
  remittanceNotes,
  uploadAction,
} from './attention';
import { OVERVIEW_KEY } from './overview-cache';
import { SchemesNeedingAttention } from './SchemesNeedingAttention';

/**
 * `/home`: where an employer's staff land (docs/decisions/0045-home-pages-by-role.md): this month's contributions to
 * upload, what was uploaded lately, the months whose payment is late or missing, and the members
 * that need attention.
 */
export function HomePage() {
  const session = useSignedIn();
  const { account } = session;
  const overview = useQuery({
    queryKey: OVERVIEW_KEY,
    queryFn: () => api(apiRoutes.overview.get),
  });
  if (overview.isPending) return <Loading label="Loading your home page" />;
  if (overview.isError) return <LoadError error={overview.error} />;
  const data = overview.data;
  const canUpload = can(session, 'contribution.import');
  return (
    <Stack gap="xl">
      <PageHeading title={account.employerName ?? 'Home'} />
      <Stack gap="sm" component="section" aria-labelledby="home-upload">
        <Title order={3} id="home-upload">
          {dueHeading(data, canUpload)}
        </Title>
        {data.schemes.length === 0 ? (
          <Text>There are no schemes yet. Your broker sets them up.</Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {data.schemes.map((scheme) => {
              const upload = uploadAction(scheme, data.duePeriod);
              return (
                <Paper
                  key={scheme.id}
                  withBorder
                  p="md"
                  component="article"
                  aria-label={scheme.name}
                >
                  <Stack gap="xs" align="flex-start">
                    <Anchor component={Link} to={`/schemes/${scheme.id}`} fw={600}>
                      {scheme.name}
                    </Anchor>
                    <Text size="sm">{dueStanding(scheme, data.duePeriod)}</Text>
                    {canUpload && (
                      <Button
                        renderRoot={(props) => (
                          <Link
                            {...props}
                            to="/schemes/$schemeId/import"
                            params={{ schemeId: scheme.id }}
                            search={{ kind: 'contributions' }}
                          />
                        )}
                        variant={upload.pressing ? 'filled' : 'default'}
                        size="sm"
                        aria-label={upload.label}
                      >
                        {upload.text}
                      </Button>
                    )}
                  </Stack>
                </Paper>
              );
            })}
          </SimpleGrid>
        )}
      </Stack>
      <RecentUploads overview={data} />
      {account.employerId !== null && can(session, 'remittance.read') && (
        <LateRemittance employerId={account.employerId} />
      )}
      <MembersNeedingAttention overview={data} />
      <SchemesNeedingAttention overview={data} withEmployer={false} />
    </Stack>
  );
}

const KIND = { members: 'Members', contributions: 'Contributions' } as const;
const STATUS: Record<string, string> = {
  succeeded: 'Saved',
  rejected: 'Refused: nothing saved',
  failed: 'Failed: nothing saved',
  running: 'In progress',
};

function RecentUploads({ overview }: { overview: Overview }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-uploads">
      {/* Files of members and contributions (imports); payroll files, which the auto-enrolment
          assessment reads, are listed on the payroll page. */}
      <Title order={3} id="home-uploads">
        Recent member and contribution files
      </Title>
      {overview.recentUploads.length === 0 ? (
        <Text>No file of members or contributions has been uploaded yet.</Text>
      ) : (
        <ScrollTable minWidth={480} label="Recent member and contribution files">
          <Table striped>
            <Table.Caption>The latest uploads, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Scheme</Table.Th>
                <Table.Th>File</Table.Th>
                <Table.Th>Outcome</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {overview.recentUploads.map((upload) => (
                <Table.Tr key={upload.id}>
                  <Table.Td>
                    <DateTime value={upload.createdAt} />
                  </Table.Td>
                  <Table.Td>{upload.schemeName}</Table.Td>
                  <Table.Td>{KIND[upload.kind]}</Table.Td>
                  <Table.Td>
                    {STATUS[upload.status] ?? upload.status}
                    {upload.status === 'succeeded'
                      ? `: ${savedInWords(upload.kind, upload.rowsWritten)}`
                      : upload.issueCount > 0
                        ? ` (${counted(upload.issueCount, 'problem')})`
                        : ''}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}

/**
 * The employer's months whose deductions reached the scheme late or have not reached it by their
 * due day, from the remittance calendar the employer's page shows (one request, its key shared
 * with the calendar, so a payment recorded there refreshes this too).
 */
function LateRemittance({ employerId }: { employerId: string }) {
  const calendar = useQuery(remittanceCalendarQuery(employerId, thisMonth()));
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-remittance">
      <Title order={3} id="home-remittance">
        Payments to the schemes
      </Title>
      {calendar.isPending ? (
        <Loading label="Loading the payments to the schemes" />
      ) : calendar.isError ? (
        <Text c="red">{describeError(calendar.error)}</Text>
      ) : (
        <RemittanceNotes notes={remittanceNotes(calendar.data.items)} />
      )}
      <Anchor component={Link} to={`/employers/${employerId}`} size="sm">
        The remittance calendar
      </Anchor>
    </Stack>
  );
}

function RemittanceNotes({ notes }: { notes: string[] }) {
  if (notes.length === 0) {
    return <Text>No payment of the last twelve months is late or missing.</Text>;
  }
  return (
    <List aria-label="Months late or missing">
      {notes.map((note) => (
        <List.Item key={note}>{note}</List.Item>
      ))}
    </List>
  );
}

function MembersNeedingAttention({ overview }: { overview: Overview }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="home-members">
      <Title order={3} id="home-members">
        Members who need attention
      </Title>
      {overview.membersNeedingAttention.length === 0 ? (
        <Text>No member needs attention.</Text>
      ) : (
        <ScrollTable minWidth={480} label="Members who need attention">
          <Table striped>
            <Table.Caption>Members who need attention, and why</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Member</Table.Th>
                <Table.Th>Scheme</Table.Th>
                <Table.Th>Why</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {overview.membersNeedingAttention.map((member) => (
                <Table.Tr key={member.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/members/${member.id}`}>
                      {member.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{member.schemeName}</Table.Td>
                  <Table.Td>
                    {member.needs
                      .map((need) => memberNeedText(need, overview.duePeriod))
                      .join('; ')}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </Stack>
  );
}
