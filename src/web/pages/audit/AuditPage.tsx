import '@mantine/dates/styles.css';
import {
  Alert,
  Anchor,
  Button,
  Code,
  Group,
  List,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  changeLine,
  changeValue,
  stateChanges,
  technicalDetails,
} from '../../../contracts/audit-changes';
import {
  ANONYMOUS_ACTOR_ID,
  AUDIT_RECORD_TYPES,
  actorDescription,
  actorRole,
  forwardedForNote,
  LIST_ENTITY_ID,
  recordTypeLabel,
  SYSTEM_ACTOR_ID,
} from '../../../contracts/audit-text';
import { isRole, ROLE_NAMES } from '../../../contracts/roles';
import { ApiError, api, describeError } from '../../api/client';
import { downloadAttachment } from '../../api/download';
import type { AuditRecord } from '../../api/types';
import { type Access, allows } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { fetchAllPages } from '../../components/allPages';
import { DateTime } from '../../components/DateTime';
import { Loading } from '../../components/Loading';
import { notifyProblem } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { ScrollTable } from '../../components/ScrollTable';
import { type AuditFilterValues, auditFilterForm, validateWith } from '../../components/validation';
import { formatDateTime } from '../../format';
import { PAGES } from '../../layout/pages';

const FILTERS = ['entityType', 'entityId', 'actorId', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

const RECORD_TYPE_OPTIONS = AUDIT_RECORD_TYPES.map((type) => ({
  value: type,
  label: recordTypeLabel(type),
}));

/** Records the UI has a page for, and what opening it needs. */
const RECORD_PAGES: Record<string, { path: (id: string) => string; access: Access }> = {
  broker: { path: (id) => `/brokers/${id}`, access: PAGES.broker },
  employer: { path: (id) => `/employers/${id}`, access: PAGES.employer },
  scheme: { path: (id) => `/schemes/${id}`, access: PAGES.scheme },
  member: { path: (id) => `/members/${id}`, access: PAGES.member },
};

/**
 * The role under a name, in the words every page uses (ROLE_NAMES); none for the service itself
 * (`actorRole`). A role this version does not know (a record of a later one) reads as its code.
 */
function roleInWords(record: { actorId: string; actorType: string }): string | null {
  const role = actorRole(record);
  if (role === null) return null;
  if (role === 'Anonymous') return 'Not signed in';
  return isRole(role) ? ROLE_NAMES[role] : role;
}

function filtersOf(search: Record<string, unknown>): Filters {
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = search[name];
    if (typeof value === 'string' && value !== '') filters[name] = value;
  }
  return filters;
}

/**
 * `/audit`: the audit log within the reader's reach, newest first, in words: who by name, what happened, and the record by name. The filters live in the address, so
 * other pages link to a record's history and a filtered view can be shared; `from` and `to` are
 * whole days in the browser's time zone, `to` included.
 */
export function AuditPage() {
  const filters = filtersOf(useSearch({ strict: false }));
  return (
    <Stack gap="lg">
      <PageHeading title="Audit log" />
      {/* A new address (a link to a record's history) starts the form afresh. */}
      <FilterForm key={JSON.stringify(filters)} filters={filters} />
      <AuditTable filters={filters} />
    </Stack>
  );
}

/** Midnight starting a `YYYY-MM-DD` day in the browser's time zone, `days` later, as ISO 8601. */
function startOfDay(day: string, days = 0): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + days).toISOString();
}

/** The API's query for the filters: whole days become times, and `to` becomes exclusive. */
function apiFilters(filters: Filters) {
  return {
    entityType: filters.entityType,
    entityId: filters.entityId,
    actorId: filters.actorId,
    from: filters.from && startOfDay(filters.from),
    to: filters.to && startOfDay(filters.to, 1),
  };
}

/** The people a reader may pick: the accounts of their reach, and the two actors that are no one. */
function usePeople(enabled: boolean) {
  return useQuery({
    queryKey: ['users', 'all', 'audit-picker'],
    queryFn: () => fetchAllPages(apiRoutes.users.list, {}),
    enabled,
    staleTime: 60_000,
  });
}

function FilterForm({ filters }: { filters: Filters }) {
  const navigate = useNavigate();
  // The list of people is read when first wanted: opening the picker, or a person already chosen.
  const [wantPeople, setWantPeople] = useState(filters.actorId !== undefined);
  const people = usePeople(wantPeople);
  const form = useForm<AuditFilterValues>({
    initialValues: {
      entityType: filters.entityType ?? '',
      entityId: filters.entityId ?? '',
      actorId: filters.actorId ?? '',
      from: filters.from ?? null,
      to: filters.to ?? null,
    },
    validate: validateWith(auditFilterForm),
  });
  const personOptions = [
    ...(people.data?.items ?? [])
      .map((account) => ({
        value: account.id,
        label: `${account.name} · ${ROLE_NAMES[account.role]}`,
      }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en-IE')),
    { value: SYSTEM_ACTOR_ID, label: 'The service itself' },
    { value: ANONYMOUS_ACTOR_ID, label: 'Someone not signed in' },
  ];
  const chosen = form.values.actorId;
  if (chosen && !personOptions.some((option) => option.value === chosen)) {
    personOptions.unshift({ value: chosen, label: `Account ${chosen}` });
  }
  const apply = form.onSubmit((values) => {
    const next: Filters = {};
    for (const name of FILTERS) {
      const value = values[name]?.trim();
      if (value) next[name] = value;
    }
    // A record chosen from a row belongs to its type: a new type ends that record's history.
    if (next.entityId && next.entityType !== filters.entityType) delete next.entityId;
    void navigate({ to: '/audit', search: next });
  });
  return (
    <Paper withBorder p="md" component="form" onSubmit={apply} noValidate aria-label="Filters">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 4 }}>
          <Select
            label="Person"
            description="Everything one person did"
            placeholder="Anyone"
            searchable
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the person' }}
            nothingFoundMessage={people.isPending ? 'Loading people…' : 'No one by that name'}
            data={personOptions}
            value={form.values.actorId || null}
            onChange={(value) => form.setFieldValue('actorId', value ?? '')}
            onDropdownOpen={() => setWantPeople(true)}
            error={form.errors.actorId}
          />
          <Select
            label="Record type"
            description="Records of one kind"
            placeholder="Any"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the record type' }}
            data={RECORD_TYPE_OPTIONS}
            value={form.values.entityType || null}
            onChange={(value) => form.setFieldValue('entityType', value ?? '')}
            error={form.errors.entityType}
          />
          <DatePickerInput
            label="From"
            description="The first day to show"
            valueFormat="DD/MM/YYYY"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the first day' }}
            {...form.getInputProps('from')}
          />
          <DatePickerInput
            label="To"
            description="The last day to show, included"
            valueFormat="DD/MM/YYYY"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the last day' }}
            {...form.getInputProps('to')}
          />
        </SimpleGrid>
        <Group gap="sm">
          <Button type="submit">Apply filters</Button>
          <Button variant="default" onClick={() => navigate({ to: '/audit', search: {} })}>
            Clear filters
          </Button>
          <ExportButton filters={filters} />
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * Downloads the CSV of the filters in force (those applied, as the table shows them); a refusal
 * (too many records, a lapsed session) reads as a message on this page.
 */
function ExportButton({ filters }: { filters: Filters }) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(
        apiRoutes.audit.exportCsv,
        { query: apiFilters(filters) },
        {
          accept: 'text/csv',
          fallbackName: 'audit-log.csv',
          failure: 'The export failed',
        },
      );
    } catch (error) {
      const issue = error instanceof ApiError ? error.issues[0]?.message : undefined;
      notifyProblem(issue ?? describeError(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="light" loading={busy} onClick={() => void download()}>
      Export CSV
    </Button>
  );
}

function AuditTable({ filters }: { filters: Filters }) {
  const session = useSignedIn();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const pages = useInfiniteQuery({
    queryKey: ['audit', 'list', filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api(apiRoutes.audit.list, {
        query: { ...apiFilters(filters), cursor: pageParam ?? undefined },
      }),
    getNextPageParam: (last) => last.nextCursor,
  });
  if (pages.isPending) return <Loading label="Loading the audit log" />;
  if (pages.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(pages.error)}
      </Alert>
    );
  }
  const records = pages.data.pages.flatMap((page) => page.items);
  const toggle = (id: string) =>
    setExpanded((current) => {
      const next = new Set(current);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const { entityId: _record, ...withoutRecord } = filters;
  const historyOf = filters.entityId
    ? records.find((record) => record.entityId === filters.entityId)
    : undefined;

  return (
    <Stack gap="sm">
      {filters.entityId && (
        <Group gap="sm" justify="space-between">
          <Text>
            The history of{' '}
            <Text span fw={600}>
              {historyOf?.entityLabel ?? filters.entityId}
            </Text>
            {historyOf && ` (${recordTypeLabel(historyOf.entityType).toLowerCase()})`}
          </Text>
          <Button
            variant="subtle"
            renderRoot={(props) => <Link {...props} to="/audit" search={withoutRecord} />}
          >
            Show every record
          </Button>
        </Group>
      )}
      <ScrollTable minWidth={960} label="Audit records (scrolls sideways)">
        <Table striped captionSide="top">
          <Table.Caption ta="left">Audit records, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>What happened</Table.Th>
              <Table.Th>Who</Table.Th>
              <Table.Th>Record</Table.Th>
              <Table.Th>Client address</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((record) => {
              const open = expanded.has(record.id);
              const detailsId = `audit-details-${record.id}`;
              const time = formatDateTime(record.timestamp);
              const who = actorDescription(record);
              const roleWords = roleInWords(record);
              const recordName = record.entityLabel ?? record.entityId;
              const page = RECORD_PAGES[record.entityType];
              // A list platform staff read has no page of its own to open.
              const canOpen =
                page !== undefined &&
                record.entityId !== LIST_ENTITY_ID &&
                !record.entityDeleted &&
                allows(session, page.access);
              const forwarded = forwardedForNote(record);
              return (
                <Fragment key={record.id}>
                  <Table.Tr>
                    <Table.Td>
                      <DateTime value={record.timestamp} />
                    </Table.Td>
                    <Table.Td>
                      {/* At most half a phone's width, so a long summary wraps within the screen
                          beside the time rather than running past its edge. */}
                      <div style={SUMMARY_IN_VIEW}>
                        <Text size="sm">{record.summary}</Text>
                        {/* Under what it opens, rather than in a column of its own pinned to the
                          edge, which on a phone covered the end of a long summary. */}
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          px={0}
                          aria-expanded={open}
                          aria-controls={open ? detailsId : undefined}
                          aria-label={`${open ? 'Hide' : 'Show'} details of “${record.summary}” at ${time}`}
                          onClick={() => toggle(record.id)}
                        >
                          {open ? 'Hide details' : 'Show details'}
                        </Button>
                      </div>
                    </Table.Td>
                    <Table.Td>
                      <Anchor
                        size="sm"
                        title={`Show only what ${who} did`}
                        renderRoot={(props) => (
                          <Link
                            {...props}
                            to="/audit"
                            search={{ ...filters, actorId: record.actorId }}
                          />
                        )}
                      >
                        {who}
                      </Anchor>
                      {roleWords !== null && (
                        <Text size="xs" c="dimmed">
                          {roleWords}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Text size="xs" c="dimmed">
                        {recordTypeLabel(record.entityType)}
                        {record.entityDeleted && ' · deleted'}
                      </Text>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor
                          size="sm"
                          ff={record.entityLabel === null ? 'monospace' : undefined}
                          title={`Show the history of ${recordName}`}
                          renderRoot={(props) => (
                            <Link
                              {...props}
                              to="/audit"
                              search={{
                                ...withoutRecord,
                                entityType: record.entityType,
                                entityId: record.entityId,
                              }}
                            />
                          )}
                        >
                          {recordName}
                        </Anchor>
                        {canOpen && (
                          <Anchor
                            size="xs"
                            aria-label={`Open ${recordName}`}
                            renderRoot={(props) => (
                              <Link {...props} to={page.path(record.entityId)} />
                            )}
                          >
                            Open
                          </Anchor>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>
                      {record.clientAddress === null ? (
                        <Text size="sm" c="dimmed">
                          Not recorded
                        </Text>
                      ) : (
                        <Text size="sm">{record.clientAddress}</Text>
                      )}
                      {forwarded !== null && (
                        <Text size="xs" c="dimmed">
                          {forwarded}
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr id={detailsId}>
                      <Table.Td colSpan={5}>
                        <div style={DETAILS_IN_VIEW}>
                          <RecordDetails record={record} />
                        </div>
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </ScrollTable>
      {records.length === 0 && <Text c="dimmed">No audit records match these filters.</Text>}
      {pages.hasNextPage && (
        <Group justify="center">
          <Button
            variant="light"
            loading={pages.isFetchingNextPage}
            onClick={() => pages.fetchNextPage()}
          >
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}

const SUMMARY_IN_VIEW = { maxWidth: 'min(50vw, 32rem)' } as const;

/**
 * A record's details, opened under its row, stay at the left edge of a table a phone scrolls
 * sideways and no wider than the screen, so they read without scrolling back and forth.
 */
const DETAILS_IN_VIEW = {
  position: 'sticky',
  left: 0,
  maxWidth: 'calc(100vw - 2 * var(--mantine-spacing-md))',
} as const;

/**
 * A record's details: what it says in words first; then, set apart under "Technical details", what
 * an auditor looks up (the action's code, the ids, the browser), each under a label in words
 * (docs/decisions/0051-readable-audit-log.md).
 */
function RecordDetails({ record }: { record: AuditRecord }) {
  const made = record.previousState === null || record.previousState === undefined;
  const gone = record.newState === null || record.newState === undefined;
  const changes = stateChanges(record.previousState, record.newState, record.entityType);
  const inWords = changes.filter((change) => !change.technical);
  const technical = [
    ...technicalDetails(record),
    ...changes
      .filter((change) => change.technical)
      .map((change) => ({ label: change.field, value: changeValue(change) })),
  ];
  const headingId = `audit-technical-${record.id}`;
  return (
    <Stack gap="sm" py="xs">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {made ? 'Recorded with it' : gone ? 'What it had' : 'What changed'}
        </Text>
        {inWords.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing beyond the action itself
          </Text>
        ) : (
          <List size="sm" spacing={2}>
            {inWords.map((change) => (
              <List.Item key={change.field}>{changeLine(change)}</List.Item>
            ))}
          </List>
        )}
      </Stack>
      <Stack gap={4} component="section" aria-labelledby={headingId}>
        <Text size="xs" fw={600} c="dimmed" id={headingId}>
          Technical details
        </Text>
        <List size="xs" spacing={2} c="dimmed">
          {technical.map((detail) => (
            <List.Item key={`${detail.label}:${detail.value}`}>
              {detail.label}: <Code>{detail.value}</Code>
            </List.Item>
          ))}
        </List>
      </Stack>
    </Stack>
  );
}
