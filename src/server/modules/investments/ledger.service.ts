import { chargeDayOf, holdsUnits } from '../../../contracts/dc-money-rules.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { RecordedActor } from '../../platform/tenancy/actor.js';
import {
  chargesOf,
  choicesOf,
  completeSwitches,
  insertEntries,
  type LedgerScheme,
  latestPrices,
  ledgerScheme,
  ledgersOf,
  liveMembersAmong,
  lockLedger,
  markPayoutsPaid,
  membersWithWorkDue,
  moneyOf,
  openPayoutsOf,
  openSwitchesOf,
  pricesFrom,
  reopenSwitches,
} from './ledger.data.js';
import {
  chargePrice,
  type DueEntry,
  lastEndedMonth,
  type Price,
  placementOf,
  priceBook,
  settleMember,
} from './ledger.rules.js';

/** Members settled together: their ledgers, money and choices are read a batch at a time. */
export const SETTLE_BATCH_MEMBERS = 200;

export interface SettleScope {
  brokerId: string;
  schemeId: string;
  /** These members only (a replay); every member with something due when left out. */
  memberIds?: readonly string[];
  /** Switches a replay has voided movements of, to carry out again. */
  redoSwitchIds?: readonly string[];
}

export interface SettleOptions {
  /** Who the settlement is recorded as done by: the service itself, or the person who repriced. */
  actor: RecordedActor;
  at: Date;
  /**
   * `wait` for the scheme's ledger lock, `try` it and settle nothing when another transaction
   * holds it (the scheduled job, whose other instance is then settling the scheme), or `held`
   * when this transaction already took it.
   */
  lock: 'wait' | 'try' | 'held';
  /** What the audit record says besides the counts (the replay's movements voided). */
  because?: Record<string, unknown>;
}

export interface SettleCounts {
  /** Contributions and corrections invested, one count a fund they bought. */
  invested: number;
  /** Sales and purchases of switches dealt. */
  switched: number;
  /** Monthly charges taken, one a fund. */
  charged: number;
  /** Sales of payouts (refunds, transfers out, benefits), one a fund. */
  paidOut: number;
  /** Money and switches still waiting, for a price or a fund to go to. */
  waiting: number;
}

export interface Settled extends SettleCounts {
  /** Whether another transaction held the scheme's ledger (`lock: 'try'`): nothing was done. */
  busy: boolean;
}

const NOTHING: Settled = {
  invested: 0,
  switched: 0,
  charged: 0,
  paidOut: 0,
  waiting: 0,
  busy: false,
};

/**
 * Settles a scheme's unit ledger, or some of its members', as of `today`
 * (docs/decisions/0127-dc-money.md), in the caller's transaction: invests the money whose funds
 * all have a price, carries out the switches that can be, and takes the charges of every month
 * that has ended (ledger.rules.ts says what is due; this reads and writes it). Each movement is
 * written once, by the ledger's unique index on its source, whoever else writes it; the scheme's
 * ledger lock makes settlements and repricings of one scheme take turns, so each reads what the
 * one before it wrote. A DB scheme is never settled: its contributions fund the scheme as a
 * whole. What was done is audited in the same transaction, with no member named.
 */
export async function settle(
  tx: Transaction,
  audit: AuditService,
  scope: SettleScope,
  today: string,
  options: SettleOptions,
): Promise<Settled> {
  const scheme = await ledgerScheme(tx, scope.brokerId, scope.schemeId);
  if (!scheme || !holdsUnits(scheme.type)) return NOTHING;
  if (options.lock !== 'held' && !(await lockLedger(tx, scheme, options.lock === 'wait'))) {
    return { ...NOTHING, busy: true };
  }
  const last = lastEndedMonth(today);
  const candidates = scope.memberIds
    ? await liveMembersAmong(tx, scheme, scope.memberIds)
    : await membersWithWorkDue(tx, scheme, { month: last, day: chargeDayOf(last) });
  const charges = await chargesOf(tx, scheme);
  const totals: SettleCounts = { invested: 0, switched: 0, charged: 0, paidOut: 0, waiting: 0 };
  const reopened: string[] = [];
  let completed = 0;
  let payoutsPaid = 0;
  for (let start = 0; start < candidates.length; start += SETTLE_BATCH_MEMBERS) {
    const batch = candidates.slice(start, start + SETTLE_BATCH_MEMBERS);
    const counts = await settleBatch(tx, scheme, charges, batch, scope.redoSwitchIds ?? [], today, {
      at: options.at,
      reopened,
    });
    totals.invested += counts.invested;
    totals.switched += counts.switched;
    totals.charged += counts.charged;
    totals.paidOut += counts.paidOut;
    totals.waiting += counts.waiting;
    completed += counts.completed;
    payoutsPaid += counts.payoutsPaid;
  }
  // A switch a replay could not carry out again waits, pending, for its prices.
  await reopenSwitches(tx, scheme.brokerId, reopened, options.at);
  const changed =
    totals.invested +
    totals.switched +
    totals.charged +
    totals.paidOut +
    completed +
    payoutsPaid +
    reopened.length;
  if (changed > 0 || options.because) {
    await audit.record(tx, options.actor, {
      action: 'scheme.ledger_settled',
      entityType: 'scheme',
      entityId: scheme.id,
      tenantId: scheme.brokerId,
      previousState: null,
      newState: {
        today,
        members: candidates.length,
        ...totals,
        switchesCompleted: completed,
        payoutsPaid,
        switchesReopened: reopened.length,
        ...options.because,
      },
    });
  }
  return { ...totals, busy: false };
}

async function settleBatch(
  tx: Transaction,
  scheme: LedgerScheme,
  charges: Map<string, number>,
  memberIds: string[],
  redo: readonly string[],
  today: string,
  run: { at: Date; reopened: string[] },
): Promise<SettleCounts & { completed: number; payoutsPaid: number }> {
  const [ledgers, money, choices, switches, payouts] = [
    await ledgersOf(tx, scheme.brokerId, memberIds),
    await moneyOf(tx, scheme.brokerId, memberIds),
    await choicesOf(tx, scheme.brokerId, memberIds),
    await openSwitchesOf(tx, scheme.brokerId, memberIds, redo),
    await openPayoutsOf(tx, scheme.brokerId, memberIds),
  ];

  // Prices are read from the earliest day anything waiting could be dealt on: money not yet
  // wholly invested that has somewhere to go, money to take back not yet wholly sold (it sells
  // from the funds held, whatever the choice), and switches still to carry out.
  let from: string | null = null;
  const earlier = (day: string) => {
    if (from === null || day < from) from = day;
  };
  for (const memberId of memberIds) {
    const invested = new Map<string, number>();
    for (const entry of ledgers.get(memberId) ?? []) {
      if (entry.kind === 'contribution') {
        invested.set(entry.source, (invested.get(entry.source) ?? 0) + entry.amountCents);
      }
    }
    for (const sum of money.get(memberId) ?? []) {
      if ((invested.get(sum.source) ?? 0) === sum.amountCents) continue;
      if (
        sum.amountCents < 0 ||
        placementOf(sum.receivedOn, choices.get(memberId) ?? [], scheme.defaultFundId)
      ) {
        earlier(sum.receivedOn);
      }
    }
    for (const open of switches.get(memberId) ?? []) earlier(open.requestedOn);
    for (const payout of payouts.get(memberId) ?? []) earlier(payout.fromOn);
  }
  const prices = priceBook(from === null ? new Map() : await pricesFrom(tx, scheme, from));
  const terms = { defaultFundId: scheme.defaultFundId, charges };

  const due: Array<{ memberId: string; entry: DueEntry }> = [];
  const completed: Array<{ id: string; on: string }> = [];
  const paid: Array<{ id: string; on: string; cents: number }> = [];
  let waiting = 0;
  for (const memberId of memberIds) {
    const open = switches.get(memberId) ?? [];
    const settlement = settleMember(
      {
        ledger: ledgers.get(memberId) ?? [],
        money: money.get(memberId) ?? [],
        choices: choices.get(memberId) ?? [],
        switches: open,
        payouts: payouts.get(memberId) ?? [],
      },
      terms,
      prices,
      today,
    );
    for (const entry of settlement.entries) due.push({ memberId, entry });
    completed.push(...settlement.completed);
    paid.push(...settlement.paid);
    waiting += settlement.waiting;
    const done = new Set(settlement.completed.map((switched) => switched.id));
    for (const switched of open) {
      if (redo.includes(switched.id) && !done.has(switched.id)) run.reopened.push(switched.id);
    }
  }

  // A charge is valued at its fund's latest price on or before its day.
  const unpriced = due.filter(({ entry }) => entry.price === null);
  const latest = await latestPrices(
    tx,
    scheme.brokerId,
    unpriced.map(({ entry }) => ({ fundId: entry.fundId, day: entry.dealtOn })),
  );
  const priced: Array<{ memberId: string; entry: DueEntry & { price: Price } }> = [];
  for (const { memberId, entry } of due) {
    if (entry.price !== null) {
      priced.push({ memberId, entry: entry as DueEntry & { price: Price } });
      continue;
    }
    const price = latest.get(`${entry.fundId} ${entry.dealtOn}`);
    // Units held in a fund were bought at one of its prices on or before the day: one is there.
    if (!price) throw new Error('a charge on a fund with no price on or before its day');
    priced.push({ memberId, entry: chargePrice(entry, price) as DueEntry & { price: Price } });
  }

  const written = await insertEntries(tx, scheme, priced, run.at);
  await completeSwitches(tx, scheme.brokerId, completed, run.at);
  await markPayoutsPaid(tx, scheme.brokerId, paid, run.at);
  return {
    invested: written.filter((kind) => kind === 'contribution').length,
    switched: written.filter((kind) => kind === 'switch_out' || kind === 'switch_in').length,
    charged: written.filter((kind) => kind === 'charge').length,
    paidOut: written.filter(
      (kind) => kind === 'refund' || kind === 'transfer_out' || kind === 'benefit',
    ).length,
    waiting,
    completed: completed.length,
    payoutsPaid: paid.length,
  };
}
