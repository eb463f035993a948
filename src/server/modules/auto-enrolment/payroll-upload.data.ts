import { and, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { PageQuery } from '../../../contracts/pages.js';
import { rowsOf } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { payrollUploadLines, payrollUploads, schemes, users } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

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
  uploaderName: string | null;
  employees: number;
  payPeriods: number;
  periodStart: string | null;
  periodEnd: string | null;
}

/**
 * A page of an employer's uploads, newest first, each with its uploader's name and role and what its pay
 * lines cover, as the upload counted them when it stored them (`payroll_upload_lines`).
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
    .select({ upload: payrollUploads, uploaderRole: users.role, uploaderName: users.name })
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
      : await tx
          .select({
            uploadId: payrollUploadLines.uploadId,
            employees: sql<number>`cardinality(${payrollUploadLines.employeeIds})`,
            payPeriods: payrollUploadLines.payPeriods,
            periodStart: payrollUploadLines.firstPeriodStart,
            periodEnd: payrollUploadLines.lastPeriodEnd,
          })
          .from(payrollUploadLines)
          .where(
            and(
              eq(payrollUploadLines.brokerId, employer.brokerId),
              inArray(payrollUploadLines.uploadId, ids),
            ),
          );
  const byUpload = new Map(covered.map((row) => [row.uploadId, row]));
  return {
    items: page.items.map((row) => {
      const lines = byUpload.get(row.upload.id);
      return {
        upload: row.upload,
        uploaderRole: row.uploaderRole,
        uploaderName: row.uploaderName,
        employees: Number(lines?.employees ?? 0),
        payPeriods: lines?.payPeriods ?? 0,
        periodStart: lines?.periodStart ?? null,
        periodEnd: lines?.periodEnd ?? null,
      };
    }),
    nextCursor: page.nextCursor,
  };
}

/** An upload's row and how it is to be found: by tenant and id. */
type UploadKey = { brokerId: string; uploadId: string };

/** Writes a new upload's row. */
export async function insertUpload(
  tx: Transaction,
  values: typeof payrollUploads.$inferInsert,
): Promise<void> {
  await tx.insert(payrollUploads).values(values);
}

/** Writes how far the reading of an upload's file has got. */
export async function recordUploadProgress(
  tx: Transaction,
  key: UploadKey,
  progress: { rowsRead: number; fileBytes: number; updatedAt: Date },
): Promise<void> {
  await tx
    .update(payrollUploads)
    .set(progress)
    .where(and(eq(payrollUploads.brokerId, key.brokerId), eq(payrollUploads.id, key.uploadId)));
}

/** Writes how an upload ended and answers its row; undefined when the row is missing. */
export async function finishUpload(
  tx: Transaction,
  key: UploadKey,
  values: Partial<typeof payrollUploads.$inferInsert>,
): Promise<PayrollUploadRow | undefined> {
  const [row] = await tx
    .update(payrollUploads)
    .set(values)
    .where(and(eq(payrollUploads.brokerId, key.brokerId), eq(payrollUploads.id, key.uploadId)))
    .returning();
  return row;
}

/** An earlier upload of the same file for the employer that succeeded, if any. */
export async function findSucceededUpload(
  tx: Transaction,
  file: { employerId: string; fileSha256: string },
): Promise<{ id: string } | undefined> {
  const [earlier] = await tx
    .select({ id: payrollUploads.id })
    .from(payrollUploads)
    .where(
      and(
        eq(payrollUploads.employerId, file.employerId),
        eq(payrollUploads.fileSha256, file.fileSha256),
        eq(payrollUploads.status, 'succeeded'),
      ),
    )
    .limit(1);
  return earlier;
}

/**
 * An employer's live schemes, ids and names: what a payroll line may name as its arrangement, by
 * either (the names are compared in the reader, never in SQL).
 */
export function liveSchemes(
  tx: Transaction,
  employerId: string,
): Promise<Array<{ id: string; name: string }>> {
  return tx
    .select({ id: schemes.id, name: schemes.name })
    .from(schemes)
    .where(and(eq(schemes.employerId, employerId), isNull(schemes.deletedAt)))
    .orderBy(schemes.id);
}

/**
 * Deletes an upload with its lines, then every employee of the employer no line names any more:
 * their sealed PPS number, name and date of birth go with them (hard delete). Answers the counts.
 */
export async function eraseUpload(
  tx: Transaction,
  upload: PayrollUploadRow,
): Promise<{ lines: number; employees: number }> {
  const [gone] = await tx
    .delete(payrollUploadLines)
    .where(
      and(
        eq(payrollUploadLines.brokerId, upload.brokerId),
        eq(payrollUploadLines.uploadId, upload.id),
      ),
    )
    .returning({ lines: payrollUploadLines.lineCount });
  await tx
    .delete(payrollUploads)
    .where(and(eq(payrollUploads.brokerId, upload.brokerId), eq(payrollUploads.id, upload.id)));
  const employees = await tx.execute(sql`
    with named as (
      select distinct named.id
      from payroll_upload_lines pay cross join unnest(pay.employee_ids) as named(id)
      where pay.broker_id = ${upload.brokerId} and pay.employer_id = ${upload.employerId}
    ), gone as (
      delete from payroll_employees employee
      where employee.broker_id = ${upload.brokerId} and employee.employer_id = ${upload.employerId}
        and not exists (select 1 from named where named.id = employee.id)
      returning 1
    )
    select count(*) :: integer as n from gone
  `);
  const count = (result: unknown) => rowsOf<{ n: number }>(result)[0]?.n ?? 0;
  return { lines: gone?.lines ?? 0, employees: count(employees) };
}

/** One stored upload's lines with the ids its places name. */
export interface StoredLinesRow {
  employeeIds: string[];
  schemeIds: string[];
  format: number;
  lineCount: number;
  lines: Uint8Array;
}

/** The employer's stored uploads whose pay periods meet the window, their lines undecoded. */
export async function storedLinesMeeting(
  tx: Transaction,
  target: { brokerId: string; employerId: string },
  window: { windowStart: string; windowEnd: string },
): Promise<StoredLinesRow[]> {
  return tx
    .select({
      employeeIds: payrollUploadLines.employeeIds,
      schemeIds: payrollUploadLines.schemeIds,
      format: payrollUploadLines.format,
      lineCount: payrollUploadLines.lineCount,
      lines: payrollUploadLines.lines,
    })
    .from(payrollUploadLines)
    .where(
      and(
        eq(payrollUploadLines.brokerId, target.brokerId),
        eq(payrollUploadLines.employerId, target.employerId),
        gte(payrollUploadLines.lastPeriodEnd, window.windowStart),
        lte(payrollUploadLines.firstPeriodStart, window.windowEnd),
      ),
    );
}
