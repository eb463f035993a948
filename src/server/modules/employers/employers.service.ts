import { createId } from '@paralleldrive/cuid2';
import type { PageQuery } from '../../../contracts/pages.js';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { employers } from '../../platform/db/schema.js';
import { withActor } from '../../platform/db/with-actor.js';
import { ConflictError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import {
  type EmployerRow,
  findEmployer,
  hasLiveScheme,
  insertEmployer,
  listEmployers,
  softDeleteEmployer,
  updateEmployer,
} from './employers.data.js';
import type { EmployerInput, EmployerView } from './employers.schemas.js';

const viewOf = (row: EmployerRow): EmployerView => ({
  id: row.id,
  brokerId: row.brokerId,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export interface EmployersServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** Employers of a broker firm (decisions.md §3; who may do what: contracts/policy.ts). */
export function createEmployersService({ database, audit, now }: EmployersServiceDeps) {
  const reads = createPlatformReadLog(audit);

  return {
    async create(actor: ActorContext, input: EmployerInput): Promise<EmployerView> {
      const tenantActor = authorize(actor, 'employer.create');
      return withActor(database, tenantActor, async (tx) => {
        const at = now();
        const employer = await insertEmployer(tx, {
          id: createId(),
          // service-spec §3.3.4: the tenant comes from the actor, never from the request.
          brokerId: tenantActor.tenantId,
          name: input.name,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, tenantActor, {
          action: 'employer.created',
          entityType: 'employer',
          entityId: employer.id,
          tenantId: employer.brokerId,
          previousState: null,
          newState: viewOf(employer),
        });
        return viewOf(employer);
      });
    },

    async list(actor: ActorContext, page: PageQuery) {
      authorize(actor, 'employer.list');
      const { employerId } = boundsOf(actor, 'employer.list');
      const position = keyset(page, { at: employers.createdAt, id: employers.id });
      const rows = await withActor(database, actor, async (tx) => {
        const found = await listEmployers(tx, employerId, position);
        await reads.listed(tx, actor, {
          entityType: 'employer',
          filters: page,
          returned: found.length,
        });
        return found;
      });
      const result = pageFrom(rows, page, (row) => ({ at: row.createdAt, id: row.id }));
      return { items: result.items.map(viewOf), nextCursor: result.nextCursor };
    },

    async get(actor: ActorContext, id: string): Promise<EmployerView> {
      authorize(actor, 'employer.read');
      const row = await withActor(database, actor, async (tx) => {
        const reached = authorizeRow(actor, 'employer.read', await findEmployer(tx, id));
        await reads.viewed(tx, actor, {
          entityType: 'employer',
          entityId: reached.id,
          tenantId: reached.brokerId,
        });
        return reached;
      });
      return viewOf(row);
    },

    async update(actor: ActorContext, id: string, input: EmployerInput): Promise<EmployerView> {
      const tenantActor = authorize(actor, 'employer.update');
      return withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(tenantActor, 'employer.update', await findEmployer(tx, id));
        const updated = await updateEmployer(tx, existing.id, {
          name: input.name,
          updatedAt: now(),
        });
        await audit.record(tx, tenantActor, {
          action: 'employer.updated',
          entityType: 'employer',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: viewOf(existing),
          newState: viewOf(updated),
        });
        return viewOf(updated);
      });
    },

    /** Soft delete: the record stays for the audit trail but disappears from every read. */
    async remove(actor: ActorContext, id: string): Promise<void> {
      const tenantActor = authorize(actor, 'employer.delete');
      await withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(tenantActor, 'employer.delete', await findEmployer(tx, id));
        if (await hasLiveScheme(tx, existing.id))
          throw new ConflictError('Employer still has schemes');
        const at = now();
        await softDeleteEmployer(tx, existing.id, at);
        await audit.record(tx, tenantActor, {
          action: 'employer.deleted',
          entityType: 'employer',
          entityId: existing.id,
          tenantId: existing.brokerId,
          previousState: viewOf(existing),
          newState: null,
        });
      });
    },
  };
}

export type EmployersService = ReturnType<typeof createEmployersService>;
