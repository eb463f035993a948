import { createId } from '@paralleldrive/cuid2';
import {
  DATA_REQUEST_KIND_NAMES,
  type DataRequestKind,
  type DataRequestStatus,
  dataRequestClock,
  dueOnFor,
  extendedDueOn,
  extensionRefusal,
  isClosed,
  memberReceivedOnRefusal,
  type RefusalCitation,
  receivedOnRefusal,
} from '../../../contracts/data-request-rules.js';
import type {
  DataRequestCompletion,
  DataRequestExtension,
  DataRequestInput,
  DataRequestQuery,
  DataRequestRefusal,
  DataRequestView,
} from '../../../contracts/data-requests.js';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { dataRequests } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf, scopeOf } from '../../platform/tenancy/authorize.js';
import { findMember } from '../members/index.js';
import {
  type DataRequestRow,
  type DataRequestWithMember,
  findRequest,
  insertRequest,
  listRequests,
  lockRequestsOfMember,
  openRequestOfKind,
  updateRequest,
} from './data-requests.data.js';

export const viewOf = (row: DataRequestWithMember, today: string): DataRequestView => ({
  id: row.id,
  memberId: row.memberId,
  memberName: row.memberName,
  kind: row.kind as DataRequestView['kind'],
  receivedOn: row.receivedOn,
  originalDueOn: row.originalDueOn,
  dueOn: row.dueOn,
  ...(row.dueOn === row.originalDueOn ? {} : { extendedTo: row.dueOn }),
  status: row.status as DataRequestStatus,
  extensionReason: row.extensionReason,
  closedOn: row.closedOn,
  completionNote: row.completionNote,
  refusalReason: row.refusalReason,
  refusalCitation: row.refusalCitation as RefusalCitation | null,
  correctedFields: row.correctedFields as DataRequestView['correctedFields'],
  clock: dataRequestClock(
    { status: row.status as DataRequestStatus, dueOn: row.dueOn, closedOn: row.closedOn },
    today,
  ),
  createdBy: row.createdBy,
  createdAt: row.createdAt.toISOString(),
});

/**
 * What the audit log keeps of a request: ids, its kind, its days and status, whether a reason or
 * note was given and a refusal's ground, a citation from a fixed list; never the free text
 * (docs/decisions/0029-audit-states-hold-no-personal-data.md).
 */
export const auditState = (row: DataRequestRow) => ({
  id: row.id,
  memberId: row.memberId,
  kind: row.kind,
  receivedOn: row.receivedOn,
  originalDueOn: row.originalDueOn,
  dueOn: row.dueOn,
  status: row.status,
  closedOn: row.closedOn,
  extensionReasonGiven: row.extensionReason !== null,
  completionNoteGiven: row.completionNote !== null,
  refusalCitation: row.refusalCitation,
});

const refuseInput = (path: string, code: string, message: string): never => {
  throw new ValidationError([{ path, code, message }]);
};

const RECEIVED_ON_MESSAGES = {
  date_in_future: 'Enter the day the request was received: it cannot be after today',
  before_member_joined:
    'The request cannot have been received before the member joined the scheme: check the day',
} as const;

const NOT_TODAY_MESSAGE =
  'Your request is received today, the day you make it: it cannot be dated another day';

/** A member's second request of a kind while the first is with the firm (409). */
const alreadyWithTheFirm = (open: { kind: string; receivedOn: string; dueOn: string }) =>
  `Your request for ${DATA_REQUEST_KIND_NAMES[open.kind as DataRequestKind] ?? open.kind} of ${dateInWords(open.receivedOn)} is already with the firm: it is due to be answered by ${dateInWords(open.dueOn)}`;

/**
 * What a member reads of their own requests: the firm's note of what was done is the staff's;
 * the reasons for an extension or a refusal are what the member was told (GDPR Art. 12(3), 12(4)).
 */
const asTheMemberReadsIt = (view: DataRequestView): DataRequestView => ({
  ...view,
  completionNote: null,
});

export const CLOSED_MESSAGE = 'This request is closed: it was completed or refused';

/**
 * A rectification request is completed with what was corrected and who was told (GDPR Art. 19;
 * docs/decisions/0148-rectification-and-recipients.md), through its own step, never without.
 */
function refuseRectification(request: DataRequestWithMember): void {
  if (request.kind === 'rectification') {
    throw new ConflictError(
      'A rectification request is completed by recording which details were corrected and who was told',
    );
  }
}

export interface DataRequestsServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The data-subject requests register (docs/decisions/0137-data-subject-requests.md; rules:
 * data-request-rules.ts): a member's request recorded by the firm, extended once within its first
 * month, and completed or refused; each step audited in its own transaction.
 */
export function createDataRequestsService({ database, audit, now }: DataRequestsServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** The request locked for a step, open to it, or the reason it is not. */
  async function openRequest(
    tx: Transaction,
    actor: ActorContext,
    action: 'data_request.extend' | 'data_request.complete' | 'data_request.refuse',
    id: string,
  ): Promise<DataRequestWithMember> {
    const request = authorizeRow(actor, action, await findRequest(tx, id, { forUpdate: true }));
    if (isClosed(request.status as DataRequestStatus)) throw new ConflictError(CLOSED_MESSAGE);
    return request;
  }

  /** A step's change written, audited, and the request answered as it now stands. */
  async function stepped(
    tx: Transaction,
    actor: ActorContext,
    before: DataRequestWithMember,
    action: 'data_request.extended' | 'data_request.completed' | 'data_request.refused',
    changes: Parameters<typeof updateRequest>[2],
    at: Date,
  ): Promise<DataRequestView> {
    const after = await updateRequest(tx, before, { ...changes, updatedAt: at });
    await audit.record(tx, actor, {
      action,
      entityType: 'data_request',
      entityId: after.id,
      tenantId: after.brokerId,
      previousState: auditState(before),
      newState: auditState(after),
    });
    return viewOf(
      { ...after, memberName: before.memberName, employerId: before.employerId },
      todayInIreland(at),
    );
  }

  return {
    async record(actor: ActorContext, input: DataRequestInput): Promise<DataRequestView> {
      const writer = authorize(actor, 'data_request.create');
      // A member makes their own request (their 'member' reach in the policy table); the firm's
      // staff record one a member made to them (docs/decisions/0137-data-subject-requests.md).
      const own = scopeOf(writer, 'data_request.create') === 'member';
      return withActor(database, writer, async (tx) => {
        const member = authorizeRow(
          writer,
          'data_request.create',
          await findMember(tx, input.memberId),
        );
        const at = now();
        const today = todayInIreland(at);
        let receivedOn: string;
        if (own) {
          // Received the day the member makes it: the month of Art. 12(3) runs from receipt.
          if (memberReceivedOnRefusal(input.receivedOn, today)) {
            refuseInput('receivedOn', 'not_today', NOT_TODAY_MESSAGE);
          }
          receivedOn = today;
          // One of a kind still with the firm at a time; the lock takes two at once in turn.
          await lockRequestsOfMember(tx, member);
          const open = await openRequestOfKind(tx, member, input.kind);
          if (open) throw new ConflictError(alreadyWithTheFirm(open));
        } else {
          if (input.receivedOn === undefined) {
            return refuseInput('receivedOn', 'required', 'Enter the day the firm got the request');
          }
          receivedOn = input.receivedOn;
          const wrongDay = receivedOnRefusal(receivedOn, today, member.dateJoined);
          if (wrongDay) refuseInput('receivedOn', wrongDay, RECEIVED_ON_MESSAGES[wrongDay]);
        }
        const dueOn = dueOnFor(receivedOn);
        const row = await insertRequest(tx, {
          brokerId: member.brokerId,
          id: createId(),
          memberId: member.id,
          kind: input.kind,
          receivedOn,
          originalDueOn: dueOn,
          dueOn,
          status: 'open',
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, writer, {
          action: 'data_request.recorded',
          entityType: 'data_request',
          entityId: row.id,
          tenantId: row.brokerId,
          previousState: null,
          newState: auditState(row),
        });
        const view = viewOf(
          {
            ...row,
            memberName: `${member.firstName} ${member.lastName}`,
            employerId: member.employerId,
          },
          today,
        );
        return own ? asTheMemberReadsIt(view) : view;
      });
    },

    /** The firm's requests; a member's own alone, as they read them. */
    async list(actor: ActorContext, query: DataRequestQuery) {
      authorize(actor, 'data_request.list');
      const { memberId } = boundsOf(actor, 'data_request.list');
      const position = keyset(query, { at: dataRequests.dueOn, id: dataRequests.id }, 'asc', 'day');
      return withActor(database, actor, async (tx) => {
        const rows = await listRequests(tx, query.status, position, memberId);
        await reads.listed(tx, actor, {
          entityType: 'data_request',
          filters: query,
          returned: rows.length,
        });
        const today = todayInIreland(now());
        const page = pageFrom(rows, query, (row) => ({ at: row.dueOn, id: row.id }));
        return {
          items: page.items.map((row) =>
            memberId === null ? viewOf(row, today) : asTheMemberReadsIt(viewOf(row, today)),
          ),
          nextCursor: page.nextCursor,
        };
      });
    },

    async get(actor: ActorContext, id: string): Promise<DataRequestView> {
      authorize(actor, 'data_request.read');
      return withActor(database, actor, async (tx) => {
        const request = authorizeRow(actor, 'data_request.read', await findRequest(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'data_request',
          entityId: request.id,
          tenantId: request.brokerId,
        });
        return viewOf(request, todayInIreland(now()));
      });
    },

    /** Two more months, once, on or before the first due day (Art. 12(3)). */
    async extend(
      actor: ActorContext,
      id: string,
      input: DataRequestExtension,
    ): Promise<DataRequestView> {
      const writer = authorize(actor, 'data_request.extend');
      return withActor(database, writer, async (tx) => {
        const request = await openRequest(tx, writer, 'data_request.extend', id);
        const at = now();
        const refusal = extensionRefusal(
          { status: request.status as DataRequestStatus, originalDueOn: request.originalDueOn },
          todayInIreland(at),
        );
        if (refusal === 'already_extended') {
          throw new ConflictError('This request was extended already: it can be extended once');
        }
        if (refusal !== null) {
          throw new ConflictError(
            'The first month is over: a request can be extended only on or before its first due date',
          );
        }
        return stepped(
          tx,
          writer,
          request,
          'data_request.extended',
          {
            status: 'extended',
            dueOn: extendedDueOn(request.originalDueOn),
            extensionReason: input.reason,
          },
          at,
        );
      });
    },

    async complete(
      actor: ActorContext,
      id: string,
      input: DataRequestCompletion,
    ): Promise<DataRequestView> {
      const writer = authorize(actor, 'data_request.complete');
      return withActor(database, writer, async (tx) => {
        const request = await openRequest(tx, writer, 'data_request.complete', id);
        refuseRectification(request);
        const at = now();
        return stepped(
          tx,
          writer,
          request,
          'data_request.completed',
          { status: 'completed', closedOn: todayInIreland(at), completionNote: input.note ?? null },
          at,
        );
      });
    },

    /** Refused on a ground from the rules' list, with the reason in words. */
    async refuse(
      actor: ActorContext,
      id: string,
      input: DataRequestRefusal,
    ): Promise<DataRequestView> {
      const writer = authorize(actor, 'data_request.refuse');
      return withActor(database, writer, async (tx) => {
        const request = await openRequest(tx, writer, 'data_request.refuse', id);
        const at = now();
        return stepped(
          tx,
          writer,
          request,
          'data_request.refused',
          {
            status: 'refused',
            closedOn: todayInIreland(at),
            refusalReason: input.reason,
            refusalCitation: input.citation,
          },
          at,
        );
      });
    },
  };
}

export type DataRequestsService = ReturnType<typeof createDataRequestsService>;
