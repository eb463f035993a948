import path from 'node:path';
import type { Readable } from 'node:stream';
import { createId } from '@paralleldrive/cuid2';
import type { Action } from '../../../contracts/policy.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import { withoutQuerySignal } from '../../platform/db/connection-bounds.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { imports } from '../../platform/db/schema.js';
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
import type {
  ImportKindName,
  ImportScope,
  RowReader,
  Staging,
} from '../../platform/uploads/import-kind.js';
import {
  type FileRead,
  PayloadTooLargeError,
  readUpload,
} from '../../platform/uploads/read-upload.js';
import { createRowIdSource } from '../../platform/uploads/row-ids.js';
import { removeStaleSpoolFiles, SpoolFile } from '../../platform/uploads/spool-file.js';
import {
  tryUploadLock,
  UploadRunningError,
  type UploadSlots,
} from '../../platform/uploads/upload-slots.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { createContributionRows } from './contribution-rows.rules.js';
import { contributionStaging } from './contribution-staging.data.js';
import { type Reconciliation, reconcile, reconcileOne } from './import-reconciliation.data.js';
import {
  findImport,
  findSucceededImport,
  finishImport,
  type ImportRow,
  insertImport,
  listImports,
  recordImportProgress,
} from './imports.data.js';
import type { ImportSummary, ImportView, SchemeImportsQuery } from './imports.schemas.js';
import { createMemberRows } from './member-rows.rules.js';
import { memberStaging } from './member-staging.data.js';

/** Advisory lock namespace: imports into one scheme check and write one at a time. */
export const IMPORT_LOCK_NAMESPACE = 7_201_191;

const ALREADY_IMPORTED = 'This file has already been imported into this scheme';
const IMPORT_RUNNING =
  'An import into this scheme is already running; try again when it has finished';

export class AlreadyImportedError extends ConflictError {
  constructor() {
    super(ALREADY_IMPORTED);
  }
}

export type ImportResult =
  | { status: 'succeeded'; import: ImportView }
  | { status: 'rejected'; importId: string; issues: ImportIssue[]; issueCount: number };

export interface ImportRequest {
  schemeId: string;
  kind: ImportKindName;
  /** The request body as it arrives. */
  upload: Readable;
  /** The Content-Length the client declared, when it did. */
  declaredBytes: number | null;
  /** The file's own name, as the uploader's computer called it, when the client said. */
  fileName: string | null;
}

interface KindParts {
  rows: (scope: ImportScope, deps: { ppsKeyring: PpsKeyring; nextId: () => string }) => RowReader;
  staging: Staging;
}

/**
 * What the audit record of an ended import keeps: counts and the file's digest only, no personal
 * data (docs/decisions/0098-no-personal-data-in-the-audit-chain.md). The import service and the
 * import sweep write the same.
 */
export function importAuditState(row: ImportRow) {
  return {
    kind: row.kind,
    schemeId: row.schemeId,
    status: row.status,
    fileSha256: row.fileSha256,
    fileBytes: row.fileBytes,
    rowsRead: row.rowsRead,
    rowsWritten: row.rowsWritten,
    issueCount: row.issueCount,
  };
}

/** The action each kind of import carries out (contracts/policy.ts); its route declares the same. */
export const IMPORT_ACTIONS = {
  members: 'member.import',
  contributions: 'contribution.import',
} as const satisfies Record<ImportKindName, Action>;

const KINDS: Record<ImportKindName, KindParts> = {
  members: { rows: createMemberRows, staging: memberStaging },
  contributions: { rows: createContributionRows, staging: contributionStaging },
};

const summaryOf = (row: Omit<ImportRow, 'issues'>, seen: Reconciliation): ImportSummary => ({
  id: row.id,
  brokerId: row.brokerId,
  employerId: row.employerId,
  schemeId: row.schemeId,
  kind: row.kind as ImportKindName,
  status: row.status as ImportSummary['status'],
  fileSha256: row.fileSha256,
  fileName: row.fileName,
  fileBytes: row.fileBytes,
  rowsRead: row.rowsRead,
  rowsWritten: row.rowsWritten,
  issueCount: row.issueCount,
  createdBy: row.createdBy,
  uploadedBy: seen.uploadedBy,
  totals: seen.totals,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
  finishedAt: row.finishedAt?.toISOString() ?? null,
});

const viewOf = (row: ImportRow, seen: Reconciliation): ImportView => ({
  ...summaryOf(row, seen),
  issues: (row.issues as ImportIssue[] | null) ?? null,
});

/**
 * How one import ended, as recorded on its row and in its audit record. What the file was is
 * left out when it is not known (the upload broke off): the row keeps the last progress written.
 */
interface Outcome {
  status: 'succeeded' | 'rejected' | 'failed';
  fileSha256?: string;
  fileBytes?: number;
  rowsRead?: number;
  rowsWritten: number;
  issues: ImportIssue[] | null;
  issueCount: number;
}

/** How the transaction of phase 2 ended. */
type Phase2 =
  | { outcome: 'succeeded'; view: ImportView }
  | { outcome: 'rejected' }
  | { outcome: 'already imported' }
  | { outcome: 'scheme deleted' }
  | { outcome: 'import running' };

export interface ImportsServiceDeps {
  database: Database;
  audit: AuditService;
  ppsKeyring: PpsKeyring;
  /** Spool files are written under `<dataDir>/tmp`. */
  dataDir: string;
  /** The running imports and payroll uploads of this instance (upload-slots.ts). */
  uploads: UploadSlots;
  now: () => Date;
}

/**
 * Bulk import of members and contributions from CSV (docs/imports.md; who uploads and who follows
 * an import: contracts/policy.ts). All rows or none: every row is checked before any is written,
 * and the rows are written in one transaction with one audit record.
 */
export function createImportsService({
  database,
  audit,
  ppsKeyring,
  dataDir,
  uploads,
  now,
}: ImportsServiceDeps) {
  const spoolDirectory = path.join(dataDir, 'tmp');
  const nextId = createRowIdSource();
  const reads = createPlatformReadLog(audit);

  /** Ends an import: its row and its one audit record, in the caller's transaction. */
  async function settle(
    tx: Transaction,
    actor: TenantActor,
    scope: ImportScope,
    outcome: Outcome,
  ): Promise<ImportView> {
    const at = now();
    const row = await finishImport(tx, scope.importId, {
      ...outcome,
      finishedAt: at,
      updatedAt: at,
    });
    if (!row) throw new Error('the import row is missing');
    // Counts and the file's digest only: the audit log keeps no personal data
    // (docs/decisions/0098-no-personal-data-in-the-audit-chain.md).
    await audit.record(tx, actor, {
      action: `import.${outcome.status}`,
      entityType: 'import',
      entityId: scope.importId,
      tenantId: scope.brokerId,
      previousState: null,
      newState: importAuditState(row),
    });
    return viewOf(row, await reconcileOne(tx, row));
  }

  /** An import whose scheme this instance has claimed for it: its file read, then written. */
  async function importClaimed(
    tenantActor: TenantActor,
    request: ImportRequest,
    scheme: { id: string; brokerId: string; employerId: string; name: string },
  ): Promise<ImportResult> {
    const kind = KINDS[request.kind];
    const scope: ImportScope = {
      importId: createId(),
      brokerId: scheme.brokerId,
      employerId: scheme.employerId,
      schemeId: scheme.id,
      schemeName: scheme.name,
      userId: tenantActor.userId,
      at: now(),
    };
    // Committed at once, so that the import can be followed while the file arrives.
    await withActor(database, tenantActor, (tx) =>
      insertImport(tx, {
        id: scope.importId,
        brokerId: scope.brokerId,
        employerId: scope.employerId,
        schemeId: scope.schemeId,
        kind: request.kind,
        status: 'running',
        fileName: request.fileName,
        createdBy: scope.userId,
        createdAt: scope.at,
        updatedAt: scope.at,
      }),
    );
    // How the upload ended is recorded even when it ended because its client went away: the
    // request's signal (connection-bounds.ts) would refuse it.
    const settleAlone = (outcome: Outcome) =>
      withoutQuerySignal(() =>
        withActor(database, tenantActor, (tx) => settle(tx, tenantActor, scope, outcome)),
      );
    const reader = kind.rows(scope, { ppsKeyring, nextId });
    const issues = new IssueList();
    let file: FileRead | null = null;
    let spool: SpoolFile | null = null;
    try {
      spool = await SpoolFile.create(spoolDirectory, scope.importId);
      const read = await readUpload(request.upload, reader, spool, issues, (rowsRead, fileBytes) =>
        withActor(database, tenantActor, async (tx) => {
          await recordImportProgress(tx, scope.importId, { rowsRead, fileBytes, updatedAt: now() });
        }),
      );
      file = read;
      const refused = (): Outcome => ({
        status: 'rejected',
        fileSha256: read.fileSha256,
        fileBytes: read.fileBytes,
        rowsRead: read.rowsRead,
        rowsWritten: 0,
        issues: issues.sorted(),
        issueCount: issues.count,
      });
      const rejected = (): ImportResult => ({
        status: 'rejected',
        importId: scope.importId,
        issues: issues.sorted(),
        issueCount: issues.count,
      });
      // A file whose headings have issues goes on to phase 2 all the same, when it has rows: the
      // checks against the whole file and the scheme run on the rows it could stage, so that the
      // answer holds every problem at once (docs/imports.md); its heading issues refuse it there.
      if (read.rowsRead === 0) {
        await settleAlone(refused());
        return rejected();
      }

      // Phase 2, one transaction: all rows or none.
      const stagedFile = spool;
      const ended = await withActor(database, tenantActor, async (tx): Promise<Phase2> => {
        // Imports into one scheme check and write one at a time. This instance runs one at a
        // time already (uploads.claim); one running on another instance refuses this one
        // rather than holding a pooled connection while it waits (docs/decisions/0086).
        if (!(await tryUploadLock(tx, IMPORT_LOCK_NAMESPACE, scope.schemeId))) {
          await settle(tx, tenantActor, scope, {
            ...refused(),
            issues: [importRunningIssue()],
            issueCount: 1,
          });
          return { outcome: 'import running' };
        }
        // COPY and INSERT … SELECT over a whole file: the bulk statement bound, measured in
        // docs/decisions/0085, for this transaction alone.
        await database.allowBulkStatements(tx);
        // The file took as long as the client needed to send it, with no transaction open:
        // the scheme (or its employer) may have been deleted meanwhile, and nothing is written
        // under a deleted scheme (docs/decisions/0038-soft-delete-reaches-beneath.md). It answers
        // as the deleted scheme would.
        if (!(await findScheme(tx, scope.schemeId))) {
          await settle(tx, tenantActor, scope, {
            ...refused(),
            issues: [schemeDeletedIssue()],
            issueCount: 1,
          });
          return { outcome: 'scheme deleted' };
        }
        const earlier = await findSucceededImport(tx, {
          schemeId: scope.schemeId,
          kind: request.kind,
          fileSha256: read.fileSha256,
        });
        if (earlier) {
          await settle(tx, tenantActor, scope, {
            ...refused(),
            issues: [alreadyImportedIssue()],
            issueCount: 1,
          });
          return { outcome: 'already imported' };
        }
        await kind.staging.create(tx);
        await database.copyFrom(tx, kind.staging.target, stagedFile.path);
        const found = await kind.staging.findIssues(tx, scope, reader, MAX_LISTED_ISSUES);
        issues.addFound(found.issues, found.total);
        if (issues.count > 0) {
          await settle(tx, tenantActor, scope, refused());
          return { outcome: 'rejected' };
        }
        // The import is marked succeeded before its rows are written: the same file uploaded
        // twice at once meets the unique index on (scheme, kind, digest) here, not halfway.
        const view = await settle(tx, tenantActor, scope, {
          status: 'succeeded',
          fileSha256: read.fileSha256,
          fileBytes: read.fileBytes,
          rowsRead: read.rowsRead,
          rowsWritten: reader.rowsToWrite,
          issues: null,
          issueCount: 0,
        });
        const inserted = await kind.staging.insert(tx, scope);
        if (inserted !== reader.rowsToWrite) {
          throw new Error(`import staged ${reader.rowsToWrite} rows and wrote ${inserted}`);
        }
        // The totals to reconcile are of the rows just written.
        const written = await reconcileOne(tx, {
          id: scope.importId,
          kind: request.kind,
          createdBy: scope.userId,
          status: 'succeeded',
        });
        return { outcome: 'succeeded', view: { ...view, ...written } };
      });
      if (ended.outcome === 'already imported') throw new AlreadyImportedError();
      if (ended.outcome === 'scheme deleted') throw new NotFoundError();
      if (ended.outcome === 'import running') throw new UploadRunningError(IMPORT_RUNNING);
      if (ended.outcome === 'rejected') return rejected();
      return { status: 'succeeded', import: ended.view };
    } catch (error) {
      if (error instanceof DomainError) throw error;
      const received = file
        ? {
            fileSha256: file.fileSha256,
            fileBytes: file.fileBytes,
            rowsRead: file.rowsRead,
            rowsWritten: 0,
          }
        : { rowsWritten: 0 };
      if (error instanceof UploadTooLargeError) {
        await settleAlone({
          ...received,
          status: 'rejected',
          issues: [{ line: null, column: null, code: 'too_large', message: TOO_LARGE_MESSAGE }],
          issueCount: 1,
        });
        throw new PayloadTooLargeError();
      }
      if (isUniqueViolation(error, 'imports_same_file_once_key')) {
        await settleAlone({
          ...received,
          status: 'rejected',
          issues: [alreadyImportedIssue()],
          issueCount: 1,
        });
        throw new AlreadyImportedError();
      }
      // Nothing was written; the import says so if the database still answers. The original
      // error is the one the client's answer and the log need, not a second one from here.
      await settleAlone({ ...received, status: 'failed', issues: null, issueCount: 0 }).catch(
        () => undefined,
      );
      throw error;
    } finally {
      await spool?.discard();
    }
  }

  return {
    async importFile(actor: ActorContext, request: ImportRequest): Promise<ImportResult> {
      const tenantActor = authorize(actor, IMPORT_ACTIONS[request.kind]);
      const scheme = await withActor(database, tenantActor, async (tx) =>
        authorizeRow(
          tenantActor,
          IMPORT_ACTIONS[request.kind],
          await findScheme(tx, request.schemeId),
        ),
      );
      refuseWoundUp(scheme);
      if (request.declaredBytes !== null && request.declaredBytes > MAX_UPLOAD_BYTES) {
        throw new PayloadTooLargeError();
      }
      // One import into a scheme at a time, refused before its file is read or its row written
      // (docs/decisions/0086); the claim ends with the import, however it ends.
      const release = uploads.claim(
        { tenantId: scheme.brokerId, kind: 'scheme', id: scheme.id },
        IMPORT_RUNNING,
      );
      try {
        return await importClaimed(tenantActor, request, scheme);
      } finally {
        release();
      }
    },

    /** Spool files a crashed process left behind hold personal data: removed at start-up. */
    removeStaleSpoolFiles: () => removeStaleSpoolFiles(spoolDirectory, now()),

    /** A scheme's imports, newest first. */
    async list(actor: ActorContext, schemeId: string, query: SchemeImportsQuery) {
      authorize(actor, 'import.list');
      const { after, orderBy, take } = keyset(
        query,
        { at: imports.createdAt, id: imports.id },
        'desc',
      );
      const rows = await withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'import.list', await findScheme(tx, schemeId));
        const found = await listImports(tx, scheme.id, { after, orderBy, take });
        await reads.listed(tx, actor, {
          entityType: 'import',
          scope: { schemeId },
          filters: query,
          returned: found.length,
        });
        return { found, seen: await reconcile(tx, found) };
      });
      const page = pageFrom(rows.found, query, (row) => ({ at: row.createdAt, id: row.id }));
      return {
        items: page.items.map((row) =>
          summaryOf(row, rows.seen.get(row.id) ?? { uploadedBy: null, totals: null }),
        ),
        nextCursor: page.nextCursor,
      };
    },

    /** One import with its issues: how an upload is followed while it runs. */
    async get(actor: ActorContext, id: string): Promise<ImportView> {
      authorize(actor, 'import.read');
      const row = await withActor(database, actor, async (tx) => {
        const reached = authorizeRow(actor, 'import.read', await findImport(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'import',
          entityId: reached.id,
          tenantId: reached.brokerId,
        });
        return { reached, seen: await reconcileOne(tx, reached) };
      });
      return viewOf(row.reached, row.seen);
    },
  };
}

function alreadyImportedIssue(): ImportIssue {
  return { line: null, column: null, code: 'already_imported', message: ALREADY_IMPORTED };
}

function importRunningIssue(): ImportIssue {
  return { line: null, column: null, code: 'import_running', message: IMPORT_RUNNING };
}

function schemeDeletedIssue(): ImportIssue {
  return {
    line: null,
    column: null,
    code: 'scheme_deleted',
    message: 'The scheme was deleted while the file was being read; nothing was written',
  };
}

export type ImportsService = ReturnType<typeof createImportsService>;
