import type { SQL } from 'drizzle-orm';
import type { EntityRecordedAs } from '../../../contracts/audit-text.js';
import { DOCUMENT_TYPE_LABELS } from '../../../contracts/documents.js';
import { LINKED_DOCUMENT_TYPE, type LinkingRegister } from '../../../contracts/governance.js';
import { outOfScopeReason } from '../../../contracts/governance-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { RacKind, SchemeType } from '../../../contracts/organisation.js';
import type { RecordAction } from '../../../contracts/policy.js';
import type { AuditAction, AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import { pageFrom } from '../../platform/db/keyset.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorizeRow } from '../../platform/tenancy/authorize.js';
import { findDocument } from '../documents/index.js';
import { findScheme, refuseWoundUp, type SchemeRow } from '../schemes/index.js';
import {
  auditRecordsOfEntry,
  findEntry,
  type GovernanceTable,
  linkedDocumentsOf,
  linkOf,
  type RegisterTable,
  registerRows,
  softDeleteEntry,
} from './governance.data.js';
import type { HistoryEntryView, PageQuery } from './governance.schemas.js';

/** The chain position a history cursor stands for. */
function chainPositionOf(cursor: string): number {
  const position = Number(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!Number.isSafeInteger(position) || position < 0) {
    throw new ValidationError([
      { path: 'cursor', code: 'invalid_cursor', message: 'Invalid cursor' },
    ]);
  }
  return position;
}

/**
 * What every register shares: the scheme a new entry goes under or a list is read from, a page of
 * a register, a soft delete with its audit record, an entry's history, and the rule that a PRSA
 * keeps no governance registers (governance-rules.ts). Each takes the transaction first: the
 * services call them after asking the policy.
 */
export function createRegisterKit({ audit, now }: { audit: AuditService; now: () => Date }) {
  const reads = createPlatformReadLog(audit);

  /**
   * The audit records of one entry, oldest first: its history as the register keeps it. Ordered by
   * their place in the tenant's audit chain, which is total even for records of one millisecond.
   */
  async function history(
    tx: Transaction,
    entityType: string,
    entityId: string,
    query: PageQuery,
  ): Promise<{ items: HistoryEntryView[]; nextCursor: string | null }> {
    const after = query.cursor === undefined ? null : chainPositionOf(query.cursor);
    const rows = await auditRecordsOfEntry(tx, { entityType, entityId }, after, query.limit + 1);
    const items = rows.slice(0, query.limit);
    const last = items.at(-1);
    return {
      items: items.map((row) => {
        const changed = (row.newState as { changedFields?: unknown } | null)?.changedFields;
        return {
          auditRecordId: row.id,
          action: row.action,
          at: row.timestamp.toISOString(),
          actorRole: row.actorType,
          changedFields: Array.isArray(changed) ? changed.map(String) : [],
        };
      }),
      nextCursor:
        rows.length > query.limit && last
          ? Buffer.from(String(last.chainIndex)).toString('base64url')
          : null,
    };
  }

  return {
    reads,
    today: () => todayInIreland(now()),

    /** The scheme named by the path, within the actor's reach for `action`. */
    async scheme(tx: Transaction, actor: ActorContext, action: RecordAction, schemeId: string) {
      return authorizeRow(actor, action, await findScheme(tx, schemeId));
    },

    /** The scheme a register entry is written under: not one wound up, whose records are kept. */
    async writableScheme(
      tx: Transaction,
      actor: ActorContext,
      action: RecordAction,
      schemeId: string,
    ) {
      const scheme = authorizeRow(actor, action, await findScheme(tx, schemeId));
      refuseWoundUp(scheme);
      return scheme;
    },

    /** A PRSA, or an RAC that is a contract, is not a trust: IORP II's registers do not apply. */
    assertGoverned(scheme: SchemeRow): void {
      const reason = outOfScopeReason({
        type: scheme.type as SchemeType,
        racKind: scheme.racKind as RacKind | null,
      });
      if (reason !== null) throw new ConflictError(reason);
    },

    /**
     * A page of one register of a scheme within the actor's reach: its live rows in the order they
     * were recorded (latest first with `direction: 'desc'`), narrowed by `where`.
     */
    async listUnder<T extends GovernanceTable>(
      tx: Transaction,
      actor: ActorContext,
      action: RecordAction,
      list: {
        table: T;
        entityType: EntityRecordedAs<'listed'>;
        schemeId: string;
        query: PageQuery;
        where?: SQL;
        direction?: 'asc' | 'desc';
      },
    ): Promise<{ items: T['$inferSelect'][]; nextCursor: string | null }> {
      const scheme = await this.scheme(tx, actor, action, list.schemeId);
      const rows = await registerRows(tx, list.table, scheme, {
        query: list.query,
        where: list.where,
        direction: list.direction,
      });
      await reads.listed(tx, actor, {
        entityType: list.entityType,
        scope: { schemeId: list.schemeId },
        filters: list.query,
        returned: rows.length,
      });
      const page = pageFrom(rows, list.query, (row) => ({ at: row.createdAt, id: row.id }));
      return page as { items: T['$inferSelect'][]; nextCursor: string | null };
    },

    /**
     * Refuses a link to anything but a live, unquarantined document of the entry's own scheme and
     * of the register's document type, with a 400 that says which. A document the actor's tenant
     * does not hold reads exactly as one that does not exist (row-level security hides it).
     */
    async assertLinkable(
      tx: Transaction,
      entry: { schemeId: string },
      register: LinkingRegister,
      documentId: string | null | undefined,
    ): Promise<void> {
      if (documentId == null) return;
      // Held until the entry's change commits: the document cannot be deleted in between.
      const document = await findDocument(tx, documentId, { lock: 'share' });
      const refuse = (code: string, message: string) => {
        throw new ValidationError([{ path: 'documentId', code, message }]);
      };
      if (!document) return refuse('unknown_document', 'There is no such document to link');
      if (document.schemeId !== entry.schemeId) {
        return refuse(
          'document_of_another_scheme',
          'The document belongs to another scheme: link one of this scheme’s documents',
        );
      }
      const expected = LINKED_DOCUMENT_TYPE[register];
      if (document.documentType !== expected) {
        return refuse(
          'document_type_mismatch',
          `Link a document uploaded as “${DOCUMENT_TYPE_LABELS[expected]}”`,
        );
      }
      if (document.scanStatus === 'quarantined') {
        refuse('document_quarantined', 'The document was found to carry malware and is not linked');
      }
    },

    /** The links of these entries, as the API shows them, in one query. */
    async linksOf<T extends { brokerId: string; documentId: string | null }>(
      tx: Transaction,
      entries: readonly T[],
    ) {
      const found = await linkedDocumentsOf(tx, entries);
      return (entry: T) => linkOf(entry, found);
    },

    /** An entry deleted: kept, with its audit record, and hidden from every read (docs/decisions/0038-soft-delete-reaches-beneath.md). */
    async softDelete(
      tx: Transaction,
      writer: TenantActor,
      table: RegisterTable,
      row: { brokerId: string; id: string },
      record: { action: AuditAction; entityType: string; previousState: unknown },
    ): Promise<void> {
      await softDeleteEntry(tx, table, row, now());
      await audit.record(tx, writer, {
        ...record,
        entityId: row.id,
        tenantId: row.brokerId,
        newState: null,
      });
    },

    /** An entry's history, for an actor who may read the entry (404 otherwise). */
    async entryHistory(
      tx: Transaction,
      actor: ActorContext,
      action: RecordAction,
      entry: { table: RegisterTable; entityType: string; id: string; query: PageQuery },
    ) {
      authorizeRow(actor, action, await findEntry(tx, entry.table, entry.id));
      return history(tx, entry.entityType, entry.id, entry.query);
    },
  };
}

export type RegisterKit = ReturnType<typeof createRegisterKit>;
