import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { type aiDrafts, aiSettings, aiUsage, members } from '../../db/schema.js';
import type { Transaction } from '../../db/with-actor.js';
import { amountsIn, type Denylist, datesIn, tokensOf } from './guard.js';

export type AiSettingsRow = typeof aiSettings.$inferSelect;
export type AiUsageRow = typeof aiUsage.$inferSelect;
export type AiDraftRow = typeof aiDrafts.$inferSelect;

/** The calendar month usage is counted in, in Ireland: YYYY-MM. */
export const monthOf = (at: Date) => todayInIreland(at).slice(0, 7);

export async function settingsOf(
  tx: Transaction,
  brokerId: string,
): Promise<AiSettingsRow | undefined> {
  const [row] = await tx.select().from(aiSettings).where(eq(aiSettings.brokerId, brokerId));
  return row;
}

export async function usageOf(
  tx: Transaction,
  brokerId: string,
  month: string,
): Promise<Pick<AiUsageRow, 'requests' | 'inputTokens' | 'outputTokens'>> {
  const [row] = await tx
    .select()
    .from(aiUsage)
    .where(and(eq(aiUsage.brokerId, brokerId), eq(aiUsage.month, month)));
  return row ?? { requests: 0, inputTokens: 0, outputTokens: 0 };
}

/**
 * Counts one request against the month's limits, or returns false when they are used up. One
 * statement: the counter row is created or bumped only while under both limits, so concurrent
 * requests cannot together go past them.
 */
export async function reserveRequest(
  tx: Transaction,
  brokerId: string,
  month: string,
  limits: { requests: number; tokens: number },
): Promise<boolean> {
  if (limits.requests < 1 || limits.tokens < 1) return false;
  const rows = await tx
    .insert(aiUsage)
    .values({ brokerId, month, requests: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.brokerId, aiUsage.month],
      set: { requests: sql`${aiUsage.requests} + 1`, updatedAt: sql`now()` },
      setWhere: sql`${aiUsage.requests} < ${limits.requests} and ${aiUsage.inputTokens} + ${aiUsage.outputTokens} < ${limits.tokens}`,
    })
    .returning({ requests: aiUsage.requests });
  return rows.length > 0;
}

export async function addTokens(
  tx: Transaction,
  brokerId: string,
  month: string,
  usage: { inputTokens: number; outputTokens: number },
): Promise<void> {
  await tx
    .update(aiUsage)
    .set({
      inputTokens: sql`${aiUsage.inputTokens} + ${usage.inputTokens}`,
      outputTokens: sql`${aiUsage.outputTokens} + ${usage.outputTokens}`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(aiUsage.brokerId, brokerId), eq(aiUsage.month, month)));
}

const MAX_CANDIDATES = 200;

/** A name as the guard compares it: its tokens (guard.ts), lower case, one space apart. */
export const nameKey = (name: string) => tokensOf(name.toLowerCase()).join(' ');

/**
 * The tenant's members a question names, by full name, date of birth or salary: only those, so
 * the guard's denylist for a chat request costs one query, and no member's data is loaded unless
 * the question already carries it. The full name is looked for in the question as written (any
 * run of spaces as one), so "O'Brien" and "Mary Anne" are found whole. Row-level security keeps
 * it to the tenant.
 */
export async function membersNamedIn(tx: Transaction, question: string): Promise<Denylist> {
  const tokens = tokensOf(question);
  const words = tokens.map((token) => token.toLowerCase());
  const dates = [...new Set(datesIn(tokens))].filter((date) => !Number.isNaN(Date.parse(date)));
  const amounts = [...new Set(amountsIn(words).map((amount) => amount.cents))];
  const spaced = question.toLowerCase().replace(/\s+/g, ' ');
  const conditions = [
    sql`position(lower(${members.firstName} || ' ' || ${members.lastName}) in ${spaced}) > 0`,
  ];
  if (dates.length > 0) conditions.push(inArray(members.dateOfBirth, dates.slice(0, 20)));
  if (amounts.length > 0) conditions.push(inArray(members.salaryCents, amounts.slice(0, 20)));
  const rows = await tx
    .select({
      firstName: members.firstName,
      lastName: members.lastName,
      dateOfBirth: members.dateOfBirth,
      salaryCents: members.salaryCents,
    })
    .from(members)
    .where(and(isNull(members.deletedAt), or(...conditions)))
    .limit(MAX_CANDIDATES);
  const dateSet = new Set(dates);
  const amountSet = new Set(amounts);
  return {
    names: rows
      .map((row) => `${row.firstName} ${row.lastName}`)
      .filter((name) => spaced.includes(name.toLowerCase()))
      .map(nameKey),
    datesOfBirth: rows.map((row) => row.dateOfBirth).filter((date) => dateSet.has(date)),
    salaryCents: rows.map((row) => row.salaryCents).filter((cents) => amountSet.has(cents)),
  };
}
