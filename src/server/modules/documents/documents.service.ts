import { createHash } from 'node:crypto';
import type { Readable } from 'node:stream';
import { createId } from '@paralleldrive/cuid2';
import type { DocumentContentType, DocumentType } from '../../../contracts/documents.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { documents } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import {
  ConflictError,
  NotFoundError,
  TooLargeError,
  ValidationError,
  type ValidationIssue,
} from '../../platform/errors.js';
import type { Scanner } from '../../platform/storage/clamd.js';
import type { DownloadGrant, UrlSigner } from '../../platform/storage/signed-urls.js';
import {
  type DocumentStorage,
  type StagedFile,
  storageKeyOf,
} from '../../platform/storage/storage.js';
import {
  type ActorContext,
  actorFor,
  type RequestOrigin,
  type TenantActor,
} from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf, isAllowed } from '../../platform/tenancy/authorize.js';
import { isRole } from '../../platform/tenancy/roles.js';
import {
  boundaryOf,
  MultipartError,
  MultipartTooLargeError,
  readMultipart,
} from '../../platform/uploads/multipart.js';
import { findUserById } from '../auth/index.js';
import { findMember } from '../members/index.js';
import { findScheme, refuseChangesBeneath } from '../schemes/index.js';
import { contentTypeOf, type HeadKind, SNIFF_BYTES, sniffHead } from './content-sniff.rules.js';
import {
  type DocumentRow,
  documentRowOf,
  findDocument,
  insertDocument,
  listDocuments,
  lockedLatestVersion,
  markDocumentDeleted,
  settlePendingScan,
} from './documents.data.js';
import {
  ACCEPTED_TYPES_MESSAGE,
  type DocumentListQuery,
  type DocumentUrlView,
  type DocumentView,
  documentUploadFields,
  MAX_DOCUMENT_BYTES,
  type ScanStatus,
} from './documents.schemas.js';
import { keptOriginalName, safeFilename } from './filenames.rules.js';

/**
 * The session epoch a download URL is bound to: the one of the request's verified session. A URL
 * is issued only to a request, and one would otherwise outlive the session it came from.
 */
function sessionEpochOf(session: ActorContext['session']): number {
  const epoch = session?.claims.sessionEpoch;
  if (epoch === undefined) throw new Error('a download URL is issued only to a signed-in request');
  return epoch;
}

/** Room for the form's fields and part headers around the file itself. */
const FORM_OVERHEAD_BYTES = 64 * 1024;

const viewOf = (row: DocumentRow): DocumentView => ({
  id: row.id,
  schemeId: row.schemeId,
  documentType: row.documentType as DocumentView['documentType'],
  filename: row.filename,
  originalFilename: row.originalFilename,
  title: row.title,
  memberFacing: row.memberFacing,
  memberId: row.memberId,
  contentType: row.contentType,
  size: row.size,
  sha256: row.sha256,
  version: row.version,
  scanStatus: row.scanStatus as ScanStatus,
  createdAt: row.createdAt.toISOString(),
});

/**
 * What the audit log keeps of a document: ids, type, version, size, hash and scan state, never its
 * filename or title, which can name a person ("Benefit statement – Seán Kelly.pdf") and the
 * append-only chain must never need an erasure (docs/decisions/0062-document-vault.md).
 */
const auditStateOf = (row: DocumentRow) => ({
  id: row.id,
  schemeId: row.schemeId,
  documentType: row.documentType,
  version: row.version,
  contentType: row.contentType,
  size: row.size,
  sha256: row.sha256,
  memberFacing: row.memberFacing,
  memberId: row.memberId,
  scanStatus: row.scanStatus,
});

const KNOWN_FIELDS = new Set(Object.keys(documentUploadFields.shape));

const invalid = (path: string, code: string, message: string) =>
  new ValidationError([{ path, code, message }]);

export interface UploadRequest {
  /** The request body as it arrives. */
  body: Readable;
  /** The request's Content-Type header, which carries the multipart boundary. */
  contentType: string | undefined;
  /** The Content-Length header, when the client sent one. */
  declaredBytes: number | null;
}

export interface DocumentsDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  storage: DocumentStorage;
  /** clamd, or null where the service runs without a scanner (config.ts, scannerSettings). */
  scanner: Scanner | null;
  signer: UrlSigner;
  publicBaseUrl: URL;
}

/** Numbers the version and writes the row and its audit record, in the caller's transaction. */
async function insertVersion(
  audit: AuditService,
  tx: Transaction,
  writer: TenantActor,
  row: Omit<DocumentRow, 'version' | 'storageKey'>,
): Promise<DocumentRow> {
  // One upload of a name at a time: the next version number is read and taken under the lock.
  const version = (await lockedLatestVersion(tx, row)) + 1;
  const stored: DocumentRow = {
    ...row,
    version,
    storageKey: storageKeyOf({
      tenantId: row.brokerId,
      schemeId: row.schemeId,
      documentId: row.id,
    }),
  };
  await insertDocument(tx, stored);
  await audit.record(tx, writer, {
    action: 'document.uploaded',
    entityType: 'document',
    entityId: stored.id,
    tenantId: stored.brokerId,
    previousState: null,
    newState: auditStateOf(stored),
  });
  return stored;
}

/** A document the service wrote itself, its row inserted in the caller's open transaction. */
export interface GeneratedDocument {
  row: DocumentRow;
  /** Makes the bytes reachable: called once the caller's transaction has committed. */
  commit(): Promise<void>;
  /** Drops the staged bytes: called when the caller's transaction did not commit. */
  discard(): Promise<void>;
}

/**
 * Documents the service writes itself (an issued AI draft's PDF, a member's benefit statement),
 * stored as uploads are: staged,
 * the row versioned by name and audited in the caller's transaction, the bytes committed under
 * their key only after that transaction has (docs/decisions/0062-document-vault.md). The
 * bytes come from the service, not a browser, so they are recorded `clean` without a scan and
 * `scannedAt` stays empty (docs/decisions/0067-ai-drafts.md).
 */
export function createGeneratedDocuments({
  audit,
  storage,
}: Pick<DocumentsDeps, 'audit' | 'storage'>) {
  return {
    async store(
      tx: Transaction,
      writer: TenantActor,
      document: {
        scheme: { brokerId: string; employerId: string; id: string };
        documentType: DocumentType;
        filename: string;
        title: string;
        contentType: DocumentContentType;
        bytes: Buffer;
        at: Date;
        /**
         * The member the document is about (a benefit statement): it is then member-facing and
         * that member's alone (docs/decisions/0090-member-documents.md).
         */
        member?: { id: string };
      },
    ): Promise<GeneratedDocument> {
      const id = createId();
      const staged = await storage.stage(id);
      try {
        await staged.write(document.bytes);
        await staged.close();
        const filename = safeFilename(document.filename);
        const row = await insertVersion(audit, tx, writer, {
          brokerId: document.scheme.brokerId,
          id,
          employerId: document.scheme.employerId,
          schemeId: document.scheme.id,
          documentType: document.documentType,
          filename,
          originalFilename: filename,
          title: document.title,
          memberFacing: document.member !== undefined,
          memberId: document.member?.id ?? null,
          contentType: document.contentType,
          size: document.bytes.length,
          sha256: createHash('sha256').update(document.bytes).digest('hex'),
          scanStatus: 'clean',
          scannedAt: null,
          createdBy: writer.userId,
          createdAt: document.at,
          updatedAt: document.at,
          deletedAt: null,
        });
        return {
          row,
          commit: () => storage.commit(staged, row.storageKey),
          discard: () => staged.discard(),
        };
      } catch (error) {
        await staged.discard();
        throw error;
      }
    },
  };
}
export type GeneratedDocuments = ReturnType<typeof createGeneratedDocuments>;

/**
 * A scheme's documents (docs/decisions/0062-document-vault.md). Who may do
 * what: contracts/policy.ts. Bytes are stored through `storage`, reached through signed URLs only.
 */
export function createDocumentsService({
  database,
  audit,
  now,
  storage,
  scanner,
  signer,
  publicBaseUrl,
}: DocumentsDeps) {
  const reads = createPlatformReadLog(audit);

  /** Served: clean, or unscanned where no scanner is configured. Never pending or quarantined. */
  const servable = (status: string) =>
    status === 'clean' || (scanner === null && status === 'unscanned');

  /**
   * The scheme or document `row`, when the actor's scope for `action` takes it in; 404 otherwise.
   * A Member's scope is their own member record: a scheme is within it when it is the scheme of
   * that record, a document when it is a member-facing one of that scheme and about no member or
   * about them (docs/decisions/0064-document-links-and-documents-tab.md; docs/decisions/0090-member-documents.md). Staff
   * reach a member's document as they reach its scheme.
   */
  async function within<T extends { id: string; brokerId: string; employerId: string }>(
    tx: Transaction,
    actor: ActorContext,
    action: 'document.list' | 'document.read' | 'document.download',
    row: T | undefined,
    placeOf: (row: T) => { schemeId: string; memberFacing: boolean; memberId: string | null },
  ): Promise<T> {
    if (!row) throw new NotFoundError();
    const { memberId } = boundsOf(actor, action);
    let seenBy: string | null = null;
    if (memberId !== null) {
      const own = await findMember(tx, memberId);
      const place = placeOf(row);
      const ofTheirScheme = own !== undefined && own.schemeId === place.schemeId;
      const aboutNoOtherMember = place.memberId === null || place.memberId === own?.id;
      if (own && ofTheirScheme && place.memberFacing && aboutNoOtherMember) seenBy = own.id;
    }
    authorizeRow(actor, action, { ...row, memberId: seenBy });
    return row;
  }

  /**
   * The member a document is to be about: one of this scheme, as row-level security and the
   * scheme's reach let the writer see it. Anything else is refused alike, whether it is missing,
   * deleted or another scheme's, so that the answer tells nothing of other members.
   */
  async function memberOfScheme(
    tx: Transaction,
    scheme: { id: string },
    memberId: string | undefined,
  ): Promise<string | null> {
    if (memberId === undefined) return null;
    const member = await findMember(tx, memberId);
    if (member?.schemeId !== scheme.id) {
      throw invalid('memberId', 'unknown_member', 'There is no such member in this scheme');
    }
    return member.id;
  }

  /** Reads the form, staging the file as it arrives; the staged file is the caller's to settle. */
  async function receive(staged: StagedFile, request: UploadRequest) {
    const boundary = boundaryOf(request.contentType);
    if (boundary === null) {
      throw invalid('file', 'multipart_expected', 'Send the document as multipart/form-data');
    }
    const hash = createHash('sha256');
    let size = 0;
    let head = Buffer.alloc(0);
    let original: string | null = null;
    let fileField: string | null = null;
    let fields: Map<string, string>;
    try {
      fields = await readMultipart(
        request.body,
        boundary,
        {
          onFileStart(part) {
            fileField = part.field;
            original = part.filename;
          },
          async onFileData(chunk) {
            size += chunk.length;
            hash.update(chunk);
            if (head.length < SNIFF_BYTES) {
              head = Buffer.concat([head, chunk.subarray(0, SNIFF_BYTES - head.length)]);
            }
            await staged.write(chunk);
          },
        },
        {
          maxBodyBytes: MAX_DOCUMENT_BYTES + FORM_OVERHEAD_BYTES,
          maxFileBytes: MAX_DOCUMENT_BYTES,
          maxFieldBytes: 4096,
          maxFields: 8,
          maxHeaderBytes: 8192,
        },
      );
    } catch (error) {
      if (error instanceof MultipartTooLargeError) throw new TooLargeError();
      if (error instanceof MultipartError) throw invalid('file', 'malformed_form', error.message);
      throw error;
    }
    await staged.close();
    const issues: ValidationIssue[] = [];
    for (const name of fields.keys()) {
      if (!KNOWN_FIELDS.has(name)) {
        issues.push({ path: name, code: 'unknown_field', message: 'This field is not accepted' });
      }
    }
    if (fileField !== 'file' || original === null) {
      issues.push({ path: 'file', code: 'required', message: 'Attach the file as the field file' });
    } else if (size === 0) {
      issues.push({ path: 'file', code: 'empty', message: 'The file is empty' });
    }
    const parsed = documentUploadFields.safeParse(Object.fromEntries(fields));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        issues.push({ path: issue.path.join('.'), code: issue.code, message: issue.message });
      }
    }
    if (issues.length > 0 || !parsed.success) throw new ValidationError(issues);
    return {
      fields: parsed.data,
      original: original as unknown as string,
      size,
      sha256: hash.digest('hex'),
      head: sniffHead(head) as HeadKind | null,
    };
  }

  return {
    async upload(actor: ActorContext, schemeId: string, request: UploadRequest) {
      const writer = authorize(actor, 'document.upload');
      const scheme = await withActor(database, writer, async (tx) =>
        authorizeRow(writer, 'document.upload', await findScheme(tx, schemeId)),
      );
      // A declared length past the limit is refused before a byte of the body is read.
      if (
        request.declaredBytes !== null &&
        request.declaredBytes > MAX_DOCUMENT_BYTES + FORM_OVERHEAD_BYTES
      ) {
        throw new TooLargeError();
      }
      const id = createId();
      const staged = await storage.stage(id);
      let row: DocumentRow;
      try {
        const received = await receive(staged, request);
        const contentType = await contentTypeOf(received.head, staged.path);
        if (contentType === null) {
          throw invalid('file', 'unsupported_type', ACCEPTED_TYPES_MESSAGE);
        }
        const at = now();
        row = await withActor(database, writer, async (tx) => {
          const memberId = await memberOfScheme(tx, scheme, received.fields.memberId);
          return insertVersion(audit, tx, writer, {
            brokerId: scheme.brokerId,
            id,
            employerId: scheme.employerId,
            schemeId: scheme.id,
            documentType: received.fields.documentType,
            filename: safeFilename(received.original),
            originalFilename: keptOriginalName(received.original),
            title: received.fields.title ?? null,
            // A document about one member faces that member (docs/decisions/0090-member-documents.md).
            memberFacing: memberId !== null || received.fields.memberFacing,
            memberId,
            contentType,
            size: received.size,
            sha256: received.sha256,
            scanStatus: scanner ? 'pending' : 'unscanned',
            scannedAt: null,
            createdBy: writer.userId,
            createdAt: at,
            updatedAt: at,
            deletedAt: null,
          });
        });
      } catch (error) {
        await staged.discard();
        throw error;
      }
      // Only now, with the row committed, is the file made reachable under its key. A crash
      // before this line leaves a staged file the storage-sweep job finishes moving.
      await storage.commit(staged, row.storageKey);
      if (scanner) row = await settleScan(writer, row);
      return viewOf(row);
    },

    async list(actor: ActorContext, schemeId: string, query: DocumentListQuery) {
      authorize(actor, 'document.list');
      const { after, orderBy, take } = keyset(
        query,
        { at: documents.createdAt, id: documents.id },
        'desc',
      );
      const page = await withActor(database, actor, async (tx) => {
        const scheme = await within(
          tx,
          actor,
          'document.list',
          await findScheme(tx, schemeId),
          (found) => ({ schemeId: found.id, memberFacing: true, memberId: null }),
        );
        const { memberId } = boundsOf(actor, 'document.list');
        const rows = await listDocuments(
          tx,
          scheme,
          { memberId, allVersions: query.allVersions },
          { after, orderBy, take },
        );
        await reads.listed(tx, actor, {
          entityType: 'document',
          scope: { schemeId },
          filters: query,
          returned: rows.length,
        });
        return pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      });
      return { items: page.items.map(viewOf), nextCursor: page.nextCursor };
    },

    async read(actor: ActorContext, id: string) {
      authorize(actor, 'document.read');
      return withActor(database, actor, async (tx) => {
        const row = await within(
          tx,
          actor,
          'document.read',
          await findDocument(tx, id),
          (found) => found,
        );
        await reads.viewed(tx, actor, {
          entityType: 'document',
          entityId: id,
          tenantId: row.brokerId,
        });
        return viewOf(row);
      });
    },

    async remove(actor: ActorContext, id: string) {
      const writer = authorize(actor, 'document.delete');
      await withActor(database, writer, async (tx) => {
        const row = authorizeRow(
          writer,
          'document.delete',
          await findDocument(tx, id, { lock: 'update' }),
        );
        // A wound-up scheme's records are kept; filing a document under it stays open, for the
        // papers a wind-up itself produces (docs/decisions/0146-schemes-wound-up-not-deleted.md).
        await refuseChangesBeneath(tx, row.schemeId);
        await markDocumentDeleted(tx, row, { deletedAt: now(), updatedAt: now() });
        await audit.record(tx, writer, {
          action: 'document.deleted',
          entityType: 'document',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: auditStateOf(row),
          newState: null,
        });
      });
    },

    /** A signed URL for a document the actor may download: clean (or unscanned without a scanner). */
    async issueUrl(actor: ActorContext, id: string): Promise<DocumentUrlView> {
      const reader = authorize(actor, 'document.download');
      return withActor(database, reader, async (tx) => {
        const row = await within(
          tx,
          reader,
          'document.download',
          await findDocument(tx, id),
          (found) => found,
        );
        if (!servable(row.scanStatus)) {
          throw new ConflictError(
            row.scanStatus === 'quarantined'
              ? 'This document was found to carry malware and cannot be downloaded'
              : 'This document has not been checked for malware yet; try again shortly',
          );
        }
        const { token, expiresAt } = signer.sign({
          documentId: row.id,
          version: row.version,
          tenantId: row.brokerId,
          userId: reader.userId,
          sessionEpoch: sessionEpochOf(reader.session),
        });
        await audit.record(tx, reader, {
          action: 'document.url_issued',
          entityType: 'document',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: null,
          newState: { id: row.id, version: row.version, expiresAt: expiresAt.toISOString() },
        });
        return {
          url: new URL(`/files/${row.id}/${token}`, publicBaseUrl).toString(),
          expiresAt: expiresAt.toISOString(),
        };
      });
    },

    /**
     * The bytes a signed URL grants, as its holder downloads them. The grant's signature was
     * checked by the route; here the account it was issued to must still be active in the tenant
     * signed and still reach the document (a member-facing flag removed, an employer moved: the
     * URL stops working), and the document must still be live, of the version signed and
     * servable. Anything else reads as missing. Each download is audited as that account's.
     */
    async download(grant: DownloadGrant, origin: RequestOrigin) {
      const user = await findUserById(database, grant.userId);
      if (
        user?.status !== 'active' ||
        !isRole(user.role) ||
        user.brokerId !== grant.tenantId ||
        user.sessionEpoch !== grant.sessionEpoch
      ) {
        return null;
      }
      const actor = actorFor(
        {
          userId: user.id,
          email: user.email,
          role: user.role,
          brokerId: user.brokerId,
          employerId: user.employerId,
          memberId: user.memberId,
        },
        origin,
      );
      if (!isAllowed(actor, 'document.download')) return null;
      const reader = authorize(actor, 'document.download');
      const row = await withActor(database, reader, async (tx) => {
        const found = await within(
          tx,
          reader,
          'document.download',
          await findDocument(tx, grant.documentId),
          (document) => document,
        ).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (
          !found ||
          found.brokerId !== grant.tenantId ||
          found.version !== grant.version ||
          !servable(found.scanStatus)
        ) {
          return undefined;
        }
        return found;
      });
      const stored = row ? await storage.open(row.storageKey) : null;
      if (!row || !stored) return null;
      await withActor(database, reader, (tx) =>
        audit.record(tx, reader, {
          action: 'document.downloaded',
          entityType: 'document',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: null,
          newState: { id: row.id, version: row.version, sha256: row.sha256 },
        }),
      ).catch((error: unknown) => {
        stored.stream.destroy();
        throw error;
      });
      return { filename: row.filename, contentType: row.contentType, ...stored };
    },
  };

  /** Scans a committed upload and records the verdict; a scanner that fails leaves it pending. */
  async function settleScan(writer: TenantActor, row: DocumentRow): Promise<DocumentRow> {
    if (!scanner) return row;
    let verdict: 'clean' | 'quarantined';
    try {
      const stored = await storage.open(row.storageKey);
      if (!stored) return row;
      verdict = await scanner.scan(stored.stream);
    } catch {
      // Pending documents are never served; the storage-sweep job scans them again.
      return row;
    }
    const at = now();
    return withActor(database, writer, async (tx) => {
      // Only a pending document is settled, in the statement that settles it: the storage sweep
      // may have scanned it meanwhile, and then its verdict stands and nothing more is recorded.
      const settled = await settlePendingScan(tx, row, {
        scanStatus: verdict,
        scannedAt: at,
        updatedAt: at,
      });
      if (!settled) return (await documentRowOf(tx, row)) ?? row;
      await audit.record(tx, writer, {
        action: 'document.scanned',
        entityType: 'document',
        entityId: row.id,
        tenantId: row.brokerId,
        previousState: { scanStatus: row.scanStatus },
        newState: { scanStatus: verdict },
      });
      return settled;
    });
  }
}

export type DocumentsService = ReturnType<typeof createDocumentsService>;
