import { createId } from '@paralleldrive/cuid2';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { pageFrom } from '../../platform/db/keyset.js';
import { trustees } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, NotFoundError } from '../../platform/tenancy/authorize.js';
import { refuseChangesBeneath } from '../schemes/index.js';
import { changedFieldsOf } from './appointments.service.js';
import {
  type ConflictRow,
  conflictRowsOf,
  findConflict,
  insertConflictRow,
  updateConflictRow,
} from './conflicts.data.js';
import { findEntry } from './governance.data.js';
import type {
  ConflictChange,
  ConflictInput,
  ConflictView,
  PageQuery,
} from './governance.schemas.js';
import { createRegisterKit } from './register-kit.service.js';

const conflictViewOf = (row: ConflictRow): ConflictView => ({
  id: row.id,
  schemeId: row.schemeId,
  personName: row.personName,
  trusteeId: row.trusteeId,
  interest: row.interest,
  declaredOn: row.declaredOn,
  management: row.management,
  closedOn: row.closedOn,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * What the audit log keeps of an entry: references, dates and flags, never the person's name, the
 * interest or how it is managed, which are personal data and stay in the register
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const conflictAuditState = (row: ConflictRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  trusteeId: row.trusteeId,
  declaredOn: row.declaredOn,
  closedOn: row.closedOn,
  managementRecorded: row.management !== null,
  ...(changed ? { changedFields: changed } : {}),
});

const refuse = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

export interface ConflictsDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * A scheme's register of conflicts of interest (guidance, not law: the Pensions Authority's Code
 * of Practice for trustees asks trustees to identify, record and manage them). Like the other
 * governance registers, kept only by a trust: a PRSA or a contract RAC keeps none. An entry is
 * never deleted: its management is recorded and it is closed, and it stays in the register.
 */
export function createConflictsService({ database, audit, now }: ConflictsDeps) {
  const kit = createRegisterKit({ audit, now });

  /** A day something happened on: never after today. */
  const assertNotFuture = (path: string, on: string | null | undefined) => {
    if (on != null && on > kit.today()) {
      refuse(path, 'date_in_future', 'Enter a day that has come: it cannot be after today');
    }
  };

  /** A closing day is not before the day the interest was declared. */
  const assertClosedAfterDeclared = (entry: { declaredOn: string; closedOn: string | null }) => {
    if (entry.closedOn !== null && entry.closedOn < entry.declaredOn) {
      refuse(
        'closedOn',
        'closed_before_declared',
        'The day it was closed cannot be before the day it was declared',
      );
    }
  };

  /**
   * A trustee named is a live trustee of the entry's own scheme. One the actor could not read (of
   * another tenant, or of an employer beyond their reach) reads exactly as one that does not exist.
   */
  const assertTrusteeOf = async (
    tx: Transaction,
    actor: ActorContext,
    scheme: { id: string },
    trusteeId: string | null,
  ) => {
    if (trusteeId === null) return;
    let trustee: { schemeId: string };
    try {
      trustee = authorizeRow(actor, 'trustee.read', await findEntry(tx, trustees, trusteeId));
    } catch (error) {
      if (!(error instanceof NotFoundError)) throw error;
      return refuse(
        'trusteeId',
        'unknown_trustee',
        'There is no such trustee: choose one of this scheme’s trustees',
      );
    }
    if (trustee.schemeId !== scheme.id) {
      refuse(
        'trusteeId',
        'trustee_of_another_scheme',
        'That trustee serves another scheme: choose one of this scheme’s trustees',
      );
    }
  };

  return {
    async listConflicts(actor: ActorContext, schemeId: string, query: PageQuery) {
      authorize(actor, 'conflict.list');
      return withActor(database, actor, async (tx) => {
        const scheme = await kit.scheme(tx, actor, 'conflict.list', schemeId);
        const rows = await conflictRowsOf(tx, scheme, query);
        await kit.reads.listed(tx, actor, {
          entityType: 'conflict',
          scope: { schemeId: scheme.id },
          filters: query,
          returned: rows.length,
        });
        const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
        return { items: page.items.map(conflictViewOf), nextCursor: page.nextCursor };
      });
    },

    async recordConflict(
      actor: ActorContext,
      schemeId: string,
      input: ConflictInput,
    ): Promise<ConflictView> {
      const writer = authorize(actor, 'conflict.create');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'conflict.create', schemeId);
        kit.assertGoverned(scheme);
        const entry = {
          trusteeId: input.trusteeId ?? null,
          declaredOn: input.declaredOn,
          management: input.management ?? null,
          closedOn: input.closedOn ?? null,
        };
        assertNotFuture('declaredOn', entry.declaredOn);
        assertNotFuture('closedOn', entry.closedOn);
        assertClosedAfterDeclared(entry);
        await assertTrusteeOf(tx, writer, scheme, entry.trusteeId);
        const at = now();
        const conflict = await insertConflictRow(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          personName: input.personName,
          interest: input.interest,
          ...entry,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'conflict.recorded',
          entityType: 'conflict',
          entityId: conflict.id,
          tenantId: conflict.brokerId,
          previousState: null,
          newState: conflictAuditState(conflict),
        });
        return conflictViewOf(conflict);
      });
    },

    async readConflict(actor: ActorContext, id: string): Promise<ConflictView> {
      authorize(actor, 'conflict.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'conflict.read', await findConflict(tx, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'conflict',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return conflictViewOf(row);
      });
    },

    /** Records how the conflict is managed, or closes it (a closing of null opens it again). */
    async updateConflict(
      actor: ActorContext,
      id: string,
      change: ConflictChange,
    ): Promise<ConflictView> {
      const writer = authorize(actor, 'conflict.update');
      return withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'conflict.update',
          await findConflict(tx, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        const next = {
          management: change.management === undefined ? existing.management : change.management,
          closedOn: change.closedOn === undefined ? existing.closedOn : change.closedOn,
        };
        assertNotFuture('closedOn', next.closedOn);
        assertClosedAfterDeclared({ declaredOn: existing.declaredOn, closedOn: next.closedOn });
        const updated = await updateConflictRow(tx, existing, { ...next, updatedAt: now() });
        await audit.record(tx, writer, {
          action:
            existing.closedOn === null && updated.closedOn !== null
              ? 'conflict.closed'
              : 'conflict.updated',
          entityType: 'conflict',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: conflictAuditState(existing),
          newState: conflictAuditState(updated, changedFieldsOf(change)),
        });
        return conflictViewOf(updated);
      });
    },
  };
}

export type ConflictsService = ReturnType<typeof createConflictsService>;
