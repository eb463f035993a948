import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { ZipFile } from 'yazl';
import { DOCUMENT_TYPE_LABELS, type DocumentType } from '../../../contracts/documents.js';
import { fileNamePart } from '../../../contracts/file-names.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { SchemeType } from '../../../contracts/organisation.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { withActor } from '../../platform/db/with-actor.js';
import type { DocumentStorage } from '../../platform/storage/storage.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { type ActorFor, authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { currentDocumentsOf, type DocumentRow } from '../documents/index.js';
import { findScheme } from '../schemes/index.js';
import { assessOneScheme } from './compliance.service.js';
import {
  auditRecordPosition,
  employerNameOf,
  preparerOf,
  registersOf,
} from './evidence-pack.data.js';
import { type EvidenceSummary, renderSummaryPdf } from './evidence-pack.pdf.js';

/** The version of the manifest's layout, so that a reader can tell a later one apart. */
export const EVIDENCE_PACK_FORMAT = 'pension-admin/evidence-pack/1';

/**
 * Documents a pack never carries: a benefit statement is one member's personal data (and may
 * carry their PPS number), not evidence of the scheme's governance; data minimisation (GDPR
 * Art. 5(1)(c)) keeps it out. It is listed in the manifest as excluded, without its filename.
 */
const NOT_GOVERNANCE_EVIDENCE = new Set(['benefit_statement']);

export interface ManifestFile {
  path: string;
  size: number;
  sha256: string;
  documentId?: string;
  documentType?: string;
  version?: number;
}

export interface ManifestExclusion {
  documentId: string;
  documentType: string;
  version: number;
  scanStatus: string;
  reason: 'quarantined' | 'not_yet_scanned' | 'member_personal_data';
}

export interface EvidenceManifest {
  format: typeof EVIDENCE_PACK_FORMAT;
  schemeId: string;
  tenantId: string;
  generatedAt: string;
  generatedBy: { role: string };
  /**
   * The head of the tenant's audit chain once the pack's own record had committed: that record,
   * appended last under the chain's lock. `audit:verify --tenant <tenantId>` checks the chain up to
   * and past it; a regulator compares this position and hash with the log.
   */
  auditChain: { chain: string; position: number; recordId: string; hash: string };
  files: ManifestFile[];
  excluded: ManifestExclusion[];
}

/**
 * A stored document whose bytes do not match the size and SHA-256 recorded at upload: the pack is
 * abandoned (the archive is cut short and no unzip tool accepts it) and the route logs a security
 * event. Carries ids only.
 */
export class DocumentIntegrityError extends Error {
  override name = 'DocumentIntegrityError';
  constructor(
    readonly documentId: string,
    readonly version: number,
  ) {
    super(`document ${documentId} version ${version} does not match its recorded SHA-256`);
  }
}

export interface EvidencePackDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  /** Read only, through `open`: whichever back end holds the bytes. */
  storage: Pick<DocumentStorage, 'open'>;
  /** Whether `unscanned` documents are served (no scanner configured; config.ts). */
  servesUnscanned: boolean;
}

export interface EvidencePack {
  /** `evidence-pack-<scheme's name>-<YYYY-MM-DD>.zip` (packFilename). */
  filename: string;
  /** The ZIP as it is written; fails (is destroyed with the error) if a document fails its check. */
  stream: Readable;
}

/** The most characters of a scheme's name a pack's file name keeps. */
const MAX_NAME_IN_FILENAME = 60;

/**
 * The pack's file name, from the scheme's name and the day in Ireland it was made:
 * `evidence-pack-bantry-bay-joinery-staff-pension-2026-03-02.zip`. Safe characters only, so the
 * header carries it plainly and every file system takes it: letters lose their accents
 * (`Ó Súilleabháin` → `o-suilleabhain`), anything but a letter or a figure becomes one hyphen,
 * and a name with nothing left reads `scheme`.
 */
export function packFilename(schemeName: string, day: string): string {
  return `evidence-pack-${fileNamePart(schemeName, 'scheme', MAX_NAME_IN_FILENAME)}-${day}.zip`;
}

/** Bytes passed through unchanged while counted and hashed, checked against the row at the end. */
function checkedAgainst(row: DocumentRow, onDone: (sha256: string) => void): Transform {
  return hashed((size, sha256) => {
    if (size !== row.size || sha256 !== row.sha256) {
      return new DocumentIntegrityError(row.id, row.version);
    }
    onDone(sha256);
    return undefined;
  });
}

/**
 * A stream hashed as it passes, for entries whose hash is known only once written. `onDone` may
 * answer an error, which ends the stream with it.
 */
function hashed(onDone: (size: number, sha256: string) => Error | undefined): Transform {
  const hash = createHash('sha256');
  let size = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      done(onDone(size, hash.digest('hex')));
    },
  });
}

/**
 * A scheme's evidence pack (docs/decisions/0065-evidence-pack.md): a ZIP of a
 * tagged PDF summary of its governance, the current version of each of its servable documents
 * and `manifest.json` with every file's SHA-256 and the head of the tenant's audit chain. The
 * archive is streamed: one document is open at a time, read from storage as the client reads.
 */
export function createEvidencePackService({
  database,
  audit,
  now,
  storage,
  servesUnscanned,
}: EvidencePackDeps) {
  const exclusionOf = (row: DocumentRow): ManifestExclusion['reason'] | null => {
    // Any document about one member is theirs, whatever its type (docs/decisions/0090-member-documents.md).
    if (row.memberId !== null || NOT_GOVERNANCE_EVIDENCE.has(row.documentType)) {
      return 'member_personal_data';
    }
    if (row.scanStatus === 'clean') return null;
    if (row.scanStatus === 'unscanned' && servesUnscanned) return null;
    return row.scanStatus === 'quarantined' ? 'quarantined' : 'not_yet_scanned';
  };

  /**
   * Reads everything the pack says in one transaction (one snapshot of the registers and the
   * document list) and records the generation in it, so the audit record commits before a byte
   * is sent; then reads where that record landed in the chain.
   */
  async function prepare(reader: ActorFor<'scheme.evidence_pack'>, schemeId: string) {
    const generatedAt = now();
    const generatedOn = todayInIreland(generatedAt);
    const prepared = await withActor(database, reader, async (tx) => {
      const scheme = authorizeRow(reader, 'scheme.evidence_pack', await findScheme(tx, schemeId));
      const employerName = await employerNameOf(tx, scheme);
      const preparer = await preparerOf(tx, { userId: reader.userId, tenantId: scheme.brokerId });
      const registers = await registersOf(tx, scheme);
      const compliance = await assessOneScheme(tx, scheme, generatedOn);
      const included: DocumentRow[] = [];
      const excluded: ManifestExclusion[] = [];
      for (const row of await currentDocumentsOf(tx, scheme)) {
        const reason = exclusionOf(row);
        if (reason === null) included.push(row);
        else {
          excluded.push({
            documentId: row.id,
            documentType: row.documentType,
            version: row.version,
            scanStatus: row.scanStatus,
            reason,
          });
        }
      }
      const recordId = await audit.record(tx, reader, {
        action: 'scheme.evidence_pack_generated',
        entityType: 'scheme',
        entityId: scheme.id,
        tenantId: scheme.brokerId,
        previousState: null,
        newState: {
          schemeId: scheme.id,
          documents: included.map((row) => ({ id: row.id, version: row.version })),
          excluded: excluded.map((entry) => ({ id: entry.documentId, reason: entry.reason })),
          trustees: registers.trustees.length,
          keyFunctionHolders: registers.keyFunctionHolders.length,
          policies: registers.policies.length,
          oraReports: registers.oraReports.length,
        },
      });
      return {
        scheme,
        preparer,
        employerName: employerName ?? '',
        registers,
        compliance,
        included,
        excluded,
        recordId,
      };
    });
    const head = await withActor(database, reader, (tx) =>
      auditRecordPosition(tx, { tenantId: prepared.scheme.brokerId, id: prepared.recordId }),
    );
    if (!head) throw new Error('the evidence pack’s audit record is not in the log after commit');
    return { ...prepared, head, reader, generatedAt, generatedOn };
  }

  return {
    async generate(actor: ActorContext, schemeId: string): Promise<EvidencePack> {
      const reader = authorize(actor, 'scheme.evidence_pack');
      const pack = await prepare(reader, schemeId);
      const { scheme, included } = pack;
      // Folders named as the Authority reads them ("Trust deed"), not by the type's code; the
      // manifest keeps the code beside each file for a machine that reads it.
      const pathOf = (row: DocumentRow) =>
        `documents/${DOCUMENT_TYPE_LABELS[row.documentType as DocumentType]}/${row.filename}`;
      const summary: EvidenceSummary = {
        scheme: {
          name: scheme.name,
          type: scheme.type as SchemeType,
          employerName: pack.employerName,
          srNumber: scheme.srNumber,
        },
        generatedAt: pack.generatedAt,
        generatedOn: pack.generatedOn,
        preparedBy: { ...pack.preparer, role: pack.reader.role },
        ...pack.registers,
        compliance: pack.compliance,
        documents: included.map(pathOf),
        excluded: pack.excluded.map((entry) => entry.reason),
      };

      // Made before the archive begins: pdfkit is loaded with the first PDF, and a failure to
      // load it is then the request's error rather than a broken archive.
      const pdf = await renderSummaryPdf(summary);
      const zip = new ZipFile();
      // yazl's output is a PassThrough; its published types name only the readable interface.
      const output = zip.outputStream as Readable;
      const files: ManifestFile[] = [];
      let reading: Readable | null = null;
      const fail = (error: Error) => {
        reading?.destroy();
        output.destroy(error);
      };
      zip.on('error', fail);
      pdf.on('error', fail);
      // A client that goes away stops the read of the document under way.
      output.on('close', () => reading?.destroy());
      const entry = { mtime: pack.generatedAt };

      zip.addReadStreamLazy('summary.pdf', entry, (ready) => {
        const through = hashed((size, sha256) => {
          files.push({ path: 'summary.pdf', size, sha256 });
          return undefined;
        });
        through.on('error', fail);
        ready(null, pdf.pipe(through));
      });
      for (const row of included) {
        // Opened only when its turn comes (yazl calls these one after another), so one document
        // is open at a time whatever the scheme holds. Already compressed formats: stored.
        zip.addReadStreamLazy(pathOf(row), { ...entry, compress: false }, (ready) => {
          storage.open(row.storageKey).then(
            (stored) => {
              if (!stored) {
                ready(new DocumentIntegrityError(row.id, row.version), undefined as never);
                return;
              }
              const checked = checkedAgainst(row, (sha256) =>
                files.push({
                  path: pathOf(row),
                  size: row.size,
                  sha256,
                  documentId: row.id,
                  documentType: row.documentType,
                  version: row.version,
                }),
              );
              reading = stored.stream;
              stored.stream.on('error', fail);
              checked.on('error', fail);
              ready(null, stored.stream.pipe(checked));
            },
            (error: Error) => ready(error, undefined as never),
          );
        });
      }
      // Last, so that every hash above is known when yazl asks for it.
      zip.addReadStreamLazy('manifest.json', entry, (ready) => {
        const manifest: EvidenceManifest = {
          format: EVIDENCE_PACK_FORMAT,
          schemeId: scheme.id,
          tenantId: scheme.brokerId,
          generatedAt: pack.generatedAt.toISOString(),
          generatedBy: { role: pack.reader.role },
          auditChain: {
            chain: pack.head.chainKey,
            position: pack.head.chainIndex,
            recordId: pack.recordId,
            hash: pack.head.hash,
          },
          files,
          excluded: pack.excluded,
        };
        const body = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
        ready(null, Readable.from([body]));
      });
      zip.end();
      return { filename: packFilename(scheme.name, pack.generatedOn), stream: output };
    },
  };
}

export type EvidencePackService = ReturnType<typeof createEvidencePackService>;
