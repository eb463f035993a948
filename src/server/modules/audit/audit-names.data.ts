import { and, eq, inArray, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import {
  brokers,
  contributions,
  employers,
  funds,
  imports,
  members,
  schemes,
  users,
} from '../../platform/db/schema.js';
import type { Transaction } from '../../platform/db/with-actor.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';

/** What a reader may be told about one record an audit entry names. */
export interface EntityName {
  label: string;
  /** The record, or one it belongs to (a member's scheme or employer), is deleted. */
  deleted: boolean;
}

export interface AuditNames {
  actorName(actorId: string): string | null;
  entity(entityType: string, entityId: string): EntityName | null;
}

/** What resolving needs from an audit record. */
export interface NamedReference {
  actorId: string;
  entityType: string;
  entityId: string;
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

/**
 * Names for the ids audit records keep (docs/decisions/0051-readable-audit-log.md), resolved when the log is read: the
 * records themselves never hold a name (docs/decisions/0029-audit-states-hold-no-personal-data.md), so a name
 * changed or erased later reads as it is now. Runs inside the reader's transaction, so row-level
 * security applies: a BrokerAdmin's queries reach only their own tenant's rows, and each query
 * also says so itself (the service's check, then the database's). A name the reader cannot see
 * resolves to null; a SuperAdmin's reach is every tenant. Nothing resolved here is logged.
 */
export async function resolveAuditNames(
  tx: Transaction,
  reader: ActorContext,
  records: readonly NamedReference[],
): Promise<AuditNames> {
  const tenantId = reader.tenantId;
  /** Own tenant only, for a tenant reader; nothing more for platform staff. */
  const inTenant = (column: PgColumn): SQL | undefined =>
    tenantId === null ? undefined : eq(column, tenantId);

  const idsOf = (entityType: string): string[] => [
    ...new Set(records.filter((r) => r.entityType === entityType).map((r) => r.entityId)),
  ];
  const userIds = [...new Set([...records.map((record) => record.actorId), ...idsOf('user')])];

  const people = new Map<string, string>();
  const entities = new Map<string, EntityName>();
  const put = (entityType: string, id: string, label: string, deleted = false) =>
    entities.set(`${entityType}:${id}`, { label, deleted });

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

  for (const ids of chunks(idsOf('broker'))) {
    const rows = await tx
      .select({ id: brokers.id, name: brokers.name })
      .from(brokers)
      .where(and(inArray(brokers.id, ids), inTenant(brokers.id)));
    for (const row of rows) put('broker', row.id, row.name);
  }

  for (const ids of chunks(idsOf('employer'))) {
    const rows = await tx
      .select({ id: employers.id, name: employers.name, deletedAt: employers.deletedAt })
      .from(employers)
      .where(and(inArray(employers.id, ids), inTenant(employers.brokerId)));
    for (const row of rows) put('employer', row.id, row.name, row.deletedAt !== null);
  }

  for (const ids of chunks(idsOf('scheme'))) {
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
    for (const row of rows) {
      put('scheme', row.id, row.name, row.deletedAt !== null || row.employerDeletedAt !== null);
    }
  }

  for (const ids of chunks(idsOf('member'))) {
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
    for (const row of rows) {
      const deleted =
        row.deletedAt !== null || row.schemeDeletedAt !== null || row.employerDeletedAt !== null;
      put('member', row.id, memberName(row), deleted);
    }
  }

  for (const ids of chunks(idsOf('contribution'))) {
    const rows = await tx
      .select({
        id: contributions.id,
        period: contributions.period,
        kind: contributions.kind,
        firstName: members.firstName,
        lastName: members.lastName,
      })
      .from(contributions)
      .innerJoin(members, eq(members.id, contributions.memberId))
      .where(and(inArray(contributions.id, ids), inTenant(contributions.brokerId)));
    for (const row of rows) {
      put('contribution', row.id, `${memberName(row)}: ${row.kind} contribution, ${row.period}`);
    }
  }

  for (const ids of chunks(idsOf('fund'))) {
    const rows = await tx
      .select({ id: funds.id, name: funds.name })
      .from(funds)
      .where(and(inArray(funds.id, ids), inTenant(funds.brokerId)));
    for (const row of rows) put('fund', row.id, row.name);
  }

  for (const ids of chunks(idsOf('import'))) {
    const rows = await tx
      .select({ id: imports.id, kind: imports.kind, schemeName: schemes.name })
      .from(imports)
      .innerJoin(schemes, eq(schemes.id, imports.schemeId))
      .where(and(inArray(imports.id, ids), inTenant(imports.brokerId)));
    for (const row of rows) {
      put('import', row.id, `${IMPORT_KIND_TEXT[row.kind] ?? 'File'} for ${row.schemeName}`);
    }
  }

  return {
    actorName: (actorId) => people.get(actorId) ?? null,
    entity: (entityType, entityId) => entities.get(`${entityType}:${entityId}`) ?? null,
  };
}
