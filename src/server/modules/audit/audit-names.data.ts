import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { DRAFT_KIND_NAMES } from '../../../contracts/ai.js';
import { AUDIT_LOG_NAME, LIST_ENTITY_ID, listInWords } from '../../../contracts/audit-text.js';
import { CONTRIBUTION_KIND_LABELS } from '../../../contracts/contributions.js';
import { DATA_REQUEST_KIND_NAMES } from '../../../contracts/data-request-rules.js';
import { KEY_FUNCTION_NAMES, POLICY_KIND_NAMES } from '../../../contracts/governance-rules.js';
import { dateInWords, periodInWords } from '../../../contracts/irish-dates.js';
import { PAYOUT_KIND_NAMES } from '../../../contracts/member-lifecycle.js';
import type { Action } from '../../../contracts/policy.js';
import { FILING_KIND_NAMES } from '../../../contracts/scheme-year-rules.js';
import {
  aiDrafts,
  brokers,
  conflictsOfInterest,
  contributions,
  dataBreaches,
  dataRequests,
  documents,
  employers,
  filings,
  fundPrices,
  fundSwitches,
  funds,
  ictIncidents,
  ictProviders,
  imports,
  keyFunctionHolders,
  memberPayouts,
  members,
  oraReports,
  payrollUploads,
  platformIctIncidents,
  ragSources,
  remittanceReceipts,
  schemes,
  significantChanges,
  statementAssumptions,
  statementRuns,
  statements,
  trustees,
  trusteeTrainings,
  users,
  writtenPolicies,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { isAllowed } from '../../platform/tenancy/authorize.js';

/** What a reader may be told about one record an audit entry names. */
export interface EntityName {
  label: string;
  /** The record, or one it belongs to (a member's scheme or employer), is deleted. */
  deleted: boolean;
}

export interface AuditNames {
  actorName(actorId: string): string | null;
  entity(record: NamedReference): EntityName | null;
}

/** What resolving needs from an audit record. */
export interface NamedReference {
  actorId: string;
  action: string;
  entityType: string;
  entityId: string;
  /** Read only for a list read, for how many records it returned. */
  newState: unknown;
}

/**
 * A list read by platform staff, by how many records it returned (its `newState.returned`,
 * src/server/platform/audit/platform-reads.ts): a list has no one record to name.
 */
function listNamed(record: NamedReference): EntityName | null {
  if (record.entityId !== LIST_ENTITY_ID || record.action !== `${record.entityType}.listed`) {
    return null;
  }
  const state = record.newState;
  const returned =
    typeof state === 'object' && state !== null && 'returned' in state ? state.returned : null;
  return typeof returned === 'number' ? { label: listInWords(returned), deleted: false } : null;
}

/**
 * Records named without reading a table: the audit log itself (its export, recorded under the
 * log rather than under any one record) and the PPS encryption key, whose id is the name it is
 * configured by (docs/decisions/0051-readable-audit-log.md).
 */
export const NAMED_AS_THEY_ARE: Readonly<Record<string, (entityId: string) => string>> = {
  audit: () => AUDIT_LOG_NAME,
  pps_key: (entityId) => `Key “${entityId}”`,
};

function namedAsItIs(record: NamedReference): EntityName | null {
  const name = NAMED_AS_THEY_ARE[record.entityType];
  return name === undefined ? null : { label: name(record.entityId), deleted: false };
}

/** Ids per query: far below PostgreSQL's 65,535 bound parameters, even for a 50,000-row export. */
const IDS_PER_QUERY = 1_000;

function chunks<T>(items: readonly T[]): T[][] {
  const result: T[][] = [];
  for (let start = 0; start < items.length; start += IDS_PER_QUERY) {
    result.push(items.slice(start, start + IDS_PER_QUERY));
  }
  return result;
}

const memberName = (row: { firstName: string; lastName: string }) =>
  `${row.firstName} ${row.lastName}`;

const IMPORT_KIND_TEXT: Record<string, string> = {
  members: 'Members file',
  contributions: 'Contributions file',
};

/** A value in the words the pages use for it, or as it is when it has none. */
const named = (names: Readonly<Record<string, string>>, value: string) => names[value] ?? value;

/** Own tenant only, for a tenant reader; nothing more for platform staff. */
type InTenant = (column: PgColumn) => SQL | undefined;

/** Schemes by id, by name, deleted when they or their employer are. */
async function schemesNamed(tx: Transaction, ids: string[], inTenant: InTenant) {
  const rows = await tx
    .select({
      id: schemes.id,
      name: schemes.name,
      deletedAt: schemes.deletedAt,
      employerDeletedAt: employers.deletedAt,
    })
    .from(schemes)
    .innerJoin(employers, eq(employers.id, schemes.employerId))
    .where(and(inArray(schemes.id, ids), inTenant(schemes.brokerId)));
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    deleted: row.deletedAt !== null || row.employerDeletedAt !== null,
  }));
}

/** Members by id, by name, deleted when they, their scheme or their employer are. */
async function membersNamed(tx: Transaction, ids: string[], inTenant: InTenant) {
  const rows = await tx
    .select({
      id: members.id,
      firstName: members.firstName,
      lastName: members.lastName,
      deletedAt: members.deletedAt,
      schemeDeletedAt: schemes.deletedAt,
      employerDeletedAt: employers.deletedAt,
    })
    .from(members)
    .innerJoin(schemes, eq(schemes.id, members.schemeId))
    .innerJoin(employers, eq(employers.id, members.employerId))
    .where(and(inArray(members.id, ids), inTenant(members.brokerId)));
  return rows.map((row) => ({
    id: row.id,
    name: memberName(row),
    deleted:
      row.deletedAt !== null || row.schemeDeletedAt !== null || row.employerDeletedAt !== null,
  }));
}

/**
 * Names for the ids audit records keep (docs/decisions/0051-readable-audit-log.md), resolved when the log is read: the
 * records themselves never hold a name (docs/decisions/0029-audit-states-hold-no-personal-data.md), so a name
 * changed or erased later reads as it is now. Runs inside the reader's transaction, so row-level
 * security applies: a BrokerAdmin's queries reach only their own tenant's rows, and each query
 * also says so itself (the service's check, then the database's). A name the reader cannot see
 * resolves to null; a SuperAdmin's reach is every tenant. A record the reader may not read where
 * it lives (a trustee, a document, an upload: the policy table's action for reading it) is not
 * named at all, so the log tells no one more than the record's own page would. Nothing resolved
 * here is logged.
 */
export async function resolveAuditNames(
  tx: Transaction,
  reader: ActorContext,
  records: readonly NamedReference[],
): Promise<AuditNames> {
  const tenantId = reader.tenantId;
  const inTenant: InTenant = (column) => (tenantId === null ? undefined : eq(column, tenantId));

  const idsOf = (entityType: string): string[] => [
    ...new Set(records.filter((r) => r.entityType === entityType).map((r) => r.entityId)),
  ];
  const userIds = [...new Set([...records.map((record) => record.actorId), ...idsOf('user')])];

  const people = new Map<string, string>();
  const entities = new Map<string, EntityName>();
  const put = (entityType: string, id: string, label: string, deleted = false) =>
    entities.set(`${entityType}:${id}`, { label, deleted });
  /**
   * Names each record of `entityType` among `ids`, a chunk of ids a query: `read` selects them
   * (within the tenant: `inTenant`), `label` words one, and `deleted` says whether it, or a record
   * it belongs to, is deleted.
   */
  const nameEach = async <Row extends { id: string }>(
    entityType: string,
    ids: readonly string[],
    read: (chunk: string[]) => PromiseLike<Row[]>,
    label: (row: Row) => string,
    deleted: (row: Row) => boolean = () => false,
  ) => {
    for (const chunk of chunks(ids)) {
      for (const row of await read(chunk)) put(entityType, row.id, label(row), deleted(row));
    }
  };

  for (const ids of chunks(userIds)) {
    const rows = await tx
      .select({ id: users.id, name: users.name })
      .from(users)
      .where(and(inArray(users.id, ids), inTenant(users.brokerId)));
    for (const row of rows) people.set(row.id, row.name);
  }
  for (const id of idsOf('user')) {
    const name = people.get(id);
    if (name !== undefined) put('user', id, name);
  }

  await nameEach(
    'broker',
    idsOf('broker'),
    (ids) =>
      tx
        .select({ id: brokers.id, name: brokers.name })
        .from(brokers)
        .where(and(inArray(brokers.id, ids), inTenant(brokers.id))),
    (row) => row.name,
  );

  await nameEach(
    'employer',
    idsOf('employer'),
    (ids) =>
      tx
        .select({ id: employers.id, name: employers.name, deletedAt: employers.deletedAt })
        .from(employers)
        .where(and(inArray(employers.id, ids), inTenant(employers.brokerId))),
    (row) => row.name,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'scheme',
    idsOf('scheme'),
    (ids) => schemesNamed(tx, ids, inTenant),
    (row) => row.name,
    (row) => row.deleted,
  );

  await nameEach(
    'member',
    idsOf('member'),
    (ids) => membersNamed(tx, ids, inTenant),
    (row) => row.name,
    (row) => row.deleted,
  );

  await nameEach(
    'contribution',
    idsOf('contribution'),
    (ids) =>
      tx
        .select({
          id: contributions.id,
          period: contributions.period,
          kind: contributions.kind,
          firstName: members.firstName,
          lastName: members.lastName,
        })
        .from(contributions)
        .innerJoin(members, eq(members.id, contributions.memberId))
        .where(and(inArray(contributions.id, ids), inTenant(contributions.brokerId))),
    (row) =>
      `${memberName(row)}: ${named(CONTRIBUTION_KIND_LABELS, row.kind)} contribution, ${periodInWords(row.period)}`,
  );

  await nameEach(
    'fund',
    idsOf('fund'),
    (ids) =>
      tx
        .select({ id: funds.id, name: funds.name })
        .from(funds)
        .where(and(inArray(funds.id, ids), inTenant(funds.brokerId))),
    (row) => row.name,
  );

  await nameEach(
    'import',
    idsOf('import'),
    (ids) =>
      tx
        .select({ id: imports.id, kind: imports.kind, schemeName: schemes.name })
        .from(imports)
        .innerJoin(schemes, eq(schemes.id, imports.schemeId))
        .where(and(inArray(imports.id, ids), inTenant(imports.brokerId))),
    (row) => `${IMPORT_KIND_TEXT[row.kind] ?? 'File'} for ${row.schemeName}`,
  );

  /** Names of the kind of record a reader may read where it lives, and only those. */
  const readable = (entityType: string, action: Action): string[] =>
    isAllowed(reader, action) ? idsOf(entityType) : [];

  await nameEach(
    'compliance',
    readable('compliance', 'compliance.read'),
    (ids) =>
      tx
        .select({ id: schemes.id, name: schemes.name, deletedAt: schemes.deletedAt })
        .from(schemes)
        .where(and(inArray(schemes.id, ids), inTenant(schemes.brokerId))),
    (row) => row.name,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'document',
    readable('document', 'document.read'),
    (ids) =>
      tx
        .select({
          id: documents.id,
          title: documents.title,
          filename: documents.filename,
          version: documents.version,
          deletedAt: documents.deletedAt,
        })
        .from(documents)
        .where(and(inArray(documents.id, ids), inTenant(documents.brokerId))),
    (row) => {
      const name = row.title ?? row.filename;
      return row.version > 1 ? `${name}, version ${row.version}` : name;
    },
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'written_policy',
    readable('written_policy', 'policy.read'),
    (ids) =>
      tx
        .select({
          id: writtenPolicies.id,
          kind: writtenPolicies.kind,
          version: writtenPolicies.version,
          deletedAt: writtenPolicies.deletedAt,
        })
        .from(writtenPolicies)
        .where(and(inArray(writtenPolicies.id, ids), inTenant(writtenPolicies.brokerId))),
    (row) => `${named(POLICY_KIND_NAMES, row.kind)}, version ${row.version}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'trustee',
    readable('trustee', 'trustee.read'),
    (ids) =>
      tx
        .select({ id: trustees.id, name: trustees.name, deletedAt: trustees.deletedAt })
        .from(trustees)
        .where(and(inArray(trustees.id, ids), inTenant(trustees.brokerId))),
    (row) => row.name,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'key_function_holder',
    readable('key_function_holder', 'kfh.read'),
    (ids) =>
      tx
        .select({
          id: keyFunctionHolders.id,
          holderName: keyFunctionHolders.holderName,
          function: keyFunctionHolders.function,
          deletedAt: keyFunctionHolders.deletedAt,
        })
        .from(keyFunctionHolders)
        .where(and(inArray(keyFunctionHolders.id, ids), inTenant(keyFunctionHolders.brokerId))),
    (row) => `${row.holderName}, ${named(KEY_FUNCTION_NAMES, row.function).toLowerCase()}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'trustee_training',
    readable('trustee_training', 'trustee_training.list'),
    (ids) =>
      tx
        .select({
          id: trusteeTrainings.id,
          completedOn: trusteeTrainings.completedOn,
          trusteeName: trustees.name,
          deletedAt: trusteeTrainings.deletedAt,
        })
        .from(trusteeTrainings)
        .innerJoin(
          trustees,
          and(
            eq(trustees.brokerId, trusteeTrainings.brokerId),
            eq(trustees.id, trusteeTrainings.trusteeId),
          ),
        )
        .where(and(inArray(trusteeTrainings.id, ids), inTenant(trusteeTrainings.brokerId))),
    (row) => `${row.trusteeName}: training completed ${dateInWords(row.completedOn)}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'ora_report',
    readable('ora_report', 'ora.read'),
    (ids) =>
      tx
        .select({
          id: oraReports.id,
          performedOn: oraReports.performedOn,
          deletedAt: oraReports.deletedAt,
        })
        .from(oraReports)
        .where(and(inArray(oraReports.id, ids), inTenant(oraReports.brokerId))),
    (row) => `Own-risk assessment of ${dateInWords(row.performedOn)}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'significant_change',
    readable('significant_change', 'significant_change.list'),
    (ids) =>
      tx
        .select({
          id: significantChanges.id,
          occurredOn: significantChanges.occurredOn,
          deletedAt: significantChanges.deletedAt,
        })
        .from(significantChanges)
        .where(and(inArray(significantChanges.id, ids), inTenant(significantChanges.brokerId))),
    (row) => `Significant change of ${dateInWords(row.occurredOn)}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'filing',
    readable('filing', 'filing.read'),
    (ids) =>
      tx
        .select({
          id: filings.id,
          kind: filings.kind,
          periodEnd: filings.periodEnd,
          deletedAt: filings.deletedAt,
        })
        .from(filings)
        .where(and(inArray(filings.id, ids), inTenant(filings.brokerId))),
    (row) => `${named(FILING_KIND_NAMES, row.kind)}, year ending ${dateInWords(row.periodEnd)}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'payroll_upload',
    readable('payroll_upload', 'ae_payroll.read'),
    (ids) =>
      tx
        .select({
          id: payrollUploads.id,
          fileName: payrollUploads.fileName,
          employerName: employers.name,
          employerDeletedAt: employers.deletedAt,
        })
        .from(payrollUploads)
        .innerJoin(employers, eq(employers.id, payrollUploads.employerId))
        .where(and(inArray(payrollUploads.id, ids), inTenant(payrollUploads.brokerId))),
    (row) =>
      `Payroll file ${row.fileName === null ? '' : `${row.fileName} `}for ${row.employerName}`,
    (row) => row.employerDeletedAt !== null,
  );

  await nameEach(
    'conflict',
    readable('conflict', 'conflict.read'),
    (ids) =>
      tx
        .select({
          id: conflictsOfInterest.id,
          personName: conflictsOfInterest.personName,
          declaredOn: conflictsOfInterest.declaredOn,
          deletedAt: conflictsOfInterest.deletedAt,
        })
        .from(conflictsOfInterest)
        .where(and(inArray(conflictsOfInterest.id, ids), inTenant(conflictsOfInterest.brokerId))),
    (row) => `${row.personName}: conflict of interest declared ${dateInWords(row.declaredOn)}`,
    (row) => row.deletedAt !== null,
  );

  // DC money (docs/decisions/0127-dc-money.md): a price by its fund and day, a switch and a
  // member's holdings by the member, a scheme's fund assets by the scheme. A list of prices,
  // switches or unit movements is recorded as a list, with no id to name.
  await nameEach(
    'fund_price',
    readable('fund_price', 'fund_price.list'),
    (ids) =>
      tx
        .select({
          id: fundPrices.id,
          pricedOn: fundPrices.pricedOn,
          fundName: funds.name,
          schemeDeletedAt: schemes.deletedAt,
          employerDeletedAt: employers.deletedAt,
        })
        .from(fundPrices)
        .innerJoin(
          funds,
          and(eq(funds.brokerId, fundPrices.brokerId), eq(funds.id, fundPrices.fundId)),
        )
        .innerJoin(schemes, eq(schemes.id, fundPrices.schemeId))
        .innerJoin(employers, eq(employers.id, fundPrices.employerId))
        .where(and(inArray(fundPrices.id, ids), inTenant(fundPrices.brokerId))),
    (row) => `${row.fundName}: price of ${dateInWords(row.pricedOn)}`,
    (row) => row.schemeDeletedAt !== null || row.employerDeletedAt !== null,
  );

  await nameEach(
    'fund_switch',
    readable('fund_switch', 'fund_switch.list'),
    (ids) =>
      tx
        .select({
          id: fundSwitches.id,
          requestedOn: fundSwitches.requestedOn,
          firstName: members.firstName,
          lastName: members.lastName,
          deletedAt: members.deletedAt,
          schemeDeletedAt: schemes.deletedAt,
          employerDeletedAt: employers.deletedAt,
        })
        .from(fundSwitches)
        .innerJoin(members, eq(members.id, fundSwitches.memberId))
        .innerJoin(schemes, eq(schemes.id, fundSwitches.schemeId))
        .innerJoin(employers, eq(employers.id, fundSwitches.employerId))
        .where(and(inArray(fundSwitches.id, ids), inTenant(fundSwitches.brokerId))),
    (row) => `${memberName(row)}: switch asked for on ${dateInWords(row.requestedOn)}`,
    (row) =>
      row.deletedAt !== null || row.schemeDeletedAt !== null || row.employerDeletedAt !== null,
  );

  // A member's holdings are recorded by the member's id: named as the member is.
  await nameEach(
    'member_holdings',
    readable('member_holdings', 'holdings.read'),
    (ids) => membersNamed(tx, ids, inTenant),
    (row) => row.name,
    (row) => row.deleted,
  );

  // A scheme's fund assets are recorded by the scheme's id: named as the scheme is.
  await nameEach(
    'fund_assets',
    readable('fund_assets', 'fund_assets.read'),
    (ids) => schemesNamed(tx, ids, inTenant),
    (row) => row.name,
    (row) => row.deleted,
  );

  await nameEach(
    'ai_draft',
    readable('ai_draft', 'ai.draft.read'),
    (ids) =>
      tx
        .select({
          id: aiDrafts.id,
          kind: aiDrafts.kind,
          policyKind: aiDrafts.policyKind,
          schemeName: schemes.name,
        })
        .from(aiDrafts)
        .innerJoin(schemes, eq(schemes.id, aiDrafts.schemeId))
        .where(and(inArray(aiDrafts.id, ids), inTenant(aiDrafts.brokerId))),
    (row) => {
      const kind =
        row.policyKind === null
          ? named(DRAFT_KIND_NAMES, row.kind)
          : named(POLICY_KIND_NAMES, row.policyKind);
      return `Draft ${kind.toLowerCase()} for ${row.schemeName}`;
    },
  );

  // The regulatory corpus is public text, shared by every tenant
  // (docs/decisions/0069-regulatory-corpus-and-retrieval.md): a text by its title, its stable name
  // being the record's id. Its records are the platform's, which only platform staff read.
  await nameEach(
    'rag_source',
    idsOf('rag_source'),
    (ids) =>
      tx
        .select({ id: ragSources.source, title: ragSources.title })
        .from(ragSources)
        .where(inArray(ragSources.source, ids)),
    (row) => row.title,
  );

  // DORA's registers (docs/decisions/0139-dora-ict-incidents.md): an incident by the firm's
  // reference and its title, an incident of the platform itself (platform staff's only) by its
  // title, a provider by its name.
  const incidentIds = readable('ict_incident', 'ict_incident.read');
  await nameEach(
    'ict_incident',
    incidentIds,
    (ids) =>
      tx
        .select({
          id: ictIncidents.id,
          reference: ictIncidents.reference,
          title: ictIncidents.title,
        })
        .from(ictIncidents)
        .where(and(inArray(ictIncidents.id, ids), inTenant(ictIncidents.brokerId))),
    (row) => `${row.reference}: ${row.title}`,
  );
  await nameEach(
    'ict_incident',
    tenantId === null ? incidentIds : [],
    (ids) =>
      tx
        .select({ id: platformIctIncidents.id, title: platformIctIncidents.title })
        .from(platformIctIncidents)
        .where(inArray(platformIctIncidents.id, ids)),
    (row) => row.title,
  );

  await nameEach(
    'ict_provider',
    readable('ict_provider', 'ict_provider.list'),
    (ids) =>
      tx
        .select({ id: ictProviders.id, name: ictProviders.name })
        .from(ictProviders)
        .where(and(inArray(ictProviders.id, ids), inTenant(ictProviders.brokerId))),
    (row) => row.name,
  );

  await nameEach(
    'data_breach',
    readable('data_breach', 'data_breach.read'),
    (ids) =>
      tx
        .select({ id: dataBreaches.id, title: dataBreaches.title })
        .from(dataBreaches)
        .where(and(inArray(dataBreaches.id, ids), inTenant(dataBreaches.brokerId))),
    (row) => row.title,
  );

  // A data subject's request as the register of requests names it: its kind, whose, and when.
  await nameEach(
    'data_request',
    readable('data_request', 'data_request.read'),
    (ids) =>
      tx
        .select({
          id: dataRequests.id,
          kind: dataRequests.kind,
          receivedOn: dataRequests.receivedOn,
          firstName: members.firstName,
          lastName: members.lastName,
          deletedAt: members.deletedAt,
        })
        .from(dataRequests)
        .innerJoin(
          members,
          and(eq(members.brokerId, dataRequests.brokerId), eq(members.id, dataRequests.memberId)),
        )
        .where(and(inArray(dataRequests.id, ids), inTenant(dataRequests.brokerId))),
    (row) =>
      `${named(DATA_REQUEST_KIND_NAMES, row.kind)} from ${memberName(row)}, received ${dateInWords(row.receivedOn)}`,
    (row) => row.deletedAt !== null,
  );

  await nameEach(
    'statement_run',
    readable('statement_run', 'statement_run.read'),
    (ids) =>
      tx
        .select({
          id: statementRuns.id,
          informationDate: statementRuns.informationDate,
          schemeName: schemes.name,
          schemeDeletedAt: schemes.deletedAt,
          employerDeletedAt: employers.deletedAt,
        })
        .from(statementRuns)
        .innerJoin(schemes, eq(schemes.id, statementRuns.schemeId))
        .innerJoin(employers, eq(employers.id, statementRuns.employerId))
        .where(and(inArray(statementRuns.id, ids), inTenant(statementRuns.brokerId))),
    (row) => `${row.schemeName}: statements at ${dateInWords(row.informationDate)}`,
    (row) => row.schemeDeletedAt !== null || row.employerDeletedAt !== null,
  );

  // A payment an employer sent for a month's deductions (docs/decisions/0136-contribution-remittance.md).
  await nameEach(
    'remittance_receipt',
    readable('remittance_receipt', 'remittance_receipt.list'),
    (ids) =>
      tx
        .select({
          id: remittanceReceipts.id,
          month: remittanceReceipts.month,
          employerName: employers.name,
          employerDeletedAt: employers.deletedAt,
        })
        .from(remittanceReceipts)
        .innerJoin(employers, eq(employers.id, remittanceReceipts.employerId))
        .where(and(inArray(remittanceReceipts.id, ids), inTenant(remittanceReceipts.brokerId))),
    (row) => `${row.employerName}: payment for ${periodInWords(row.month)}`,
    (row) => row.employerDeletedAt !== null,
  );

  // A projection assumption set (docs/decisions/0141-pension-benefit-statements.md) by the name and
  // version its page gives it.
  await nameEach(
    'statement_assumptions',
    readable('statement_assumptions', 'statement_assumptions.read'),
    (ids) =>
      tx
        .select({
          id: statementAssumptions.id,
          name: statementAssumptions.name,
          version: statementAssumptions.version,
        })
        .from(statementAssumptions)
        .where(and(inArray(statementAssumptions.id, ids), inTenant(statementAssumptions.brokerId))),
    (row) => (row.version > 1 ? `${row.name}, version ${row.version}` : row.name),
  );

  // One member's statement, by the member and its information date.
  await nameEach(
    'statement',
    readable('statement', 'statement.read'),
    (ids) =>
      tx
        .select({
          id: statements.id,
          informationDate: statements.informationDate,
          firstName: members.firstName,
          lastName: members.lastName,
          deletedAt: members.deletedAt,
        })
        .from(statements)
        .innerJoin(
          members,
          and(eq(members.brokerId, statements.brokerId), eq(members.id, statements.memberId)),
        )
        .where(and(inArray(statements.id, ids), inTenant(statements.brokerId))),
    (row) => `${memberName(row)}: statement at ${dateInWords(row.informationDate)}`,
    (row) => row.deletedAt !== null,
  );

  // A member's status (its reads are recorded by the member's id) and a payment out of their
  // benefit, by the member.
  await nameEach(
    'member_status_change',
    readable('member_status_change', 'member.lifecycle.read'),
    (ids) => membersNamed(tx, ids, inTenant),
    (row) => row.name,
    (row) => row.deleted,
  );
  await nameEach(
    'member_payout',
    readable('member_payout', 'member.lifecycle.read'),
    (ids) =>
      tx
        .select({
          id: memberPayouts.id,
          kind: memberPayouts.kind,
          fromOn: memberPayouts.fromOn,
          firstName: members.firstName,
          lastName: members.lastName,
          deletedAt: members.deletedAt,
        })
        .from(memberPayouts)
        .innerJoin(
          members,
          and(eq(members.brokerId, memberPayouts.brokerId), eq(members.id, memberPayouts.memberId)),
        )
        .where(and(inArray(memberPayouts.id, ids), inTenant(memberPayouts.brokerId))),
    (row) =>
      `${memberName(row)}: ${named(PAYOUT_KIND_NAMES, row.kind).toLowerCase()} from ${dateInWords(row.fromOn)}`,
    (row) => row.deletedAt !== null,
  );

  // An employer's payments received (recorded by the employer's id) and a scheme's late-payment
  // report (by the scheme's id), as platform staff read them.
  await nameEach(
    'remittance',
    readable('remittance', 'remittance.read'),
    (ids) =>
      tx
        .select({ id: employers.id, name: employers.name, deletedAt: employers.deletedAt })
        .from(employers)
        .where(and(inArray(employers.id, ids), inTenant(employers.brokerId))),
    (row) => `${row.name}: payments received`,
    (row) => row.deletedAt !== null,
  );
  await nameEach(
    'late_remittance',
    readable('late_remittance', 'late_remittance.list'),
    (ids) => schemesNamed(tx, ids, inTenant),
    (row) => `${row.name}: late payments`,
    (row) => row.deleted,
  );

  // A firm's AI settings are recorded by the firm's id.
  await nameEach(
    'ai_settings',
    readable('ai_settings', 'ai.settings.read'),
    (ids) =>
      tx
        .select({ id: brokers.id, name: brokers.name })
        .from(brokers)
        .where(and(inArray(brokers.id, ids), inTenant(brokers.id))),
    (row) => `AI settings of ${row.name}`,
  );

  return {
    actorName: (actorId) => people.get(actorId) ?? null,
    entity: (record) =>
      listNamed(record) ??
      namedAsItIs(record) ??
      entities.get(`${record.entityType}:${record.entityId}`) ??
      null,
  };
}
