import { and, asc, count, eq, inArray, like, sql } from 'drizzle-orm';
import { todayInIreland } from '../../../contracts/irish-dates.js';
import type { keyset } from '../../platform/db/keyset.js';
import {
  brokers,
  ictIncidentReports,
  ictIncidents,
  platformIctIncidents,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';

export type IctIncidentRow = typeof ictIncidents.$inferSelect;
export type IctReportRow = typeof ictIncidentReports.$inferSelect;
export type PlatformIncidentRow = typeof platformIctIncidents.$inferSelect;

/** An incident is the firm's, under no employer: its scope as the policy table reads one. */
export type ScopedIncident = IctIncidentRow & { employerId: null };

/** Keeps two incidents of one firm recorded at once from counting to the same number. */
const REFERENCE_LOCK_NAMESPACE = 7_201_339;

/**
 * Records an incident with the firm's next reference of the year it is recorded in, in Ireland:
 * `ICT-2026-001`, then `-002`. Incidents are never deleted, so counting the year's gives the next
 * number; the count is taken under a lock of the firm's references, held until the transaction
 * ends, and the unique index stands behind it.
 */
export async function insertIncident(
  tx: Transaction,
  values: Omit<typeof ictIncidents.$inferInsert, 'reference'>,
): Promise<IctIncidentRow> {
  const prefix = `ICT-${todayInIreland(values.createdAt as Date).slice(0, 4)}-`;
  await tx.execute(
    sql`select pg_advisory_xact_lock(${REFERENCE_LOCK_NAMESPACE}, hashtext(${values.brokerId}))`,
  );
  const [recorded] = await tx
    .select({ count: count() })
    .from(ictIncidents)
    .where(
      and(eq(ictIncidents.brokerId, values.brokerId), like(ictIncidents.reference, `${prefix}%`)),
    );
  const reference = `${prefix}${String((recorded?.count ?? 0) + 1).padStart(3, '0')}`;
  const [row] = await tx
    .insert(ictIncidents)
    .values({ ...values, reference })
    .returning();
  return row as IctIncidentRow;
}

/**
 * An incident by id, as far as row-level security lets the actor see; with `forUpdate`, its row
 * locked until the transaction ends, so two steps on one incident queue
 * (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findIncident(
  tx: Transaction,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<ScopedIncident | undefined> {
  const query = tx.select().from(ictIncidents).where(eq(ictIncidents.id, id));
  const [row] = forUpdate ? await query.for('update') : await query;
  return row && { ...row, employerId: null };
}

export async function updateIncident(
  tx: Transaction,
  incident: { brokerId: string; id: string },
  values: Partial<typeof ictIncidents.$inferInsert>,
): Promise<IctIncidentRow> {
  const [row] = await tx
    .update(ictIncidents)
    .set(values)
    .where(and(eq(ictIncidents.brokerId, incident.brokerId), eq(ictIncidents.id, incident.id)))
    .returning();
  return row as IctIncidentRow;
}

/** A page of incidents within the actor's reach (row-level security), as `page` orders it. */
export async function listIncidents(
  tx: Transaction,
  tenantId: string | null,
  page: ReturnType<typeof keyset>,
): Promise<IctIncidentRow[]> {
  return tx
    .select()
    .from(ictIncidents)
    .where(and(tenantId === null ? undefined : eq(ictIncidents.brokerId, tenantId), page.after))
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** The reports of some incidents of one firm, the earliest sent first. */
export async function reportsOf(
  tx: Transaction,
  brokerId: string,
  incidentIds: readonly string[],
): Promise<IctReportRow[]> {
  if (incidentIds.length === 0) return [];
  return tx
    .select()
    .from(ictIncidentReports)
    .where(
      and(
        eq(ictIncidentReports.brokerId, brokerId),
        inArray(ictIncidentReports.incidentId, [...incidentIds]),
      ),
    )
    .orderBy(asc(ictIncidentReports.submittedAt), asc(ictIncidentReports.id));
}

/** The later incidents of one firm linked to some incidents as their recurrences. */
export async function recurrencesOf(
  tx: Transaction,
  brokerId: string,
  incidentIds: readonly string[],
): Promise<Array<{ id: string; recurrenceOf: string | null }>> {
  if (incidentIds.length === 0) return [];
  return tx
    .select({ id: ictIncidents.id, recurrenceOf: ictIncidents.recurrenceOf })
    .from(ictIncidents)
    .where(
      and(
        eq(ictIncidents.brokerId, brokerId),
        inArray(ictIncidents.recurrenceOf, [...incidentIds]),
      ),
    )
    .orderBy(asc(ictIncidents.createdAt), asc(ictIncidents.id));
}

export async function insertReport(
  tx: Transaction,
  values: typeof ictIncidentReports.$inferInsert,
): Promise<IctReportRow> {
  const [row] = await tx.insert(ictIncidentReports).values(values).returning();
  return row as IctReportRow;
}

export async function insertPlatformIncident(
  tx: Transaction,
  values: typeof platformIctIncidents.$inferInsert,
): Promise<PlatformIncidentRow> {
  const [row] = await tx.insert(platformIctIncidents).values(values).returning();
  return row as PlatformIncidentRow;
}

export async function findPlatformIncident(
  tx: Transaction,
  id: string,
): Promise<PlatformIncidentRow | undefined> {
  const [row] = await tx.select().from(platformIctIncidents).where(eq(platformIctIncidents.id, id));
  return row;
}

export async function listPlatformIncidents(
  tx: Transaction,
  page: ReturnType<typeof keyset>,
): Promise<PlatformIncidentRow[]> {
  return tx
    .select()
    .from(platformIctIncidents)
    .where(page.after)
    .orderBy(...page.orderBy)
    .limit(page.take);
}

/** A firm's name, where the actor may see the firm. */
/** A firm's name and LEI (null until given), as far as this actor can see the firm. */
export async function findFirm(
  tx: Transaction,
  brokerId: string,
): Promise<{ name: string; lei: string | null } | undefined> {
  const [row] = await tx
    .select({ name: brokers.name, lei: brokers.lei })
    .from(brokers)
    .where(eq(brokers.id, brokerId));
  return row;
}
