import { sql } from 'drizzle-orm';
import type { ImportIssue } from '../../../contracts/imports.js';
import { rowsOf } from '../../db/database.js';
import type { Transaction } from '../../db/with-actor.js';
import type { FoundIssues } from '../imports/import-kind.js';
import { PAYROLL_LINE_COLUMNS, PAYROLL_PERSON_COLUMNS } from './payroll-rows.js';

const LINES = 'payroll_staged_lines';
const PEOPLE = 'payroll_staged_people';

export const PAYROLL_LINE_TARGET = { table: LINES, columns: PAYROLL_LINE_COLUMNS };
export const PAYROLL_PERSON_TARGET = { table: PEOPLE, columns: PAYROLL_PERSON_COLUMNS };

interface FoundRow {
  line: number;
  code: 'duplicate_in_file' | 'already_uploaded';
  other_line: number | null;
  total: number;
}

export interface PayrollTarget {
  uploadId: string;
  brokerId: string;
  employerId: string;
  at: Date;
}

/**
 * The payroll file staged in two temporary tables of the upload's transaction (dropped at its
 * end): its pay lines, and its people once each, sealed. The checks that need the whole file or
 * the stored payroll run here on the lookup hashes: one person's pay period twice in the file, or
 * already stored from an earlier upload. A stored person is found under any key of the ring, so
 * one uploaded before a key rotation is the same person after it.
 */
export const payrollStaging = {
  async create(tx: Transaction) {
    await tx.execute(
      sql.raw(`create temporary table ${LINES} (
        line integer not null,
        person integer not null,
        period_start date not null,
        period_end date not null,
        year_units integer not null,
        gross_cents bigint not null,
        employee_cents bigint not null,
        employer_cents bigint not null,
        arrangement text not null,
        scheme_id text
      ) on commit drop`),
    );
    await tx.execute(
      sql.raw(`create temporary table ${PEOPLE} (
        person integer primary key,
        first_line integer not null,
        id text not null,
        pps_encrypted text,
        pps_lookup text not null,
        pps_key_id text,
        pps_lookups text[] not null,
        first_name text,
        last_name text,
        date_of_birth date not null,
        stored_id text
      ) on commit drop`),
    );
  },

  /**
   * The lookup hashes of the employer's stored people: whose PPS number the upload need not seal
   * again. Read under the upload's advisory lock, so no other upload adds or erases one meanwhile;
   * should one be missed all the same, that person's line would have no sealed number and the
   * insert would fail whole on its not-null column, never write a person without one.
   */
  async storedLookups(tx: Transaction, target: PayrollTarget): Promise<Set<string>> {
    const rows = await tx.execute(sql`
      select pps_lookup from payroll_employees
      where broker_id = ${target.brokerId} and employer_id = ${target.employerId}
    `);
    return new Set(rowsOf<{ pps_lookup: string }>(rows).map((row) => row.pps_lookup));
  },

  /** Finds who is already stored, then what is wrong: every duplicate period by line. */
  async findIssues(
    tx: Transaction,
    target: PayrollTarget,
    ppsHeading: string,
    periodHeading: string,
    limit: number,
  ): Promise<FoundIssues> {
    await tx.execute(sql.raw(`analyze ${LINES}`));
    await tx.execute(sql`
      update ${sql.raw(PEOPLE)} staged set stored_id = stored.id
      from (select person, unnest(pps_lookups) as lookup from ${sql.raw(PEOPLE)}) hashes
      join payroll_employees stored
        on stored.broker_id = ${target.brokerId} and stored.employer_id = ${target.employerId}
          and stored.pps_lookup = hashes.lookup
      where staged.person = hashes.person
    `);
    // Analysed once the stored people are known: estimated without them, the planner takes
    // every staged person for a new one and probes the stored lines row by row, which measured
    // minutes for a quarter of weekly payroll of 10,000 people (bench/auto-enrolment.ts).
    await tx.execute(sql.raw(`analyze ${PEOPLE}`));
    const result = await tx.execute(sql`
      select line, code, other_line, count(*) over () :: integer as total
      from (
        select line, 'duplicate_in_file' as code, first_line as other_line
        from (
          select line, min(line) over (partition by person, period_start) as first_line
          from ${sql.raw(LINES)}
        ) numbered
        where line <> first_line
        union all
        select staged.line, 'already_uploaded', null :: integer
        from ${sql.raw(LINES)} staged
        join ${sql.raw(PEOPLE)} person on person.person = staged.person
        where person.stored_id is not null and exists (
          select 1 from payroll_periods stored
          where stored.broker_id = ${target.brokerId} and stored.employer_id = ${target.employerId}
            and stored.employee_id = person.stored_id
            and staged.period_start = any (stored.period_starts)
        )
      ) found
      order by line
      limit ${limit}
    `);
    const rows = rowsOf<FoundRow>(result);
    const issues = rows.map(
      (row): ImportIssue =>
        row.code === 'duplicate_in_file'
          ? {
              line: row.line,
              column: ppsHeading,
              code: row.code,
              message: `is the same person and pay period as on line ${row.other_line}`,
            }
          : {
              line: row.line,
              column: periodHeading,
              code: row.code,
              message: 'is a pay period of this person that an earlier upload already gave',
            },
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
    // One row per person: their lines gathered into arrays in period order (a period is given
    // once per person, findIssues saw to that).
    const lines = rowsOf<{ written: number }>(
      await tx.execute(sql`
        with inserted as (
          insert into payroll_periods (
            broker_id, upload_id, employee_id, employer_id, first_period_start, last_period_end,
            period_starts, period_ends, year_units, gross_cents, employee_cents, employer_cents,
            arrangements, scheme_ids
          )
          select ${target.brokerId}, ${target.uploadId}, coalesce(person.stored_id, person.id),
            ${target.employerId}, min(staged.period_start), max(staged.period_end),
            array_agg(staged.period_start order by staged.period_start),
            array_agg(staged.period_end order by staged.period_start),
            array_agg(staged.year_units order by staged.period_start),
            array_agg(staged.gross_cents order by staged.period_start),
            array_agg(staged.employee_cents order by staged.period_start),
            array_agg(staged.employer_cents order by staged.period_start),
            array_agg(staged.arrangement order by staged.period_start),
            array_agg(staged.scheme_id order by staged.period_start)
          from ${sql.raw(LINES)} staged
          join ${sql.raw(PEOPLE)} person on person.person = staged.person
          group by person.person, person.stored_id, person.id
          returning cardinality(period_starts) as periods
        )
        select coalesce(sum(periods), 0) :: integer as written from inserted
      `),
    )[0]?.written;
    return { lines: lines ?? 0, people: people ?? 0 };
  },
};
