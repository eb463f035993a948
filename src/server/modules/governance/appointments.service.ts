import { createId } from '@paralleldrive/cuid2';
import { type DocumentLinkView, endNotBeforeStart } from '../../../contracts/governance.js';
import {
  appointmentsOverlap,
  chairRefusal,
  chairsOn,
  internalAuditConflict,
  type KeyFunction,
} from '../../../contracts/governance-rules.js';
import { FIELD_MESSAGES } from '../../../contracts/plain-english.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import { keyFunctionHolders, trustees } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { refuseChangesBeneath } from '../schemes/index.js';
import {
  chairOfSchemeForUpdate,
  insertHolderRow,
  insertTrusteeRow,
  keyFunctionAppointmentsOf,
  servingUnlessHistory,
  updateHolderRow,
  updateTrusteeRow,
} from './appointments.data.js';
import {
  findEntry,
  type KeyFunctionHolderRow,
  lockRegisterOf,
  type TrusteeRow,
} from './governance.data.js';
import type {
  KeyFunctionHolderChange,
  KeyFunctionHolderInput,
  KeyFunctionHolderView,
  PageQuery,
  RegisterListQuery,
  TrusteeChange,
  TrusteeInput,
  TrusteeView,
} from './governance.schemas.js';
import { createRegisterKit } from './register-kit.service.js';

/** A trustee as the API shows it on `today`, the day that says whether they chair the board. */
const trusteeViewOf = (row: TrusteeRow, today: string): TrusteeView => ({
  id: row.id,
  schemeId: row.schemeId,
  name: row.name,
  kind: row.kind as TrusteeView['kind'],
  directorCount: row.directorCount,
  appointedOn: row.appointedOn,
  endedOn: row.endedOn,
  fitnessAndProbity: row.fitnessAndProbity as TrusteeView['fitnessAndProbity'],
  email: row.email,
  phone: row.phone,
  chair: chairsOn(row, today),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const holderViewOf = (
  row: KeyFunctionHolderRow,
  link: DocumentLinkView,
): KeyFunctionHolderView => ({
  id: row.id,
  schemeId: row.schemeId,
  function: row.function as KeyFunction,
  holderName: row.holderName,
  holderEmail: row.holderEmail,
  appointedOn: row.appointedOn,
  endedOn: row.endedOn,
  fitnessAndProbity: row.fitnessAndProbity as KeyFunctionHolderView['fitnessAndProbity'],
  alsoServesEmployer: row.alsoServesEmployer,
  conflictsProtocol: row.conflictsProtocol,
  notifiedOn: row.notifiedOn,
  ...link,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * What the audit log keeps of a register entry: references, dates and statuses, never a name, an
 * e-mail address, a phone number or free text, so that an erasure never has to touch the
 * append-only chain (GDPR Art. 5(1)(c) and 17; docs/decisions/0029-audit-states-hold-no-personal-data.md).
 * A change of contact details is known by the names of the fields changed.
 */
const trusteeAuditState = (row: TrusteeRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  kind: row.kind,
  directorCount: row.directorCount,
  appointedOn: row.appointedOn,
  endedOn: row.endedOn,
  fitnessAndProbity: row.fitnessAndProbity,
  chair: row.chair,
  ...(changed ? { changedFields: changed } : {}),
});

const holderAuditState = (row: KeyFunctionHolderRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  function: row.function,
  appointedOn: row.appointedOn,
  endedOn: row.endedOn,
  fitnessAndProbity: row.fitnessAndProbity,
  alsoServesEmployer: row.alsoServesEmployer,
  conflictsProtocolRecorded: row.conflictsProtocol !== null,
  notifiedOn: row.notifiedOn,
  documentId: row.documentId,
  ...(changed ? { changedFields: changed } : {}),
});

/** The fields a change names, for the audit record. */
export const changedFieldsOf = (change: Record<string, unknown>) =>
  Object.keys(change).filter((key) => change[key] !== undefined);

export interface RegistersDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** Trustees and key function holders (docs/decisions/0059-governance-rules.md; rules: governance-rules.ts). */
export function createAppointmentsService({ database, audit, now }: RegistersDeps) {
  const kit = createRegisterKit({ audit, now });

  /**
   * Art. 24: the internal audit holder may hold no other key function in the scheme, at any time
   * their appointments share. Refused with a 400 that names the rule.
   */
  async function assertInternalAuditIndependence(
    tx: Transaction,
    scheme: { brokerId: string; schemeId: string },
    proposed: {
      id: string | null;
      function: KeyFunction;
      holderName: string;
      appointedOn: string;
      endedOn: string | null;
    },
  ) {
    // The other appointments are read, then this one written: one writer a scheme at a time.
    await lockRegisterOf(tx, 'key_function_holders', scheme);
    const others = await keyFunctionAppointmentsOf(tx, scheme);
    const alongside = others
      .filter((other) => other.id !== proposed.id && appointmentsOverlap(other, proposed))
      .map((other) => ({ ...other, function: other.function as KeyFunction }));
    const refusal = internalAuditConflict(proposed, alongside);
    if (refusal !== null) {
      throw new ValidationError([
        { path: 'function', code: 'internal_audit_independence', message: refusal },
      ]);
    }
  }

  /** Refused with a 400 on `chair` when the trustee cannot chair the board today. */
  function assertMayChair(trustee: { appointedOn: string; endedOn: string | null }) {
    const refusal = chairRefusal(trustee, kit.today());
    if (refusal !== null) {
      throw new ValidationError([{ path: 'chair', code: 'chair_not_serving', message: refusal }]);
    }
  }

  /**
   * Takes the chair from the trustee who holds it, before another is named
   * (GOVERNANCE_RULES.trusteeChair): the former chair's change is audited as theirs. The caller
   * holds the scheme's chair lock, taken before any trustee row of the scheme is locked, so two
   * moves of the chair queue rather than each waiting on the other's row.
   */
  async function takeChairFrom(
    tx: Transaction,
    writer: TenantActor,
    scheme: { brokerId: string; schemeId: string },
    exceptId: string | null,
  ) {
    const former = await chairOfSchemeForUpdate(tx, scheme, exceptId);
    if (!former) return;
    const unchaired = await updateTrusteeRow(tx, former, { chair: false, updatedAt: now() });
    await audit.record(tx, writer, {
      action: 'trustee.updated',
      entityType: 'trustee',
      entityId: unchaired.id,
      tenantId: unchaired.brokerId,
      previousState: trusteeAuditState(former),
      newState: trusteeAuditState(unchaired, ['chair']),
    });
  }

  async function holderView(tx: Transaction, row: KeyFunctionHolderRow) {
    return holderViewOf(row, (await kit.linksOf(tx, [row]))(row));
  }

  return {
    async listTrustees(actor: ActorContext, schemeId: string, query: RegisterListQuery) {
      authorize(actor, 'trustee.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'trustee.list', {
          table: trustees,
          entityType: 'trustee',
          schemeId,
          query,
          where: servingUnlessHistory(trustees, query, kit.today()),
        });
        const today = kit.today();
        return {
          items: page.items.map((row) => trusteeViewOf(row, today)),
          nextCursor: page.nextCursor,
        };
      });
    },

    async appointTrustee(
      actor: ActorContext,
      schemeId: string,
      input: TrusteeInput,
    ): Promise<TrusteeView> {
      const writer = authorize(actor, 'trustee.create');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'trustee.create', schemeId);
        kit.assertGoverned(scheme);
        if (input.chair) {
          assertMayChair({ appointedOn: input.appointedOn, endedOn: input.endedOn ?? null });
          await lockRegisterOf(tx, 'trustees', { brokerId: scheme.brokerId, schemeId: scheme.id });
          await takeChairFrom(tx, writer, { brokerId: scheme.brokerId, schemeId: scheme.id }, null);
        }
        const at = now();
        const trustee = await insertTrusteeRow(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          name: input.name,
          kind: input.kind,
          directorCount: input.kind === 'corporate' ? (input.directorCount ?? null) : null,
          appointedOn: input.appointedOn,
          endedOn: input.endedOn ?? null,
          fitnessAndProbity: input.fitnessAndProbity,
          email: input.email ?? null,
          phone: input.phone ?? null,
          chair: input.chair,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'trustee.appointed',
          entityType: 'trustee',
          entityId: trustee.id,
          tenantId: trustee.brokerId,
          previousState: null,
          newState: trusteeAuditState(trustee),
        });
        return trusteeViewOf(trustee, kit.today());
      });
    },

    async readTrustee(actor: ActorContext, id: string): Promise<TrusteeView> {
      authorize(actor, 'trustee.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'trustee.read', await findEntry(tx, trustees, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'trustee',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return trusteeViewOf(row, kit.today());
      });
    },

    async updateTrustee(
      actor: ActorContext,
      id: string,
      change: TrusteeChange,
    ): Promise<TrusteeView> {
      const writer = authorize(actor, 'trustee.update');
      return withActor(database, writer, async (tx) => {
        if (change.chair === true) {
          // The scheme's chair lock before this trustee's row: the order every move of the chair
          // takes its locks in (takeChairFrom).
          const entry = authorizeRow(writer, 'trustee.update', await findEntry(tx, trustees, id));
          await lockRegisterOf(tx, 'trustees', entry);
        }
        const existing = authorizeRow(
          writer,
          'trustee.update',
          await findEntry(tx, trustees, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        const kind = change.kind ?? existing.kind;
        const next = {
          name: change.name ?? existing.name,
          kind,
          directorCount:
            kind === 'corporate'
              ? change.directorCount === undefined
                ? existing.directorCount
                : change.directorCount
              : null,
          appointedOn: change.appointedOn ?? existing.appointedOn,
          endedOn: change.endedOn === undefined ? existing.endedOn : change.endedOn,
          fitnessAndProbity: change.fitnessAndProbity ?? existing.fitnessAndProbity,
          email: change.email === undefined ? existing.email : change.email,
          phone: change.phone === undefined ? existing.phone : change.phone,
          chair: change.chair ?? existing.chair,
        };
        if (kind === 'individual' && change.directorCount != null) {
          throw new ValidationError([
            {
              path: 'directorCount',
              code: 'directors_of_corporate_only',
              message: FIELD_MESSAGES.directorsOfCorporateOnly,
            },
          ]);
        }
        assertEndNotBeforeStart(next);
        if (change.chair === true) {
          assertMayChair(next);
          await takeChairFrom(tx, writer, existing, existing.id);
        }
        const updated = await updateTrusteeRow(tx, existing, { ...next, updatedAt: now() });
        await audit.record(tx, writer, {
          action: 'trustee.updated',
          entityType: 'trustee',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: trusteeAuditState(existing),
          newState: trusteeAuditState(updated, changedFieldsOf(change)),
        });
        return trusteeViewOf(updated, kit.today());
      });
    },

    async deleteTrustee(actor: ActorContext, id: string): Promise<void> {
      const writer = authorize(actor, 'trustee.delete');
      await withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'trustee.delete',
          await findEntry(tx, trustees, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        await kit.softDelete(tx, writer, trustees, existing, {
          action: 'trustee.deleted',
          entityType: 'trustee',
          previousState: trusteeAuditState(existing),
        });
      });
    },

    async trusteeHistory(actor: ActorContext, id: string, query: PageQuery) {
      authorize(actor, 'trustee.read');
      return withActor(database, actor, (tx) =>
        kit.entryHistory(tx, actor, 'trustee.read', {
          table: trustees,
          entityType: 'trustee',
          id,
          query,
        }),
      );
    },

    async listHolders(actor: ActorContext, schemeId: string, query: RegisterListQuery) {
      authorize(actor, 'kfh.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'kfh.list', {
          table: keyFunctionHolders,
          entityType: 'key_function_holder',
          schemeId,
          query,
          where: servingUnlessHistory(keyFunctionHolders, query, kit.today()),
        });
        const linkOf = await kit.linksOf(tx, page.items);
        return {
          items: page.items.map((row) => holderViewOf(row, linkOf(row))),
          nextCursor: page.nextCursor,
        };
      });
    },

    async appointHolder(
      actor: ActorContext,
      schemeId: string,
      input: KeyFunctionHolderInput,
    ): Promise<KeyFunctionHolderView> {
      const writer = authorize(actor, 'kfh.create');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'kfh.create', schemeId);
        kit.assertGoverned(scheme);
        const values = {
          function: input.function,
          holderName: input.holderName,
          holderEmail: input.holderEmail ?? null,
          appointedOn: input.appointedOn,
          endedOn: input.endedOn ?? null,
          fitnessAndProbity: input.fitnessAndProbity,
          alsoServesEmployer: input.alsoServesEmployer,
          conflictsProtocol: input.conflictsProtocol ?? null,
          notifiedOn: input.notifiedOn ?? null,
          documentId: input.documentId ?? null,
        };
        await assertInternalAuditIndependence(
          tx,
          { brokerId: scheme.brokerId, schemeId: scheme.id },
          { id: null, ...values },
        );
        await kit.assertLinkable(
          tx,
          { schemeId: scheme.id },
          'key_function_holder',
          values.documentId,
        );
        const at = now();
        const holder = await insertHolderRow(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          ...values,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'kfh.appointed',
          entityType: 'key_function_holder',
          entityId: holder.id,
          tenantId: holder.brokerId,
          previousState: null,
          newState: holderAuditState(holder),
        });
        return holderView(tx, holder);
      });
    },

    async readHolder(actor: ActorContext, id: string): Promise<KeyFunctionHolderView> {
      authorize(actor, 'kfh.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'kfh.read', await findEntry(tx, keyFunctionHolders, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'key_function_holder',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return holderView(tx, row);
      });
    },

    async updateHolder(
      actor: ActorContext,
      id: string,
      change: KeyFunctionHolderChange,
    ): Promise<KeyFunctionHolderView> {
      const writer = authorize(actor, 'kfh.update');
      return withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'kfh.update',
          await findEntry(tx, keyFunctionHolders, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        const pick = <K extends keyof KeyFunctionHolderChange & keyof KeyFunctionHolderRow>(
          key: K,
        ) =>
          (change[key] === undefined ? existing[key] : change[key]) as NonNullable<
            KeyFunctionHolderRow[K]
          > | null;
        const next = {
          function: pick('function') as KeyFunction,
          holderName: pick('holderName') as string,
          holderEmail: pick('holderEmail'),
          appointedOn: pick('appointedOn') as string,
          endedOn: pick('endedOn'),
          fitnessAndProbity: pick('fitnessAndProbity') as string,
          alsoServesEmployer: pick('alsoServesEmployer') as boolean,
          conflictsProtocol: pick('conflictsProtocol'),
          notifiedOn: pick('notifiedOn'),
          documentId: pick('documentId'),
        };
        assertEndNotBeforeStart(next);
        await assertInternalAuditIndependence(tx, existing, { id: existing.id, ...next });
        await kit.assertLinkable(tx, existing, 'key_function_holder', change.documentId);
        const updated = await updateHolderRow(tx, existing, { ...next, updatedAt: now() });
        await audit.record(tx, writer, {
          action: 'kfh.updated',
          entityType: 'key_function_holder',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: holderAuditState(existing),
          newState: holderAuditState(updated, changedFieldsOf(change)),
        });
        return holderView(tx, updated);
      });
    },

    async deleteHolder(actor: ActorContext, id: string): Promise<void> {
      const writer = authorize(actor, 'kfh.delete');
      await withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'kfh.delete',
          await findEntry(tx, keyFunctionHolders, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        await kit.softDelete(tx, writer, keyFunctionHolders, existing, {
          action: 'kfh.deleted',
          entityType: 'key_function_holder',
          previousState: holderAuditState(existing),
        });
      });
    },

    async holderHistory(actor: ActorContext, id: string, query: PageQuery) {
      authorize(actor, 'kfh.read');
      return withActor(database, actor, (tx) =>
        kit.entryHistory(tx, actor, 'kfh.read', {
          table: keyFunctionHolders,
          entityType: 'key_function_holder',
          id,
          query,
        }),
      );
    },
  };
}

/** A change may move either date: the pair must still make sense together. */
function assertEndNotBeforeStart(entry: { appointedOn: string; endedOn: string | null }) {
  if (!endNotBeforeStart(entry)) {
    throw new ValidationError([
      {
        path: 'endedOn',
        code: 'ended_before_appointed',
        message: FIELD_MESSAGES.endedBeforeAppointed,
      },
    ]);
  }
}

export type AppointmentsService = ReturnType<typeof createAppointmentsService>;
export type { TenantActor };
