import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db/database.js';
import { employers } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { EmployerRow } from '../employers/index.js';
import {
  dateNumber,
  isoOfDateNumber,
  NO_ARRANGEMENT,
  PRSA,
  readPayLines,
} from './pay-lines.rules.js';
import { storedLinesMeeting } from './payroll-upload.data.js';

/** One employee's lines in the window added up. */
interface Sum {
  lastPeriodEnd: number;
  yearUnits: number;
  grossCents: number;
  employeeCents: number;
  employerCents: number;
  employerOnly: number;
  employeeOnly: number;
  both: number;
  neither: number;
  prsaWithoutDeductions: boolean;
  paysThroughPayroll: boolean;
  paysIntoDb: boolean;
}

const emptySum = (): Sum => ({
  lastPeriodEnd: 0,
  yearUnits: 0,
  grossCents: 0,
  employeeCents: 0,
  employerCents: 0,
  employerOnly: 0,
  employeeOnly: 0,
  both: 0,
  neither: 0,
  prsaWithoutDeductions: false,
  paysThroughPayroll: false,
  paysIntoDb: false,
});

interface PersonRow {
  employee_id: string;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string;
  member_id: string | null;
  scheme_type: string | null;
  date_joined: string | null;
}

/** One employee's pay over a window, added up in SQL, with the membership the payroll matched. */
export interface EmployeeWindowRow {
  employee_id: string;
  first_name: string | null;
  last_name: string | null;
  date_of_birth: string;
  last_period_end: string | null;
  year_units: number;
  gross_cents: number;
  employee_cents: number;
  employer_cents: number;
  periods_employer_only: number;
  periods_employee_only: number;
  periods_both: number;
  periods_neither: number;
  prsa_without_deductions: boolean;
  pays_through_payroll: boolean;
  pays_into_db: boolean;
  member_id: string | null;
  scheme_type: string | null;
  date_joined: string | null;
}

/**
 * Every employee of an employer with their pay lines ending within the window added up, from the
 * stored uploads whose periods meet the window (`payroll_upload_lines`, one row an upload, its lines
 * in one value: pay-lines.rules.ts), read once each and added up here in one pass. The membership is
 * matched in SQL by the PPS lookup hash among the employer's live members of live schemes, never
 * by opening a PPS number; the hash is keyed per tenant, so a member of another firm with the same
 * number never matches. Where a person is in several schemes, a DB membership wins, then the
 * earliest joined. A line pays into a DB scheme when the scheme it names is one of the tenant's DB
 * schemes now, read once.
 */
export async function employeeWindows(
  tx: Transaction,
  scope: { brokerId: string; employerId: string; windowStart: string; windowEnd: string },
): Promise<EmployeeWindowRow[]> {
  const dbSchemes = new Set(
    rowsOf<{ id: string }>(
      await tx.execute(sql`
        select id from schemes where broker_id = ${scope.brokerId} and type = 'DB'
      `),
    ).map((row) => row.id),
  );
  const from = dateNumber(scope.windowStart);
  const to = dateNumber(scope.windowEnd);
  const sums = new Map<string, Sum>();
  for (const row of await storedLinesMeeting(tx, scope, scope)) {
    const intoDb = row.schemeIds.map((id) => dbSchemes.has(id));
    const ofPerson: Array<Sum | undefined> = [];
    readPayLines(
      row,
      { people: row.employeeIds.length, schemes: row.schemeIds.length },
      (line) => {
        let sum = ofPerson[line.person];
        if (sum === undefined) {
          const id = row.employeeIds[line.person] as string;
          sum = sums.get(id);
          if (sum === undefined) {
            sum = emptySum();
            sums.set(id, sum);
          }
          ofPerson[line.person] = sum;
        }
        const employee = line.employeeCents;
        const employer = line.employerCents;
        if (line.periodEnd > sum.lastPeriodEnd) sum.lastPeriodEnd = line.periodEnd;
        sum.yearUnits += line.yearUnits;
        sum.grossCents += line.grossCents;
        sum.employeeCents += employee;
        sum.employerCents += employer;
        if (employee === 0 && employer === 0) sum.neither += 1;
        else if (employee === 0) sum.employerOnly += 1;
        else if (employer === 0) sum.employeeOnly += 1;
        else sum.both += 1;
        if (line.arrangement === PRSA && employee === 0 && employer === 0) {
          sum.prsaWithoutDeductions = true;
        }
        if (line.arrangement !== NO_ARRANGEMENT && employee + employer > 0) {
          sum.paysThroughPayroll = true;
        }
        if (line.arrangement >= 0 && intoDb[line.arrangement]) sum.paysIntoDb = true;
      },
      { from, to },
    );
  }
  const people = rowsOf<PersonRow>(
    await tx.execute(sql`
      select employee.id as employee_id, employee.first_name, employee.last_name,
        to_char(employee.date_of_birth, 'YYYY-MM-DD') as date_of_birth,
        membership.id as member_id, membership.type as scheme_type,
        to_char(membership.date_joined, 'YYYY-MM-DD') as date_joined
      from payroll_employees employee
      left join lateral (
        select member.id, scheme.type, member.date_joined
        from members member
        join schemes scheme on scheme.id = member.scheme_id and scheme.deleted_at is null
        where member.broker_id = employee.broker_id and member.pps_lookup = employee.pps_lookup
          and member.employer_id = employee.employer_id and member.deleted_at is null
        order by (scheme.type = 'DB') desc, member.date_joined, member.id
        limit 1
      ) membership on true
      where employee.broker_id = ${scope.brokerId} and employee.employer_id = ${scope.employerId}
      order by employee.id
    `),
  );
  const known = new Set(people.map((person) => person.employee_id));
  for (const id of sums.keys()) {
    if (!known.has(id)) throw new Error('a stored payroll names an employee who is not stored');
  }
  return people.map((person) => {
    const sum = sums.get(person.employee_id) ?? emptySum();
    return {
      ...person,
      last_period_end: sum.lastPeriodEnd === 0 ? null : isoOfDateNumber(sum.lastPeriodEnd),
      year_units: sum.yearUnits,
      gross_cents: sum.grossCents,
      employee_cents: sum.employeeCents,
      employer_cents: sum.employerCents,
      periods_employer_only: sum.employerOnly,
      periods_employee_only: sum.employeeOnly,
      periods_both: sum.both,
      periods_neither: sum.neither,
      prsa_without_deductions: sum.prsaWithoutDeductions,
      pays_through_payroll: sum.paysThroughPayroll,
      pays_into_db: sum.paysIntoDb,
    };
  });
}

/** The live employers, of one tenant when `tenantId` is set, by name. */
export function liveEmployersInReach(
  tx: Transaction,
  tenantId: string | null,
): Promise<EmployerRow[]> {
  return tx
    .select()
    .from(employers)
    .where(
      and(
        isNull(employers.deletedAt),
        tenantId === null ? undefined : eq(employers.brokerId, tenantId),
      ),
    )
    .orderBy(asc(employers.name), asc(employers.id));
}
