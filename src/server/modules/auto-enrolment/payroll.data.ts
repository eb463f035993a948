import { and, eq, isNull, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../contracts/pages.js';
import { rowsOf } from '../../db/database.js';
import { keyset, pageFrom } from '../../db/keyset.js';
import { payrollPeriods, payrollUploads, schemes, users } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';

export type PayrollUploadRow = typeof payrollUploads.$inferSelect;

/** An upload of an employer's payroll by id, as far as row-level security lets this actor see. */
export async function findUpload(
  tx: Transaction,
  employerId: string,
  id: string,
): Promise<PayrollUploadRow | undefined> {
  const [row] = await tx
    .select()
    .from(payrollUploads)
    .where(and(eq(payrollUploads.employerId, employerId), eq(payrollUploads.id, id)));
  return row;
}

export interface UploadListRow {
  upload: PayrollUploadRow;
  uploaderRole: string | null;
  employees: number;
  payPeriods: number;
  periodStart: string | null;
  periodEnd: string | null;
}

interface Covered {
  uploadId: string;
  employees: number;
  payPeriods: number;
  periodStart: string;
  periodEnd: string;
}

/**
 * A page of an employer's uploads, newest first, each with its uploader's role and what its pay
 * lines cover. The lines are counted for the page's uploads only, by the primary key's leading
 * (broker, upload).
 */
export async function listUploads(
  tx: Transaction,
  employer: { brokerId: string; id: string },
  query: PageQuery,
): Promise<{ items: UploadListRow[]; nextCursor: string | null }> {
  const { after, orderBy, take } = keyset(
    query,
    { at: payrollUploads.createdAt, id: payrollUploads.id },
    'desc',
  );
  const rows = await tx
    .select({ upload: payrollUploads, uploaderRole: users.role })
    .from(payrollUploads)
    .leftJoin(users, eq(users.id, payrollUploads.createdBy))
    .where(
      and(
        eq(payrollUploads.brokerId, employer.brokerId),
        eq(payrollUploads.employerId, employer.id),
        after,
      ),
    )
    .orderBy(...orderBy)
    .limit(take);
  const page = pageFrom(rows, query, (row) => ({ at: row.upload.createdAt, id: row.upload.id }));
  const ids = page.items.map((row) => row.upload.id);
  const covered =
    ids.length === 0
      ? []
      : rowsOf<Covered>(
          await tx.execute(sql`
            select pay.upload_id as "uploadId",
              count(distinct pay.employee_id) :: integer as employees,
              count(distinct (period.starts, period.ends)) :: integer as "payPeriods",
              min(period.starts) :: text as "periodStart",
              max(period.ends) :: text as "periodEnd"
            from ${payrollPeriods} pay
            cross join lateral unnest(pay.period_starts, pay.period_ends) as period(starts, ends)
            where pay.broker_id = ${employer.brokerId}
              and pay.upload_id in (${sql.join(
                ids.map((id) => sql`${id}`),
                sql`, `,
              )})
            group by pay.upload_id
          `),
        );
  const byUpload = new Map(covered.map((row) => [row.uploadId, row]));
  return {
    items: page.items.map((row) => {
      const lines = byUpload.get(row.upload.id);
      return {
        upload: row.upload,
        uploaderRole: row.uploaderRole,
        employees: lines?.employees ?? 0,
        payPeriods: lines?.payPeriods ?? 0,
        periodStart: lines?.periodStart ?? null,
        periodEnd: lines?.periodEnd ?? null,
      };
    }),
    nextCursor: page.nextCursor,
  };
}

/** The ids of an employer's live schemes: what a payroll line may name as its arrangement. */
export async function liveSchemeIds(tx: Transaction, employerId: string): Promise<Set<string>> {
  const rows = await tx
    .select({ id: schemes.id })
    .from(schemes)
    .where(and(eq(schemes.employerId, employerId), isNull(schemes.deletedAt)));
  return new Set(rows.map((row) => row.id));
}

/**
 * Deletes an upload with its lines, then every employee of the employer no line names any more:
 * their sealed PPS number, name and date of birth go with them (hard delete). Answers the counts.
 */
export async function eraseUpload(
  tx: Transaction,
  upload: PayrollUploadRow,
): Promise<{ lines: number; employees: number }> {
  const lines = await tx.execute(sql`
    with gone as (
      delete from payroll_periods
      where broker_id = ${upload.brokerId} and upload_id = ${upload.id}
      returning cardinality(period_starts) as periods
    )
    select coalesce(sum(periods), 0) :: integer as n from gone
  `);
  await tx
    .delete(payrollUploads)
    .where(and(eq(payrollUploads.brokerId, upload.brokerId), eq(payrollUploads.id, upload.id)));
  const employees = await tx.execute(sql`
    with gone as (
      delete from payroll_employees employee
      where employee.broker_id = ${upload.brokerId} and employee.employer_id = ${upload.employerId}
        and not exists (
          select 1 from payroll_periods pay
          where pay.broker_id = employee.broker_id and pay.employee_id = employee.id
        )
      returning 1
    )
    select count(*) :: integer as n from gone
  `);
  const count = (result: unknown) => rowsOf<{ n: number }>(result)[0]?.n ?? 0;
  return { lines: count(lines), employees: count(employees) };
}
