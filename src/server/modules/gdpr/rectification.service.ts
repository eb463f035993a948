import { createId } from '@paralleldrive/cuid2';
import { type DataRequestStatus, isClosed } from '../../../contracts/data-request-rules.js';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import type {
  ProposedRecipient,
  RectificationInput,
  RectificationView,
} from '../../../contracts/rectification.js';
import { type RectifiableField, toldOnRefusal } from '../../../contracts/rectification-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow } from '../../platform/tenancy/authorize.js';
import { type DataRequestWithMember, findRequest, updateRequest } from './data-requests.data.js';
import { auditState, CLOSED_MESSAGE, viewOf } from './data-requests.service.js';
import {
  disclosuresOf,
  insertRecipients,
  recipientsOf,
  setCorrectedFields,
} from './rectification.data.js';

const TOLD_ON_MESSAGES = {
  date_in_future: 'Enter the day the recipient was told: it cannot be after today',
  before_received:
    'The recipient cannot have been told of the correction before the request was received',
} as const;

const NOT_RECTIFICATION = 'This request is not for rectification';

export interface RectificationServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * A rectification request's completion (GDPR Art. 16 and 19;
 * docs/decisions/0148-rectification-and-recipients.md; rules: rectification-rules.ts): which of
 * the member's details were corrected, and the recipients of the old data who were told, with the
 * recipients the service itself knows of proposed. The correction itself is made through the
 * member's own routes, audited there.
 */
export function createRectificationService({ database, audit, now }: RectificationServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** Who the service knows had the member's data, each with why it says so. */
  async function proposals(
    tx: Transaction,
    request: DataRequestWithMember,
  ): Promise<ProposedRecipient[]> {
    const known = await disclosuresOf(tx, {
      brokerId: request.brokerId,
      id: request.memberId,
      employerId: request.employerId,
    });
    const proposed: ProposedRecipient[] = [];
    if (known.employerName !== null && known.employerAccounts > 0) {
      proposed.push({
        name: `${known.employerName}, the employer (payroll and HR)`,
        basis: `${plural(known.employerAccounts, 'account', 'accounts')} of the employer can read the member’s record`,
      });
    }
    if (known.documents > 0 && known.latestDocumentAt !== null) {
      proposed.push({
        name: 'Recipients of the documents issued about the member',
        basis: `${plural(known.documents, 'document', 'documents')} about the member on file, the latest issued on ${dateInWords(todayInIreland(known.latestDocumentAt))}`,
      });
    }
    return proposed;
  }

  async function answer(
    tx: Transaction,
    request: DataRequestWithMember,
    today: string,
  ): Promise<RectificationView> {
    return {
      request: viewOf(request, today),
      correctedFields: (request.correctedFields ?? []) as RectifiableField[],
      recipients: await recipientsOf(tx, request),
      proposedRecipients: await proposals(tx, request),
    };
  }

  return {
    /** The rectification as it stands, with the recipients the service proposes. */
    async get(actor: ActorContext, id: string): Promise<RectificationView> {
      authorize(actor, 'data_request.read');
      return withActor(database, actor, async (tx) => {
        const request = authorizeRow(actor, 'data_request.read', await findRequest(tx, id));
        if (request.kind !== 'rectification') throw new ConflictError(NOT_RECTIFICATION);
        await reads.viewed(tx, actor, {
          entityType: 'data_request',
          entityId: request.id,
          tenantId: request.brokerId,
        });
        return answer(tx, request, todayInIreland(now()));
      });
    },

    /**
     * Completes a rectification request today, with the details corrected and the recipients told.
     * The audit keeps the details' names and the number of recipients, never their names.
     */
    async complete(
      actor: ActorContext,
      id: string,
      input: RectificationInput,
    ): Promise<RectificationView> {
      const writer = authorize(actor, 'data_request.complete');
      return withActor(database, writer, async (tx) => {
        const before = authorizeRow(
          writer,
          'data_request.complete',
          await findRequest(tx, id, { forUpdate: true }),
        );
        if (before.kind !== 'rectification') throw new ConflictError(NOT_RECTIFICATION);
        if (isClosed(before.status as DataRequestStatus)) throw new ConflictError(CLOSED_MESSAGE);
        const at = now();
        const today = todayInIreland(at);
        const issues = input.recipients.flatMap((recipient, index) => {
          const refusal = toldOnRefusal(recipient.toldOn, before.receivedOn, today);
          return refusal === null
            ? []
            : [
                {
                  path: `recipients.${index}.toldOn`,
                  code: refusal,
                  message: TOLD_ON_MESSAGES[refusal],
                },
              ];
        });
        if (issues.length > 0) throw new ValidationError(issues);

        const closed = await updateRequest(tx, before, {
          status: 'completed',
          closedOn: today,
          completionNote: input.note ?? null,
          updatedAt: at,
        });
        await setCorrectedFields(tx, closed, input.correctedFields);
        await insertRecipients(
          tx,
          input.recipients.map((recipient, position) => ({
            brokerId: closed.brokerId,
            id: createId(),
            dataRequestId: closed.id,
            position,
            name: recipient.name,
            toldOn: recipient.toldOn,
            createdBy: writer.userId,
            createdAt: at,
          })),
        );
        const after = { ...closed, correctedFields: input.correctedFields };
        await audit.record(tx, writer, {
          action: 'data_request.completed',
          entityType: 'data_request',
          entityId: after.id,
          tenantId: after.brokerId,
          previousState: auditState(before),
          newState: {
            ...auditState(after),
            correctedFields: input.correctedFields,
            recipientsTold: input.recipients.length,
          },
        });
        return answer(
          tx,
          { ...after, memberName: before.memberName, employerId: before.employerId },
          today,
        );
      });
    },
  };
}

export type RectificationService = ReturnType<typeof createRectificationService>;
