import { createId } from '@paralleldrive/cuid2';
import { holdsUnits } from '../../../contracts/dc-money-rules.js';
import { dateInWords, todayInIreland } from '../../../contracts/irish-dates.js';
import type {
  DeathInput,
  LeaveInput,
  LeavingChoiceInput,
  LifecycleView,
  PayoutKind,
  PayoutView,
  RejoinInput,
  RetireInput,
  StatusCorrectionInput,
  TransferOutInput,
} from '../../../contracts/member-lifecycle.js';
import {
  CHANGE_FROM,
  CHANGE_TO,
  LEAVING_OPTION_NAMES,
  LIFECYCLE_RULES,
  type LifecycleStatus,
  leavingOptions,
  MEMBER_STATUS_WORDS,
  refundOf,
  type StatusChangeKind,
  serviceInWords,
} from '../../../contracts/member-lifecycle-rules.js';
import type { SchemeType } from '../../../contracts/organisation.js';
import type { Action, RecordAction } from '../../../contracts/policy.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ConflictError, ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, isAllowed } from '../../platform/tenancy/authorize.js';
import { holdingsOn, nextMonth, settle } from '../investments/index.js';
import { findMember } from '../members/index.js';
import { findScheme, refuseWoundUp } from '../schemes/index.js';
import { leavingStatementPdf } from './leaving-statement.pdf.js';
import {
  cancelUndealtSwitches,
  changesOf,
  dependantsOf,
  insertChange,
  insertDependants,
  insertPayout,
  lastContributionPeriod,
  namesAround,
  ownContributionsCents,
  type PayoutRow,
  payoutHasSales,
  payoutsOf,
  type StatusChangeRow,
  setStatus,
  voidPayout,
} from './lifecycle.data.js';
import {
  activeSince,
  inForce,
  lastPaidOutPeriod,
  latestInForce,
  qualifyingService,
} from './lifecycle.rules.js';

export interface LifecycleServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

type Member = NonNullable<Awaited<ReturnType<typeof findMember>>>;
type Scheme = NonNullable<Awaited<ReturnType<typeof findScheme>>>;

const dateIssue = (path: string, code: string, message: string) =>
  new ValidationError([{ path, code, message }]);

/**
 * A member's life in the scheme (docs/decisions/0135-members-lifecycle.md): leaving service and
 * the leaver's choice, transfer out, retirement, death and rejoining, each a change of status with
 * its day, audited in its transaction and undone only by an audited correction. What a change pays
 * out of a scheme that holds units is sold through the member's unit ledger, in the same
 * transaction where the prices are in, else by the daily settlement as they come.
 */
export function createLifecycleService({ database, audit, now }: LifecycleServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /** Authorises the action on the member and answers them with their scheme. */
  async function memberFor(
    tx: Transaction,
    actor: ActorContext,
    action: RecordAction,
    memberId: string,
  ): Promise<{ member: Member; scheme: Scheme }> {
    const member = authorizeRow(actor, action, await findMember(tx, memberId));
    const scheme = await findScheme(tx, member.schemeId);
    if (!scheme) throw new Error('a live member of no live scheme');
    return { member, scheme };
  }

  /** The member's status must be one the change starts from. */
  function mustBeIn(member: Member, kind: Exclude<StatusChangeKind, 'corrected'>, what: string) {
    const from = CHANGE_FROM[kind] as readonly string[];
    if (!from.includes(member.status)) {
      throw new ConflictError(
        `${what} is recorded for a member who is ${from.map((status) => MEMBER_STATUS_WORDS[status as LifecycleStatus]).join(' or ')}; this member is ${MEMBER_STATUS_WORDS[member.status as LifecycleStatus]}`,
      );
    }
  }

  /** A day of a change: not after today, and not before the day the member stands from. */
  function checkDay(
    path: string,
    day: string,
    member: Member,
    changes: StatusChangeRow[],
    today: string,
  ) {
    if (day > today) throw dateIssue(path, 'date_in_future', 'Enter a day up to today');
    const latest = latestInForce(changes);
    const from = latest?.effectiveOn ?? member.dateJoined;
    if (day < from) {
      throw dateIssue(
        path,
        'date_too_early',
        `Enter a day on or after ${dateInWords(from)}, ${latest ? 'the member’s latest change' : 'the day the member joined'}`,
      );
    }
  }

  /** What the member's benefit is worth on `day`; null in a DB scheme, which holds no units. */
  async function valueOn(
    tx: Transaction,
    member: Member,
    scheme: Scheme,
    day: string,
  ): Promise<number | null> {
    if (!holdsUnits(scheme.type)) return null;
    return (await holdingsOn(tx, { brokerId: member.brokerId, memberId: member.id }, day))
      .valueCents;
  }

  /** The member's own contributions since they were last paid out: what a refund returns. */
  function ownSinceLastPaidOut(
    tx: Transaction,
    member: Member,
    changes: StatusChangeRow[],
  ): Promise<number> {
    const last = lastPaidOutPeriod(changes);
    return ownContributionsCents(tx, member, last === null ? null : nextMonth(last));
  }

  /** Records a change of status and sets the member's. */
  async function change(
    tx: Transaction,
    writer: TenantActor | ActorContext,
    member: Member,
    kind: Exclude<StatusChangeKind, 'corrected'>,
    on: string,
    at: Date,
    extra: { receivingArrangement?: string } = {},
  ): Promise<StatusChangeRow> {
    const row = await insertChange(tx, {
      brokerId: member.brokerId,
      id: createId(),
      employerId: member.employerId,
      schemeId: member.schemeId,
      memberId: member.id,
      kind,
      fromStatus: member.status,
      toStatus: CHANGE_TO[kind],
      effectiveOn: on,
      receivingArrangement: extra.receivingArrangement ?? null,
      reason: null,
      correctsId: null,
      createdBy: writer.userId ?? 'system',
      createdAt: at,
    });
    await setStatus(tx, member, CHANGE_TO[kind], on, at);
    return row;
  }

  /**
   * A payout of the member's benefit. A scheme that holds units sells every unit from `on`; a DB
   * scheme's is paid as recorded, `amountCents`.
   */
  async function payOut(
    tx: Transaction,
    writer: ActorContext,
    member: Member,
    scheme: Scheme,
    payout: {
      changeId: string;
      kind: PayoutKind;
      on: string;
      amountCents: number | null;
      refund?: PayoutRow['refund'];
      /** The value on `on`, where the caller has already worked it out. */
      valueAtDateCents?: number | null;
    },
    at: Date,
  ): Promise<PayoutRow> {
    const units = holdsUnits(scheme.type);
    const value =
      payout.valueAtDateCents === undefined
        ? await valueOn(tx, member, scheme, payout.on)
        : payout.valueAtDateCents;
    const row = await insertPayout(tx, {
      brokerId: member.brokerId,
      id: createId(),
      employerId: member.employerId,
      schemeId: member.schemeId,
      memberId: member.id,
      changeId: payout.changeId,
      kind: payout.kind,
      fromOn: payout.on,
      status: units ? 'pending' : 'paid',
      valueAtDateCents: value,
      paidCents: units ? null : payout.amountCents,
      paidOn: units ? null : payout.on,
      refund: payout.refund ?? null,
      createdBy: writer.userId ?? 'system',
      createdAt: at,
      updatedAt: at,
    });
    if (units) {
      await settle(
        tx,
        audit,
        { brokerId: member.brokerId, schemeId: member.schemeId, memberIds: [member.id] },
        todayInIreland(at),
        { actor: writer, at, lock: 'wait' },
      );
    }
    await audit.record(tx, writer, {
      action: 'member_payout.created',
      entityType: 'member_payout',
      entityId: row.id,
      tenantId: row.brokerId,
      previousState: null,
      newState: { memberId: member.id, kind: row.kind, fromOn: row.fromOn, status: row.status },
    });
    return row;
  }

  /**
   * The benefit on retirement or death: every unit held, sold from the change's day. A DB
   * scheme's pension is paid by the scheme, not out of units held for the member.
   */
  async function payBenefit(
    tx: Transaction,
    writer: ActorContext,
    member: Member,
    scheme: Scheme,
    row: StatusChangeRow,
    at: Date,
  ): Promise<void> {
    if (!holdsUnits(scheme.type)) return;
    await payOut(
      tx,
      writer,
      member,
      scheme,
      { changeId: row.id, kind: 'benefit', on: row.effectiveOn, amountCents: null },
      at,
    );
  }

  /** The member's lifecycle as it now stands. */
  async function viewOf(
    tx: Transaction,
    actor: ActorContext,
    member: Member,
    scheme: Scheme,
  ): Promise<LifecycleView> {
    const fresh = (await findMember(tx, member.id)) ?? member;
    const today = todayInIreland(now());
    const changes = await changesOf(tx, fresh);
    const payouts = (await payoutsOf(tx, fresh)).filter((row) => row.voidedAt === null);
    const status = fresh.status as LifecycleStatus;
    const service = qualifyingService(fresh.dateJoined, changes, status, today);
    const standing = inForce(changes);
    const undone = new Set(changes.flatMap((row) => (row.correctsId ? [row.correctsId] : [])));
    const left = [...standing].reverse().find((row) => row.kind === 'left');
    const leaving =
      status === 'deferred' && left
        ? (() => {
            const offered = leavingOptions(service, scheme);
            return {
              leftOn: left.effectiveOn,
              preservationEntitled: offered.preservationEntitled,
              options: offered.options.map((line) => ({
                option: line.option,
                name: LEAVING_OPTION_NAMES[line.option],
                why: line.why,
              })),
              chosen: standing
                .slice(standing.indexOf(left) + 1)
                .some((row) => row.kind === 'preserved')
                ? ('preserved' as const)
                : null,
              sources: sourcesOf(scheme.type, offered.preservationEntitled),
            };
          })()
        : null;
    const valued = payouts.map((row) => payoutView(scheme, row));
    return {
      memberId: fresh.id,
      status,
      statusOn: fresh.statusOn,
      qualifyingService: { ...service, inWords: serviceInWords(service) },
      leaving,
      history: changes.map((row) => ({
        id: row.id,
        kind: row.kind as StatusChangeKind,
        fromStatus: row.fromStatus as LifecycleStatus,
        toStatus: row.toStatus as LifecycleStatus,
        on: row.effectiveOn,
        receivingArrangement: row.receivingArrangement,
        reason: row.reason,
        correctsId: row.correctsId,
        corrected: undone.has(row.id),
        createdAt: row.createdAt.toISOString(),
      })),
      payouts: valued,
      dependants: isAllowed(actor, 'member.dependants.read')
        ? (await dependantsOf(tx, fresh)).map((row) => ({
            id: row.id,
            name: row.name,
            relationship: row.relationship,
            phone: row.phone,
            email: row.email,
            address: row.address,
          }))
        : null,
    };
  }

  function payoutView(scheme: Scheme, row: PayoutRow): PayoutView {
    const units = holdsUnits(scheme.type);
    const refund =
      row.refund === null
        ? null
        : units && row.paidCents !== null
          ? refundOf(row.refund.ownContributionsCents, row.paidCents)
          : row.refund;
    return {
      id: row.id,
      kind: row.kind as PayoutKind,
      fromOn: row.fromOn,
      status: row.status as PayoutView['status'],
      valueAtDateCents: row.valueAtDateCents,
      paidCents: row.paidCents,
      paidOn: row.paidOn,
      refund,
    };
  }

  /**
   * A step, its actor already authorised for the action: the member in reach, then the change in
   * one transaction with its audit record; answers the lifecycle as it now stands.
   */
  async function step(
    action: RecordAction & Action,
    writer: ActorContext,
    memberId: string,
    work: (
      tx: Transaction,
      writer: ActorContext,
      found: {
        member: Member;
        scheme: Scheme;
        changes: StatusChangeRow[];
        today: string;
        at: Date;
      },
    ) => Promise<void>,
  ): Promise<LifecycleView> {
    return withActor(database, writer, async (tx) => {
      const { member, scheme } = await memberFor(tx, writer, action, memberId);
      refuseWoundUp(scheme);
      const at = now();
      const changes = await changesOf(tx, member);
      await work(tx, writer, { member, scheme, changes, today: todayInIreland(at), at });
      return viewOf(tx, writer, member, scheme);
    });
  }

  const audited = (
    tx: Transaction,
    writer: ActorContext,
    action:
      | 'member.left'
      | 'member.leaving_choice_made'
      | 'member.transferred_out'
      | 'member.retired'
      | 'member.died'
      | 'member.rejoined'
      | 'member.status_corrected',
    row: StatusChangeRow,
    more: Record<string, unknown> = {},
  ) =>
    audit.record(tx, writer, {
      action,
      entityType: 'member',
      entityId: row.memberId,
      tenantId: row.brokerId,
      previousState: { status: row.fromStatus },
      newState: { status: row.toStatus, on: row.effectiveOn, changeId: row.id, ...more },
    });

  return {
    async read(actor: ActorContext, memberId: string): Promise<LifecycleView> {
      authorize(actor, 'member.lifecycle.read');
      return withActor(database, actor, async (tx) => {
        const { member, scheme } = await memberFor(tx, actor, 'member.lifecycle.read', memberId);
        await reads.viewed(tx, actor, {
          entityType: 'member_status_change',
          entityId: member.id,
          tenantId: member.brokerId,
        });
        return viewOf(tx, actor, member, scheme);
      });
    },

    /**
     * The leaver's statement of their options as a PDF: for a member who left and has not been
     * paid out, at the day they left; for a member still active, what they could do if they left
     * today. Anyone else has no options to state (409).
     */
    async leavingStatement(actor: ActorContext, memberId: string): Promise<Buffer> {
      authorize(actor, 'member.leaving_statement.read');
      const facts = await withActor(database, actor, async (tx) => {
        const { member, scheme } = await memberFor(
          tx,
          actor,
          'member.leaving_statement.read',
          memberId,
        );
        const today = todayInIreland(now());
        const changes = await changesOf(tx, member);
        const status = member.status as LifecycleStatus;
        const left = [...inForce(changes)].reverse().find((row) => row.kind === 'left');
        if (!(status === 'active' || (status === 'deferred' && left))) {
          throw new ConflictError(
            `A leaving statement sets out the options of a member who is active or has left service; this member is ${MEMBER_STATUS_WORDS[status]}`,
          );
        }
        const stillActive = status === 'active';
        const leftOn = stillActive ? today : (left?.effectiveOn ?? today);
        const service = qualifyingService(member.dateJoined, changes, status, today);
        const offered = leavingOptions(service, scheme);
        const own = await ownSinceLastPaidOut(tx, member, changes);
        const value = await valueOn(tx, member, scheme, leftOn);
        const names = await namesAround(tx, member);
        return {
          issuedOn: today,
          ...names,
          scheme: { name: scheme.name, type: scheme.type as SchemeType },
          member: {
            firstName: member.firstName,
            lastName: member.lastName,
            dateJoined: member.dateJoined,
          },
          leftOn,
          stillActive,
          qualifyingService: service,
          preservationEntitled: offered.preservationEntitled,
          options: offered.options.map((line) => ({
            option: line.option,
            name: LEAVING_OPTION_NAMES[line.option],
            why: line.why,
          })),
          sources: sourcesOf(scheme.type, offered.preservationEntitled),
          valueAtLeavingCents: value,
          ownContributionsCents: own,
          refund: refundOf(own, value),
        };
      });
      return leavingStatementPdf(facts);
    },

    async leave(actor: ActorContext, memberId: string, input: LeaveInput) {
      const writer = authorize(actor, 'member.leave');
      return step(
        'member.leave',
        writer,
        memberId,
        async (tx, writer, { member, changes, today, at }) => {
          mustBeIn(member, 'left', 'Leaving service');
          checkDay('leftOn', input.leftOn, member, changes, today);
          // Contributions already recorded for a later month would be contributions after leaving.
          const last = await lastContributionPeriod(tx, member);
          if (
            last !== null &&
            last > input.leftOn.slice(0, 7) &&
            last >= activeSince(member.dateJoined, changes).slice(0, 7)
          ) {
            throw dateIssue(
              'leftOn',
              'contributions_after',
              'Contributions are recorded for a later month than this leaving day: correct them first, or check the day',
            );
          }
          const row = await change(tx, writer, member, 'left', input.leftOn, at);
          await audited(tx, writer, 'member.left', row);
        },
      );
    },

    async leavingChoice(actor: ActorContext, memberId: string, input: LeavingChoiceInput) {
      const writer = authorize(actor, 'member.leaving_choice');
      return step(
        'member.leaving_choice',
        writer,
        memberId,
        async (tx, writer, { member, scheme, changes, today, at }) => {
          mustBeIn(
            member,
            input.choice === 'refund' ? 'refunded' : 'preserved',
            'A leaver’s choice',
          );
          const latest = latestInForce(changes);
          if (latest?.kind !== 'left') {
            throw new ConflictError('The member’s choice on leaving is already recorded');
          }
          const service = qualifyingService(member.dateJoined, changes, member.status, today);
          const offered = leavingOptions(service, scheme);
          if (!offered.options.some((line) => line.option === input.choice)) {
            throw new ConflictError(
              input.choice === 'refund'
                ? 'A refund is not one of this member’s options: see the options on leaving'
                : 'A preserved benefit is not one of this member’s options: see the options on leaving',
            );
          }
          checkDay('on', input.on, member, changes, today);
          if (input.choice === 'preserved') {
            const row = await change(tx, writer, member, 'preserved', input.on, at);
            await audited(tx, writer, 'member.leaving_choice_made', row, { choice: 'preserved' });
            return;
          }
          const own = await ownSinceLastPaidOut(tx, member, changes);
          const value = await valueOn(tx, member, scheme, input.on);
          const refund = refundOf(own, value);
          const row = await change(tx, writer, member, 'refunded', input.on, at);
          await audited(tx, writer, 'member.leaving_choice_made', row, { choice: 'refund' });
          await payOut(
            tx,
            writer,
            member,
            scheme,
            {
              changeId: row.id,
              kind: 'refund',
              on: input.on,
              amountCents: refund.grossCents,
              refund,
              valueAtDateCents: value,
            },
            at,
          );
        },
      );
    },

    async transferOut(actor: ActorContext, memberId: string, input: TransferOutInput) {
      const writer = authorize(actor, 'member.transfer_out');
      return step(
        'member.transfer_out',
        writer,
        memberId,
        async (tx, writer, { member, scheme, changes, today, at }) => {
          mustBeIn(member, 'transferred_out', 'A transfer out');
          checkDay('transferredOn', input.transferredOn, member, changes, today);
          const units = holdsUnits(scheme.type);
          if (!units && input.amountCents === undefined) {
            throw dateIssue(
              'amountCents',
              'required',
              'Enter the transfer value the scheme’s actuary worked out',
            );
          }
          if (units && input.amountCents !== undefined) {
            throw dateIssue(
              'amountCents',
              'not_taken',
              'Leave the amount out: the value of the member’s funds is transferred',
            );
          }
          const row = await change(tx, writer, member, 'transferred_out', input.transferredOn, at, {
            receivingArrangement: input.receivingArrangement,
          });
          await audited(tx, writer, 'member.transferred_out', row);
          await payOut(
            tx,
            writer,
            member,
            scheme,
            {
              changeId: row.id,
              kind: 'transfer_out',
              on: input.transferredOn,
              amountCents: input.amountCents ?? null,
            },
            at,
          );
        },
      );
    },

    async retire(actor: ActorContext, memberId: string, input: RetireInput) {
      const writer = authorize(actor, 'member.retire');
      return step(
        'member.retire',
        writer,
        memberId,
        async (tx, writer, { member, scheme, changes, today, at }) => {
          mustBeIn(member, 'retired', 'A retirement');
          checkDay('retiredOn', input.retiredOn, member, changes, today);
          const row = await change(tx, writer, member, 'retired', input.retiredOn, at);
          await audited(tx, writer, 'member.retired', row);
          await payBenefit(tx, writer, member, scheme, row, at);
        },
      );
    },

    async death(actor: ActorContext, memberId: string, input: DeathInput) {
      const writer = authorize(actor, 'member.death');
      return step(
        'member.death',
        writer,
        memberId,
        async (tx, writer, { member, scheme, changes, today, at }) => {
          mustBeIn(member, 'died', 'A death');
          checkDay('diedOn', input.diedOn, member, changes, today);
          const wasPaidOut = member.status === 'retired';
          const row = await change(tx, writer, member, 'died', input.diedOn, at);
          // A switch asked for that has sold nothing yet lapses with the member's instructions.
          const cancelled = await cancelUndealtSwitches(tx, member, at);
          await insertDependants(
            tx,
            input.dependants.map((person) => ({
              brokerId: member.brokerId,
              id: createId(),
              employerId: member.employerId,
              schemeId: member.schemeId,
              memberId: member.id,
              name: person.name,
              relationship: person.relationship,
              phone: person.phone ?? null,
              email: person.email ?? null,
              address: person.address ?? null,
              createdBy: writer.userId ?? 'system',
              createdAt: at,
            })),
          );
          // Who the dependants are is personal data: the audit keeps only how many.
          await audited(tx, writer, 'member.died', row, {
            dependants: input.dependants.length,
            switchesCancelled: cancelled,
          });
          if (!wasPaidOut) await payBenefit(tx, writer, member, scheme, row, at);
        },
      );
    },

    async rejoin(actor: ActorContext, memberId: string, input: RejoinInput) {
      const writer = authorize(actor, 'member.rejoin');
      return step(
        'member.rejoin',
        writer,
        memberId,
        async (tx, writer, { member, changes, today, at }) => {
          mustBeIn(member, 'rejoined', 'Rejoining');
          checkDay('rejoinedOn', input.rejoinedOn, member, changes, today);
          const latest = latestInForce(changes);
          if (latest && input.rejoinedOn <= latest.effectiveOn) {
            throw dateIssue(
              'rejoinedOn',
              'date_too_early',
              `Enter a day after ${dateInWords(latest.effectiveOn)}, the member’s latest change`,
            );
          }
          const row = await change(tx, writer, member, 'rejoined', input.rejoinedOn, at);
          await audited(tx, writer, 'member.rejoined', row);
        },
      );
    },

    async correct(actor: ActorContext, memberId: string, input: StatusCorrectionInput) {
      const writer = authorize(actor, 'member.status.correct');
      return step(
        'member.status.correct',
        writer,
        memberId,
        async (tx, writer, { member, changes, today, at }) => {
          const latest = latestInForce(changes);
          if (!latest) throw new ConflictError('The member’s status has not changed since joining');
          const payout = (await payoutsOf(tx, member)).find(
            (row) => row.changeId === latest.id && row.voidedAt === null,
          );
          if (payout) {
            const sold = payout.status === 'paid' || (await payoutHasSales(tx, payout));
            if (sold) {
              throw new ConflictError(
                'The member’s benefit has been paid out for this change: it cannot be undone here',
              );
            }
            await voidPayout(tx, payout, at);
          }
          const before = latestInForce(changes.filter((row) => row.id !== latest.id));
          const row = await insertChange(tx, {
            brokerId: member.brokerId,
            id: createId(),
            employerId: member.employerId,
            schemeId: member.schemeId,
            memberId: member.id,
            kind: 'corrected',
            fromStatus: latest.toStatus,
            toStatus: latest.fromStatus,
            effectiveOn: today,
            receivingArrangement: null,
            reason: input.reason,
            correctsId: latest.id,
            createdBy: writer.userId ?? 'system',
            createdAt: at,
          });
          await setStatus(tx, member, latest.fromStatus, before?.effectiveOn ?? null, at);
          // The reason is the person's own words and may name someone: the audit keeps ids.
          await audited(tx, writer, 'member.status_corrected', row, {
            corrects: latest.id,
            undid: latest.kind,
          });
        },
      );
    },
  };
}

/** The sources of the options a leaver is offered. */
function sourcesOf(schemeType: string, entitled: boolean) {
  const rules =
    schemeType === 'PRSA' || schemeType === 'RAC'
      ? [LIFECYCLE_RULES.personalContracts]
      : entitled
        ? [LIFECYCLE_RULES.preservation, LIFECYCLE_RULES.transfer]
        : [LIFECYCLE_RULES.refund, LIFECYCLE_RULES.refundTax, LIFECYCLE_RULES.preservation];
  return [...rules, LIFECYCLE_RULES.serviceCounted].map(({ label, citation }) => ({
    label,
    citation,
  }));
}

export type LifecycleService = ReturnType<typeof createLifecycleService>;
