import {
  chargeDayOf,
  type FundHolding,
  type FundSale,
  monthlyChargeUnits,
  type PercentLine,
  sellByValue,
  splitByPercent,
  unitsFor,
  valueCents,
} from '../../../contracts/dc-money-rules.js';
import type { MemberTransactionKind } from '../../../contracts/investments.js';

/**
 * What is due on one member's unit ledger (docs/decisions/0127-dc-money.md), worked out from
 * values alone: the money to invest, the switches to carry out and the monthly charges to take,
 * each movement once. The figures come from the rules of DC money (dc-money-rules.ts); this file
 * only says which movements are due, in what order and at which price. The database is read and
 * written by ledger.service.ts.
 */

/** A unit price in force: its row, its day and the price in millionths. */
export interface Price {
  id: string;
  on: string;
  micro: bigint;
}

/** The prices of a scheme's funds from some day on, as the ledger looks them up. */
export interface PriceBook {
  /** The fund's first price on or after `day`. */
  onOrAfter(fundId: string, day: string): Price | undefined;
  /** The fund's first price after `day`. */
  after(fundId: string, day: string): Price | undefined;
}

/** Prices by fund, each fund's in any order. */
export function priceBook(prices: ReadonlyMap<string, readonly Price[]>): PriceBook {
  const sorted = new Map<string, Price[]>();
  for (const [fundId, list] of prices) {
    sorted.set(
      fundId,
      [...list].sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0)),
    );
  }
  /** The first price of the fund whose day passes `keep`, by binary search. */
  const first = (fundId: string, keep: (on: string) => boolean): Price | undefined => {
    const list = sorted.get(fundId) ?? [];
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (keep((list[middle] as Price).on)) high = middle;
      else low = middle + 1;
    }
    return list[low];
  };
  return {
    onOrAfter: (fundId, day) => first(fundId, (on) => on >= day),
    after: (fundId, day) => first(fundId, (on) => on > day),
  };
}

/** The source that names a movement once: `contribution:<id>`, `charge:2026-01`, … */
export const SOURCES = {
  contribution: (id: string) => `contribution:${id}`,
  adjustment: (id: string) => `adjustment:${id}`,
  switch: (id: string) => `switch:${id}`,
  payout: (id: string) => `payout:${id}`,
  charge: (month: string) => `charge:${month}`,
} as const;

/** The switch a source names, or null. */
export function switchOfSource(source: string): string | null {
  return source.startsWith('switch:') ? source.slice('switch:'.length) : null;
}

/** The payout a source names, or null. */
export function payoutOfSource(source: string): string | null {
  return source.startsWith('payout:') ? source.slice('payout:'.length) : null;
}

/** A movement already on the ledger and not voided. */
export interface LedgerEntry {
  fundId: string;
  kind: MemberTransactionKind;
  source: string;
  dealtOn: string;
  unitsMicro: bigint;
  amountCents: number;
}

/**
 * A movement due. A charge's units do not depend on the price, so it comes without one: it is
 * valued at the fund's latest price on or before its day (`chargePrice`), which the caller looks up.
 */
export interface DueEntry extends LedgerEntry {
  price: Price | null;
}

/** Money received for the member: a contribution or a correction of one. */
export interface Money {
  source: string;
  receivedOn: string;
  amountCents: number;
}

/** A fund choice of the member, from its day; the latest made wins on the same day. */
export interface Choice {
  effectiveFrom: string;
  madeAt: number;
  lines: PercentLine[];
}

/** A switch still to carry out, or to carry out again after a replay voided its movements. */
export interface OpenSwitch {
  id: string;
  requestedOn: string;
  madeAt: number;
  to: PercentLine[];
}

/**
 * Everything the member holds paid out from a day (docs/decisions/0135-members-lifecycle.md): a
 * refund, a transfer out or a benefit, still to sell.
 */
export interface OpenPayout {
  id: string;
  kind: 'refund' | 'transfer_out' | 'benefit';
  fromOn: string;
}

export interface MemberBook {
  ledger: readonly LedgerEntry[];
  money: readonly Money[];
  choices: readonly Choice[];
  switches: readonly OpenSwitch[];
  /** Payouts still to sell; none where the member is not being paid out. */
  payouts?: readonly OpenPayout[];
}

export interface SchemeTerms {
  defaultFundId: string | null;
  /** The annual charge of each fund that has one, in basis points. */
  charges: ReadonlyMap<string, number>;
}

/** Where money received on a day goes: the choice in force then, else the default fund. */
export function placementOf(
  receivedOn: string,
  choices: readonly Choice[],
  defaultFundId: string | null,
): { lines: PercentLine[]; byDefault: boolean } | null {
  let inForce: Choice | undefined;
  for (const choice of choices) {
    if (choice.effectiveFrom > receivedOn) continue;
    if (
      !inForce ||
      choice.effectiveFrom > inForce.effectiveFrom ||
      (choice.effectiveFrom === inForce.effectiveFrom && choice.madeAt > inForce.madeAt)
    ) {
      inForce = choice;
    }
  }
  if (inForce) return { lines: inForce.lines, byDefault: false };
  if (defaultFundId !== null)
    return { lines: [{ fundId: defaultFundId, percent: 100 }], byDefault: true };
  return null;
}

/** `YYYY-MM` of a day. */
export const monthOf = (day: string) => day.slice(0, 7);

/** The month after `month`. */
export function nextMonth(month: string): string {
  const year = Number(month.slice(0, 4));
  const number = Number(month.slice(5, 7));
  return number === 12 ? `${year + 1}-01` : `${year}-${String(number + 1).padStart(2, '0')}`;
}

/** The last month that has ended by `today`: the one before today's. */
export function lastEndedMonth(today: string): string {
  const year = Number(today.slice(0, 4));
  const number = Number(today.slice(5, 7));
  return number === 1 ? `${year - 1}-12` : `${year}-${String(number - 1).padStart(2, '0')}`;
}

/** A member's ledger as it grows while it is settled. */
class Ledger {
  private readonly byFund = new Map<string, LedgerEntry[]>();
  private readonly keys = new Set<string>();
  private readonly bySource = new Map<string, LedgerEntry[]>();

  constructor(entries: readonly LedgerEntry[]) {
    for (const entry of entries) this.add(entry);
  }

  add(entry: LedgerEntry): void {
    const ofFund = this.byFund.get(entry.fundId) ?? [];
    ofFund.push(entry);
    this.byFund.set(entry.fundId, ofFund);
    const ofSource = this.bySource.get(entry.source) ?? [];
    ofSource.push(entry);
    this.bySource.set(entry.source, ofSource);
    this.keys.add(keyOf(entry.fundId, entry.kind, entry.source));
  }

  has(fundId: string, kind: MemberTransactionKind, source: string): boolean {
    return this.keys.has(keyOf(fundId, kind, source));
  }

  ofSource(source: string, kind: MemberTransactionKind): LedgerEntry[] {
    return (this.bySource.get(source) ?? []).filter((entry) => entry.kind === kind);
  }

  /** The funds the member has ever held, in a stable order. */
  funds(): string[] {
    return [...this.byFund.keys()].sort();
  }

  /** The first day anything was dealt, or null for an empty ledger. */
  firstDay(): string | null {
    let first: string | null = null;
    for (const entries of this.byFund.values()) {
      for (const entry of entries)
        if (first === null || entry.dealtOn < first) first = entry.dealtOn;
    }
    return first;
  }

  /** Units of the fund whose movements `counts`. */
  units(fundId: string, counts: (entry: LedgerEntry) => boolean): bigint {
    let total = 0n;
    for (const entry of this.byFund.get(fundId) ?? []) if (counts(entry)) total += entry.unitsMicro;
    return total;
  }

  /**
   * The units of the fund a sale dealt on `day` may take, not counting the movements of
   * `source` (the sale's own): what is held on the day before that day's charge, and no more
   * than is held at the end of that day or of any later day the ledger already has movements
   * on, so that no movement already written, a charge or another sale, finds the fund below
   * zero afterwards.
   */
  saleable(fundId: string, day: string, source: string): bigint {
    let held = 0n;
    const later = new Map<string, bigint>();
    for (const entry of this.byFund.get(fundId) ?? []) {
      if (entry.source === source) continue;
      if (entry.dealtOn < day || (entry.dealtOn === day && entry.kind !== 'charge')) {
        held += entry.unitsMicro;
      } else {
        later.set(entry.dealtOn, (later.get(entry.dealtOn) ?? 0n) + entry.unitsMicro);
      }
    }
    let least = held;
    let balance = held;
    for (const on of [...later.keys()].sort()) {
      balance += later.get(on) as bigint;
      if (balance < least) least = balance;
    }
    return least;
  }

  /**
   * The later of `day` and the last movement of every switch on the ledger: a switch still
   * moving money after the day (sold out of funds by then and bought into new ones later, or
   * asked for by then and dealt later) had the money in neither its old funds nor its new ones.
   */
  afterSwitches(day: string): string {
    let moved = day;
    for (const [source, entries] of this.bySource) {
      if (switchOfSource(source) === null) continue;
      for (const entry of entries) if (entry.dealtOn > moved) moved = entry.dealtOn;
    }
    return moved;
  }
}

/** The latest day the entries were dealt on; they are not none. */
function lastDay(entries: readonly LedgerEntry[]): string {
  let last = '';
  for (const entry of entries) if (entry.dealtOn > last) last = entry.dealtOn;
  return last;
}

const keyOf = (fundId: string, kind: string, source: string) =>
  `${fundId}\u0000${kind}\u0000${source}`;

type SwitchStep =
  | { kind: 'sell'; fundId: string; price: Price }
  | { kind: 'buy'; fundId: string; amountCents: number; price: Price }
  | { kind: 'blocked' }
  | { kind: 'complete'; on: string };

/** The next thing a negative sum of money needs: its sales, all at once, or nothing more. */
type SaleStep =
  | { kind: 'sale'; sales: Array<FundSale & { price: Price }> }
  | { kind: 'blocked' }
  | { kind: 'complete' };

/** The next thing a payout needs: its sales, all at once, or nothing more. */
type PayoutStep =
  | { kind: 'sale'; sales: DueEntry[] }
  | { kind: 'blocked' }
  | { kind: 'complete'; on: string; cents: number };

/** The earliest of the steps by price day, then fund. */
const earliest = <T extends { fundId: string; price: Price }>(steps: T[]): T | undefined =>
  steps.sort((a, b) =>
    a.price.on === b.price.on ? (a.fundId < b.fundId ? -1 : 1) : a.price.on < b.price.on ? -1 : 1,
  )[0];

/**
 * Switches and negative sums of money, carried out one at a time in the order they were asked
 * for or received (a sale before a switch on the same day, as its money was in the funds the
 * switch moves).
 */
type Order =
  | { kind: 'switch'; day: string; open: OpenSwitch }
  | { kind: 'sale'; day: string; sum: Money }
  | { kind: 'payout'; day: string; payout: OpenPayout };

/** On one day: sales of money taken back, then switches, then what is paid out. */
const ORDER_RANK: Record<Order['kind'], number> = { sale: 0, switch: 1, payout: 2 };

export interface Settlement {
  /** The movements due, in the order they were worked out. */
  entries: DueEntry[];
  /** Switches whose every movement is dealt, with the day of the last. */
  completed: Array<{ id: string; on: string }>;
  /** Payouts whose every sale is dealt: the day of the last and what the sales came to. */
  paid: Array<{ id: string; on: string; cents: number }>;
  /** Money and switches still waiting, for a price or for a fund to go to. */
  waiting: number;
}

/**
 * Everything due on one member's ledger by `today`, each movement once (the ledger's entries
 * name their sources, and an entry already there is not due again):
 *
 * 1. Each sum of money received is invested in the member's fund choice in force on the day it
 *    was received, or the scheme's default fund, split by whole percent (`splitByPercent`), each
 *    part buying units (`unitsFor`) at its fund's first price on or after that day; it waits
 *    while any part has no such price, or while it has nowhere to go.
 * 2. Then, day by day: the switches and the negative sums (corrections that take money back), in
 *    the order they were asked for or received, one after another (each moves what the member
 *    holds once the one before it is done), and the charge of every month that has ended from
 *    the month of the member's first movement. A switch sells each fund held at its first price
 *    on or after the day asked (the units held that day, before that day's charge), then splits
 *    the proceeds by its percents, each part buying at its fund's first price after the last
 *    sale. A negative sum sells what the member holds, whatever fund choice was in force
 *    (`sellByValue`): each fund held, at its first price on or after the day received (or the
 *    last day of a switch still dealing after it), pro rata to the value of its units; it waits
 *    while money received by then is still to invest, or a fund held has no such price, and what
 *    the funds cannot cover stays owed, as money not invested. A month's charge cancels,
 *    for each fund with a charge held at the month's last day, `monthlyChargeUnits` of the units
 *    held then, after that day's other movements. No sale takes more units than are held on its
 *    day and on every later day the ledger has movements on (`Ledger.saleable`).
 * 3. A payout (a refund, a transfer out, a benefit) is an order of its day too, after that day's
 *    sales and switches: it sells every unit held, each fund at its first price on or after its
 *    day (or the last day of a switch still dealing after it), once every fund held has one and
 *    no money received by then is still to invest, for want of a price or of a fund to go to.
 */
export function settleMember(
  book: MemberBook,
  terms: SchemeTerms,
  prices: PriceBook,
  today: string,
): Settlement {
  const ledger = new Ledger(book.ledger);
  const entries: DueEntry[] = [];
  const add = (entry: DueEntry) => {
    entries.push(entry);
    ledger.add(entry);
  };
  let waiting = 0;
  /** The first day money still to invest was received, which a negative sum after it waits for. */
  let uninvestedSince: string | null = null;
  /** The first day money with no fund to go to was received, which a payout after it waits for. */
  let unplacedSince: string | null = null;

  const money = [...book.money].sort((a, b) =>
    a.receivedOn === b.receivedOn
      ? a.source < b.source
        ? -1
        : 1
      : a.receivedOn < b.receivedOn
        ? -1
        : 1,
  );
  for (const sum of money) {
    if (sum.amountCents <= 0) continue;
    const placement = placementOf(sum.receivedOn, book.choices, terms.defaultFundId);
    if (placement === null) {
      if (ledger.ofSource(sum.source, 'contribution').length === 0) {
        waiting += 1;
        if (unplacedSince === null || sum.receivedOn < unplacedSince) {
          unplacedSince = sum.receivedOn;
        }
      }
      continue;
    }
    const missing = splitByPercent(sum.amountCents, placement.lines).filter(
      (part) => part.amountCents !== 0 && !ledger.has(part.fundId, 'contribution', sum.source),
    );
    if (missing.length === 0) continue;
    const priced = missing.map((part) => ({
      ...part,
      price: prices.onOrAfter(part.fundId, sum.receivedOn),
    }));
    if (priced.some((part) => part.price === undefined)) {
      waiting += 1;
      if (uninvestedSince === null || sum.receivedOn < uninvestedSince) {
        uninvestedSince = sum.receivedOn;
      }
      continue;
    }
    for (const part of priced) {
      const price = part.price as Price;
      add({
        fundId: part.fundId,
        kind: 'contribution',
        source: sum.source,
        dealtOn: price.on,
        unitsMicro: unitsFor(part.amountCents, price.micro),
        amountCents: part.amountCents,
        price,
      });
    }
  }

  const orders: Order[] = [
    ...book.switches.map((open): Order => ({ kind: 'switch', day: open.requestedOn, open })),
    ...money
      .filter((sum) => sum.amountCents < 0)
      .map((sum): Order => ({ kind: 'sale', day: sum.receivedOn, sum })),
    ...(book.payouts ?? []).map(
      (payout): Order => ({ kind: 'payout', day: payout.fromOn, payout }),
    ),
  ].sort((a, b) => {
    if (a.day !== b.day) return a.day < b.day ? -1 : 1;
    if (a.kind !== b.kind) return ORDER_RANK[a.kind] - ORDER_RANK[b.kind];
    if (a.kind === 'switch' && b.kind === 'switch') return a.open.madeAt - b.open.madeAt;
    if (a.kind === 'sale' && b.kind === 'sale') return a.sum.source < b.sum.source ? -1 : 1;
    return 0;
  });
  /** Funds a switch found held but with no units on its sale day: nothing to sell there. */
  const nothingToSell = new Set<string>();

  const nextStep = (open: OpenSwitch): SwitchStep => {
    const source = SOURCES.switch(open.id);
    const sales: Array<{ fundId: string; price: Price }> = [];
    // Once a switch has bought, its sales are closed: money dealt into a fund later (a
    // contribution that waited for another fund's price) is not sold by it, or the switch would
    // sell more than it has already spent.
    const buying = ledger.ofSource(source, 'switch_in').length > 0;
    for (const fundId of buying ? [] : ledger.funds()) {
      if (ledger.has(fundId, 'switch_out', source)) continue;
      if (nothingToSell.has(keyOf(fundId, open.id, ''))) continue;
      if (ledger.units(fundId, (entry) => entry.source !== source) <= 0n) continue;
      const price = prices.onOrAfter(fundId, open.requestedOn);
      if (price === undefined) return { kind: 'blocked' };
      sales.push({ fundId, price });
    }
    const sale = earliest(sales);
    if (sale) return { kind: 'sell', ...sale };

    const sold = ledger.ofSource(source, 'switch_out');
    const proceeds = -sold.reduce((total, entry) => total + entry.amountCents, 0);
    if (sold.length === 0 || proceeds <= 0) {
      return { kind: 'complete', on: sold.length === 0 ? open.requestedOn : lastDay(sold) };
    }
    const lastSale = lastDay(sold);
    const buys: Array<{ fundId: string; amountCents: number; price: Price }> = [];
    let unpriced = false;
    for (const part of splitByPercent(proceeds, open.to)) {
      if (part.amountCents === 0 || ledger.has(part.fundId, 'switch_in', source)) continue;
      const price = prices.after(part.fundId, lastSale);
      if (price === undefined) unpriced = true;
      else buys.push({ ...part, price });
    }
    const buy = earliest(buys);
    if (buy) return { kind: 'buy', ...buy };
    if (unpriced) return { kind: 'blocked' };
    return { kind: 'complete', on: lastDay([...sold, ...ledger.ofSource(source, 'switch_in')]) };
  };

  const carryOut = (open: OpenSwitch, step: SwitchStep) => {
    const source = SOURCES.switch(open.id);
    if (step.kind === 'sell') {
      const day = step.price.on;
      // What is held on the sale day, before that day's charge, not counting this switch.
      const held = ledger.saleable(step.fundId, day, source);
      if (held <= 0n) {
        nothingToSell.add(keyOf(step.fundId, open.id, ''));
        return;
      }
      add({
        fundId: step.fundId,
        kind: 'switch_out',
        source,
        dealtOn: day,
        unitsMicro: -held,
        // 0 - x, not -x: units worth less than half a cent sell for 0 cents, never -0.
        amountCents: 0 - valueCents(held, step.price.micro),
        price: step.price,
      });
    } else if (step.kind === 'buy') {
      add({
        fundId: step.fundId,
        kind: 'switch_in',
        source,
        dealtOn: step.price.on,
        unitsMicro: unitsFor(step.amountCents, step.price.micro),
        amountCents: step.amountCents,
        price: step.price,
      });
    }
  };

  /**
   * What a negative sum still has to sell (its sum less what its sales already came to), out of
   * the funds it has not sold from yet: all of it at once, once every fund held has a price.
   */
  const nextSale = (sum: Money): SaleStep => {
    const sold = ledger.ofSource(sum.source, 'contribution');
    const owed = -(sum.amountCents - sold.reduce((total, entry) => total + entry.amountCents, 0));
    if (owed <= 0) return { kind: 'complete' };
    const day = ledger.afterSwitches(sum.receivedOn);
    if (uninvestedSince !== null && uninvestedSince <= day) return { kind: 'blocked' };
    const held: FundHolding[] = [];
    const priceOf = new Map<string, Price>();
    for (const fundId of ledger.funds()) {
      if (ledger.has(fundId, 'contribution', sum.source)) continue;
      if (ledger.units(fundId, (entry) => entry.source !== sum.source) <= 0n) continue;
      const price = prices.onOrAfter(fundId, day);
      if (price === undefined) return { kind: 'blocked' };
      const unitsMicro = ledger.saleable(fundId, price.on, sum.source);
      if (unitsMicro <= 0n) continue;
      held.push({ fundId, unitsMicro, priceMicro: price.micro });
      priceOf.set(fundId, price);
    }
    const sales = sellByValue(owed, held).map((sale) => ({
      ...sale,
      price: priceOf.get(sale.fundId) as Price,
    }));
    return sales.length === 0 ? { kind: 'complete' } : { kind: 'sale', sales };
  };

  /**
   * What a payout still has to sell: every unit of every fund held, each at its first price on or
   * after the payout's day (or the last day of a switch still dealing after it), all at once once
   * every fund held has a price; it waits while money received by then is still to invest.
   */
  const nextPayout = (payout: OpenPayout): PayoutStep => {
    const source = SOURCES.payout(payout.id);
    const day = ledger.afterSwitches(payout.fromOn);
    if (uninvestedSince !== null && uninvestedSince <= day) return { kind: 'blocked' };
    if (unplacedSince !== null && unplacedSince <= day) return { kind: 'blocked' };
    const sales: DueEntry[] = [];
    for (const fundId of ledger.funds()) {
      if (ledger.has(fundId, payout.kind, source)) continue;
      if (ledger.units(fundId, (entry) => entry.source !== source) <= 0n) continue;
      const price = prices.onOrAfter(fundId, day);
      if (price === undefined) return { kind: 'blocked' };
      const held = ledger.saleable(fundId, price.on, source);
      if (held <= 0n) continue;
      sales.push({
        fundId,
        kind: payout.kind,
        source,
        dealtOn: price.on,
        unitsMicro: -held,
        amountCents: 0 - valueCents(held, price.micro),
        price,
      });
    }
    if (sales.length > 0) return { kind: 'sale', sales };
    const sold = ledger.ofSource(source, payout.kind);
    return {
      kind: 'complete',
      on: sold.length === 0 ? payout.fromOn : lastDay(sold),
      cents: -sold.reduce((total, entry) => total + entry.amountCents, 0),
    };
  };

  const charge = (month: string) => {
    const day = chargeDayOf(month);
    const source = SOURCES.charge(month);
    for (const [fundId, basisPoints] of [...terms.charges].sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (ledger.has(fundId, 'charge', source)) continue;
      const held = ledger.units(fundId, (entry) => entry.dealtOn <= day);
      if (held <= 0n) continue;
      const cancelled = monthlyChargeUnits(held, basisPoints);
      if (cancelled <= 0n) continue;
      add({
        fundId,
        kind: 'charge',
        source,
        dealtOn: day,
        unitsMicro: -cancelled,
        amountCents: 0,
        price: null,
      });
    }
  };

  const completed: Settlement['completed'] = [];
  const paid: Settlement['paid'] = [];
  const lastMonth = lastEndedMonth(today);
  const firstDay = ledger.firstDay();
  let month = firstDay === null ? null : monthOf(firstDay);
  let current = 0;
  for (;;) {
    const order = orders[current];
    const chargeDay = month !== null && month <= lastMonth ? chargeDayOf(month) : null;
    const dueBy = (day: string) => chargeDay === null || day <= chargeDay;
    if (order?.kind === 'switch') {
      const step = nextStep(order.open);
      if (step.kind === 'complete') {
        completed.push({ id: order.open.id, on: step.on });
        current += 1;
        continue;
      }
      if ((step.kind === 'sell' || step.kind === 'buy') && dueBy(step.price.on)) {
        carryOut(order.open, step);
        continue;
      }
    } else if (order?.kind === 'sale') {
      const step = nextSale(order.sum);
      if (step.kind === 'complete') {
        current += 1;
        continue;
      }
      // Each fund's sale is dealt on its own price's day; the sale comes in on the day of the
      // last, after the charges of the months before it and before that day's.
      if (step.kind === 'sale') {
        const sales = step.sales.map((sale) => saleEntry(order.sum, sale));
        if (dueBy(lastDay(sales))) {
          for (const sale of sales) add(sale);
          continue;
        }
      }
    } else if (order?.kind === 'payout') {
      const step = nextPayout(order.payout);
      if (step.kind === 'complete') {
        paid.push({ id: order.payout.id, on: step.on, cents: step.cents });
        current += 1;
        continue;
      }
      if (step.kind === 'sale' && dueBy(lastDay(step.sales))) {
        for (const sale of step.sales) add(sale);
        continue;
      }
    }
    if (month !== null && chargeDay !== null) {
      charge(month);
      month = nextMonth(month);
      continue;
    }
    // A switch or a sale that cannot be dealt yet waits, and so does everything after it.
    waiting += orders.length - current;
    break;
  }
  return { entries, completed, paid, waiting };
}

/** A negative sum's sale from one fund, as the movement it writes. */
const saleEntry = (sum: Money, sale: FundSale & { price: Price }): DueEntry => ({
  fundId: sale.fundId,
  kind: 'contribution',
  source: sum.source,
  dealtOn: sale.price.on,
  unitsMicro: sale.unitsMicro,
  amountCents: sale.amountCents,
  price: sale.price,
});

/**
 * The value of a charge due, at its fund's latest price on or before its day: the units it
 * cancels are out of the member's funds, so the cents are negative.
 */
export function chargePrice(entry: DueEntry, price: Price): DueEntry {
  return { ...entry, price, amountCents: valueCents(entry.unitsMicro, price.micro) };
}
