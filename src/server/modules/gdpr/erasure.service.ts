import { createId } from '@paralleldrive/cuid2';
import type { DataRequestStatus } from '../../../contracts/data-request-rules.js';
import { isClosed } from '../../../contracts/data-request-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type {
  ErasureAnswer,
  MemberRetentionView,
  RestrictionInput,
} from '../../../contracts/retention.js';
import {
  type ErasureScope,
  erasureScopeOf,
  keptInWords,
  type MemberRetention,
  RECORD_CLASS_NAMES,
  retentionOf,
} from '../../../contracts/retention-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError } from '../../platform/errors.js';
import type { ErasureEntry, ErasureLedger } from '../../platform/ops/erasure-ledger.js';
import type { DocumentStorage } from '../../platform/storage/storage.js';
import type { ActorContext, RecordedActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findMember } from '../members/index.js';
import { findRequest, updateRequest } from './data-requests.data.js';
import { auditState, viewOf } from './data-requests.service.js';
import {
  eraseMemberContacts,
  eraseMemberRows,
  erasuresOfMember,
  insertErasure,
  insertRestriction,
  liftRestriction,
  restrictionInForce,
  retentionFactsOf,
} from './erasure.data.js';

export interface ErasureServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  /** Only to remove the files of an erased member's documents. */
  storage: Pick<DocumentStorage, 'remove'>;
  ledger: ErasureLedger;
}

const classesOf = (retention: MemberRetention) =>
  retention.classes.map((entry) => ({
    ...entry,
    ...RECORD_CLASS_NAMES[entry.recordClass],
  }));

/**
 * One erasure carried out in the caller's transaction (docs/decisions/0149-retention-and-erasure.md):
 * the rows through the database's erasure function, the ledger entry recorded in the database and
 * appended to the ledger outside it, the audit record by ids, and the documents' files removed, all
 * before the transaction commits. The database's work comes first, so an erasure the database
 * refuses leaves no entry in the ledger; an entry appended for an erasure whose commit then failed
 * is applied at the next start-up, as after a restore. `reapplied` is an entry read back from the
 * ledger into a database that lacked it: it is not appended again.
 */
export async function applyErasure(
  tx: Transaction,
  deps: Pick<ErasureServiceDeps, 'audit' | 'storage' | 'ledger'>,
  actor: RecordedActor,
  entry: ErasureEntry,
  at: Date,
  options: { reapplied: boolean },
): Promise<number> {
  const keys =
    entry.scope === 'member'
      ? await eraseMemberRows(tx, entry.memberId)
      : await eraseMemberContacts(tx, entry.memberId).then(() => [] as string[]);
  await insertErasure(tx, {
    brokerId: entry.brokerId,
    id: entry.id,
    memberId: entry.memberId,
    scope: entry.scope,
    trigger: entry.trigger,
    requestId: entry.requestId,
    documentCount: keys.length,
    erasedAt: new Date(entry.erasedAt),
    reappliedAt: options.reapplied ? at : null,
  });
  await deps.audit.record(tx, actor, {
    action: options.reapplied ? 'member.erasure_reapplied' : 'member.erased',
    entityType: 'member',
    entityId: entry.memberId,
    tenantId: entry.brokerId,
    previousState: null,
    newState: {
      erasureId: entry.id,
      scope: entry.scope,
      trigger: entry.trigger,
      requestId: entry.requestId,
      documentCount: keys.length,
    },
  });
  if (!options.reapplied) await deps.ledger.append(entry);
  for (const key of keys) await deps.storage.remove(key);
  return keys.length;
}

/**
 * Retention, restriction and erasure of one member (docs/decisions/0149-retention-and-erasure.md;
 * rules: retention-rules.ts). The firm's staff read the schedule applied to a member, restrict
 * disputed data, and carry out an erasure request: what the schedule no longer requires is erased,
 * the rest refused with its rule and the day it ends.
 */
export function createErasureService(deps: ErasureServiceDeps) {
  const { database, audit, now } = deps;
  const reads = createPlatformReadLog(audit);

  async function retentionView(
    tx: Transaction,
    memberId: string,
    today: string,
  ): Promise<MemberRetentionView> {
    const facts = await retentionFactsOf(tx, memberId);
    if (!facts) throw new Error('the member of a retention view was not found');
    const retention = retentionOf(facts, today);
    const restriction = await restrictionInForce(tx, memberId);
    const erased = await erasuresOfMember(tx, memberId);
    return {
      memberId,
      paidOutOn: retention.paidOutOn,
      erasableInFullOn: retention.erasableInFullOn,
      classes: classesOf(retention),
      restriction: restriction
        ? { reason: restriction.reason, restrictedOn: restriction.restrictedOn }
        : null,
      erasures: erased.map((row) => ({
        scope: row.scope as 'member' | 'contact_details',
        trigger: row.trigger as 'request' | 'retention_ended',
        erasedAt: row.erasedAt.toISOString(),
      })),
    };
  }

  return {
    async retention(actor: ActorContext, memberId: string): Promise<MemberRetentionView> {
      authorize(actor, 'member.retention.read');
      return withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'member.retention.read', await findMember(tx, memberId));
        await reads.viewed(tx, actor, {
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        return retentionView(tx, member.id, todayInIreland(now()));
      });
    },

    /** Art. 18(1): one restriction in force at a time, with what is disputed. */
    async restrict(
      actor: ActorContext,
      memberId: string,
      input: RestrictionInput,
    ): Promise<MemberRetentionView> {
      const writer = authorize(actor, 'member.restrict');
      return withActor(database, writer, async (tx) => {
        const member = authorizeRow(writer, 'member.restrict', await findMember(tx, memberId));
        if (await restrictionInForce(tx, member.id, { forUpdate: true })) {
          throw new ConflictError("This member's data is already restricted: lift it first");
        }
        const at = now();
        const today = todayInIreland(at);
        const row = await insertRestriction(tx, {
          brokerId: member.brokerId,
          id: createId(),
          memberId: member.id,
          reason: input.reason,
          restrictedOn: today,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'member.restricted',
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
          previousState: null,
          newState: { restrictionId: row.id, restrictedOn: today, reasonGiven: true },
        });
        return retentionView(tx, member.id, today);
      });
    },

    async lift(actor: ActorContext, memberId: string): Promise<MemberRetentionView> {
      const writer = authorize(actor, 'member.restrict');
      return withActor(database, writer, async (tx) => {
        const member = authorizeRow(writer, 'member.restrict', await findMember(tx, memberId));
        const restriction = await restrictionInForce(tx, member.id, { forUpdate: true });
        if (!restriction) throw new ConflictError("This member's data is not restricted");
        const at = now();
        const today = todayInIreland(at);
        await liftRestriction(tx, restriction, { liftedOn: today, liftedBy: writer.userId, at });
        await audit.record(tx, writer, {
          action: 'member.restriction_lifted',
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
          previousState: { restrictionId: restriction.id, restrictedOn: restriction.restrictedOn },
          newState: { restrictionId: restriction.id, liftedOn: today },
        });
        return retentionView(tx, member.id, today);
      });
    },

    /**
     * An erasure request carried out (GDPR Art. 17): the whole record where the schedule keeps
     * none of it, the contact details where only they are no longer needed, and otherwise nothing,
     * the request then refused under Art. 17(3)(b) with each class's rule and day. Answered with
     * what was erased and the request as it now stands.
     */
    async eraseForRequest(actor: ActorContext, requestId: string): Promise<ErasureAnswer> {
      const writer = authorize(actor, 'data_request.erase');
      return withActor(database, writer, async (tx) => {
        const request = authorizeRow(
          writer,
          'data_request.erase',
          await findRequest(tx, requestId, { forUpdate: true }),
        );
        if (isClosed(request.status as DataRequestStatus)) {
          throw new ConflictError('This request is closed: it was completed or refused');
        }
        if (request.kind !== 'erasure') {
          throw new ConflictError(
            'Only an erasure request is carried out by erasing: complete or refuse this one',
          );
        }
        const at = now();
        const today = todayInIreland(at);
        const facts = await retentionFactsOf(tx, request.memberId);
        if (!facts) throw new Error("the erasure request's member was not found");
        const retention = retentionOf(facts, today);
        const scope: ErasureScope = erasureScopeOf(retention);
        const kept = keptInWords(retention);
        const closing =
          scope === 'none'
            ? {
                status: 'refused' as const,
                closedOn: today,
                refusalReason: `Everything must be kept for now. ${kept}`.slice(0, 1000),
                refusalCitation: 'GDPR Art. 17(3)(b)' as const,
              }
            : {
                status: 'completed' as const,
                closedOn: today,
                completionNote: (scope === 'member'
                  ? 'The whole record was erased'
                  : `The contact details were erased. Kept: ${kept}`
                ).slice(0, 1000),
              };
        const after = await updateRequest(tx, request, { ...closing, updatedAt: at });
        await audit.record(tx, writer, {
          action: scope === 'none' ? 'data_request.refused' : 'data_request.completed',
          entityType: 'data_request',
          entityId: after.id,
          tenantId: after.brokerId,
          previousState: auditState(request),
          newState: auditState(after),
        });
        if (scope !== 'none') {
          await applyErasure(
            tx,
            deps,
            writer,
            {
              v: 1,
              id: createId(),
              brokerId: request.brokerId,
              memberId: request.memberId,
              scope,
              trigger: 'request',
              requestId: request.id,
              erasedAt: at.toISOString(),
            },
            at,
            { reapplied: false },
          );
        }
        return {
          erased: scope,
          classes: classesOf(retention),
          request: viewOf(
            { ...after, memberName: request.memberName, employerId: request.employerId },
            today,
          ),
        };
      });
    },
  };
}

export type ErasureService = ReturnType<typeof createErasureService>;
