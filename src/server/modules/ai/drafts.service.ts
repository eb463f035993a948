import { createId } from '@paralleldrive/cuid2';
import {
  type DraftChange,
  type DraftInput,
  type DraftKind,
  type DraftStatus,
  type DraftView,
  FOUR_EYES_REFUSAL,
  fourEyesBar,
  placeholdersIn,
  placeholdersRefusal,
  withoutBanner,
} from '../../../contracts/ai.js';
import type { RecordedAction } from '../../../contracts/audit-text.js';
import {
  outOfScopeReason,
  POLICY_KIND_NAMES,
  type PolicyKind,
} from '../../../contracts/governance-rules.js';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { type LineDiff, lineDiff } from '../../../contracts/line-diff.js';
import type { RacKind, SchemeType } from '../../../contracts/organisation.js';
import type { PageQuery } from '../../../contracts/pages.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Database } from '../../platform/db/database.js';
import type { aiDrafts } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import type { GeneratedDocument, GeneratedDocuments } from '../documents/index.js';
import { findEmployer } from '../employers/index.js';
import { loadGovernance } from '../governance/index.js';
import { findScheme, refuseChangesBeneath, refuseWoundUp } from '../schemes/index.js';
import { type AiDraftRow, settingsOf } from './ai.data.js';
import type { AiProvider } from './ai-provider.client.js';
import type { SecurityAlert } from './chat.service.js';
import {
  DRAFT_SYSTEM_PROMPT,
  type DraftFacts,
  type DraftNames,
  draftPrompt,
  filledFromTheRecord,
  headerOf,
  memberBandOf,
  templateDraft,
} from './draft-templates.rules.js';
import {
  findDraft,
  insertDraft,
  insertWrittenPolicy,
  listDrafts,
  liveMemberCount,
  policyVersionCount,
  updateDraftFrom,
} from './drafts.data.js';
import { ISSUED_DOCUMENT_TYPE, issuedFilename, renderIssuedDraft } from './issued-draft.pdf.js';
import { type Denylist, OutgoingRefusedError } from './provider-guard.rules.js';
import type { AiAccess } from './settings.service.js';

export interface DraftsDeps {
  database: Database;
  /**
   * Whether a firm that has not chosen needs four eyes on its drafts: true outside APP_ENV
   * development (docs/decisions/0083-ai-drafts-four-eyes.md).
   */
  fourEyesByDefault: boolean;
  audit: AuditService;
  now: () => Date;
  /** Null when AI_PROVIDER is none: drafts then come from the project's templates. */
  provider: AiProvider | null;
  access: AiAccess;
  alert: SecurityAlert;
  /** Where an issued draft's PDF is stored, as a document of its scheme. */
  documents: GeneratedDocuments;
}

const MAX_OUTPUT_TOKENS = 2000;

/** Who wrote the draft's text: whoever generated it, and everyone who edited it since. */
const authorsOf = (row: AiDraftRow) => [...new Set([row.createdBy, ...row.editedBy])];

/** What four eyes look at (contracts/ai.ts, fourEyesBar): the setting, the authors, the reviewer. */
const whoOf = (row: AiDraftRow, fourEyes: boolean) => ({
  fourEyes,
  authors: authorsOf(row),
  reviewedBy: row.reviewedBy,
});

/** The draft as the API answers it; `fourEyes` is the firm's setting in effect now. */
const viewOf = (row: AiDraftRow, fourEyes: boolean): DraftView => ({
  id: row.id,
  schemeId: row.schemeId,
  kind: row.kind as DraftView['kind'],
  policyKind: row.policyKind as DraftView['policyKind'],
  status: row.status as DraftStatus,
  generatedBy: row.generatedBy as DraftView['generatedBy'],
  content: row.content,
  generatedContent: row.generatedContent,
  reviewedAt: row.reviewedAt?.toISOString() ?? null,
  approvedAt: row.approvedAt?.toISOString() ?? null,
  ...whoOf(row, fourEyes),
  approvedDiff: (row.approvedDiff as DraftView['approvedDiff']) ?? null,
  issuedAt: row.issuedAt?.toISOString() ?? null,
  issuedPolicyId: row.issuedPolicyId,
  issuedDocumentId: row.issuedDocumentId,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/**
 * Ids, kinds, states and sizes: never the text (docs/decisions/0067-ai-drafts.md). Once approved,
 * how many lines the approver's text removed, added and kept against the generated one, the
 * counts of the draft's own record (docs/decisions/0104-one-line-diff.md).
 */
const auditState = (row: AiDraftRow) => {
  const diff = row.approvedDiff as LineDiff | null;
  return {
    id: row.id,
    schemeId: row.schemeId,
    kind: row.kind,
    policyKind: row.policyKind,
    status: row.status,
    generatedBy: row.generatedBy,
    contentLength: row.content.length,
    ...(diff
      ? {
          approvedLines: {
            removed: diff.removed,
            added: diff.added,
            unchanged: diff.unchanged,
          },
        }
      : {}),
    issuedPolicyId: row.issuedPolicyId,
    issuedDocumentId: row.issuedDocumentId,
  };
};

/** Whether the firm's drafts need four eyes: its own setting, or the platform's default. */
async function fourEyesFor(tx: Transaction, brokerId: string, byDefault: boolean) {
  return (await settingsOf(tx, brokerId))?.fourEyes ?? byDefault;
}

/**
 * The scheme's facts for a draft, and the denylist for the guard: the key function holders'
 * names are loaded with the registers, so they are refused if anything ever carried them out.
 * Members are counted, never loaded.
 */
async function factsOf(
  tx: Transaction,
  scheme: { id: string; type: string },
  today: string,
): Promise<{ facts: DraftFacts; denylist: Denylist }> {
  const [loaded] = await loadGovernance(tx, { schemeIds: [scheme.id] });
  const counted = await liveMemberCount(tx, scheme.id);
  const serving = (entry: { appointedOn: string; endedOn: string | null }) =>
    entry.appointedOn <= today && (entry.endedOn === null || entry.endedOn > today);
  const governance = loaded?.facts;
  const trustees = (governance?.trustees ?? []).filter(serving);
  const holders = (governance?.keyFunctionHolders ?? []).filter(serving);
  const oras = [...(governance?.oraReports ?? [])].sort((a, b) =>
    a.performedOn.localeCompare(b.performedOn),
  );
  const lastOra = oras.at(-1);
  const holderNames = (governance?.keyFunctionHolders ?? []).map((holder) => holder.holderName);
  return {
    facts: {
      schemeType: scheme.type as SchemeType,
      memberBand: memberBandOf(counted),
      trustees: {
        individual: trustees.filter((entry) => entry.kind === 'individual').length,
        corporate: trustees.filter((entry) => entry.kind === 'corporate').length,
        corporateDirectors: trustees.reduce((sum, entry) => sum + (entry.directorCount ?? 0), 0),
      },
      keyFunctions: holders.map((holder) => ({
        function: holder.function,
        fitnessAndProbity: holder.fitnessAndProbity,
        alsoServesEmployer: holder.alsoServesEmployer,
      })),
      policies: (governance?.policies ?? []).map((policy) => ({
        kind: policy.kind,
        status: policy.status,
        approvedOn: policy.approvedOn,
        nextReviewDue: policy.nextReviewDue,
      })),
      lastOra: lastOra ? { performedOn: lastOra.performedOn, nextDue: lastOra.nextDue } : null,
    },
    denylist: {
      names: holderNames,
      // A register holds a name as one field: its last word is taken for the surname.
      familyNames: holderNames.map((name) => name.trim().split(/\s/).at(-1) ?? ''),
      datesOfBirth: [],
      salaryCents: [],
    },
  };
}

/**
 * A new draft version of the written policy an issued draft is for, linked to the issued PDF
 * (contracts/governance.ts, LINKED_DOCUMENT_TYPE), and its audit record: ids only.
 */
async function draftPolicyVersion(
  tx: Transaction,
  writer: TenantActor,
  audit: AuditService,
  row: AiDraftRow,
  documentId: string,
  at: Date,
): Promise<string> {
  const kind = row.policyKind as PolicyKind;
  const versions = await policyVersionCount(tx, {
    brokerId: row.brokerId,
    schemeId: row.schemeId,
    kind,
  });
  const policyId = await insertWrittenPolicy(tx, {
    brokerId: row.brokerId,
    id: createId(),
    employerId: row.employerId,
    schemeId: row.schemeId,
    kind,
    title: POLICY_KIND_NAMES[kind],
    version: `${versions + 1}.0`,
    status: 'draft',
    documentId,
    createdBy: writer.userId,
    createdAt: at,
    updatedAt: at,
  });
  await audit.record(tx, writer, {
    action: 'policy.drafted',
    entityType: 'written_policy',
    entityId: policyId,
    tenantId: row.brokerId,
    previousState: null,
    newState: {
      id: policyId,
      schemeId: row.schemeId,
      kind,
      status: 'draft',
      documentId,
      fromDraftId: row.id,
    },
  });
  return policyId;
}

/**
 * Drafts of governance writing, and their lifecycle draft → reviewed → approved → issued
 * (docs/decisions/0067-ai-drafts.md; docs/decisions/0066-ai-provider-guard-and-chat.md). Only
 * approved text is ever issued; every step is audited by ids.
 */
export function createDraftsService({
  database,
  fourEyesByDefault,
  audit,
  now,
  provider,
  access,
  alert,
  documents,
}: DraftsDeps) {
  /** One step of the lifecycle, by an actor the step's method has already authorised. */
  async function transition(
    writer: TenantActor,
    id: string,
    step: {
      action: 'ai.draft.update' | 'ai.draft.review' | 'ai.draft.approve' | 'ai.draft.issue';
      from: readonly DraftStatus[];
      refusal: string;
      auditAction: Extract<RecordedAction, `ai.draft_${string}`>;
      change: (
        tx: Transaction,
        writer: TenantActor,
        row: AiDraftRow,
        fourEyes: boolean,
      ) => Promise<Partial<typeof aiDrafts.$inferInsert>>;
    },
  ): Promise<DraftView> {
    return withActor(database, writer, async (tx) => {
      const existing = authorizeRow(writer, step.action, await findDraft(tx, id, true));
      await refuseChangesBeneath(tx, existing.schemeId);
      if (!step.from.includes(existing.status as DraftStatus))
        throw new ConflictError(step.refusal);
      const fourEyes = await fourEyesFor(tx, existing.brokerId, fourEyesByDefault);
      const values = await step.change(tx, writer, existing, fourEyes);
      // The row is locked; the state in the WHERE says so again, and an update that finds the
      // draft moved on changes nothing and is refused like any other step from the wrong state.
      const updated = await updateDraftFrom(tx, existing, { ...values, updatedAt: now() });
      if (!updated) throw new ConflictError(step.refusal);
      await audit.record(tx, writer, {
        action: step.auditAction,
        entityType: 'ai_draft',
        entityId: updated.id,
        tenantId: updated.brokerId,
        previousState: auditState(existing),
        newState: auditState(updated),
      });
      return viewOf(updated, fourEyes);
    });
  }

  /**
   * The generated text: the provider's, or the template's when there is none, with every
   * placeholder the scheme's record can fill filled in (the provider is never sent the names).
   */
  async function generate(
    writer: TenantActor,
    request: { kind: DraftInput['kind']; policyKind: PolicyKind | null },
    facts: DraftFacts,
    names: DraftNames,
    denylist: Denylist,
  ): Promise<{ content: string; generatedBy: 'ai' | 'template' }> {
    if (provider === null)
      return { content: templateDraft(request, facts, names), generatedBy: 'template' };
    const reserved = await access.reserve(writer, async () => denylist);
    try {
      const result = await provider.generate({
        apiKey: reserved.apiKey,
        system: DRAFT_SYSTEM_PROMPT,
        prompt: draftPrompt(request, facts),
        denylist: reserved.denylist,
        maxOutputTokens: MAX_OUTPUT_TOKENS,
      });
      await access.record(writer, reserved.month, result.usage);
      const text = result.text.trim();
      if (text.length === 0)
        return { content: templateDraft(request, facts, names), generatedBy: 'template' };
      return {
        content: `${headerOf('ai')}\n\n${filledFromTheRecord(text, facts, names)}\n`,
        generatedBy: 'ai',
      };
    } catch (error) {
      if (error instanceof OutgoingRefusedError) {
        alert('ai.outgoing_refused', { userId: writer.userId, reason: error.reasons.join(',') });
        throw new ValidationError([
          {
            path: 'schemeId',
            code: 'personal_data',
            message:
              'The draft was not requested: the scheme facts would have carried personal data',
          },
        ]);
      }
      throw error;
    }
  }

  return {
    async create(actor: ActorContext, input: DraftInput): Promise<DraftView> {
      const writer = authorize(actor, 'ai.draft.create');
      const { scheme, facts, names, denylist } = await withActor(database, writer, async (tx) => {
        const found = authorizeRow(writer, 'ai.draft.create', await findScheme(tx, input.schemeId));
        refuseWoundUp(found);
        const outOfScope = outOfScopeReason({
          type: found.type as SchemeType,
          racKind: found.racKind as RacKind | null,
        });
        if (outOfScope !== null) throw new ConflictError(outOfScope);
        const employer = await findEmployer(tx, found.employerId);
        const names: DraftNames = { schemeName: found.name, employerName: employer?.name ?? '' };
        return { scheme: found, names, ...(await factsOf(tx, found, todayInIreland(now()))) };
      });
      const request = { kind: input.kind, policyKind: input.policyKind ?? null };
      // The provider is asked outside any transaction: no connection is held while it writes.
      const { content, generatedBy } = await generate(writer, request, facts, names, denylist);
      return withActor(database, writer, async (tx) => {
        const at = now();
        const draft = await insertDraft(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          kind: request.kind,
          policyKind: request.policyKind,
          status: 'draft',
          generatedBy,
          generatedContent: content,
          content,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'ai.draft_created',
          entityType: 'ai_draft',
          entityId: draft.id,
          tenantId: draft.brokerId,
          previousState: null,
          newState: auditState(draft),
        });
        return viewOf(draft, await fourEyesFor(tx, draft.brokerId, fourEyesByDefault));
      });
    },

    async list(actor: ActorContext, schemeId: string, query: PageQuery) {
      const reader = authorize(actor, 'ai.draft.list');
      return withActor(database, reader, async (tx) => {
        const scheme = authorizeRow(reader, 'ai.draft.list', await findScheme(tx, schemeId));
        const page = await listDrafts(tx, scheme, query);
        const fourEyes = await fourEyesFor(tx, scheme.brokerId, fourEyesByDefault);
        return {
          items: page.items.map((row) => viewOf(row, fourEyes)),
          nextCursor: page.nextCursor,
        };
      });
    },

    async read(actor: ActorContext, id: string): Promise<DraftView> {
      const reader = authorize(actor, 'ai.draft.read');
      return withActor(database, reader, async (tx) => {
        const row = authorizeRow(reader, 'ai.draft.read', await findDraft(tx, id));
        return viewOf(row, await fourEyesFor(tx, row.brokerId, fourEyesByDefault));
      });
    },

    async update(actor: ActorContext, id: string, change: DraftChange) {
      const writer = authorize(actor, 'ai.draft.update');
      return transition(writer, id, {
        action: 'ai.draft.update',
        from: ['draft', 'reviewed'],
        refusal: 'An approved draft is not edited: its approved text is what is issued',
        auditAction: 'ai.draft_edited',
        // An edit after review needs a new review; whoever edits is one of the text's authors.
        change: async (_tx, writer, row) => ({
          content: change.content,
          status: 'draft',
          reviewedAt: null,
          reviewedBy: null,
          editedBy: row.editedBy.includes(writer.userId)
            ? row.editedBy
            : [...row.editedBy, writer.userId],
        }),
      });
    },

    async review(actor: ActorContext, id: string) {
      const writer = authorize(actor, 'ai.draft.review');
      return transition(writer, id, {
        action: 'ai.draft.review',
        from: ['draft'],
        refusal: 'Only a draft can be marked as reviewed',
        auditAction: 'ai.draft_reviewed',
        change: async (_tx, writer, row, fourEyes) => {
          if (fourEyesBar('review', whoOf(row, fourEyes), writer.userId))
            throw new ConflictError(FOUR_EYES_REFUSAL.review);
          return { status: 'reviewed', reviewedBy: writer.userId, reviewedAt: now() };
        },
      });
    },

    /** Who approved, when, and what they changed from the generated text (contracts/line-diff.ts). */
    async approve(actor: ActorContext, id: string) {
      const writer = authorize(actor, 'ai.draft.approve');
      return transition(writer, id, {
        action: 'ai.draft.approve',
        from: ['reviewed'],
        refusal: 'Only a reviewed draft can be approved',
        auditAction: 'ai.draft_approved',
        change: async (_tx, writer, row, fourEyes) => {
          if (fourEyesBar('approve', whoOf(row, fourEyes), writer.userId))
            throw new ConflictError(FOUR_EYES_REFUSAL.approve);
          // What is approved is the text to issue: the banner saying it is not approved goes.
          const approved = withoutBanner(row.content);
          const unfilled = placeholdersRefusal(placeholdersIn(approved));
          if (unfilled) throw new ConflictError(unfilled);
          return {
            content: approved,
            status: 'approved',
            approvedBy: writer.userId,
            approvedAt: now(),
            approvedDiff: lineDiff(row.generatedContent, approved),
          };
        },
      });
    },

    /**
     * The approved text issued, as a tagged PDF stored as a document of the scheme, in the same
     * transaction as the draft's issue and their audit records; its bytes are committed once that
     * transaction has, as an upload's are. A written-policy draft also becomes a new draft version
     * of that policy in the governance registers, linked to the PDF, for the trustees to approve
     * there (Art. 21(3): approved before use). Other drafts are issued as they stand, their text
     * fixed from then on.
     */
    async issue(actor: ActorContext, id: string) {
      const writer = authorize(actor, 'ai.draft.issue');
      let issued: GeneratedDocument | null = null;
      let view: DraftView;
      try {
        view = await transition(writer, id, {
          action: 'ai.draft.issue',
          from: ['approved'],
          refusal: 'Only approved text is issued: review and approve the draft first',
          auditAction: 'ai.draft_issued',
          change: async (tx, writer, row) => {
            const at = now();
            const request = {
              kind: row.kind as DraftKind,
              policyKind: row.policyKind as PolicyKind | null,
            };
            // Drafts approved before approval took the banner off still carry it in their text.
            const pdf = await renderIssuedDraft(request, withoutBanner(row.content), at);
            issued = await documents.store(tx, writer, {
              scheme: { brokerId: row.brokerId, employerId: row.employerId, id: row.schemeId },
              documentType: ISSUED_DOCUMENT_TYPE[request.kind],
              filename: issuedFilename(request, todayInIreland(at)),
              title: pdf.title,
              contentType: 'application/pdf',
              bytes: pdf.bytes,
              at,
            });
            const issuedDocumentId = issued.row.id;
            let issuedPolicyId: string | null = null;
            if (request.kind === 'written_policy') {
              issuedPolicyId = await draftPolicyVersion(
                tx,
                writer,
                audit,
                row,
                issuedDocumentId,
                at,
              );
            }
            return {
              status: 'issued',
              issuedBy: writer.userId,
              issuedAt: at,
              issuedPolicyId,
              issuedDocumentId,
            };
          },
        });
      } catch (error) {
        await (issued as GeneratedDocument | null)?.discard();
        throw error;
      }
      await (issued as GeneratedDocument | null)?.commit();
      return view;
    },
  };
}
export type DraftsService = ReturnType<typeof createDraftsService>;
