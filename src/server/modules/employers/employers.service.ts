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
import {
  EMPLOYER_PERSONAL_DETAILS,
  type EmployerChange,
  type EmployerInput,
  type EmployerView,
  type PayrollFrequency,
} from './employers.schemas.js';

const viewOf = (row: EmployerRow): EmployerView => ({
  id: row.id,
  brokerId: row.brokerId,
  name: row.name,
  croNumber: row.croNumber,
  employerRegistrationNumber: row.employerRegistrationNumber,
  registeredAddress: row.registeredAddress,
  contactName: row.contactName,
  contactEmail: row.contactEmail,
  contactPhone: row.contactPhone,
  payrollFrequency: row.payrollFrequency as PayrollFrequency | null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

const PERSONAL_DETAILS: ReadonlySet<string> = new Set(EMPLOYER_PERSONAL_DETAILS);

/**
 * What the audit log keeps of an employer: its name, CRO number and payroll frequency, never its
 * details that are a person's data (its contact's name, e-mail address and phone, its address
 * and Revenue number: docs/decisions/0029-audit-states-hold-no-personal-data.md). A change to one
 * of those is named in `changedFields`, its value left out.
 */
function auditStateOf(row: EmployerRow, changed?: readonly string[]) {
  const kept = Object.fromEntries(
    Object.entries(viewOf(row)).filter(([key]) => !PERSONAL_DETAILS.has(key)),
  );
  const personal = changed?.filter((key) => PERSONAL_DETAILS.has(key)) ?? [];
  return personal.length > 0 ? { ...kept, changedFields: personal } : kept;
}

/** The fields a request gave a value (or null) for, in order. */
const givenFields = (change: Record<string, unknown>) =>
  Object.entries(change)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key)
    .sort();

export interface EmployersServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/** Employers of a broker firm (docs/api.md, "The firm's structure"; who may do what: contracts/policy.ts). */
export function createEmployersService({ database, audit, now }: EmployersServiceDeps) {
  const reads = createPlatformReadLog(audit);

  return {
    async create(actor: ActorContext, input: EmployerInput): Promise<EmployerView> {
      const tenantActor = authorize(actor, 'employer.create');
      return withActor(database, tenantActor, async (tx) => {
        const at = now();
        const employer = await insertEmployer(tx, {
          id: createId(),
          // The tenant comes from the actor, never from the request (docs/api.md, "Who may do what").
          brokerId: tenantActor.tenantId,
          ...input,
          createdAt: at,
          updatedAt: at,
        });
        await audit.record(tx, tenantActor, {
          action: 'employer.created',
          entityType: 'employer',
          entityId: employer.id,
          tenantId: employer.brokerId,
          previousState: null,
          newState: auditStateOf(employer, givenFields(input)),
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

    async update(actor: ActorContext, id: string, change: EmployerChange): Promise<EmployerView> {
      const tenantActor = authorize(actor, 'employer.update');
      return withActor(database, tenantActor, async (tx) => {
        const existing = authorizeRow(tenantActor, 'employer.update', await findEmployer(tx, id));
        const updated = await updateEmployer(tx, existing.id, { ...change, updatedAt: now() });
        // Only what changed is named: a detail sent again as it was is no change.
        const before: Record<string, unknown> = viewOf(existing);
        const after: Record<string, unknown> = viewOf(updated);
        const changed = givenFields(change).filter((key) => before[key] !== after[key]);
        await audit.record(tx, tenantActor, {
          action: 'employer.updated',
          entityType: 'employer',
          entityId: updated.id,
          tenantId: updated.brokerId,
          previousState: auditStateOf(existing),
          newState: auditStateOf(updated, changed),
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
          previousState: auditStateOf(existing),
          newState: null,
        });
      });
    },
  };
}

export type EmployersService = ReturnType<typeof createEmployersService>;
