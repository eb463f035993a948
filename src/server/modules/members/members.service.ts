import { createId } from '@paralleldrive/cuid2';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import {
  PPS_REVEALS_SHOWN,
  type PpsRevealInput,
  type PpsRevealReason,
  type PpsRevealView,
} from '../../../contracts/pps-reveal.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { PpsKeyring } from '../../platform/crypto/pps-keyring.js';
import type { Database } from '../../platform/db/database.js';
import { isUniqueViolation } from '../../platform/db/database-errors.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { type MEMBER_STATUSES, members } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { refuseFutureBirth } from './member-fields.rules.js';
import {
  findMember,
  findMemberForChange,
  insertMember,
  insertPpsReveal,
  latestPpsReveals,
  listMembersOfScheme,
  type MemberRow,
  membersWithPpsLookup,
  softDeleteMember,
  updateMember,
} from './members.data.js';
import type { MemberChange, MemberInput, MemberListQuery, MemberView } from './members.schemas.js';

/**
 * A member as every read shows it: the PPS number only as "on file"
 * (docs/decisions/0028-pps-numbers.md).
 */
export const viewOf = (row: MemberRow): MemberView => ({
  id: row.id,
  brokerId: row.brokerId,
  employerId: row.employerId,
  schemeId: row.schemeId,
  firstName: row.firstName,
  lastName: row.lastName,
  dateOfBirth: row.dateOfBirth,
  email: row.email,
  address: row.address,
  dateJoined: row.dateJoined,
  salaryCents: row.salaryCents,
  status: row.status as (typeof MEMBER_STATUSES)[number],
  statusOn: row.statusOn,
  informationSentOn: row.informationSentOn,
  ppsNumberOnFile: true,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * What the audit log keeps of a member: references and status, never personal data, so that an
 * erasure (GDPR Art. 17) never has to touch the append-only chain
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const auditStateOf = (row: MemberRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  employerId: row.employerId,
  status: row.status,
  ...(changed ? { changedFields: changed } : {}),
});

const DUPLICATE_PPS = 'A member with this PPS number is already in this scheme';

export interface MembersServiceDeps {
  database: Database;
  audit: AuditService;
  ppsKeyring: PpsKeyring;
  now: () => Date;
}

/**
 * Members (docs/api.md, "Members and money"; who may do what: contracts/policy.ts): the PPS number
 * leaves the server only through the audited reveal (docs/decisions/0028-pps-numbers.md).
 */
export function createMembersService({ database, audit, ppsKeyring, now }: MembersServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** A PPS number already on a live member of the scheme, under any key of the ring. */
  async function assertNotInScheme(
    tx: Transaction,
    scheme: { id: string; brokerId: string },
    ppsNumber: string,
    exceptMemberId: string | null,
  ) {
    const found = await membersWithPpsLookup(
      tx,
      scheme.id,
      ppsKeyring.lookups(scheme.brokerId, ppsNumber),
    );
    if (found.some((row) => row.id !== exceptMemberId)) throw new ConflictError(DUPLICATE_PPS);
  }

  function sealed(ppsNumber: string, tenantId: string, memberId: string) {
    const { encrypted, keyId } = ppsKeyring.seal(ppsNumber, { tenantId, memberId });
    return {
      ppsEncrypted: encrypted,
      ppsKeyId: keyId,
      ppsLookup: ppsKeyring.lookup(tenantId, ppsNumber),
    };
  }

  return {
    async create(actor: ActorContext, schemeId: string, input: MemberInput): Promise<MemberView> {
      const writer = authorize(actor, 'member.create');
      refuseFutureBirth(input.dateOfBirth, now());
      try {
        return await withActor(database, writer, async (tx) => {
          const scheme = authorizeRow(writer, 'member.create', await findScheme(tx, schemeId));
          refuseWoundUp(scheme);
          await assertNotInScheme(tx, scheme, input.ppsNumber, null);
          const id = createId();
          const at = now();
          const member = await insertMember(tx, {
            id,
            brokerId: scheme.brokerId,
            employerId: scheme.employerId,
            schemeId: scheme.id,
            firstName: input.firstName,
            lastName: input.lastName,
            dateOfBirth: input.dateOfBirth,
            email: input.email ?? null,
            address: input.address ?? null,
            dateJoined: input.dateJoined,
            salaryCents: input.salaryCents,
            status: input.status,
            ...sealed(input.ppsNumber, scheme.brokerId, id),
            createdAt: at,
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'member.created',
            entityType: 'member',
            entityId: member.id,
            tenantId: member.brokerId,
            previousState: null,
            newState: auditStateOf(member),
          });
          return viewOf(member);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'members_scheme_pps_key'))
          throw new ConflictError(DUPLICATE_PPS);
        throw error;
      }
    },

    /** The members of one scheme within reach. */
    async listOfScheme(actor: ActorContext, schemeId: string, query: MemberListQuery) {
      authorize(actor, 'member.list');
      const position = keyset(query, { at: members.createdAt, id: members.id });
      const rows = await withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'member.list', await findScheme(tx, schemeId));
        const found = await listMembersOfScheme(tx, scheme.id, query, position);
        await reads.listed(tx, actor, {
          entityType: 'member',
          scope: { schemeId },
          filters: query,
          returned: found.length,
        });
        return found;
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: page.items.map(viewOf), nextCursor: page.nextCursor };
    },

    async get(actor: ActorContext, id: string): Promise<MemberView> {
      authorize(actor, 'member.read');
      const row = await withActor(database, actor, async (tx) => {
        const reached = authorizeRow(actor, 'member.read', await findMember(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'member',
          entityId: reached.id,
          tenantId: reached.brokerId,
        });
        return reached;
      });
      return viewOf(row);
    },

    async update(actor: ActorContext, id: string, change: MemberChange): Promise<MemberView> {
      const writer = authorize(actor, 'member.update');
      refuseFutureBirth(change.dateOfBirth, now());
      try {
        return await withActor(database, writer, async (tx) => {
          const existing = authorizeRow(writer, 'member.update', await findMemberForChange(tx, id));
          refuseWoundUp({ status: existing.schemeStatus });
          const { ppsNumber, ...fields } = change;
          const dates = {
            dateOfBirth: fields.dateOfBirth ?? existing.dateOfBirth,
            dateJoined: fields.dateJoined ?? existing.dateJoined,
          };
          const sentOn =
            fields.informationSentOn === undefined
              ? existing.informationSentOn
              : fields.informationSentOn;
          if (sentOn !== null && (sentOn < dates.dateJoined || sentOn > todayInIreland(now()))) {
            throw new ValidationError([
              {
                path: 'informationSentOn',
                code: 'custom',
                message: 'Enter the day it was given: on or after joining, and not after today',
              },
            ]);
          }
          if (dates.dateJoined < dates.dateOfBirth) {
            throw new ValidationError([
              {
                path: 'dateJoined',
                code: 'custom',
                message: FIELD_MESSAGES.joinedBeforeBirth,
              },
            ]);
          }
          if (ppsNumber !== undefined) {
            await assertNotInScheme(
              tx,
              { id: existing.schemeId, brokerId: existing.brokerId },
              ppsNumber,
              existing.id,
            );
          }
          const updated = await updateMember(tx, existing.id, {
            ...fields,
            ...(ppsNumber === undefined ? {} : sealed(ppsNumber, existing.brokerId, existing.id)),
            updatedAt: now(),
          });
          const changed = Object.entries(change)
            .filter(([, value]) => value !== undefined)
            .map(([key]) => key)
            .sort();
          await audit.record(tx, writer, {
            action: 'member.updated',
            entityType: 'member',
            entityId: updated.id,
            tenantId: updated.brokerId,
            previousState: auditStateOf(existing),
            newState: auditStateOf(updated, changed),
          });
          return viewOf(updated);
        });
      } catch (error) {
        if (isUniqueViolation(error, 'members_scheme_pps_key'))
          throw new ConflictError(DUPLICATE_PPS);
        throw error;
      }
    },

    /** Soft delete: the record is kept (retention duties) and hidden from reads. */
    async remove(actor: ActorContext, id: string): Promise<void> {
      const admin = authorize(actor, 'member.delete');
      await withActor(database, admin, async (tx) => {
        const existing = authorizeRow(admin, 'member.delete', await findMemberForChange(tx, id));
        refuseWoundUp({ status: existing.schemeStatus });
        const at = now();
        await softDeleteMember(tx, existing.id, at);
        await audit.record(tx, admin, {
          action: 'member.deleted',
          entityType: 'member',
          entityId: existing.id,
          tenantId: existing.brokerId,
          previousState: auditStateOf(existing),
          newState: null,
        });
      });
    },

    /**
     * The one way a PPS number leaves the server, on an explicit action of the broker's staff,
     * recorded with the actor and why (docs/decisions/0028-pps-numbers.md,
     * docs/decisions/0145-a-reason-for-a-pps-reveal.md): the audit record keeps the reason's code,
     * the firm's record of reveals the note too.
     */
    async revealPps(
      actor: ActorContext,
      id: string,
      input: PpsRevealInput,
    ): Promise<{ ppsNumber: string }> {
      const broker = authorize(actor, 'member.pps.reveal');
      return withActor(database, broker, async (tx) => {
        const member = authorizeRow(broker, 'member.pps.reveal', await findMember(tx, id));
        const ppsNumber = ppsKeyring.open(
          { encrypted: member.ppsEncrypted, keyId: member.ppsKeyId },
          { tenantId: member.brokerId, memberId: member.id },
        );
        await insertPpsReveal(tx, {
          brokerId: member.brokerId,
          id: createId(),
          memberId: member.id,
          revealedBy: broker.userId,
          reason: input.reason,
          note: input.note ?? null,
          revealedAt: now(),
        });
        await audit.record(tx, broker, {
          action: 'member.pps_decrypted',
          entityType: 'member',
          entityId: member.id,
          tenantId: member.brokerId,
          previousState: null,
          newState: { ppsRevealReason: input.reason },
        });
        return { ppsNumber };
      });
    },

    /** The member's latest reveals with why, for the firm's administrators. */
    async ppsReveals(actor: ActorContext, id: string): Promise<{ items: PpsRevealView[] }> {
      const admin = authorize(actor, 'member.pps.reveals.list');
      return withActor(database, admin, async (tx) => {
        const member = authorizeRow(admin, 'member.pps.reveals.list', await findMember(tx, id));
        const rows = await latestPpsReveals(tx, member.id, PPS_REVEALS_SHOWN);
        return {
          items: rows.map((row) => ({
            ...row,
            revealedAt: row.revealedAt.toISOString(),
            reason: row.reason as PpsRevealReason,
          })),
        };
      });
    },
  };
}

export type MembersService = ReturnType<typeof createMembersService>;
