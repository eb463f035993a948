import '@mantine/dates/styles.css';
import {
  Alert,
  Anchor,
  Autocomplete,
  Button,
  Code,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { DatePickerInput } from '@mantine/dates';
import { useForm } from '@mantine/form';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { Fragment, useState } from 'react';
import { api, describeError, type Page, query } from '../../api/client';
import type { AuditRecord } from '../../api/types';
import { DateTime } from '../../components/DateTime';
import { Loading } from '../../components/Loading';
import { PageHeading } from '../../components/PageHeading';
import { RoleGate } from '../../components/RoleGate';
import { type AuditFilterValues, auditFilterForm, validateWith } from '../../components/validation';
import { formatDateTime } from '../../format';

/** What the service records about (src/server: every `entityType` it writes). */
const ENTITY_TYPES = [
  'broker',
  'user',
  'employer',
  'scheme',
  'member',
  'contribution',
  'fund',
  'fund_choice',
  'import',
  'pps_key',
  'audit',
];
/** A record with everything `GET /api/audit` answers; the viewer shows all of it. */
interface AuditRecordDetail extends AuditRecord {
  /** The chain it belongs to: the tenant acted in, null for platform-level entities. */
  tenantId: string | null;
  /** The actor's own tenant, null for SuperAdmin and the system. */
  actorTenantId: string | null;
  userAgent: string;
}

const FILTERS = ['entityType', 'entityId', 'actorId', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

/**
 * `/audit`: the audit log, newest first (SuperAdmin: every tenant; BrokerAdmin: their own). The
 * filters live in the address, so other pages link to an entity's history and a filtered view
 * can be shared; `from` and `to` are whole days in the browser's time zone, `to` included.
 */
export function AuditPage() {
  return (
    <RoleGate roles={['SuperAdmin', 'BrokerAdmin']}>
      <Audit />
    </RoleGate>
  );
}

function Audit() {
  const search: Record<string, unknown> = useSearch({ strict: false });
  const filters: Filters = {};
  for (const name of FILTERS) {
    const value = search[name];
    if (typeof value === 'string' && value !== '') filters[name] = value;
  }
  return (
    <Stack gap="lg">
      <PageHeading title="Audit log" />
      {/* A new address (a link to an entity's history) starts the form afresh. */}
      <FilterForm key={JSON.stringify(filters)} filters={filters} />
      <AuditTable filters={filters} />
    </Stack>
  );
}

function FilterForm({ filters }: { filters: Filters }) {
  const navigate = useNavigate();
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
  const apply = form.onSubmit((values) => {
    const next: Filters = {};
    for (const name of FILTERS) {
      const value = values[name]?.trim();
      if (value) next[name] = value;
    }
    void navigate({ to: '/audit', search: next });
  });
  return (
    <Paper withBorder p="md" component="form" onSubmit={apply} noValidate aria-label="Filters">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Autocomplete
            label="Entity type"
            data={ENTITY_TYPES}
            {...form.getInputProps('entityType')}
          />
          <TextInput label="Entity ID" {...form.getInputProps('entityId')} />
          <TextInput label="Actor ID" {...form.getInputProps('actorId')} />
          <DatePickerInput
            label="From"
            description="The first day to show"
            valueFormat="D MMM YYYY"
            clearable
            clearButtonProps={{ 'aria-label': 'Clear the first day' }}
            {...form.getInputProps('from')}
          />
          <DatePickerInput
            label="To"
            description="The last day to show, included"
            valueFormat="D MMM YYYY"
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
        </Group>
      </Stack>
    </Paper>
  );
}

/** Midnight starting a `YYYY-MM-DD` day in the browser's time zone, `days` later, as ISO 8601. */
function startOfDay(day: string, days = 0): string {
  const [year = 1970, month = 1, date = 1] = day.split('-').map(Number);
  return new Date(year, month - 1, date + days).toISOString();
}

function AuditTable({ filters }: { filters: Filters }) {
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const path = `/api/audit${query({
    entityType: filters.entityType,
    entityId: filters.entityId,
    actorId: filters.actorId,
    from: filters.from && startOfDay(filters.from),
    // The API's `to` is exclusive: the day after the last day shown.
    to: filters.to && startOfDay(filters.to, 1),
  })}`;
  const pages = useInfiniteQuery({
    queryKey: ['audit', 'list', filters],
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) =>
      api<Page<AuditRecordDetail>>(
        'GET',
        pageParam === null
          ? path
          : `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(pageParam)}`,
      ),
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

  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={760}>
        <Table striped captionSide="top">
          <Table.Caption ta="left">Audit records, newest first</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Time</Table.Th>
              <Table.Th>Action</Table.Th>
              <Table.Th>Entity</Table.Th>
              <Table.Th>Actor</Table.Th>
              <Table.Th>IP address</Table.Th>
              <Table.Th>Details</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {records.map((record) => {
              const open = expanded.has(record.id);
              const detailsId = `audit-details-${record.id}`;
              const time = formatDateTime(record.timestamp);
              return (
                <Fragment key={record.id}>
                  <Table.Tr>
                    <Table.Td>
                      <DateTime value={record.timestamp} />
                    </Table.Td>
                    <Table.Td>{record.action}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{record.entityType}</Text>
                      <Anchor
                        size="xs"
                        ff="monospace"
                        renderRoot={(props) => (
                          <Link
                            {...props}
                            to="/audit"
                            search={{ entityType: record.entityType, entityId: record.entityId }}
                          />
                        )}
                      >
                        {record.entityId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Text size="sm">{record.actorType}</Text>
                      <Anchor
                        size="xs"
                        ff="monospace"
                        renderRoot={(props) => (
                          <Link {...props} to="/audit" search={{ actorId: record.actorId }} />
                        )}
                      >
                        {record.actorId}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{record.ipAddress}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        aria-expanded={open}
                        aria-controls={open ? detailsId : undefined}
                        aria-label={`${open ? 'Hide' : 'Show'} details of ${record.action} at ${time}`}
                        onClick={() => toggle(record.id)}
                      >
                        {open ? 'Hide' : 'Show'}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                  {open && (
                    <Table.Tr id={detailsId}>
                      <Table.Td colSpan={6}>
                        <RecordDetails record={record} />
                      </Table.Td>
                    </Table.Tr>
                  )}
                </Fragment>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
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

function RecordDetails({ record }: { record: AuditRecordDetail }) {
  return (
    <Stack gap="sm" py="xs">
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <StateBlock title="Previous state" state={record.previousState} />
        <StateBlock title="New state" state={record.newState} />
      </SimpleGrid>
      <Text size="sm">
        Tenant: {record.tenantId ?? 'platform'} · Actor’s tenant: {record.actorTenantId ?? 'none'} ·
        Browser: {record.userAgent}
      </Text>
    </Stack>
  );
}

function StateBlock({ title, state }: { title: string; state: unknown }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {state === null || state === undefined ? (
        <Text size="sm" c="dimmed">
          None
        </Text>
      ) : (
        <Code block>{JSON.stringify(state, null, 2)}</Code>
      )}
    </Stack>
  );
}
