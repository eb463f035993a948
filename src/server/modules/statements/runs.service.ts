import { createId } from '@paralleldrive/cuid2';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import type { PageQuery } from '../../../contracts/pages.js';
import { administratorDate } from '../../../contracts/statement-rules.js';
import {
  type PaperStatementView,
  runMadeNothing,
  type StatementRunInput,
  type StatementRunView,
  type StatementView,
  statementFileName,
} from '../../../contracts/statements.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import { withoutQuerySignal } from '../../platform/db/connection-bounds.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { statementRuns } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { benefitStatementIssuedMessage } from '../../platform/email/messages.js';
import type { Outbox } from '../../platform/email/outbox.js';
import { ConflictError, NotFoundError, ValidationError } from '../../platform/errors.js';
import { type ActorContext, isPlatformActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import type { GeneratedDocument, GeneratedDocuments } from '../documents/index.js';
import { findMember } from '../members/index.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { findAssumptions } from './assumptions.data.js';
import {
  accountsOfMember,
  findRun,
  findStatement,
  insertRun,
  listRuns,
  liveRunFor,
  madeStatementsOfRun,
  type RunRow,
  type StatementRow,
  statementsOfMember,
  updateRun,
  updateStatement,
} from './runs.data.js';
import { statementPdf } from './statement.pdf.js';
import type { StatementWorker } from './statement-worker.service.js';

/** A run or a statement is the firm's, under the scheme's employer: its scope for the policy. */
const scoped = <T extends { brokerId: string; employerId: string }>(row: T | undefined) => row;

export function runViewOf(row: RunRow): StatementRunView {
  return {
    id: row.id,
    schemeId: row.schemeId,
    informationDate: row.informationDate,
    membersBy: row.membersBy,
    trusteesBy: administratorDate(row.membersBy),
    assumptionsId: row.assumptionsId,
    status: row.status as StatementRunView['status'],
    total: row.total,
    done: row.done,
    failed: row.failed,
    issues: row.issues,
    approvedAt: row.approvedAt?.toISOString() ?? null,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function statementViewOf(row: StatementRow): StatementView {
  if (row.figures === null) throw new Error('a statement listed before it was made');
  return {
    id: row.id,
    runId: row.runId,
    memberId: row.memberId,
    schemeId: row.schemeId,
    informationDate: row.informationDate,
    documentId: row.documentId,
    issuedAt: row.issuedAt?.toISOString() ?? null,
    paper: row.paper,
    figures: row.figures,
  };
}

/** What the audit log keeps of a run: ids, dates, status and counts (no member's figures). */
const auditState = (row: RunRow) => ({
  id: row.id,
  schemeId: row.schemeId,
  informationDate: row.informationDate,
  membersBy: row.membersBy,
  assumptionsId: row.assumptionsId,
  status: row.status,
  total: row.total,
  done: row.done,
  failed: row.failed,
  membersWithIssues: row.issues.length,
});

const refuse = (path: string, message: string): never => {
  throw new ValidationError([{ path, code: 'custom', message }]);
};

export interface RunsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
  outbox: Outbox;
  onEmailQueued: () => void;
  publicBaseUrl: URL;
  documents: GeneratedDocuments;
  worker: StatementWorker;
  /** Where a failure of the background work is reported, with no personal data. */
  onWorkFailed: (error: unknown) => void;
}

/**
 * Statement runs (docs/decisions/0141-pension-benefit-statements.md): a scheme's statements for
 * an information date, prepared in the background (statement-worker.service.ts), reviewed by staff, approved by
 * the trustees' side and issued to each member as their own document with an e-mail notice.
 */
export function createRunsService({
  database,
  audit,
  now,
  outbox,
  onEmailQueued,
  publicBaseUrl,
  documents,
  worker,
  onWorkFailed,
}: RunsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** Starts the run's work after the answer, under no request's signal (docs/decisions/0084). */
  function startWork(brokerId: string, runId: string) {
    setImmediate(() => {
      withoutQuerySignal(() => worker.process(brokerId, runId)).catch(onWorkFailed);
    });
  }

  return {
    async create(
      actor: ActorContext,
      schemeId: string,
      input: StatementRunInput,
    ): Promise<StatementRunView> {
      const writer = authorize(actor, 'statement_run.create');
      const run = await withActor(database, writer, async (tx) => {
        const scheme = authorizeRow(writer, 'statement_run.create', await findScheme(tx, schemeId));
        refuseWoundUp(scheme);
        const today = todayInIreland(now());
        if (input.informationDate > today) {
          refuse('informationDate', 'The information date is a day that has passed, or today');
        }
        if (input.membersBy <= input.informationDate) {
          refuse('membersBy', 'Members must have their statements after the information date');
        }
        const assumptions = await findAssumptions(tx, input.assumptionsId);
        if (assumptions === undefined) {
          refuse('assumptionsId', 'Choose an assumption set of the platform or of this firm');
        }
        // A failed run, or one that made nothing, leaves the date free (liveRunFor).
        if (await liveRunFor(tx, scheme, input.informationDate)) {
          throw new ConflictError(
            `A statement run for this scheme at ${dateInWords(input.informationDate)} is already under way or has made statements`,
          );
        }
        const at = now();
        const row = await insertRun(tx, {
          brokerId: scheme.brokerId,
          id: createId(),
          employerId: scheme.employerId,
          schemeId: scheme.id,
          informationDate: input.informationDate,
          membersBy: input.membersBy,
          assumptionsId: input.assumptionsId,
          status: 'queued',
          total: 0,
          done: 0,
          failed: 0,
          issues: [],
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'statement_run.created',
          entityType: 'statement_run',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: null,
          newState: auditState(row),
        });
        return row;
      });
      startWork(run.brokerId, run.id);
      return runViewOf(run);
    },

    async list(actor: ActorContext, schemeId: string, query: PageQuery) {
      authorize(actor, 'statement_run.list');
      const position = keyset(query, { at: statementRuns.createdAt, id: statementRuns.id }, 'desc');
      const rows = await withActor(database, actor, async (tx) => {
        const scheme = authorizeRow(actor, 'statement_run.list', await findScheme(tx, schemeId));
        const found = await listRuns(tx, scheme, position);
        await reads.listed(tx, actor, {
          entityType: 'statement_run',
          scope: { schemeId: scheme.id },
          filters: query,
          returned: found.length,
        });
        return found;
      });
      const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: page.items.map(runViewOf), nextCursor: page.nextCursor };
    },

    async get(actor: ActorContext, id: string): Promise<StatementRunView> {
      authorize(actor, 'statement_run.read');
      return withActor(database, actor, async (tx) => {
        const run = authorizeRow(actor, 'statement_run.read', scoped(await findRun(tx, id)));
        await reads.viewed(tx, actor, {
          entityType: 'statement_run',
          entityId: run.id,
          tenantId: run.brokerId,
        });
        return runViewOf(run);
      });
    },

    /** The run's statements made, in member order: the sample staff review before approval. */
    async statements(actor: ActorContext, id: string): Promise<StatementView[]> {
      authorize(actor, 'statement_run.read');
      return withActor(database, actor, async (tx) => {
        const run = authorizeRow(actor, 'statement_run.read', scoped(await findRun(tx, id)));
        await reads.viewed(tx, actor, {
          entityType: 'statement_run',
          entityId: run.id,
          tenantId: run.brokerId,
        });
        return (await madeStatementsOfRun(tx, run, { limit: 100 })).map(statementViewOf);
      });
    },

    /**
     * The trustees' approval of a run that is ready and made statements (409 otherwise): a run
     * that made none has nothing to approve (runMadeNothing, contracts/statements.ts).
     */
    async approve(actor: ActorContext, id: string): Promise<StatementRunView> {
      const writer = authorize(actor, 'statement_run.approve');
      return withActor(database, writer, async (tx) => {
        const run = authorizeRow(
          writer,
          'statement_run.approve',
          scoped(await findRun(tx, id, { forUpdate: true })),
        );
        if (run.status !== 'ready') {
          throw new ConflictError(
            `Only a run whose statements are ready is approved; this run is ${run.status}`,
          );
        }
        if (runMadeNothing({ status: run.status as StatementRunView['status'], done: run.done })) {
          throw new ConflictError(
            'This run made no statement, so there is nothing for the trustees to approve. Its page says what to correct, in the scheme’s details or the members’ records; then start a new run for the same date',
          );
        }
        const at = now();
        const approved = await updateRun(tx, run, {
          status: 'approved',
          approvedBy: writer.userId,
          approvedAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'statement_run.approved',
          entityType: 'statement_run',
          entityId: run.id,
          tenantId: run.brokerId,
          previousState: auditState(run),
          newState: auditState(approved),
        });
        return runViewOf(approved);
      });
    },

    /**
     * Issues an approved run (409 otherwise): each statement becomes its member's own
     * member-facing `benefit_statement` document, and the member's accounts are e-mailed a
     * notice. Each statement is issued in a transaction of its own, so an issue cut short is
     * finished by asking again, and no statement is issued twice.
     */
    async issue(actor: ActorContext, id: string): Promise<StatementRunView> {
      const writer = authorize(actor, 'statement_run.issue');
      const run = await withActor(database, writer, async (tx) => {
        const found = authorizeRow(writer, 'statement_run.issue', scoped(await findRun(tx, id)));
        if (found.status !== 'approved') {
          throw new ConflictError(
            found.status === 'issued'
              ? 'This run is already issued'
              : `Only a run the trustees have approved is issued; this run is ${found.status}`,
          );
        }
        return found;
      });
      const pending = await withActor(database, writer, (tx) =>
        madeStatementsOfRun(tx, run, { only: 'not_issued' }),
      );
      let told = false;
      for (const statement of pending) {
        const figures = statement.figures;
        if (figures === null) continue;
        const bytes = await statementPdf(figures);
        let staged: GeneratedDocument | null = null;
        const stored = await withActor(database, writer, async (tx) => {
          const current = await findStatement(tx, statement.id, { forUpdate: true });
          if (current === undefined || current.issuedAt !== null) return null;
          const at = now();
          const document = await documents.store(tx, writer, {
            scheme: { brokerId: run.brokerId, employerId: run.employerId, id: run.schemeId },
            documentType: 'benefit_statement',
            filename: `Pension Benefit Statement ${run.informationDate}.pdf`,
            title: `Pension Benefit Statement at ${dateInWords(run.informationDate)}`,
            contentType: 'application/pdf',
            bytes,
            at,
            member: { id: statement.memberId },
          });
          staged = document;
          await updateStatement(tx, statement, {
            documentId: document.row.id,
            issuedAt: at,
            updatedAt: at,
          });
          for (const account of await accountsOfMember(tx, statement.memberId)) {
            await outbox.enqueue(tx, {
              brokerId: run.brokerId,
              userId: account.id,
              kind: 'benefit_statement_issued',
              message: benefitStatementIssuedMessage(account.email, {
                scheme: figures.schemeName,
                informationDate: dateInWords(run.informationDate),
                signInUrl: new URL('/signin', publicBaseUrl).toString(),
              }),
              discardAfter: new Date(at.getTime() + 30 * 24 * 3_600_000),
            });
            told = true;
          }
          return document;
        }).catch(async (error: unknown) => {
          // The bytes staged for a transaction that did not commit are dropped.
          await staged?.discard();
          throw error;
        });
        if (stored) await stored.commit();
      }
      if (told) onEmailQueued();
      return withActor(database, writer, async (tx) => {
        const current = (await findRun(tx, run.id, { forUpdate: true })) as RunRow;
        if (current.status === 'issued') return runViewOf(current);
        const at = now();
        const issued = await updateRun(tx, current, {
          status: 'issued',
          issuedBy: writer.userId,
          issuedAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'statement_run.issued',
          entityType: 'statement_run',
          entityId: run.id,
          tenantId: run.brokerId,
          previousState: auditState(current),
          newState: auditState(issued),
        });
        return runViewOf(issued);
      });
    },

    /** The run's statements marked for printing, by member: what the firm posts on paper. */
    async paper(actor: ActorContext, id: string): Promise<PaperStatementView[]> {
      authorize(actor, 'statement_run.read');
      return withActor(database, actor, async (tx) => {
        const run = authorizeRow(actor, 'statement_run.read', scoped(await findRun(tx, id)));
        await reads.viewed(tx, actor, {
          entityType: 'statement_run',
          entityId: run.id,
          tenantId: run.brokerId,
        });
        return (await madeStatementsOfRun(tx, run, { only: 'on_paper' })).map((row) => ({
          id: row.id,
          memberId: row.memberId,
          memberName: row.figures?.memberName ?? '',
          issuedAt: row.issuedAt?.toISOString() ?? null,
        }));
      });
    },

    /**
     * Marks a statement made for printing on its member's request, or takes it off the printing
     * list (docs/decisions/0141-pension-benefit-statements.md, "Paper on request"). A statement
     * not yet made answers 409. Audited with ids and the mark, nothing of the member.
     */
    async markPaper(actor: ActorContext, id: string, paper: boolean): Promise<StatementView> {
      const writer = authorize(actor, 'statement.paper');
      return withActor(database, writer, async (tx) => {
        const found = await findStatement(tx, id, { forUpdate: true });
        const statement = authorizeRow(writer, 'statement.paper', found);
        if (statement.status !== 'made' || statement.figures === null) {
          throw new ConflictError('Only a statement that has been made is printed');
        }
        if (statement.paper === paper) return statementViewOf(statement);
        const at = now();
        await updateStatement(tx, statement, { paper, updatedAt: at });
        const state = (marked: boolean) => ({
          id: statement.id,
          runId: statement.runId,
          memberId: statement.memberId,
          paper: marked,
        });
        await audit.record(tx, writer, {
          action: paper ? 'statement.paper_requested' : 'statement.paper_withdrawn',
          entityType: 'statement',
          entityId: statement.id,
          tenantId: statement.brokerId,
          previousState: state(statement.paper),
          newState: state(paper),
        });
        return statementViewOf({ ...statement, paper, updatedAt: at });
      });
    },

    /** A member's statements: staff see every one made, the member those issued to them. */
    async ofMember(actor: ActorContext, memberId: string): Promise<StatementView[]> {
      authorize(actor, 'statement.list');
      return withActor(database, actor, async (tx) => {
        const member = authorizeRow(actor, 'statement.list', await findMember(tx, memberId));
        await reads.viewed(tx, actor, {
          entityType: 'statement_run',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        const ownOnly = !isPlatformActor(actor) && actor.role === 'Member';
        return (await statementsOfMember(tx, member, ownOnly)).map(statementViewOf);
      });
    },

    /**
     * A statement's PDF as its member sees it: staff preview any made; a member reads only their
     * own once issued (404 otherwise, as if it did not exist).
     */
    async pdf(actor: ActorContext, id: string): Promise<{ bytes: Buffer; filename: string }> {
      authorize(actor, 'statement.read');
      const { figures, member } = await withActor(database, actor, async (tx) => {
        const statement = await findStatement(tx, id);
        const reached = authorizeRow(
          actor,
          'statement.read',
          statement && { ...statement, memberId: statement.memberId },
        );
        const ownOnly = !isPlatformActor(actor) && actor.role === 'Member';
        if (reached.figures === null || (ownOnly && reached.issuedAt === null)) {
          throw new NotFoundError();
        }
        // The member's names as their record holds them, read in the same reach as the statement.
        const member = await findMember(tx, reached.memberId);
        return { figures: reached.figures, member };
      });
      return {
        bytes: await statementPdf(figures),
        filename: statementFileName({
          informationDate: figures.informationDate,
          firstName: member?.firstName ?? '',
          lastName: member?.lastName ?? '',
        }),
      };
    },
  };
}
export type RunsService = ReturnType<typeof createRunsService>;
