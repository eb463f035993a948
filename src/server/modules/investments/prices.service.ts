import { createId } from '@paralleldrive/cuid2';
import { formatDecimal6, readUnitPrice } from '../../../contracts/dc-money-rules.js';
import { addDays, formatIrishDate, todayInIreland } from '../../../contracts/irish-dates.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext, TenantActor } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import { findFund } from '../funds/index.js';
import { findMember } from '../members/index.js';
import { findScheme } from '../schemes/index.js';
import {
  type FundPriceList,
  type FundPriceQuery,
  type FundPricesInput,
  type FundPricesRecorded,
  MAX_PRICE_DAYS,
} from './investments.schemas.js';
import { lockLedger, reopenPayouts, usersOfPrices, voidMovementsFrom } from './ledger.data.js';
import { payoutOfSource, switchOfSource } from './ledger.rules.js';
import { settle } from './ledger.service.js';
import { type PriceToRecord, readPriceFile } from './price-file.rules.js';
import {
  type FundPriceRow,
  fundsOfScheme,
  insertPrices,
  pricesInForce,
  supersedePrices,
} from './prices.data.js';

export interface PricesServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** A prices file's answer: the prices it recorded, or every problem with it by line. */
export type PriceFileOutcome =
  | { status: 'recorded'; recorded: FundPricesRecorded }
  | {
      status: 'rejected';
      issues: Array<{ line: number; column: null; code: string; message: string }>;
    };

/** The scheme a price belongs to, as its rows are written. */
interface PricedScheme {
  brokerId: string;
  employerId: string;
  id: string;
}

/** What the audit log keeps of a price: its fund, day and figure, never anything of a person. */
const priceAuditState = (row: {
  id: string;
  fundId: string;
  pricedOn: string;
  price: bigint;
  corrects?: string | null;
}) => ({
  id: row.id,
  fundId: row.fundId,
  on: row.pricedOn,
  price: formatDecimal6(row.price),
  ...(row.corrects ? { corrects: row.corrects } : {}),
});

/**
 * The unit prices of a scheme's funds (docs/decisions/0127-dc-money.md): recorded a fund at a
 * time or from a file of the scheme's funds, one in force a day. The same price again changes
 * nothing; a different one corrects the day's price, which is kept, superseded. Where the price
 * corrected was used, the ledger of every member it touched is voided from that day and replayed
 * at the prices now in force, in the same transaction.
 */
export function createPricesService({ database, audit, now }: PricesServiceDeps) {
  const reads = createPlatformReadLog(audit);

  /**
   * Records the prices: every row of them in one transaction, under the scheme's ledger lock, so
   * that no settlement reads a price this is correcting.
   */
  async function apply(
    tx: Transaction,
    writer: TenantActor,
    scheme: PricedScheme,
    prices: readonly PriceToRecord[],
  ): Promise<FundPricesRecorded> {
    await lockLedger(tx, scheme, true);
    const at = now();
    const days = prices.map((price) => price.on).sort();
    const inForce = new Map(
      (
        await pricesInForce(
          tx,
          scheme.brokerId,
          [...new Set(prices.map((price) => price.fundId))],
          {
            from: days[0] as string,
            to: days.at(-1) as string,
          },
        )
      ).map((row) => [`${row.fundId} ${row.pricedOn}`, row]),
    );
    const rowOf = (price: PriceToRecord, corrects: string | null) => ({
      brokerId: scheme.brokerId,
      id: createId(),
      employerId: scheme.employerId,
      schemeId: scheme.id,
      fundId: price.fundId,
      pricedOn: price.on,
      price: price.micro,
      corrects,
      supersededAt: null,
      createdBy: writer.userId,
      createdAt: at,
    });
    const fresh: ReturnType<typeof rowOf>[] = [];
    const corrections: Array<{ old: FundPriceRow; row: ReturnType<typeof rowOf> }> = [];
    let unchanged = 0;
    for (const price of prices) {
      const old = inForce.get(`${price.fundId} ${price.on}`);
      if (!old) fresh.push(rowOf(price, null));
      else if (old.price === price.micro) unchanged += 1;
      else corrections.push({ old, row: rowOf(price, old.id) });
    }
    // The price in force gives way first: one price a day is in force, by a unique index.
    await supersedePrices(
      tx,
      scheme.brokerId,
      corrections.map(({ old }) => old.id),
      at,
    );
    await insertPrices(tx, [...fresh, ...corrections.map(({ row }) => row)]);
    for (const { old, row } of corrections) {
      await audit.record(tx, writer, {
        action: 'fund_price.corrected',
        entityType: 'fund_price',
        entityId: row.id,
        tenantId: row.brokerId,
        previousState: priceAuditState(old),
        newState: priceAuditState(row),
      });
    }
    const replayed = await replay(tx, writer, scheme, corrections, at);
    return { recorded: fresh.length, unchanged, corrected: corrections.length, replayed };
  }

  /**
   * Every member who used a corrected price has every movement from the corrected day on voided
   * (from the earliest such day, where they used more than one) and their ledger settled again:
   * their money reinvested, switches carried out again and charges retaken at the prices now in
   * force. Answers how many members were replayed.
   */
  async function replay(
    tx: Transaction,
    writer: TenantActor,
    scheme: PricedScheme,
    corrections: ReadonlyArray<{ old: FundPriceRow; row: { id: string } }>,
    at: Date,
  ): Promise<number> {
    const correctionOf = new Map(corrections.map((correction) => [correction.old.id, correction]));
    const users = await usersOfPrices(tx, scheme.brokerId, [...correctionOf.keys()]);
    if (users.length === 0) return 0;
    const from = new Map<string, { day: string; by: string }>();
    for (const { memberId, priceId } of users) {
      const correction = correctionOf.get(priceId);
      if (!correction) continue;
      const earlier = from.get(memberId);
      if (!earlier || correction.old.pricedOn < earlier.day) {
        from.set(memberId, { day: correction.old.pricedOn, by: correction.row.id });
      }
    }
    const groups = new Map<string, { day: string; by: string; members: string[] }>();
    for (const [memberId, { day, by }] of from) {
      const group = groups.get(`${day} ${by}`) ?? { day, by, members: [] };
      group.members.push(memberId);
      groups.set(`${day} ${by}`, group);
    }
    const redo = new Set<string>();
    const repay = new Set<string>();
    let voided = 0;
    for (const group of groups.values()) {
      const sources = await voidMovementsFrom(
        tx,
        scheme.brokerId,
        group.members,
        group.day,
        group.by,
        at,
      );
      voided += sources.length;
      for (const source of sources) {
        const switchId = switchOfSource(source);
        if (switchId !== null) redo.add(switchId);
        const payoutId = payoutOfSource(source);
        if (payoutId !== null) repay.add(payoutId);
      }
    }
    // A payout whose sales were voided sells again, at the prices now in force.
    await reopenPayouts(tx, scheme.brokerId, [...repay], at);
    await settle(
      tx,
      audit,
      {
        brokerId: scheme.brokerId,
        schemeId: scheme.id,
        memberIds: [...from.keys()],
        redoSwitchIds: [...redo],
      },
      todayInIreland(at),
      {
        actor: writer,
        at,
        lock: 'held',
        because: { repricedMembers: from.size, voided },
      },
    );
    return from.size;
  }

  return {
    async record(
      actor: ActorContext,
      fundId: string,
      input: FundPricesInput,
    ): Promise<FundPricesRecorded> {
      const writer = authorize(actor, 'fund_price.record');
      return withActor(database, writer, async (tx) => {
        const fund = authorizeRow(writer, 'fund_price.record', await findFund(tx, fundId));
        const today = todayInIreland(now());
        const future = input.prices.flatMap((price, index) =>
          price.on > today
            ? [
                {
                  path: `prices.${index}.on`,
                  code: 'date_in_future',
                  message: `The day ${formatIrishDate(price.on)} is after today: give prices for days up to today`,
                },
              ]
            : [],
        );
        if (future.length > 0) throw new ValidationError(future);
        const prices = input.prices.map((price) => {
          const reading = readUnitPrice(price.price);
          // The body's schema read it by the same rule and wrote it back to 6 places.
          if (!reading.ok) throw new Error('a unit price the request schema let through');
          return { fundId: fund.id, on: price.on, micro: reading.micro };
        });
        const recorded = await apply(
          tx,
          writer,
          { brokerId: fund.brokerId, employerId: fund.employerId, id: fund.schemeId },
          prices,
        );
        const days = prices.map((price) => price.on).sort();
        await audit.record(tx, writer, {
          action: 'fund_price.recorded',
          entityType: 'fund',
          entityId: fund.id,
          tenantId: fund.brokerId,
          previousState: null,
          newState: { ...recorded, from: days[0], to: days.at(-1) },
        });
        return recorded;
      });
    },

    /** A file of the scheme's funds' prices: all rows recorded, or none and every problem. */
    async importFile(
      actor: ActorContext,
      schemeId: string,
      file: Buffer,
    ): Promise<PriceFileOutcome> {
      const writer = authorize(actor, 'fund_price.import');
      return withActor(database, writer, async (tx) => {
        const scheme = authorizeRow(writer, 'fund_price.import', await findScheme(tx, schemeId));
        const reading = readPriceFile(file, await fundsOfScheme(tx, scheme), todayInIreland(now()));
        if (!reading.ok) {
          return {
            status: 'rejected',
            issues: reading.problems.map((problem) => ({
              line: problem.line,
              column: null,
              code: 'price_file',
              message: problem.message,
            })),
          };
        }
        const recorded = await apply(tx, writer, scheme, reading.prices);
        await audit.record(tx, writer, {
          action: 'fund_price.imported',
          entityType: 'scheme',
          entityId: scheme.id,
          tenantId: scheme.brokerId,
          previousState: null,
          newState: { rows: reading.prices.length, ...recorded },
        });
        return { status: 'recorded', recorded };
      });
    },

    async list(actor: ActorContext, fundId: string, query: FundPriceQuery): Promise<FundPriceList> {
      authorize(actor, 'fund_price.list');
      const today = todayInIreland(now());
      const to = query.to ?? today;
      const from = query.from ?? addDays(to, 1 - MAX_PRICE_DAYS);
      if (from > to) {
        throw new ValidationError([
          { path: 'from', code: 'after_to', message: 'The first day cannot be after the last day' },
        ]);
      }
      if (addDays(from, MAX_PRICE_DAYS - 1) < to) {
        throw new ValidationError([
          {
            path: 'from',
            code: 'too_long',
            message: `Ask for at most ${MAX_PRICE_DAYS} days of prices at a time`,
          },
        ]);
      }
      return withActor(database, actor, async (tx) => {
        const found = await findFund(tx, fundId);
        // A member reads the prices of their own scheme's funds, as they choose among them.
        const { memberId } = boundsOf(actor, 'fund_price.list');
        const own = memberId === null || !found ? null : await findMember(tx, memberId);
        const fund = authorizeRow(
          actor,
          'fund_price.list',
          found && { ...found, memberId: own?.schemeId === found.schemeId ? own.id : null },
        );
        const rows = await pricesInForce(tx, fund.brokerId, [fund.id], { from, to });
        await reads.listed(tx, actor, {
          entityType: 'fund_price',
          scope: { fundId: fund.id },
          filters: query,
          returned: rows.length,
        });
        return {
          fundId: fund.id,
          from,
          to,
          items: rows.map((row) => ({
            on: row.pricedOn,
            price: formatDecimal6(row.price),
            corrected: row.corrects !== null,
          })),
        };
      });
    },
  };
}

export type PricesService = ReturnType<typeof createPricesService>;
