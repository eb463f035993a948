import { and, asc, eq, gte, inArray, isNull, lte } from 'drizzle-orm';
import { fundPrices, funds } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type FundPriceRow = typeof fundPrices.$inferSelect;

/** The prices in force of the funds between two days, inclusive. */
export async function pricesInForce(
  tx: Transaction,
  brokerId: string,
  fundIds: readonly string[],
  range: { from: string; to: string },
): Promise<FundPriceRow[]> {
  if (fundIds.length === 0) return [];
  return tx
    .select()
    .from(fundPrices)
    .where(
      and(
        eq(fundPrices.brokerId, brokerId),
        inArray(fundPrices.fundId, [...fundIds]),
        isNull(fundPrices.supersededAt),
        gte(fundPrices.pricedOn, range.from),
        lte(fundPrices.pricedOn, range.to),
      ),
    )
    .orderBy(asc(fundPrices.fundId), asc(fundPrices.pricedOn));
}

/** Rows per statement: 11 columns a row stays far below PostgreSQL's 65,535 parameters. */
const ROWS_PER_STATEMENT = 1_000;

/** Inserts prices. */
export async function insertPrices(
  tx: Transaction,
  rows: ReadonlyArray<typeof fundPrices.$inferInsert>,
): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await tx.insert(fundPrices).values(rows.slice(start, start + ROWS_PER_STATEMENT));
  }
}

/** Marks the prices superseded by their corrections, at `at`. */
export async function supersedePrices(
  tx: Transaction,
  brokerId: string,
  ids: readonly string[],
  at: Date,
): Promise<void> {
  for (let start = 0; start < ids.length; start += ROWS_PER_STATEMENT) {
    await tx
      .update(fundPrices)
      .set({ supersededAt: at })
      .where(
        and(
          eq(fundPrices.brokerId, brokerId),
          inArray(fundPrices.id, ids.slice(start, start + ROWS_PER_STATEMENT)),
        ),
      );
  }
}

/** Every fund of the scheme, closed ones too: a prices file names them by name or ISIN. */
export async function fundsOfScheme(
  tx: Transaction,
  scheme: { brokerId: string; id: string },
): Promise<Array<{ id: string; name: string; isin: string | null }>> {
  return tx
    .select({ id: funds.id, name: funds.name, isin: funds.isin })
    .from(funds)
    .where(and(eq(funds.brokerId, scheme.brokerId), eq(funds.schemeId, scheme.id)));
}
