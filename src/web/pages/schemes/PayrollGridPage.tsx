import {
  Alert,
  Anchor,
  Button,
  Group,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type FormEvent, useMemo, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  CONTRIBUTION_KIND_LABELS,
  CONTRIBUTION_KINDS,
  type ContributionKind,
} from '../../../contracts/contributions';
import { todayInIreland } from '../../../contracts/irish-dates';
import { formatCents, plainEuro, readEuro } from '../../../contracts/money';
import {
  copyFromPeriod,
  type Filled,
  fillFromSalary,
  previousPeriod,
} from '../../../contracts/payroll-fill';
import { MAX_RATE_BASIS_POINTS, percentEntry, readPercent } from '../../../contracts/percent';
import { counted } from '../../../contracts/plain-english';
import { ApiError, api, describeError } from '../../api/client';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { PINNED_START, ScrollTable } from '../../components/ScrollTable';
import { formatPeriod } from '../../format';
import { copyReport } from './payroll-copy';
import { useScheme } from './SchemeQueries';

const KINDS = CONTRIBUTION_KINDS;
type Kind = ContributionKind;
const FIELD: Record<Kind, 'employeeCents' | 'employerCents' | 'avcCents'> = {
  employee: 'employeeCents',
  employer: 'employerCents',
  avc: 'avcCents',
};

/** What was typed in each cell, by member and kind; a cell not touched is not sent. */
type Edits = Record<string, Partial<Record<Kind, string>>>;

/** A fill's amounts laid over what was typed, each as a person would type it, so each stays editable. */
function withFilled(current: Edits, filled: Filled): Edits {
  const next: Edits = { ...current };
  for (const [memberId, cells] of Object.entries(filled)) {
    const typed: Partial<Record<Kind, string>> = { ...next[memberId] };
    for (const [kind, cents] of Object.entries(cells)) typed[kind as Kind] = plainEuro(cents);
    next[memberId] = typed;
  }
  return next;
}

const cellsIn = (filled: Filled) =>
  Object.values(filled).reduce((sum, cells) => sum + Object.keys(cells).length, 0);

/**
 * `/schemes/$schemeId/payroll/$period` (docs/decisions/0048-contributions-as-a-payroll-grid.md): one pay period of a whole scheme as
 * payroll sees it, members down and employee, employer and AVC across, entered or corrected and
 * saved in one go. A changed amount already recorded becomes a correction, which needs a reason.
 */
export function PayrollGridPage() {
  const { schemeId = '', period = '' } = useParams({ strict: false });
  const session = useSignedIn();
  const client = useQueryClient();
  const scheme = useScheme(schemeId);
  const key = ['schemes', schemeId, 'payroll', period];
  const grid = useQuery({
    queryKey: key,
    queryFn: () => api(apiRoutes.payroll.get, { params: { id: schemeId, period } }),
  });
  const [edits, setEdits] = useState<Edits>({});
  const [reason, setReason] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [copying, setCopying] = useState(false);
  // The rates typed once for the whole grid, the scheme's own when it has them (null: not yet typed).
  const [rates, setRates] = useState<{ employee: string; employer: string } | null>(null);
  const [rateProblem, setRateProblem] = useState<string | null>(null);
  const [fillNote, setFillNote] = useState<{ tone: 'success' | 'info'; message: string } | null>(
    null,
  );
  // Nothing is typed into a wound-up scheme's grid: its records are kept as they were.
  const editable = scheme.isSuccess && canChange(session, 'payroll.save', scheme.data);

  // Each typed cell read by the one money rule (docs/decisions/0100-one-money-rule.md): `12,50`
  // is refused as ambiguous, never sent as 1,250 euro.
  const parsed = useMemo(() => {
    const errors: Record<string, string> = {};
    const amounts: Record<string, Partial<Record<Kind, number>>> = {};
    let corrections = 0;
    for (const row of grid.data?.rows ?? []) {
      for (const kind of KINDS) {
        const typed = edits[row.memberId]?.[kind];
        if (typed === undefined) continue;
        // An emptied cell is zero: nothing new is recorded, and a recorded amount is corrected to it.
        const reading = typed.trim() === '' ? { ok: true as const, cents: 0 } : readEuro(typed);
        if (!reading.ok) {
          errors[`${row.memberId}.${kind}`] = reading.message;
          continue;
        }
        amounts[row.memberId] = { ...amounts[row.memberId], [kind]: reading.cents };
        if (row[kind] !== null && row[kind]?.amountCents !== reading.cents) corrections += 1;
      }
    }
    return { errors, amounts, corrections };
  }, [edits, grid.data]);

  if (grid.isPending || scheme.isPending) return <Loading label="Loading the pay period" />;
  if (grid.isError || scheme.isError) return <LoadError error={grid.error ?? scheme.error} />;
  const data = grid.data;
  const title = `${formatPeriod(period)} contributions`;
  const lastPeriod = previousPeriod(period);
  const typedRates = rates ?? {
    employee: schemeRate(scheme.data.employeeContributionBasisPoints),
    employer: schemeRate(scheme.data.employerContributionBasisPoints),
  };

  // Last month's recorded amounts, read through the grid's own route; nothing is saved until Save.
  const copyLastMonth = async () => {
    setProblem(null);
    setCopying(true);
    try {
      const last = await client.fetchQuery({
        queryKey: ['schemes', schemeId, 'payroll', lastPeriod],
        queryFn: () => api(apiRoutes.payroll.get, { params: { id: schemeId, period: lastPeriod } }),
      });
      const filled = copyFromPeriod(data.rows, last.rows, period);
      setEdits((current) => withFilled(current, filled));
      const recorded = last.rows.reduce(
        (sum, row) => sum + KINDS.filter((kind) => row[kind] !== null).length,
        0,
      );
      const report = copyReport(cellsIn(filled), recorded, lastPeriod);
      setFillNote(report);
    } catch (error) {
      setProblem(describeError(error));
    } finally {
      setCopying(false);
    }
  };

  const fillPercentages = () => {
    const read = (typed: string) => (typed.trim() === '' ? null : readPercent(typed));
    const employee = read(typedRates.employee);
    const employer = read(typedRates.employer);
    const unreadable =
      (typedRates.employee.trim() !== '' &&
        (employee === null || employee > MAX_RATE_BASIS_POINTS)) ||
      (typedRates.employer.trim() !== '' &&
        (employer === null || employer > MAX_RATE_BASIS_POINTS));
    if (unreadable || (employee === null && employer === null)) {
      setRateProblem('Enter a percentage of salary from 0 to 100, e.g. 5 or 7.5');
      return;
    }
    setRateProblem(null);
    const filled = fillFromSalary(data.rows, { employee, employer }, period);
    setEdits((current) => withFilled(current, filled));
    setFillNote({
      tone: 'success',
      message: `${counted(cellsIn(filled), 'amount')} filled from salary: check them, then save.`,
    });
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    if (Object.keys(parsed.errors).length > 0) {
      setProblem('Some amounts are not in euro. Correct the cells marked below.');
      return;
    }
    if (parsed.corrections > 0 && reason.trim() === '') {
      setProblem('Say why amounts already recorded are being corrected.');
      return;
    }
    const rows = Object.entries(parsed.amounts).map(([memberId, cells]) => ({
      memberId,
      ...Object.fromEntries(
        Object.entries(cells).map(([kind, cents]) => [FIELD[kind as Kind], cents]),
      ),
    }));
    setBusy(true);
    try {
      const saved = await api(apiRoutes.payroll.save, {
        params: { id: schemeId, period },
        body: { rows, ...(parsed.corrections > 0 ? { reason } : {}) },
      });
      client.setQueryData(key, saved);
      void client.invalidateQueries({ queryKey: ['schemes', schemeId, 'contribution-periods'] });
      setEdits({});
      setReason('');
      setFillNote(null);
      notifySuccess(
        `${formatPeriod(period)} saved: ${saved.created} recorded, ${saved.corrected} corrected.`,
      );
    } catch (error) {
      setProblem(
        error instanceof ApiError && error.issues.length > 0
          ? error.issues.map((issue) => issue.message).join(' ')
          : describeError(error),
      );
    } finally {
      setBusy(false);
    }
  };

  const cellValue = (memberId: string, kind: Kind, cents: number | undefined) =>
    edits[memberId]?.[kind] ?? (cents === undefined ? '' : plainEuro(cents));

  return (
    <Stack gap="md">
      <Anchor component={Link} to={`/schemes/${schemeId}`} size="sm">
        ← {scheme.data.name}
      </Anchor>
      <Title order={2}>{title}</Title>
      <Text size="sm">
        {editable
          ? 'Type each member’s amounts for the period as on the payroll run. An empty cell records nothing; a changed amount already recorded is saved as a correction.'
          : 'What was recorded for each member in this period.'}
      </Text>
      {/* Said, not refused: a payroll may be run ahead of its month, but a month typed a year on,
          or one picked from the wrong row, is more often a slip. */}
      {editable && period > todayInIreland(new Date()).slice(0, 7) && (
        <Alert color="yellow" title="This pay period has not begun">
          {formatPeriod(period)} is still to come. Check that it is the pay period you meant:
          contributions are usually recorded once the payroll has been run.
        </Alert>
      )}
      {editable && data.rows.length > 0 && (
        <Stack gap="xs" component="section" aria-label="Fill the grid">
          <Text size="sm">
            Fill the empty cells, then check and save: amounts already recorded for{' '}
            {formatPeriod(period)} are left as they are.
          </Text>
          <Group align="flex-end">
            <Button variant="default" onClick={copyLastMonth} loading={copying}>
              Copy {formatPeriod(lastPeriod)}
            </Button>
            <TextInput
              label="Employee % of salary"
              inputMode="decimal"
              w={170}
              value={typedRates.employee}
              onChange={(event) => {
                const typed = event.currentTarget.value;
                setRates({ ...typedRates, employee: typed });
              }}
            />
            <TextInput
              label="Employer % of salary"
              inputMode="decimal"
              w={170}
              value={typedRates.employer}
              onChange={(event) => {
                const typed = event.currentTarget.value;
                setRates({ ...typedRates, employer: typed });
              }}
            />
            <Button variant="default" onClick={fillPercentages}>
              Fill from salary
            </Button>
          </Group>
          {rateProblem && (
            <Text c="red" size="sm" role="alert">
              {rateProblem}
            </Text>
          )}
          {/* Said here, beside the buttons that did it, not in a toast that would cover the
              grid's Save button on a phone. */}
          <Text size="sm" role="status" c={fillNote?.tone === 'info' ? 'dimmed' : undefined}>
            {fillNote?.message}
          </Text>
        </Stack>
      )}
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
          {data.rows.length === 0 ? (
            <Text>This scheme has no members yet.</Text>
          ) : (
            <ScrollTable minWidth={640} label={title}>
              <Table striped>
                <Table.Caption>{`${title}, by member`}</Table.Caption>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th style={PINNED_START}>Member</Table.Th>
                    {KINDS.map((kind) => (
                      <Table.Th key={kind}>{CONTRIBUTION_KIND_LABELS[kind]} (€)</Table.Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rows.map((row) => (
                    <Table.Tr key={row.memberId}>
                      <Table.Td style={PINNED_START}>
                        <Anchor component={Link} to={`/members/${row.memberId}`}>
                          {row.name}
                        </Anchor>
                      </Table.Td>
                      {KINDS.map((kind) => (
                        <Table.Td key={kind}>
                          {editable ? (
                            <TextInput
                              aria-label={`${CONTRIBUTION_KIND_LABELS[kind]} contribution of ${row.name}`}
                              inputMode="decimal"
                              value={cellValue(row.memberId, kind, row[kind]?.amountCents)}
                              error={parsed.errors[`${row.memberId}.${kind}`]}
                              onChange={(event) => {
                                const typed = event.currentTarget.value;
                                setEdits((current) => ({
                                  ...current,
                                  [row.memberId]: { ...current[row.memberId], [kind]: typed },
                                }));
                              }}
                              miw={110}
                            />
                          ) : row[kind] ? (
                            formatCents(row[kind].amountCents)
                          ) : (
                            '—'
                          )}
                        </Table.Td>
                      ))}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr>
                    <Table.Th style={PINNED_START}>Recorded totals</Table.Th>
                    <Table.Th>{formatCents(data.totals.employeeCents)}</Table.Th>
                    <Table.Th>{formatCents(data.totals.employerCents)}</Table.Th>
                    <Table.Th>{formatCents(data.totals.avcCents)}</Table.Th>
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </ScrollTable>
          )}
          <Text fw={600}>Recorded total for the period: {formatCents(data.totals.totalCents)}</Text>
          {editable && parsed.corrections > 0 && (
            <Textarea
              label="Why are recorded amounts being corrected?"
              description={`${counted(parsed.corrections, 'recorded amount')} will be corrected. Staff see this note; members do not.`}
              required
              value={reason}
              onChange={(event) => setReason(event.currentTarget.value)}
              maxLength={500}
            />
          )}
          {editable && (
            <Group>
              <Button type="submit" loading={busy} disabled={Object.keys(edits).length === 0}>
                Save {formatPeriod(period)}
              </Button>
            </Group>
          )}
        </Stack>
      </form>
    </Stack>
  );
}

/** A scheme's own rate as it is typed, or empty for a rate the person types once for the grid. */
const schemeRate = (basisPoints: number | null) =>
  basisPoints === null ? '' : percentEntry(basisPoints);
