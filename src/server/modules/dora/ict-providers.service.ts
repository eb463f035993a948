import { createId } from '@paralleldrive/cuid2';
import type { AuditService } from '../../platform/audit/audit-log.js';
import { createPlatformReadLog } from '../../platform/audit/platform-reads.js';
import type { Database } from '../../platform/db/database.js';
import { keyset, pageFrom } from '../../platform/db/keyset.js';
import { ictProviders } from '../../platform/db/schema.js';
import { type Transaction, withActor } from '../../platform/db/with-actor.js';
import { ValidationError } from '../../platform/errors.js';
import type { ActorContext } from '../../platform/tenancy/actor.js';
import { authorize, authorizeRow, boundsOf } from '../../platform/tenancy/authorize.js';
import {
  type IctProviderInput,
  type IctProviderQuery,
  type IctProviderUpdate,
  type IctProviderView,
  providerIdentifierProblem,
} from './ict-incidents.schemas.js';
import {
  type IctProviderRow,
  insertProvider,
  listProviders,
  lockProvider,
  updateProvider,
} from './ict-providers.data.js';

function viewOf(row: IctProviderRow): IctProviderView {
  return {
    id: row.id,
    brokerId: row.brokerId,
    name: row.name,
    identifier: row.identifier,
    identifierType: row.identifierType as IctProviderView['identifierType'],
    country: row.country,
    serviceType: row.serviceType as IctProviderView['serviceType'],
    contractReference: row.contractReference,
    startedOn: row.startedOn,
    endedOn: row.endedOn,
    supportsCriticalFunction: row.supportsCriticalFunction,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** What the audit log keeps of a provider: its codes and dates, not its name or contract's reference. */
const auditState = (row: IctProviderRow) => ({
  id: row.id,
  identifierType: row.identifierType,
  country: row.country,
  serviceType: row.serviceType,
  startedOn: row.startedOn,
  endedOn: row.endedOn,
  supportsCriticalFunction: row.supportsCriticalFunction,
});

/**
 * An identifier comes with its type and has that type's shape (providerIdentifierProblem, the rule
 * the page applies too), and an arrangement ends on or after it started: 400 otherwise.
 */
function checkWhole(facts: {
  identifier: string | null;
  identifierType: string | null;
  startedOn: string;
  endedOn: string | null;
}) {
  if ((facts.identifier === null) !== (facts.identifierType === null)) {
    throw new ValidationError([
      {
        path: facts.identifier === null ? 'identifier' : 'identifierType',
        code: 'identifier_incomplete',
        message: 'Give the provider’s identifier with its type, LEI or EUID, or neither',
      },
    ]);
  }
  const malformed = providerIdentifierProblem(facts.identifier, facts.identifierType);
  if (malformed !== null) {
    throw new ValidationError([
      { path: 'identifier', code: 'identifier_malformed', message: malformed },
    ]);
  }
  if (facts.endedOn !== null && facts.endedOn < facts.startedOn) {
    throw new ValidationError([
      {
        path: 'endedOn',
        code: 'ended_before_start',
        message: 'An arrangement ends on or after the day it started: check both dates',
      },
    ]);
  }
}

export interface IctProvidersServiceDeps {
  database: Database;
  audit: AuditService;
  now: () => Date;
}

/**
 * The firm's register of its ICT providers other than this platform
 * (docs/decisions/0139-dora-ict-incidents.md; DORA Art. 28(3)): added, listed and changed; an
 * arrangement that ends is given its end date and kept.
 */
export function createIctProvidersService({ database, audit, now }: IctProvidersServiceDeps) {
  const reads = createPlatformReadLog(audit);

  async function record(
    tx: Transaction,
    actor: ActorContext,
    action: 'ict_provider.recorded' | 'ict_provider.updated',
    before: IctProviderRow | null,
    after: IctProviderRow,
  ) {
    await audit.record(tx, actor, {
      action,
      entityType: 'ict_provider',
      entityId: after.id,
      tenantId: after.brokerId,
      previousState: before && auditState(before),
      newState: auditState(after),
    });
  }

  return {
    async create(actor: ActorContext, input: IctProviderInput): Promise<IctProviderView> {
      const writer = authorize(actor, 'ict_provider.create');
      const facts = {
        identifier: input.identifier ?? null,
        identifierType: input.identifierType ?? null,
        startedOn: input.startedOn,
        endedOn: input.endedOn ?? null,
      };
      checkWhole(facts);
      return withActor(database, writer, async (tx) => {
        const at = now();
        const provider = await insertProvider(tx, {
          brokerId: writer.tenantId,
          id: createId(),
          name: input.name,
          ...facts,
          country: input.country,
          serviceType: input.serviceType,
          contractReference: input.contractReference,
          supportsCriticalFunction: input.supportsCriticalFunction,
          createdBy: writer.userId,
          createdAt: at,
          updatedAt: at,
        });
        await record(tx, writer, 'ict_provider.recorded', null, provider);
        return viewOf(provider);
      });
    },

    async list(actor: ActorContext, query: IctProviderQuery) {
      authorize(actor, 'ict_provider.list');
      const bounds = boundsOf(actor, 'ict_provider.list');
      const position = keyset(query, { at: ictProviders.createdAt, id: ictProviders.id }, 'desc');
      return withActor(database, actor, async (tx) => {
        const rows = await listProviders(tx, bounds.tenantId, position);
        await reads.listed(tx, actor, {
          entityType: 'ict_provider',
          filters: query,
          returned: rows.length,
        });
        const page = pageFrom(rows, query, (row) => ({ at: row.createdAt, id: row.id }));
        return { items: page.items.map(viewOf), nextCursor: page.nextCursor };
      });
    },

    async update(
      actor: ActorContext,
      id: string,
      input: IctProviderUpdate,
    ): Promise<IctProviderView> {
      const writer = authorize(actor, 'ict_provider.update');
      return withActor(database, writer, async (tx) => {
        const provider = authorizeRow(writer, 'ict_provider.update', await lockProvider(tx, id));
        const pick = <K extends keyof IctProviderUpdate>(
          key: K,
          current: IctProviderRow[K & keyof IctProviderRow],
        ) => (input[key] === undefined ? current : input[key]);
        const facts = {
          identifier: pick('identifier', provider.identifier) as string | null,
          identifierType: pick('identifierType', provider.identifierType) as string | null,
          startedOn: pick('startedOn', provider.startedOn) as string,
          endedOn: pick('endedOn', provider.endedOn) as string | null,
        };
        checkWhole(facts);
        const updated = await updateProvider(tx, provider, {
          ...facts,
          name: pick('name', provider.name) as string,
          country: pick('country', provider.country) as string,
          serviceType: pick('serviceType', provider.serviceType) as string,
          contractReference: pick('contractReference', provider.contractReference) as string,
          supportsCriticalFunction: pick(
            'supportsCriticalFunction',
            provider.supportsCriticalFunction,
          ) as boolean,
          updatedAt: now(),
        });
        await record(tx, writer, 'ict_provider.updated', provider, updated);
        return viewOf(updated);
      });
    },
  };
}

export type IctProvidersService = ReturnType<typeof createIctProvidersService>;
