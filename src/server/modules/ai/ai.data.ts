import { and, eq, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import { type aiDrafts, aiSettings, aiUsage, members } from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { Denylist } from './provider-guard.rules.js';
import { foldText, matchesFamilyName, matchesName, writtenValues } from './written-forms.rules.js';

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

/**
 * Writes the firm's settings row, or changes `values` on the one it has, and answers the row as
 * stored.
 */
export async function saveSettings(
  tx: Transaction,
  brokerId: string,
  values: Omit<typeof aiSettings.$inferInsert, 'brokerId' | 'createdAt'>,
  createdAt: Date,
): Promise<AiSettingsRow | undefined> {
  const [row] = await tx
    .insert(aiSettings)
    .values({ brokerId, ...values, createdAt })
    .onConflictDoUpdate({ target: aiSettings.brokerId, set: values })
    .returning();
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

/**
 * The characters `foldText` and `plainWords` (written-forms.rules.ts) fold in a name, as SQL's
 * translate() takes them: each accented or upper-case Latin, Greek or Cyrillic letter and its
 * plain lower-case letter. So the database compares a stored surname as the guard reads it.
 */
const NAME_FOLDING = (() => {
  let from = '';
  let to = '';
  const ranges: Array<[number, number]> = [
    [0x41, 0x5a],
    [0xc0, 0x24f],
    [0x370, 0x4ff],
    [0x1e00, 0x1eff],
  ];
  for (const [first, last] of ranges) {
    for (let code = first; code <= last; code += 1) {
      const letter = String.fromCodePoint(code);
      const folded = foldText(letter).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
      if (folded.length === 1 && folded !== letter) {
        from += letter;
        to += folded;
      }
    }
  }
  return { from, to };
})();

/**
 * A stored name as nameKey reads it, in SQL: folded, lower case, its spaces, apostrophes, dashes
 * and other punctuation dropped ("O'Brien", "Ó Briain": obrien, obriain).
 */
const nameKeySql = (column: SQL | typeof members.lastName) =>
  sql`regexp_replace(lower(translate(${column}, ${NAME_FOLDING.from}, ${NAME_FOLDING.to})), ${'[[:space:][:punct:]\u2018\u2019\u02bc\u2010-\u2015\u2212]+'}, '', 'g')`;

/**
 * The members within the asker's reach a question names: by surname (standing alone, or in the
 * full name in any order and with or without its accents), by date of birth or by salary, in any
 * of the written forms written-forms.rules.ts reads. Only those, so the guard's denylist for a chat
 * request costs one query, and no member's data is loaded unless the question already carries
 * it. `employerId` keeps an employer's people to their own employer's members (policy.ts,
 * `ai.chat`): a refusal never tells them that a name, date or sum is a member's elsewhere in the
 * firm. Row-level security keeps it to the tenant.
 */
export async function membersNamedIn(
  tx: Transaction,
  question: string,
  reach: { employerId: string | null },
): Promise<Denylist> {
  const written = writtenValues(question);
  const keys = [...written.keys];
  const conditions: SQL[] = [];
  if (keys.length > 0) conditions.push(inArray(nameKeySql(members.lastName), keys));
  if (written.dates.length > 0) conditions.push(inArray(members.dateOfBirth, written.dates));
  if (written.amounts.length > 0) conditions.push(inArray(members.salaryCents, written.amounts));
  if (conditions.length === 0)
    return { names: [], familyNames: [], datesOfBirth: [], salaryCents: [] };
  const rows = await tx
    .select({
      firstName: members.firstName,
      lastName: members.lastName,
      dateOfBirth: members.dateOfBirth,
      salaryCents: members.salaryCents,
    })
    .from(members)
    .where(
      and(
        isNull(members.deletedAt),
        reach.employerId === null ? undefined : eq(members.employerId, reach.employerId),
        or(...conditions),
      ),
    )
    .limit(MAX_CANDIDATES);
  const dateSet = new Set(written.dates);
  const amountSet = new Set(written.amounts);
  return {
    names: rows
      .map((row) => `${row.firstName} ${row.lastName}`)
      .filter((name) => matchesName(written.keys, name)),
    familyNames: rows
      .map((row) => row.lastName)
      .filter((lastName) => matchesFamilyName(written.keys, lastName)),
    datesOfBirth: rows.map((row) => row.dateOfBirth).filter((date) => dateSet.has(date)),
    salaryCents: rows.map((row) => row.salaryCents).filter((cents) => amountSet.has(cents)),
  };
}
