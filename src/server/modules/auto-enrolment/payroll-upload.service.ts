import type { Readable } from 'node:stream';
import { createId } from '@paralleldrive/cuid2';
import type {
  PayrollUploadPage,
  PayrollUploadSummary,
  PayrollUploadView,
} from '../../../contracts/auto-enrolment.js';
import type { PageQuery } from '../../../contracts/pages.js';
import { isRole } from '../../../contracts/roles.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import { withoutQuerySignal } from '../../platform/db/connection-bounds.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, DomainError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, NotFoundError } from '../../platform/tenancy/authorize.js';
import {
  MAX_UPLOAD_BYTES,
  TOO_LARGE_MESSAGE,
  UploadTooLargeError,
} from '../../platform/uploads/csv-upload.js';
import {
  type ImportIssue,
  IssueList,
  MAX_LISTED_ISSUES,
} from '../../platform/uploads/import-issues.js';
import {
  type FileRead,
  PayloadTooLargeError,
  readUpload,
} from '../../platform/uploads/read-upload.js';
import { createRowIdSource } from '../../platform/uploads/row-ids.js';
import {
  tryUploadLock,
  UploadRunningError,
  type UploadSlots,
} from '../../platform/uploads/upload-slots.js';
import { findEmployer } from '../employers/index.js';
import { createPayrollRows } from './payroll-rows.rules.js';
import {
  PAYROLL_PERSON_TARGET,
  type PayrollTarget,
  payrollStaging,
} from './payroll-staging.data.js';
import {
  eraseUpload,
  findSucceededUpload,
  findUpload,
  finishUpload,
  insertUpload,
  listUploads,
  liveSchemes,
  type PayrollUploadRow,
  recordUploadProgress,
  type UploadListRow,
} from './payroll-upload.data.js';

/** Advisory lock namespace: payroll uploads of one employer check and write one at a time. */
export const PAYROLL_LOCK_NAMESPACE = 7_201_220;
const ALREADY_UPLOADED = 'This file has already been uploaded for this employer';
const UPLOAD_RUNNING =
  'A payroll upload for this employer is already running; try again when it has finished';

export class PayrollAlreadyUploadedError extends ConflictError {
  constructor() {
    super(ALREADY_UPLOADED);
  }
}

/**
 * What the audit record of an ended payroll upload keeps: ids, counts and the file's digest only,
 * no PPS number, name or pay (docs/decisions/0098-no-personal-data-in-the-audit-chain.md). The
 * payroll service and the import sweep write the same.
 */
export function payrollUploadAuditState(row: PayrollUploadRow) {
  return {
    employerId: row.employerId,
    status: row.status,
    fileSha256: row.fileSha256,
    fileBytes: row.fileBytes,
    rowsRead: row.rowsRead,
    rowsWritten: row.rowsWritten,
    employeesWritten: row.employeesWritten,
    issueCount: row.issueCount,
  };
}

export type PayrollUploadResult =
  | { status: 'succeeded'; upload: PayrollUploadView }
  | { status: 'rejected'; importId: string; issues: ImportIssue[]; issueCount: number };

export interface PayrollUploadRequest {
  employerId: string;
  upload: Readable;
  declaredBytes: number | null;
  fileName: string | null;
}

interface Outcome {
  status: 'succeeded' | 'rejected' | 'failed';
  fileSha256?: string;
  fileBytes?: number;
  rowsRead?: number;
  rowsWritten: number;
  employeesWritten: number;
  issues: ImportIssue[] | null;
  issueCount: number;
}

export const viewOfUpload = (row: PayrollUploadRow): PayrollUploadView => ({
  id: row.id,
  employerId: row.employerId,
  status: row.status as PayrollUploadView['status'],
  fileSha256: row.fileSha256,
  fileName: row.fileName,
  fileBytes: row.fileBytes,
  rowsRead: row.rowsRead,
  rowsWritten: row.rowsWritten,
  employeesWritten: row.employeesWritten,
  issueCount: row.issueCount,
  issues: (row.issues as ImportIssue[] | null) ?? null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

const summaryOfUpload = (row: UploadListRow): PayrollUploadSummary => ({
  id: row.upload.id,
  employerId: row.upload.employerId,
  status: row.upload.status as PayrollUploadSummary['status'],
  fileName: row.upload.fileName,
  createdAt: row.upload.createdAt.toISOString(),
  finishedAt: row.upload.finishedAt?.toISOString() ?? null,
  uploadedBy: {
    userId: row.upload.createdBy,
    name: row.uploaderName,
    role: isRole(row.uploaderRole) ? row.uploaderRole : null,
  },
  fileBytes: row.upload.fileBytes,
  rowsRead: row.upload.rowsRead,
  rowsWritten: row.upload.rowsWritten,
  issueCount: row.upload.issueCount,
  employees: row.employees,
  payPeriods: row.payPeriods,
  periodStart: row.periodStart,
  periodEnd: row.periodEnd,
});

const wholeFileIssue = (code: string, message: string): ImportIssue => ({
  line: null,
  column: null,
  code,
  message,
});

export interface EmployerPayrollServiceDeps {
  database: Database;
  audit: AuditService;
  ppsKeyring: PpsKeyring;
  /** The running imports and payroll uploads of this instance (imports/upload-slots.ts). */
  uploads: UploadSlots;
  now: () => Date;
}

/**
 * An employer's payroll for the auto-enrolment assessment (docs/imports.md,
 * "Payroll"). The same machinery as the member and contribution imports (imports.service.ts):
 * the file is read as it arrives and every row checked, then staged by COPY and written in one
 * transaction with one audit record, all rows or none.
 */
export function createEmployerPayrollService({
  database,
  audit,
  ppsKeyring,
  uploads,
  now,
}: EmployerPayrollServiceDeps) {
  const nextId = createRowIdSource();

  async function settle(
    tx: Transaction,
    actor: TenantActor,
    target: PayrollTarget,
    outcome: Outcome,
  ): Promise<PayrollUploadRow> {
    const at = now();
    const row = await finishUpload(tx, target, { ...outcome, finishedAt: at, updatedAt: at });
    if (!row) throw new Error('the payroll upload row is missing');
    await audit.record(tx, actor, {
      action: `payroll_upload.${outcome.status}`,
      entityType: 'payroll_upload',
      entityId: row.id,
      tenantId: row.brokerId,
      previousState: null,
      newState: payrollUploadAuditState(row),
    });
    return row;
  }

  /** An upload whose employer this instance has claimed for it: its file read, then written. */
  async function uploadClaimed(
    tenantActor: TenantActor,
    request: PayrollUploadRequest,
    employer: { id: string; brokerId: string },
    schemes: Awaited<ReturnType<typeof liveSchemes>>,
  ): Promise<PayrollUploadResult> {
    const target: PayrollTarget = {
      uploadId: createId(),
      brokerId: employer.brokerId,
      employerId: employer.id,
      at: now(),
    };
    // Committed at once, so that the upload can be followed while the file arrives.
    await withActor(database, tenantActor, (tx) =>
      insertUpload(tx, {
        brokerId: target.brokerId,
        id: target.uploadId,
        employerId: target.employerId,
        status: 'running',
        fileName: request.fileName,
        createdBy: tenantActor.userId,
        createdAt: target.at,
        updatedAt: target.at,
      }),
    );
    // How the upload ended is recorded even when it ended because its client went away: the
    // request's signal (connection-bounds.ts) would refuse it.
    const settleAlone = (outcome: Outcome) =>
      withoutQuerySignal(() =>
        withActor(database, tenantActor, (tx) => settle(tx, tenantActor, target, outcome)),
      );
    const reader = createPayrollRows(
      { brokerId: target.brokerId, employerId: target.employerId, at: target.at, schemes },
      { ppsKeyring, nextId },
    );
    const issues = new IssueList();
    let file: FileRead | null = null;
    try {
      // The reader keeps the accepted lines, to stage them with their person.
      const read = await readUpload(request.upload, reader, null, issues, (rowsRead, fileBytes) =>
        withActor(database, tenantActor, async (tx) => {
          await recordUploadProgress(tx, target, { rowsRead, fileBytes, updatedAt: now() });
        }),
      );
      file = read;
      const refused = (): Outcome => ({
        status: 'rejected',
        fileSha256: read.fileSha256,
        fileBytes: read.fileBytes,
        rowsRead: read.rowsRead,
        rowsWritten: 0,
        employeesWritten: 0,
        issues: issues.sorted(),
        issueCount: issues.count,
      });
      const rejected = (): PayrollUploadResult => ({
        status: 'rejected',
        importId: target.uploadId,
        issues: issues.sorted(),
        issueCount: issues.count,
      });
      if (!read.headerAccepted || read.rowsRead === 0 || issues.count > 0) {
        await settleAlone(refused());
        return rejected();
      }
      const repeated = reader.repeatedPeriods(reader.heading('ppsNumber'), MAX_LISTED_ISSUES);
      // Deflated on the thread pool while the steps below run (pay-lines.rules.ts).
      const document = reader.document();
      const ended = await withActor(database, tenantActor, async (tx) => {
        // Uploads for one employer check and write one at a time. This instance runs one at a
        // time already (uploads.claim); one running on another instance refuses this one
        // rather than holding a pooled connection while it waits (docs/decisions/0086).
        if (!(await tryUploadLock(tx, PAYROLL_LOCK_NAMESPACE, target.employerId))) {
          await settle(tx, tenantActor, target, {
            ...refused(),
            issues: [wholeFileIssue('upload_running', UPLOAD_RUNNING)],
            issueCount: 1,
          });
          return { outcome: 'upload running' as const };
        }
        // COPY and INSERT … SELECT over a whole file: the bulk statement bound, measured in
        // docs/decisions/0085, for this transaction alone.
        await database.allowBulkStatements(tx);
        if (!(await findEmployer(tx, target.employerId))) {
          await settle(tx, tenantActor, target, {
            ...refused(),
            issues: [
              wholeFileIssue(
                'employer_deleted',
                'The employer was deleted while the file was being read; nothing was written',
              ),
            ],
            issueCount: 1,
          });
          return { outcome: 'employer deleted' as const };
        }
        const earlier = await findSucceededUpload(tx, {
          employerId: target.employerId,
          fileSha256: read.fileSha256,
        });
        if (earlier) {
          await settle(tx, tenantActor, target, {
            ...refused(),
            issues: [wholeFileIssue('already_imported', ALREADY_UPLOADED)],
            issueCount: 1,
          });
          return { outcome: 'already uploaded' as const };
        }
        // Each new person's PPS number is sealed once, here, however many pay periods name
        // them; a person the employer's payroll already has is not sealed again, nor staged
        // unless the file says something new of them. The people's COPY lines go to the
        // database as they are made, so it reads the first while later ones are sealed; the
        // lines are then one deflated value (pay-lines.rules.ts; docs/decisions/0075-pay-lines-one-row-per-upload.md).
        const stored = await payrollStaging.storedPeople(tx, target);
        await payrollStaging.create(tx);
        await database.copyLines(tx, PAYROLL_PERSON_TARGET, reader.people(stored));
        const again =
          stored.size === 0
            ? { issues: [], total: 0 }
            : reader.alreadyGiven(
                await payrollStaging.earlierPeriods(tx, target, document),
                reader.heading('periodStart'),
                MAX_LISTED_ISSUES,
              );
        issues.addFound(repeated.issues, repeated.total);
        issues.addFound(again.issues, again.total);
        if (issues.count > 0) {
          await settle(tx, tenantActor, target, refused());
          return { outcome: 'rejected' as const };
        }
        const written = await payrollStaging.insert(tx, target, document, reader.employeeIds());
        const row = await settle(tx, tenantActor, target, {
          status: 'succeeded',
          fileSha256: read.fileSha256,
          fileBytes: read.fileBytes,
          rowsRead: read.rowsRead,
          rowsWritten: written.lines,
          employeesWritten: written.people,
          issues: null,
          issueCount: 0,
        });
        return { outcome: 'succeeded' as const, view: viewOfUpload(row) };
      });
      if (ended.outcome === 'already uploaded') throw new PayrollAlreadyUploadedError();
      if (ended.outcome === 'employer deleted') throw new NotFoundError();
      if (ended.outcome === 'upload running') throw new UploadRunningError(UPLOAD_RUNNING);
      if (ended.outcome === 'rejected') return rejected();
      return { status: 'succeeded', upload: ended.view };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      const received = file
        ? {
            fileSha256: file.fileSha256,
            fileBytes: file.fileBytes,
            rowsRead: file.rowsRead,
            rowsWritten: 0,
            employeesWritten: 0,
          }
        : { rowsWritten: 0, employeesWritten: 0 };
      if (error instanceof UploadTooLargeError) {
        await settleAlone({
          ...received,
          status: 'rejected',
          issues: [wholeFileIssue('too_large', TOO_LARGE_MESSAGE)],
          issueCount: 1,
        });
        throw new PayloadTooLargeError();
      }
      if (isUniqueViolation(error, 'payroll_uploads_same_file_once_key')) {
        await settleAlone({
          ...received,
          status: 'rejected',
          issues: [wholeFileIssue('already_imported', ALREADY_UPLOADED)],
          issueCount: 1,
        });
        throw new PayrollAlreadyUploadedError();
      }
      await settleAlone({ ...received, status: 'failed', issues: null, issueCount: 0 }).catch(
        () => undefined,
      );
      throw error;
    }
  }

  return {
    async upload(actor: ActorContext, request: PayrollUploadRequest): Promise<PayrollUploadResult> {
      const tenantActor = authorize(actor, 'ae_payroll.import');
      const { employer, schemes } = await withActor(database, tenantActor, async (tx) => {
        const found = authorizeRow(
          tenantActor,
          'ae_payroll.import',
          await findEmployer(tx, request.employerId),
        );
        return { employer: found, schemes: await liveSchemes(tx, found.id) };
      });
      if (request.declaredBytes !== null && request.declaredBytes > MAX_UPLOAD_BYTES) {
        throw new PayloadTooLargeError();
      }
      // One upload for an employer at a time, refused before its file is read or its row
      // written (docs/decisions/0086); the claim ends with the upload, however it ends.
      const release = uploads.claim(
        { tenantId: employer.brokerId, kind: 'employer', id: employer.id },
        UPLOAD_RUNNING,
      );
      try {
        return await uploadClaimed(tenantActor, request, employer, schemes);
      } finally {
        release();
      }
    },

    /**
     * One upload with its issues: how an upload is followed while it runs, polled every half
     * second or so. Its counts and issues name no one (an issue never quotes a cell), so reading it
     * is not audited (docs/decisions/0130-what-reads-are-audited.md).
     */
    async get(actor: ActorContext, employerId: string, uploadId: string) {
      const tenantActor = authorize(actor, 'ae_payroll.read');
      const row = await withActor(database, tenantActor, async (tx) => {
        const employer = authorizeRow(
          tenantActor,
          'ae_payroll.read',
          await findEmployer(tx, employerId),
        );
        const upload = await findUpload(tx, employer.id, uploadId);
        if (!upload) throw new NotFoundError();
        return upload;
      });
      return viewOfUpload(row);
    },

    /**
     * The employer's uploads, newest first: when, by whom (user id and role) and what each
     * covers. Names no employee, so reading it is not audited
     * (docs/decisions/0130-what-reads-are-audited.md).
     */
    async list(
      actor: ActorContext,
      employerId: string,
      query: PageQuery,
    ): Promise<PayrollUploadPage> {
      const tenantActor = authorize(actor, 'ae_payroll.list');
      return withActor(database, tenantActor, async (tx) => {
        const employer = authorizeRow(
          tenantActor,
          'ae_payroll.list',
          await findEmployer(tx, employerId),
        );
        const page = await listUploads(tx, employer, query);
        return { items: page.items.map(summaryOfUpload), nextCursor: page.nextCursor };
      });
    },

    /**
     * Deletes an upload: its lines, and every employee no other upload names, PPS number and all
     * (docs/decisions/0068-auto-enrolment-readiness.md). The audit record keeps ids and
     * counts only, so the erasure leaves nothing personal behind in the append-only log.
     */
    async remove(actor: ActorContext, employerId: string, uploadId: string): Promise<void> {
      const tenantActor = authorize(actor, 'ae_payroll.delete');
      await withActor(database, tenantActor, async (tx) => {
        const employer = authorizeRow(
          tenantActor,
          'ae_payroll.delete',
          await findEmployer(tx, employerId),
        );
        // Not while an upload for this employer writes: refused at once rather than waiting on a
        // pooled connection for as long as it writes (docs/decisions/0086).
        if (!(await tryUploadLock(tx, PAYROLL_LOCK_NAMESPACE, employer.id))) {
          throw new UploadRunningError(UPLOAD_RUNNING);
        }
        const upload = await findUpload(tx, employer.id, uploadId);
        if (!upload || upload.status === 'running') throw new NotFoundError();
        const erased = await eraseUpload(tx, upload);
        await audit.record(tx, tenantActor, {
          action: 'payroll_upload.deleted',
          entityType: 'payroll_upload',
          entityId: upload.id,
          tenantId: upload.brokerId,
          previousState: { employerId: upload.employerId, rowsWritten: upload.rowsWritten },
          newState: { linesErased: erased.lines, employeesErased: erased.employees },
        });
      });
    },
  };
}

export type EmployerPayrollService = ReturnType<typeof createEmployerPayrollService>;
