import { sql } from 'drizzle-orm';
import type { ImportIssue } from '../../../contracts/imports.js';
import { rowsOf } from '../../db/database.js';
import type { Transaction } from '../../db/with-actor.js';
import type { FoundIssues } from '../imports/import-kind.js';
import { PAYROLL_PERSON_COLUMNS } from './payroll-rows.js';

const PEOPLE = 'payroll_staged_people';

export const PAYROLL_PERSON_TARGET = { table: PEOPLE, columns: PAYROLL_PERSON_COLUMNS };

export interface PayrollTarget {
  uploadId: string;
  brokerId: string;
  employerId: string;
  at: Date;
}

/**
 * The payroll file staged in a temporary table of the upload's transaction (dropped at its end):
 * its people once each, sealed, each with all their lines of the file as arrays in period order,
 * the shape of a `payroll_periods` row. The reader gathered them (payroll-rows.ts) and found a
 * pay period given twice in the file; what needs the stored payroll runs here: a pay period an
 * earlier upload already gave. A stored person is found under any key of the ring, so one
 * uploaded before a key rotation is the same person after it.
 */
export const payrollStaging = {
  async create(tx: Transaction) {
    await tx.execute(
      sql.raw(`create temporary table ${PEOPLE} (
        person integer primary key,
        first_line integer not null,
        id text not null,
        stored_id text,
        pps_encrypted text,
        pps_lookup text not null,
        pps_key_id text,
        first_name text,
        last_name text,
        date_of_birth date not null,
        lines integer[] not null,
        first_period_start date not null,
        last_period_end date not null,
        period_starts date[] not null,
        period_ends date[] not null,
        year_units integer[] not null,
        gross_cents bigint[] not null,
        employee_cents bigint[] not null,
        employer_cents bigint[] not null,
        arrangements text[] not null,
        scheme_ids text[] not null
      ) on commit drop`),
    );
  },

  /**
   * The employer's stored people, by lookup hash: whose PPS number the upload need not seal
   * again, and under which id their lines go. Read under the upload's advisory lock, so no other
   * upload adds or erases one meanwhile; should one be missed all the same, that person would be
   * staged without a sealed number and the insert would fail whole on its not-null column, never
   * write a person without one.
   */
  async storedPeople(tx: Transaction, target: PayrollTarget): Promise<Map<string, string>> {
    const rows = await tx.execute(sql`
      select pps_lookup, id from payroll_employees
      where broker_id = ${target.brokerId} and employer_id = ${target.employerId}
    `);
    return new Map(
      rowsOf<{ pps_lookup: string; id: string }>(rows).map((row) => [row.pps_lookup, row.id]),
    );
  },

  /**
   * Every line that gives a stored person a pay period an earlier upload already gave, by line.
   * Only people whose stored periods meet the staged ones at all are taken apart into lines.
   */
  async findAlreadyUploaded(
    tx: Transaction,
    target: PayrollTarget,
    periodHeading: string,
    limit: number,
  ): Promise<FoundIssues> {
    const result = await tx.execute(sql`
      with meeting as materialized (
        select person.stored_id, person.lines, person.period_starts
        from ${sql.raw(PEOPLE)} person
        where person.stored_id is not null and exists (
          select 1 from payroll_periods stored
          where stored.broker_id = ${target.brokerId} and stored.employer_id = ${target.employerId}
            and stored.employee_id = person.stored_id
            and stored.period_starts && person.period_starts
        )
      )
      select staged.line, count(*) over () :: integer as total
      from meeting
      cross join lateral unnest(meeting.lines, meeting.period_starts) as staged (line, period_start)
      where exists (
        select 1 from payroll_periods stored
        where stored.broker_id = ${target.brokerId} and stored.employer_id = ${target.employerId}
          and stored.employee_id = meeting.stored_id
          and staged.period_start = any (stored.period_starts)
      )
      order by staged.line
      limit ${limit}
    `);
    const rows = rowsOf<{ line: number; total: number }>(result);
    const issues = rows.map(
      (row): ImportIssue => ({
        line: row.line,
        column: periodHeading,
        code: 'already_uploaded',
        message: 'is a pay period of this person that an earlier upload already gave',
      }),
    );
    return { issues, total: rows[0]?.total ?? 0 };
  },

  /**
   * Writes the new people, refreshes what the employer now says of the known ones (a name given
   * replaces none) where it changed, so that a quarter's payroll of the same people rewrites none
   * of them, then each person's lines as one row of `payroll_periods`. Answers how many lines and
   * new people were written.
   */
  async insert(tx: Transaction, target: PayrollTarget) {
    const at = target.at.toISOString();
    const people = rowsOf<{ written: number }>(
      await tx.execute(sql`
        with inserted as (
          insert into payroll_employees (
            broker_id, id, employer_id, pps_encrypted, pps_lookup, pps_key_id, first_name,
            last_name, date_of_birth, created_at, updated_at
          )
          select ${target.brokerId}, id, ${target.employerId}, pps_encrypted, pps_lookup,
            pps_key_id, first_name, last_name, date_of_birth, ${at} :: timestamptz,
            ${at} :: timestamptz
          from ${sql.raw(PEOPLE)} where stored_id is null
          returning 1
        )
        select count(*) :: integer as written from inserted
      `),
    )[0]?.written;
    await tx.execute(sql`
      update payroll_employees stored set
        first_name = coalesce(staged.first_name, stored.first_name),
        last_name = coalesce(staged.last_name, stored.last_name),
        date_of_birth = staged.date_of_birth,
        updated_at = ${at} :: timestamptz
      from ${sql.raw(PEOPLE)} staged
      where stored.broker_id = ${target.brokerId} and stored.id = staged.stored_id
        and (coalesce(staged.first_name, stored.first_name),
          coalesce(staged.last_name, stored.last_name), staged.date_of_birth)
          is distinct from (stored.first_name, stored.last_name, stored.date_of_birth)
    `);
    const lines = rowsOf<{ written: number }>(
      await tx.execute(sql`
        with inserted as (
          insert into payroll_periods (
            broker_id, upload_id, employee_id, employer_id, first_period_start, last_period_end,
            period_starts, period_ends, year_units, gross_cents, employee_cents, employer_cents,
            arrangements, scheme_ids
          )
          select ${target.brokerId}, ${target.uploadId}, coalesce(stored_id, id),
            ${target.employerId}, first_period_start, last_period_end, period_starts,
            period_ends, year_units, gross_cents, employee_cents, employer_cents, arrangements,
            scheme_ids
          from ${sql.raw(PEOPLE)}
          returning cardinality(period_starts) as periods
        )
        select coalesce(sum(periods), 0) :: integer as written from inserted
      `),
    )[0]?.written;
    return { lines: lines ?? 0, people: people ?? 0 };
  },
};
