import { createId } from '@paralleldrive/cuid2';
import type { DocumentLinkView } from '../../../contracts/governance.js';
import {
  dueAfterChanges,
  nextReviewDue,
  type PolicyKind,
} from '../../../contracts/governance-rules.js';
import { dateInWords } from '../../../contracts/irish-dates.js';
import { oraReports, significantChanges, writtenPolicies } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { refuseChangesBeneath } from '../schemes/index.js';
import { changedFieldsOf, type RegistersDeps } from './appointments.service.js';
import {
  findEntry,
  lockRegisterOf,
  type OraReportRow,
  type PolicyRow,
  type SignificantChangeRow,
} from './governance.data.js';
import type {
  OraReportChange,
  OraReportInput,
  OraReportView,
  PageQuery,
  PolicyApproval,
  PolicyChange,
  PolicyInput,
  PolicyView,
  RegisterListQuery,
  SignificantChangeInput,
  SignificantChangeView,
} from './governance.schemas.js';
import {
  approvedPolicyForUpdate,
  changeDatesByPolicy,
  draftOrApproved,
  insertOraReportRow,
  insertPolicyRow,
  insertSignificantChangeRow,
  oraReportsUpTo,
  riskProfileChangeDates,
  updateOraReportRow,
  updatePolicyRow,
} from './policies.data.js';
import { createRegisterKit } from './register-kit.service.js';

const policyViewOf = (
  row: PolicyRow,
  link: DocumentLinkView,
  changes: readonly string[] = [],
): PolicyView => {
  const since = row.approvedOn
    ? changes.filter((occurredOn) => occurredOn > (row.approvedOn as string))
    : [];
  return {
    id: row.id,
    schemeId: row.schemeId,
    kind: row.kind as PolicyKind,
    title: row.title,
    version: row.version,
    status: row.status as PolicyView['status'],
    approvedOn: row.approvedOn,
    approvalReference: row.approvalReference,
    nextReviewDue:
      row.status === 'approved' && row.nextReviewDue && row.approvedOn
        ? dueAfterChanges(row.nextReviewDue, row.approvedOn, since)
        : row.nextReviewDue,
    significantChangeOn: since.length > 0 ? ([...since].sort().at(-1) as string) : null,
    ...link,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
};

const oraViewOf = (row: OraReportRow, link: DocumentLinkView): OraReportView => ({
  id: row.id,
  schemeId: row.schemeId,
  performedOn: row.performedOn,
  trigger: row.trigger as OraReportView['trigger'],
  summary: row.summary,
  nextDue: row.nextDue,
  ...link,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const changeViewOf = (row: SignificantChangeRow): SignificantChangeView => ({
  id: row.id,
  schemeId: row.schemeId,
  policyId: row.policyId,
  occurredOn: row.occurredOn,
  description: row.description,
  createdAt: row.createdAt.toISOString(),
});

/**
 * Ids, dates and statuses only: no title and no free text, the approval's meeting or minute
 * reference among it, which is known by its field's name among those changed
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
const policyAuditState = (row: PolicyRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  kind: row.kind,
  version: row.version,
  status: row.status,
  approvedOn: row.approvedOn,
  nextReviewDue: row.nextReviewDue,
  documentId: row.documentId,
  ...(changed ? { changedFields: changed } : {}),
});

const oraAuditState = (row: OraReportRow, changed?: string[]) => ({
  id: row.id,
  schemeId: row.schemeId,
  performedOn: row.performedOn,
  trigger: row.trigger,
  nextDue: row.nextDue,
  documentId: row.documentId,
  ...(changed ? { changedFields: changed } : {}),
});

const changeAuditState = (row: SignificantChangeRow) => ({
  id: row.id,
  schemeId: row.schemeId,
  policyId: row.policyId,
  occurredOn: row.occurredOn,
});

function notInFuture(path: string, date: string, today: string, what: string) {
  if (date > today) {
    throw new ValidationError([
      { path, code: 'date_in_future', message: `The ${what} date cannot be in the future` },
    ]);
  }
}

/** Written policies and own-risk assessments, the dated obligations (governance-rules.ts). */
export function createPoliciesService({ database, audit, now }: RegistersDeps) {
  const kit = createRegisterKit({ audit, now });

  async function viewWithChanges(tx: Transaction, row: PolicyRow) {
    const linkOf = await kit.linksOf(tx, [row]);
    return policyViewOf(row, linkOf(row), (await changeDatesByPolicy(tx, [row.id])).get(row.id));
  }

  async function oraView(tx: Transaction, row: OraReportRow) {
    return oraViewOf(row, (await kit.linksOf(tx, [row]))(row));
  }

  /** The ORA due date a scheme's risk-profile changes leave from the report before `performedOn`. */
  async function oraDueBefore(
    tx: Transaction,
    scheme: { brokerId: string; schemeId: string },
    performedOn: string,
    exceptId: string | null,
  ) {
    // Each report's due date is read from the others, then written: one writer a scheme at a time.
    await lockRegisterOf(tx, 'ora_reports', scheme);
    const earlier = await oraReportsUpTo(tx, scheme, performedOn);
    const previous = earlier.find((row) => row.id !== exceptId);
    if (!previous) return null;
    const changes = await riskProfileChangeDates(tx, scheme.schemeId);
    return dueAfterChanges(previous.nextDue, previous.performedOn, changes);
  }

  /**
   * A significant change recorded, to a policy's area or (with no policy) to the scheme's risk
   * profile, with its audit record: a date that brings a review or an ORA forward.
   */
  async function recordChange(
    tx: Transaction,
    writer: TenantActor,
    action: 'policy.significant_change_recorded' | 'risk_profile.change_recorded',
    change: {
      brokerId: string;
      employerId: string;
      schemeId: string;
      policyId: string | null;
      input: SignificantChangeInput;
    },
  ): Promise<SignificantChangeView> {
    notInFuture('occurredOn', change.input.occurredOn, kit.today(), 'change');
    const at = now();
    const recorded = await insertSignificantChangeRow(tx, {
      brokerId: change.brokerId,
      id: createId(),
      employerId: change.employerId,
      schemeId: change.schemeId,
      policyId: change.policyId,
      occurredOn: change.input.occurredOn,
      description: change.input.description,
      createdBy: writer.userId,
      createdAt: at,
      updatedAt: at,
    });
    await audit.record(tx, writer, {
      action,
      entityType: 'significant_change',
      entityId: recorded.id,
      tenantId: recorded.brokerId,
      previousState: null,
      newState: changeAuditState(recorded),
    });
    return changeViewOf(recorded);
  }

  return {
    async listPolicies(actor: ActorContext, schemeId: string, query: RegisterListQuery) {
      authorize(actor, 'policy.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'policy.list', {
          table: writtenPolicies,
          entityType: 'written_policy',
          schemeId,
          query,
          where: query.includeHistory ? undefined : draftOrApproved(),
        });
        const changes = await changeDatesByPolicy(
          tx,
          page.items.map((row) => row.id),
        );
        const linkOf = await kit.linksOf(tx, page.items);
        return {
          items: page.items.map((row) => policyViewOf(row, linkOf(row), changes.get(row.id))),
          nextCursor: page.nextCursor,
        };
      });
    },

    /** A new policy, or a new version of one, as a draft: it is not in use until approved. */
    async draftPolicy(
      actor: ActorContext,
      schemeId: string,
      input: PolicyInput,
    ): Promise<PolicyView> {
      const writer = authorize(actor, 'policy.create');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'policy.create', schemeId);
        kit.assertGoverned(scheme);
        await kit.assertLinkable(tx, { schemeId: scheme.id }, 'written_policy', input.documentId);
        const at = now();
        const policy = await insertPolicyRow(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          kind: input.kind,
          title: input.title,
          version: input.version,
          status: 'draft',
          documentId: input.documentId ?? null,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'policy.drafted',
          entityType: 'written_policy',
          entityId: policy.id,
          tenantId: policy.brokerId,
          previousState: null,
          newState: policyAuditState(policy),
        });
        return viewWithChanges(tx, policy);
      });
    },

    async readPolicy(actor: ActorContext, id: string): Promise<PolicyView> {
      authorize(actor, 'policy.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'policy.read', await findEntry(tx, writtenPolicies, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'written_policy',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return viewWithChanges(tx, row);
      });
    },

    async updatePolicy(actor: ActorContext, id: string, change: PolicyChange): Promise<PolicyView> {
      const writer = authorize(actor, 'policy.update');
      return withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'policy.update',
          await findEntry(tx, writtenPolicies, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        const linkOnly = change.title === undefined && change.version === undefined;
        if (existing.status === 'superseded' && linkOnly) {
          throw new ConflictError('A superseded version is history: its document is not changed');
        }
        if (existing.status !== 'draft' && !linkOnly) {
          throw new ConflictError(
            'An approved policy is not changed: draft a new version and have the trustees approve it',
          );
        }
        await kit.assertLinkable(tx, existing, 'written_policy', change.documentId);
        const updated = await updatePolicyRow(tx, existing, { ...change, updatedAt: now() });
        await audit.record(tx, writer, {
          action: 'policy.updated',
          entityType: 'written_policy',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: policyAuditState(existing),
          newState: policyAuditState(updated, changedFieldsOf(change)),
        });
        return viewWithChanges(tx, updated);
      });
    },

    /**
     * The trustees' approval of a draft (Art. 21(3): approved before use), with the meeting or minute
     * that records their decision. It replaces the version
     * in use, whose review this is: the next review counts from when that one was due, or from a
     * significant change recorded since (governance-rules.ts, nextReviewDue).
     */
    async approvePolicy(
      actor: ActorContext,
      id: string,
      { approvedOn, approvalReference }: PolicyApproval,
    ): Promise<PolicyView> {
      const writer = authorize(actor, 'policy.approve');
      return withActor(database, writer, async (tx) => {
        const draft = authorizeRow(
          writer,
          'policy.approve',
          await findEntry(tx, writtenPolicies, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, draft.schemeId);
        if (draft.status !== 'draft')
          throw new ConflictError('Only a draft policy can be approved');
        notInFuture('approvedOn', approvedOn, kit.today(), 'approval');
        // One approval of a kind at a time: the version in use is read, then superseded.
        await lockRegisterOf(tx, 'written_policies', draft, draft.kind);
        const inUse = await approvedPolicyForUpdate(tx, draft);
        let previouslyDue: string | null = null;
        const at = now();
        if (inUse) {
          if (approvedOn < (inUse.approvedOn as string)) {
            throw new ValidationError([
              {
                path: 'approvedOn',
                code: 'before_version_in_use',
                message: `The approval date cannot be before the approval of the version in use (${dateInWords(inUse.approvedOn as string)})`,
              },
            ]);
          }
          previouslyDue = (await viewWithChanges(tx, inUse)).nextReviewDue;
          const superseded = await updatePolicyRow(tx, inUse, {
            status: 'superseded',
            updatedAt: at,
          });
          await audit.record(tx, writer, {
            action: 'policy.superseded',
            entityType: 'written_policy',
            entityId: inUse.id,
            tenantId: inUse.brokerId,
            previousState: policyAuditState(inUse),
            newState: policyAuditState(superseded, ['status']),
          });
        }
        const approved = await updatePolicyRow(tx, draft, {
          status: 'approved',
          approvedOn,
          approvalReference,
          approvedBy: writer.userId,
          nextReviewDue: nextReviewDue(approvedOn, previouslyDue),
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'policy.approved',
          entityType: 'written_policy',
          entityId: approved.id,
          tenantId: approved.brokerId,
          previousState: policyAuditState(draft),
          newState: policyAuditState(approved, [
            'status',
            'approvedOn',
            'approvalReference',
            'nextReviewDue',
          ]),
        });
        return viewWithChanges(tx, approved);
      });
    },

    /**
     * A significant change in the area a policy covers: the law asks for the policy to be adapted
     * and names no day; its review is shown as due as dueAfterChanges counts it (product policy).
     */
    async recordPolicyChange(
      actor: ActorContext,
      id: string,
      input: SignificantChangeInput,
    ): Promise<SignificantChangeView> {
      const writer = authorize(actor, 'policy.significant_change');
      return withActor(database, writer, async (tx) => {
        const policy = authorizeRow(
          writer,
          'policy.significant_change',
          await findEntry(tx, writtenPolicies, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, policy.schemeId);
        if (policy.status !== 'approved') {
          throw new ConflictError('A significant change is recorded against the version in use');
        }
        return recordChange(tx, writer, 'policy.significant_change_recorded', {
          ...policy,
          policyId: policy.id,
          input,
        });
      });
    },

    async deletePolicy(actor: ActorContext, id: string): Promise<void> {
      const writer = authorize(actor, 'policy.delete');
      await withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'policy.delete',
          await findEntry(tx, writtenPolicies, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        await kit.softDelete(tx, writer, writtenPolicies, existing, {
          action: 'policy.deleted',
          entityType: 'written_policy',
          previousState: policyAuditState(existing),
        });
      });
    },

    async policyHistory(actor: ActorContext, id: string, query: PageQuery) {
      authorize(actor, 'policy.read');
      return withActor(database, actor, (tx) =>
        kit.entryHistory(tx, actor, 'policy.read', {
          table: writtenPolicies,
          entityType: 'written_policy',
          id,
          query,
        }),
      );
    },

    /** Significant changes recorded for a scheme, to its policies or its risk profile, latest first. */
    async listChanges(actor: ActorContext, schemeId: string, query: PageQuery) {
      authorize(actor, 'significant_change.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'significant_change.list', {
          table: significantChanges,
          entityType: 'significant_change',
          schemeId,
          query,
          direction: 'desc',
        });
        return { items: page.items.map(changeViewOf), nextCursor: page.nextCursor };
      });
    },

    /**
     * A significant change in the scheme's risk profile: the law asks for an ORA without delay
     * (Pensions Act 1990 s.64AL(3)); it is shown as due as dueAfterChanges counts it.
     */
    async recordRiskProfileChange(
      actor: ActorContext,
      schemeId: string,
      input: SignificantChangeInput,
    ): Promise<SignificantChangeView> {
      const writer = authorize(actor, 'risk_profile.change');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'risk_profile.change', schemeId);
        kit.assertGoverned(scheme);
        return recordChange(tx, writer, 'risk_profile.change_recorded', {
          brokerId: scheme.brokerId,
          employerId: scheme.employerId,
          schemeId: scheme.id,
          policyId: null,
          input,
        });
      });
    },

    async listOra(actor: ActorContext, schemeId: string, query: PageQuery) {
      authorize(actor, 'ora.list');
      return withActor(database, actor, async (tx) => {
        const page = await kit.listUnder(tx, actor, 'ora.list', {
          table: oraReports,
          entityType: 'ora_report',
          schemeId,
          query,
          direction: 'desc',
        });
        const linkOf = await kit.linksOf(tx, page.items);
        return {
          items: page.items.map((row) => oraViewOf(row, linkOf(row))),
          nextCursor: page.nextCursor,
        };
      });
    },

    /**
     * An ORA performed: the next is due three years from when this one was due (or from the
     * significant change that called for it), never later (governance-rules.ts, nextReviewDue).
     */
    async recordOra(
      actor: ActorContext,
      schemeId: string,
      input: OraReportInput,
    ): Promise<OraReportView> {
      const writer = authorize(actor, 'ora.create');
      return withActor(database, writer, async (tx) => {
        const scheme = await kit.writableScheme(tx, writer, 'ora.create', schemeId);
        kit.assertGoverned(scheme);
        notInFuture('performedOn', input.performedOn, kit.today(), 'assessment');
        await kit.assertLinkable(tx, { schemeId: scheme.id }, 'ora_report', input.documentId);
        const previouslyDue = await oraDueBefore(
          tx,
          { brokerId: scheme.brokerId, schemeId: scheme.id },
          input.performedOn,
          null,
        );
        const at = now();
        const report = await insertOraReportRow(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          performedOn: input.performedOn,
          trigger: input.trigger,
          summary: input.summary ?? null,
          nextDue: nextReviewDue(input.performedOn, previouslyDue),
          documentId: input.documentId ?? null,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'ora.recorded',
          entityType: 'ora_report',
          entityId: report.id,
          tenantId: report.brokerId,
          previousState: null,
          newState: oraAuditState(report),
        });
        return oraView(tx, report);
      });
    },

    async readOra(actor: ActorContext, id: string): Promise<OraReportView> {
      authorize(actor, 'ora.read');
      return withActor(database, actor, async (tx) => {
        const row = authorizeRow(actor, 'ora.read', await findEntry(tx, oraReports, id));
        await kit.reads.viewed(tx, actor, {
          entityType: 'ora_report',
          entityId: row.id,
          tenantId: row.brokerId,
        });
        return oraView(tx, row);
      });
    },

    async updateOra(
      actor: ActorContext,
      id: string,
      change: OraReportChange,
    ): Promise<OraReportView> {
      const writer = authorize(actor, 'ora.update');
      return withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'ora.update',
          await findEntry(tx, oraReports, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        const performedOn = change.performedOn ?? existing.performedOn;
        notInFuture('performedOn', performedOn, kit.today(), 'assessment');
        await kit.assertLinkable(tx, existing, 'ora_report', change.documentId);
        const previouslyDue = await oraDueBefore(tx, existing, performedOn, existing.id);
        const updated = await updateOraReportRow(tx, existing, {
          performedOn,
          trigger: change.trigger ?? existing.trigger,
          summary: change.summary === undefined ? existing.summary : change.summary,
          nextDue: nextReviewDue(performedOn, previouslyDue),
          documentId: change.documentId === undefined ? existing.documentId : change.documentId,
          updatedAt: now(),
        });
        await audit.record(tx, writer, {
          action: 'ora.updated',
          entityType: 'ora_report',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: oraAuditState(existing),
          newState: oraAuditState(updated, changedFieldsOf(change)),
        });
        return oraView(tx, updated);
      });
    },

    async deleteOra(actor: ActorContext, id: string): Promise<void> {
      const writer = authorize(actor, 'ora.delete');
      await withActor(database, writer, async (tx) => {
        const existing = authorizeRow(
          writer,
          'ora.delete',
          await findEntry(tx, oraReports, id, { forUpdate: true }),
        );
        await refuseChangesBeneath(tx, existing.schemeId);
        await kit.softDelete(tx, writer, oraReports, existing, {
          action: 'ora.deleted',
          entityType: 'ora_report',
          previousState: oraAuditState(existing),
        });
      });
    },

    async oraHistory(actor: ActorContext, id: string, query: PageQuery) {
      authorize(actor, 'ora.read');
      return withActor(database, actor, (tx) =>
        kit.entryHistory(tx, actor, 'ora.read', {
          table: oraReports,
          entityType: 'ora_report',
          id,
          query,
        }),
      );
    },
  };
}

export type PoliciesService = ReturnType<typeof createPoliciesService>;
