import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { calendarQuery } from '../../../contracts/governance';
import { todayInIreland } from '../../../contracts/irish-dates';
import { scopeIn } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { useAllEmployers } from '../../components/allPages';
import { CursorTable } from '../../components/CursorTable';
import { IrishDateInput } from '../../components/IrishDateInput';
import { PageHeading } from '../../components/PageHeading';
import { dueDateColumns } from './ComplianceParts';
import { SchemeGovernanceLink } from './GovernanceDashboardPage';
import { calendarEntryKey, defaultCalendarWindow, validateWithDates } from './governance-helpers';
import { GOVERNANCE_KEY } from './governanceQueries';

interface Filters {
  from: string;
  to: string;
  employerId: string | null;
}

const filterQuery = (filters: Filters) => ({
  from: filters.from,
  to: filters.to,
  employerId: filters.employerId ?? undefined,
});

/**
 * `/compliance-calendar`: every scheme within reach, optionally one employer's, with each duty
 * still outstanding from before the window first, then every due date in the window (today to a
 * year on unless changed), soonest first (docs/decisions/0059-governance-rules.md, "Later").
 */
export function ComplianceCalendarPage() {
  const session = useSignedIn();
  // Only a reach wider than one employer has employers to filter by.
  const spansEmployers = scopeIn(session, 'compliance.calendar') === 'tenant';
  const employers = useAllEmployers(spansEmployers);
  const [shown, setShown] = useState<Filters>(() => ({
    ...defaultCalendarWindow(todayInIreland(new Date())),
    employerId: null,
  }));
  const form = useForm<Filters>({
    initialValues: shown,
    validate: validateWithDates(calendarQuery, filterQuery, {
      from: { required: true },
      to: { required: true },
    }),
  });
  const employerName = (employerId: string) =>
    employers.data?.items.find((employer) => employer.id === employerId)?.name ?? 'the employer';
  return (
    <Stack gap="lg">
      <PageHeading title="Compliance calendar" />
      <form
        onSubmit={form.onSubmit((values) => setShown(values))}
        noValidate
        aria-label="Which due dates to show"
      >
        <Group align="flex-start" gap="sm">
          <IrishDateInput label="From" required w={180} {...form.getInputProps('from')} />
          <IrishDateInput label="To" required w={180} {...form.getInputProps('to')} />
          {spansEmployers && (
            <Select
              label="Employer"
              placeholder={employers.isPending ? 'Loading employers…' : 'All employers'}
              searchable
              clearable
              clearButtonProps={{ 'aria-label': 'Show all employers' }}
              nothingFoundMessage="No employer has that name"
              w={280}
              data={(employers.data?.items ?? []).map((employer) => ({
                value: employer.id,
                label: employer.name,
              }))}
              {...form.getInputProps('employerId')}
            />
          )}
          <Button type="submit" mt={25}>
            Show
          </Button>
        </Group>
      </form>
      <Text size="sm">
        First, every duty still outstanding from before the From date, such as one overdue; then
        every date a duty falls due from From to To, soonest first, a yearly or monthly duty once
        for each date. A gap in a register has no due date: the governance dashboard lists those.
      </Text>
      <CursorTable
        queryKey={[...GOVERNANCE_KEY, 'calendar', shown]}
        route={apiRoutes.compliance.calendar}
        query={{ ...filterQuery(shown), limit: 100 }}
        // Calendar entries carry no id: each is keyed by its date, scheme, obligation and subject.
        rowKey={calendarEntryKey}
        columns={dueDateColumns((entry) => (
          <SchemeGovernanceLink schemeId={entry.schemeId} name={entry.schemeName} />
        ))}
        caption={
          shown.employerId
            ? `Due dates of the schemes of ${employerName(shown.employerId)}`
            : 'Due dates of every scheme'
        }
        empty="Nothing is outstanding from before this window and nothing falls due in it."
      />
    </Stack>
  );
}
