import { sql } from 'drizzle-orm';
import { rowsOf } from '../../platform/db/database.js';
import { payrollUploadLines } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { PAY_LINES_FORMAT, readPayLines } from './pay-lines.rules.js';
import {
  PAYROLL_PERSON_COLUMNS,
  type PayLinesDocument,
  type StoredPerson,
} from './payroll-rows.rules.js';
import { storedLinesMeeting } from './payroll-upload.data.js';

const PEOPLE = 'payroll_staged_people';

export const PAYROLL_PERSON_TARGET = { table: PEOPLE, columns: PAYROLL_PERSON_COLUMNS };

export interface PayrollTarget {
  uploadId: string;
  brokerId: string;
  employerId: string;
  at: Date;
}

/**
 * The payroll file's people staged in a temporary table of the upload's transaction (dropped at its
 * end): those the upload writes, sealed, once each. The reader found a pay period given twice in
 * the file; what needs the stored payroll runs here: the people already stored, and the pay periods
 * earlier uploads gave them. A stored person is found under any key of the ring, so one uploaded
 * before a key rotation is the same person after it.
 */
export const payrollStaging = {
  async create(tx: Transaction) {
    await tx.execute(
      sql.raw(`create temporary table ${PEOPLE} (
        id text primary key,
        stored_id text,
        pps_encrypted text,
        pps_lookup text not null,
        pps_key_id text,
        first_name text,
        last_name text,
        date_of_birth date not null
      ) on commit drop`),
    );
  },

  /**
   * The employer's stored people, by lookup hash: whose PPS number the upload need not seal
   * again, under which id their lines go, and what is stored of them. Read under the upload's
   * advisory lock, so no other upload adds or erases one meanwhile; should one be missed all the
   * same, that person would be staged as new, and the insert would fail whole on the employer's
   * unique lookup hash, never write the person twice.
   */
  async storedPeople(tx: Transaction, target: PayrollTarget): Promise<Map<string, StoredPerson>> {
    const rows = await tx.execute(sql`
      select pps_lookup, id, first_name, last_name,
        to_char(date_of_birth, 'YYYY-MM-DD') as date_of_birth
      from payroll_employees
      where broker_id = ${target.brokerId} and employer_id = ${target.employerId}
    `);
    return new Map(
      rowsOf<{
        pps_lookup: string;
        id: string;
        first_name: string | null;
        last_name: string | null;
        date_of_birth: string;
      }>(rows).map((row) => [
        row.pps_lookup,
        {
          id: row.id,
          firstName: row.first_name,
          lastName: row.last_name,
          dateOfBirth: row.date_of_birth,
        },
      ]),
    );
  },

  /**
   * The pay periods earlier uploads gave each stored person, as period starts (YYYYMMDD numbers)
   * by employee id: read from the uploads whose periods meet the file's, the others cannot hold
   * one of its periods.
   */
  async earlierPeriods(
    tx: Transaction,
    target: PayrollTarget,
    bounds: { firstPeriodStart: string; lastPeriodEnd: string },
  ): Promise<Map<string, Set<number>>> {
    const given = new Map<string, Set<number>>();
    for (const row of await storedLinesMeeting(tx, target, {
      windowStart: bounds.firstPeriodStart,
      windowEnd: bounds.lastPeriodEnd,
    })) {
      const sets = row.employeeIds.map((id) => {
        let set = given.get(id);
        if (set === undefined) {
          set = new Set();
          given.set(id, set);
        }
        return set;
      });
      readPayLines(
        row,
        { people: row.employeeIds.length, schemes: row.schemeIds.length },
        (line) => {
          sets[line.person]?.add(line.periodStart);
        },
      );
    }
    return given;
  },

  /**
   * Writes the new people, refreshes what the employer now says of the known ones (a name given
   * replaces none), then the file's lines as one row of `payroll_upload_lines`. Answers how many
   * lines and new people were written.
   */
  async insert(
    tx: Transaction,
    target: PayrollTarget,
    document: PayLinesDocument,
    employeeIds: string[],
  ) {
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
    `);
    await tx.insert(payrollUploadLines).values({
      brokerId: target.brokerId,
      uploadId: target.uploadId,
      employerId: target.employerId,
      format: PAY_LINES_FORMAT,
      lineCount: document.lineCount,
      payPeriods: document.payPeriods,
      firstPeriodStart: document.firstPeriodStart,
      lastPeriodEnd: document.lastPeriodEnd,
      employeeIds,
      schemeIds: document.schemeIds,
      lines: await document.lines,
    });
    return { lines: document.lineCount, people: people ?? 0 };
  },
};
