import { and, asc, eq, getTableColumns, gt, inArray, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DocumentLinkView } from '../../../contracts/governance.js';
import type {
  FitnessAndProbity,
  KeyFunction,
  PolicyKind,
  TrusteeKind,
} from '../../../contracts/governance-rules.js';
import type { RacKind, SchemeType } from '../../../contracts/organisation.js';
import type { PageQuery } from '../../../contracts/pages.js';
import {
  type EmployerRemittanceFacts,
  remittanceFactsSince,
} from '../../../contracts/remittance-rules.js';
import type { SchemeComplianceFacts } from '../../../contracts/scheme-standing.js';
import {
  type FilingKind,
  membershipBeganOn,
  type StatementRunFacts,
} from '../../../contracts/scheme-year-rules.js';
import { arrayLiteral } from '../../platform/db/database.js';
import { keyset } from '../../platform/db/keyset.js';
import {
  auditLog,
  documents,
  employers,
  filings,
  keyFunctionHolders,
  members,
  oraReports,
  schemes,
  significantChanges,
  statementRuns,
  trustees,
  trusteeTrainings,
  writtenPolicies,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import {
  type EmployerMonths,
  employerKey,
  NO_LAST_MONTH,
  remittanceFactsOf,
} from '../contributions/index.js';
import { liveEmployerOf } from '../employers/index.js';

export type TrusteeRow = typeof trustees.$inferSelect;
export type KeyFunctionHolderRow = typeof keyFunctionHolders.$inferSelect;
export type PolicyRow = typeof writtenPolicies.$inferSelect;
export type OraReportRow = typeof oraReports.$inferSelect;
export type SignificantChangeRow = typeof significantChanges.$inferSelect;

/** The registers: each a table of the same shape at its head (governanceColumns in schema.ts). */
export type RegisterTable =
  | typeof trustees
  | typeof keyFunctionHolders
  | typeof writtenPolicies
  | typeof oraReports
  | typeof filings
  | typeof trusteeTrainings;

/** Every governance table: each holds rows under a scheme, soft-deleted (schema.ts). */
export type GovernanceTable = RegisterTable | typeof significantChanges;

/**
 * A live entry of a register by id, under a live scheme of a live employer, as far as row-level
 * security lets the actor see: the registers of a deleted scheme can no longer be read or changed.
 *
 * With `forUpdate`, the entry's row is locked until the transaction ends (its scheme and employer
 * are not): every change of an entry reads it so, then checks its state, then writes. A change
 * that began while another held the row waits, and reads the row as that one committed it, so its
 * check sees the state it acts on; an entry deleted meanwhile is not found (404), a state no
 * longer allowed is refused (409) (docs/decisions/0091-state-changes-lock-their-row.md).
 */
export async function findEntry<T extends RegisterTable>(
  tx: Transaction,
  table: T,
  id: string,
  { forUpdate = false }: { forUpdate?: boolean } = {},
): Promise<T['$inferSelect'] | undefined> {
  const columns = table as unknown as {
    id: PgColumn;
    brokerId: PgColumn;
    schemeId: PgColumn;
    deletedAt: PgColumn;
  };
  const query = tx
    .select(getTableColumns(table as PgTable))
    .from(table as PgTable)
    .innerJoin(
      schemes,
      and(
        eq(schemes.brokerId, columns.brokerId),
        eq(schemes.id, columns.schemeId),
        isNull(schemes.deletedAt),
      ),
    )
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(eq(columns.id, id), isNull(columns.deletedAt)));
  const [row] = forUpdate ? await query.for('update', { of: table as PgTable }) : await query;
  return row as T['$inferSelect'] | undefined;
}

/**
 * Holds, until the transaction ends, the right to change the part of one scheme's register that a
 * rule reads across rows: the approved version of a policy kind (one at a time), the key function
 * appointments checked for Art. 24's independence, the chain of ORA due dates, the chair of the
 * trustees (one at a time). Row locks cannot
 * cover a row not yet inserted; this serialises the writers that read those rows and then write.
 */
export async function lockRegisterOf(
  tx: Transaction,
  register: 'written_policies' | 'key_function_holders' | 'ora_reports' | 'trustees',
  scheme: { brokerId: string; schemeId: string },
  part = '',
): Promise<void> {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtext(${`governance/${register}`}), hashtext(${`${scheme.brokerId}/${scheme.schemeId}/${part}`}))`,
  );
}

/**
 * Reads the live rows of one register of a scheme, in the order they were recorded (latest first
 * with `direction: 'desc'`), narrowed by `where`, from the page's cursor on: one more row than a
 * page, for `pageFrom` to tell whether another follows.
 */
export async function registerRows<T extends GovernanceTable>(
  tx: Transaction,
  register: T,
  scheme: { brokerId: string; id: string },
  list: { query: PageQuery; where?: SQL | undefined; direction?: 'asc' | 'desc' | undefined },
): Promise<T['$inferSelect'][]> {
  const table = register as typeof trustees;
  const { after, orderBy, take } = keyset(
    list.query,
    { at: table.createdAt, id: table.id },
    list.direction,
  );
  const rows = await tx
    .select()
    .from(table)
    .where(
      and(
        eq(table.brokerId, scheme.brokerId),
        eq(table.schemeId, scheme.id),
        isNull(table.deletedAt),
        list.where,
        after,
      ),
    )
    .orderBy(...orderBy)
    .limit(take);
  return rows as T['$inferSelect'][];
}

/** Marks one register entry deleted at `at`: the row is kept and hidden from every read. */
export async function softDeleteEntry(
  tx: Transaction,
  table: RegisterTable,
  row: { brokerId: string; id: string },
  at: Date,
): Promise<void> {
  const columns = table as typeof trustees;
  await tx
    .update(columns)
    .set({ deletedAt: at })
    .where(and(eq(columns.brokerId, row.brokerId), eq(columns.id, row.id)));
}

/**
 * Reads the audit records of one entry past chain position `after` (all with `null`), in the
 * order of the tenant's audit chain, at most `limit` of them.
 */
export async function auditRecordsOfEntry(
  tx: Transaction,
  entry: { entityType: string; entityId: string },
  after: number | null,
  limit: number,
) {
  const rows = await tx
    .select({
      id: auditLog.id,
      chainIndex: auditLog.chainIndex,
      action: auditLog.action,
      timestamp: auditLog.timestamp,
      actorType: auditLog.actorType,
      newState: auditLog.newState,
    })
    .from(auditLog)
    .where(
      and(
        eq(auditLog.entityType, entry.entityType),
        eq(auditLog.entityId, entry.entityId),
        after === null ? undefined : gt(auditLog.chainIndex, after),
      ),
    )
    .orderBy(asc(auditLog.chainIndex))
    .limit(limit);
  return rows;
}

/** A live scheme with its employer's name, for the registers listed across a tenant. */
export interface SchemeHead {
  id: string;
  brokerId: string;
  employerId: string;
  name: string;
  type: SchemeType;
  racKind: RacKind | null;
  /** `MM-DD`. */
  yearEnd: string;
  employerName: string;
}

/**
 * Every live scheme the filter admits (row-level security keeps it to the tenant), with what the
 * rules need to assess each: eleven statements however many schemes there are.
 */
export async function loadGovernance(
  tx: Transaction,
  filter: {
    schemeIds?: readonly string[];
    employerId?: string | null;
    /** Keyset position for a walk over every tenant's schemes, tenant by tenant. */
    after?: { brokerId: string; schemeId: string };
    limit?: number;
  },
): Promise<Array<{ scheme: SchemeHead; facts: SchemeComplianceFacts }>> {
  // A wound-up scheme's duties ended with it (docs/decisions/0146-schemes-wound-up-not-deleted.md):
  // it is assessed, reminded of and counted no more.
  const conditions: (SQL | undefined)[] = [isNull(schemes.deletedAt), eq(schemes.status, 'active')];
  if (filter.schemeIds) conditions.push(inArray(schemes.id, [...filter.schemeIds]));
  if (filter.employerId) conditions.push(eq(schemes.employerId, filter.employerId));
  if (filter.after) {
    conditions.push(
      sql`(${schemes.brokerId}, ${schemes.id}) > (${filter.after.brokerId}, ${filter.after.schemeId})`,
    );
  }
  const query = tx
    .select({
      id: schemes.id,
      brokerId: schemes.brokerId,
      employerId: schemes.employerId,
      name: schemes.name,
      type: schemes.type,
      racKind: schemes.racKind,
      yearEnd: schemes.yearEnd,
      employerName: employers.name,
      // The day in Ireland the scheme was added to this service: members who joined since are
      // chased for its information (scheme-year-rules.ts, newMembersSinceAdded).
      addedOn: sql<string>`(${schemes.createdAt} at time zone 'Europe/Dublin')::date`,
      startedOn: schemes.startDate,
    })
    .from(schemes)
    .innerJoin(employers, liveEmployerOf(schemes.employerId))
    .where(and(...conditions))
    .orderBy(asc(schemes.brokerId), asc(schemes.id));
  const rows = (filter.limit ? await query.limit(filter.limit) : await query) as Array<
    SchemeHead & { addedOn: string; startedOn: string | null }
  >;
  if (rows.length === 0) return [];
  const heads: SchemeHead[] = rows.map(
    ({ addedOn: _addedOn, startedOn: _startedOn, ...head }) => head,
  );
  // The schemes come in (tenant, id) order, so their registers are one index range of the
  // (broker_id, scheme_id, …) indexes; rows of schemes the filter left out are dropped below.
  const first = heads[0] as SchemeHead;
  const last = heads.at(-1) as SchemeHead;
  const live = <
    C extends { brokerId: PgColumn; schemeId: PgColumn; employerId: PgColumn; deletedAt: PgColumn },
  >(
    table: C,
  ) =>
    and(
      sql`(${table.brokerId}, ${table.schemeId}) >= (${first.brokerId}, ${first.id})`,
      sql`(${table.brokerId}, ${table.schemeId}) <= (${last.brokerId}, ${last.id})`,
      filter.employerId ? eq(table.employerId, filter.employerId) : undefined,
      isNull(table.deletedAt),
    );
  // One after another: a connection runs one statement at a time.
  const trusteeRows = await tx
    .select({
      id: trustees.id,
      schemeId: trustees.schemeId,
      kind: trustees.kind,
      directorCount: trustees.directorCount,
      appointedOn: trustees.appointedOn,
      endedOn: trustees.endedOn,
      fitnessAndProbity: trustees.fitnessAndProbity,
    })
    .from(trustees)
    .where(live(trustees));
  const holderRows = await tx
    .select({
      id: keyFunctionHolders.id,
      schemeId: keyFunctionHolders.schemeId,
      function: keyFunctionHolders.function,
      holderName: keyFunctionHolders.holderName,
      appointedOn: keyFunctionHolders.appointedOn,
      endedOn: keyFunctionHolders.endedOn,
      fitnessAndProbity: keyFunctionHolders.fitnessAndProbity,
      alsoServesEmployer: keyFunctionHolders.alsoServesEmployer,
      conflictsProtocol: keyFunctionHolders.conflictsProtocol,
      notifiedOn: keyFunctionHolders.notifiedOn,
    })
    .from(keyFunctionHolders)
    .where(live(keyFunctionHolders));
  const policyRows = await tx
    .select({
      id: writtenPolicies.id,
      schemeId: writtenPolicies.schemeId,
      kind: writtenPolicies.kind,
      status: writtenPolicies.status,
      approvedOn: writtenPolicies.approvedOn,
      nextReviewDue: writtenPolicies.nextReviewDue,
    })
    .from(writtenPolicies)
    .where(and(live(writtenPolicies), inArray(writtenPolicies.status, ['draft', 'approved'])));
  const oraRows = await tx
    .select({
      id: oraReports.id,
      schemeId: oraReports.schemeId,
      performedOn: oraReports.performedOn,
      nextDue: oraReports.nextDue,
    })
    .from(oraReports)
    .where(live(oraReports));
  const changeRows = await tx
    .select({
      schemeId: significantChanges.schemeId,
      policyId: significantChanges.policyId,
      occurredOn: significantChanges.occurredOn,
    })
    .from(significantChanges)
    .where(live(significantChanges));
  const trainingRows = await tx
    .select({
      schemeId: trusteeTrainings.schemeId,
      trusteeId: trusteeTrainings.trusteeId,
      completedOn: trusteeTrainings.completedOn,
      directorName: trusteeTrainings.directorName,
    })
    .from(trusteeTrainings)
    .where(live(trusteeTrainings));
  const filingRows = await tx
    .select({
      id: filings.id,
      schemeId: filings.schemeId,
      kind: filings.kind,
      periodEnd: filings.periodEnd,
      completedOn: filings.completedOn,
      audited: filings.audited,
    })
    .from(filings)
    .where(live(filings));
  // The schemes' statement runs not failed, for the benefit statements' duty
  // (docs/decisions/0141-pension-benefit-statements.md); a run has no deletion.
  const runRows = await tx
    .select({
      schemeId: statementRuns.schemeId,
      informationDate: statementRuns.informationDate,
      membersBy: statementRuns.membersBy,
      status: statementRuns.status,
      issuedOn: sql<
        string | null
      >`(${statementRuns.issuedAt} at time zone 'Europe/Dublin')::date::text`,
    })
    .from(statementRuns)
    .where(
      and(
        sql`(${statementRuns.brokerId}, ${statementRuns.schemeId}) >= (${first.brokerId}, ${first.id})`,
        sql`(${statementRuns.brokerId}, ${statementRuns.schemeId}) <= (${last.brokerId}, ${last.id})`,
        filter.employerId ? eq(statementRuns.employerId, filter.employerId) : undefined,
        sql`${statementRuns.status} <> 'failed'`,
      ),
    );
  // Per scheme with members, its active and deferred ones counted (above 100 the annual report is
  // audited) and the active ones who joined on or after the day it was added, with whether they
  // have had its information (scheme-year-rules.ts): one statement, read from
  // members_scheme_status_idx. The count is one pass over the schemes' range of the index; the
  // new joiners are sought from each counted scheme's day, which comes with the schemes as
  // parameters rather than being worked out again for every member. A scheme without members
  // costs nothing beyond the count's pass.
  const counted = tx
    .select({
      brokerId: members.brokerId,
      schemeId: members.schemeId,
      members: sql<number>`count(*)::int`.as('members'),
    })
    .from(members)
    .where(and(live(members), inArray(members.status, ['active', 'deferred'])))
    .groupBy(members.brokerId, members.schemeId)
    .as('counted');
  // An active member who joined or rejoined since the scheme was added; which day began their
  // membership is the rule's to say (membershipBeganOn), below.
  const joiners = tx
    .select({
      list: sql`json_agg(json_build_object('dateJoined', ${members.dateJoined}, 'statusOn', ${members.statusOn}, 'informationSentOn', ${members.informationSentOn}))`.as(
        'list',
      ),
    })
    .from(members)
    .where(
      and(
        sql`${members.brokerId} = scheme.broker_id`,
        sql`${members.schemeId} = scheme.scheme_id`,
        isNull(members.deletedAt),
        eq(members.status, 'active'),
        sql`(${members.dateJoined} >= scheme.added_on or ${members.statusOn} >= scheme.added_on)`,
      ),
    )
    .as('joiners');
  const memberRows = await tx
    .select({
      schemeId: counted.schemeId,
      count: counted.members,
      joiners: sql<
        { dateJoined: string; statusOn: string | null; informationSentOn: string | null }[]
      >`coalesce(${joiners.list}, '[]')`,
    })
    .from(counted)
    .innerJoin(
      sql`unnest(${arrayLiteral(rows.map((row) => row.brokerId))}::text[], ${arrayLiteral(
        rows.map((row) => row.id),
      )}::text[], ${arrayLiteral(rows.map((row) => row.addedOn))}::date[]) as scheme(broker_id, scheme_id, added_on)`,
      sql`scheme.broker_id = ${counted.brokerId} and scheme.scheme_id = ${counted.schemeId}`,
    )
    .crossJoinLateral(joiners);
  // Each scheme's employer's remittance from the month the scheme was added to this service
  // (remittance-rules.ts, REMITTANCE_RULES.monthsSinceAdded): two statements for every employer of
  // the batch, each employer read from the earliest month one of its schemes counts.
  const windows = new Map<string, EmployerMonths>();
  for (const row of rows) {
    const from = row.addedOn.slice(0, 7);
    const known = windows.get(employerKey(row));
    if (known === undefined || from < known.from) {
      windows.set(employerKey(row), {
        brokerId: row.brokerId,
        employerId: row.employerId,
        from,
        to: NO_LAST_MONTH,
      });
    }
  }
  const remittances = await remittanceFactsOf(tx, [...windows.values()]);
  const noRemittance: EmployerRemittanceFacts = { deducted: [], receipts: [] };
  const addedMonthOf = new Map(rows.map((row) => [row.id, row.addedOn.slice(0, 7)]));
  const addedOnOf = new Map(rows.map((row) => [row.id, row.addedOn]));
  const startedOnOf = new Map(rows.map((row) => [row.id, row.startedOn]));
  const bySchemeId = new Map(
    heads.map((scheme) => [
      scheme.id,
      {
        scheme,
        facts: {
          type: scheme.type,
          racKind: scheme.racKind,
          yearEnd: scheme.yearEnd,
          members: 0,
          trustees: [],
          keyFunctionHolders: [],
          policies: [],
          oraReports: [],
          significantChanges: [],
          trainings: [],
          filings: [],
          newMembers: [],
          remittance: remittanceFactsSince(
            remittances.get(employerKey(scheme)) ?? noRemittance,
            addedMonthOf.get(scheme.id) as string,
          ),
          statementRuns: [],
          addedOn: addedOnOf.get(scheme.id),
          startedOn: startedOnOf.get(scheme.id) ?? null,
        } as {
          type: SchemeType;
          racKind: RacKind | null;
          yearEnd: string;
          members: number;
          trustees: SchemeComplianceFacts['trustees'][number][];
          keyFunctionHolders: SchemeComplianceFacts['keyFunctionHolders'][number][];
          policies: SchemeComplianceFacts['policies'][number][];
          oraReports: SchemeComplianceFacts['oraReports'][number][];
          significantChanges: SchemeComplianceFacts['significantChanges'][number][];
          trainings: SchemeComplianceFacts['trainings'][number][];
          filings: SchemeComplianceFacts['filings'][number][];
          newMembers: SchemeComplianceFacts['newMembers'][number][];
          remittance: EmployerRemittanceFacts;
          statementRuns: StatementRunFacts[];
          addedOn: string | undefined;
          startedOn: string | null;
        },
      },
    ]),
  );
  const factsOf = (schemeId: string) => bySchemeId.get(schemeId)?.facts;
  for (const { schemeId, ...row } of trusteeRows) {
    factsOf(schemeId)?.trustees.push({
      ...row,
      kind: row.kind as TrusteeKind,
      fitnessAndProbity: row.fitnessAndProbity as FitnessAndProbity,
    });
  }
  for (const { schemeId, ...row } of holderRows) {
    factsOf(schemeId)?.keyFunctionHolders.push({
      ...row,
      function: row.function as KeyFunction,
      fitnessAndProbity: row.fitnessAndProbity as 'pending' | 'confirmed' | 'failed',
    });
  }
  for (const { schemeId, ...row } of policyRows) {
    factsOf(schemeId)?.policies.push({
      ...row,
      kind: row.kind as PolicyKind,
      status: row.status as 'draft' | 'approved',
    });
  }
  for (const { schemeId, ...row } of oraRows) factsOf(schemeId)?.oraReports.push(row);
  for (const { schemeId, ...row } of changeRows) factsOf(schemeId)?.significantChanges.push(row);
  for (const { schemeId, ...row } of trainingRows) factsOf(schemeId)?.trainings.push(row);
  for (const { schemeId, ...row } of filingRows) {
    factsOf(schemeId)?.filings.push({ ...row, kind: row.kind as FilingKind });
  }
  for (const { schemeId, ...row } of runRows) factsOf(schemeId)?.statementRuns.push(row);
  for (const { schemeId, count, joiners } of memberRows) {
    const facts = factsOf(schemeId);
    if (!facts) continue;
    facts.members = count;
    const addedOn = addedOnOf.get(schemeId) as string;
    for (const joiner of joiners) {
      const joinedOn = membershipBeganOn({ status: 'active', ...joiner });
      if (joinedOn >= addedOn) {
        facts.newMembers.push({ joinedOn, informationSentOn: joiner.informationSentOn });
      }
    }
  }
  return [...bySchemeId.values()];
}

/** What an entry's link shows of its document, deleted or not. */
interface LinkedDocumentRow {
  id: string;
  documentType: string;
  filename: string;
  title: string | null;
  version: number;
  scanStatus: string;
  deletedAt: Date | null;
}

/**
 * The documents these entries link to, by id, in one query: deleted ones too, so that a link to a
 * document removed since reads as removed rather than as never made.
 */
export async function linkedDocumentsOf(
  tx: Transaction,
  entries: readonly { brokerId: string; documentId: string | null }[],
): Promise<Map<string, LinkedDocumentRow>> {
  const linked = entries.filter((entry) => entry.documentId !== null);
  if (linked.length === 0) return new Map();
  const rows = await tx
    .select({
      id: documents.id,
      brokerId: documents.brokerId,
      documentType: documents.documentType,
      filename: documents.filename,
      title: documents.title,
      version: documents.version,
      scanStatus: documents.scanStatus,
      deletedAt: documents.deletedAt,
    })
    .from(documents)
    .where(
      or(
        ...linked.map((entry) =>
          and(eq(documents.brokerId, entry.brokerId), eq(documents.id, entry.documentId as string)),
        ),
      ),
    );
  return new Map(rows.map(({ brokerId: _tenant, ...row }) => [row.id, row]));
}

/** An entry's link as the API shows it (contracts/governance.ts, linkFields). */
export function linkOf(
  entry: { documentId: string | null },
  found: ReadonlyMap<string, LinkedDocumentRow>,
): DocumentLinkView {
  if (entry.documentId === null)
    return { documentId: null, document: null, documentRemoved: false };
  const row = found.get(entry.documentId);
  if (!row || row.deletedAt !== null) {
    return { documentId: null, document: null, documentRemoved: true };
  }
  return {
    documentId: row.id,
    document: {
      id: row.id,
      documentType: row.documentType as NonNullable<DocumentLinkView['document']>['documentType'],
      filename: row.filename,
      title: row.title,
      version: row.version,
      scanStatus: row.scanStatus as NonNullable<DocumentLinkView['document']>['scanStatus'],
    },
    documentRemoved: false,
  };
}
