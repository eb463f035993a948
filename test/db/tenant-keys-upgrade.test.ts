import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { migrate } from '../../src/server/platform/db/migrator.js';
import { fundAllocationLines, fundAllocations } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { platformActor } from '../helpers/actors.js';
import { databaseErrorOf, openTestDatabase, ownerOf } from '../helpers/database.js';
import {
  createBroker,
  createEmployer,
  createMember,
  createScheme,
  createUser,
} from '../helpers/factories.js';
import { migrationsBefore } from '../helpers/migrations.js';

/** The migrations up to, not including, the one that put broker_id into every tenant key. */
const TENANT_KEYS = '0025_tenant_keys';

const COUNTED = [
  'employers',
  'schemes',
  'members',
  'funds',
  'fund_allocations',
  'fund_allocation_lines',
  'contributions',
  'users',
];

describe('the tenant-keys migration', () => {
  it('keeps every row of a populated database and the cross-tenant guards still hold', async () => {
    const t = await openTestDatabase({ migrated: false });
    try {
      await migrate(t.database, migrationsBefore(TENANT_KEYS));
      const tenants = [];
      for (const name of ['Murphy & Byrne Brokers', 'Kelly Pensions']) {
        const brokerId = await createBroker(t.database, name);
        const employerId = await createEmployer(t.database, brokerId);
        const schemeId = await createScheme(t.database, { id: employerId, brokerId });
        const member = await createMember(t.database, { brokerId, employerId, schemeId });
        await createUser(t.database, { brokerId, role: 'BrokerAdmin' });
        const fundId = createId();
        const allocationId = createId();
        await withActor(t.database, platformActor(), async (tx) => {
          // Only the columns the tables had then: the funds' charge and the contributions' day
          // received came later (docs/decisions/0127-dc-money.md).
          await tx.execute(
            sql`insert into funds (id, broker_id, employer_id, scheme_id, name) values (${fundId}, ${brokerId}, ${employerId}, ${schemeId}, 'Growth')`,
          );
          await tx.insert(fundAllocations).values({
            id: allocationId,
            brokerId,
            employerId,
            schemeId,
            memberId: member.id,
            effectiveFrom: '2026-01-01',
            createdBy: 'seed',
          });
          await tx
            .insert(fundAllocationLines)
            .values({ allocationId, brokerId, schemeId, fundId, percent: 100 });
          await tx.execute(
            sql`insert into contributions (id, broker_id, employer_id, scheme_id, member_id, period, kind, amount_cents, created_by)
                values (${createId()}, ${brokerId}, ${employerId}, ${schemeId}, ${member.id}, '2026-01', 'employee', 12345, 'seed')`,
          );
        });
        tenants.push({ brokerId, employerId, schemeId, member, fundId, allocationId });
      }
      const owner = ownerOf(t.database);
      const counts = async () => {
        const out: Record<string, number> = {};
        for (const table of COUNTED) {
          const [row] = rowsOf(
            await owner.execute(sql`select count(*)::int as n from ${sql.identifier(table)}`),
          ) as { n: number }[];
          out[table] = row?.n ?? -1;
        }
        return out;
      };
      const before = await counts();
      expect(before.contributions).toBe(2);

      const result = await migrate(t.database);
      expect(result.appliedTags).toContain(TENANT_KEYS);
      expect(await counts()).toEqual(before);

      // The new keys still keep a row inside its tenant: a line of one tenant's allocation
      // cannot name another tenant's fund, even with that fund's scheme.
      const [a, b] = tenants;
      if (!a || !b) throw new Error('two tenants were seeded');
      const crossTenant = await databaseErrorOf(
        owner.execute(sql`insert into fund_allocation_lines
          (allocation_id, broker_id, scheme_id, fund_id, percent)
          values (${a.allocationId}, ${a.brokerId}, ${b.schemeId}, ${b.fundId}, 100)`),
      );
      expect(crossTenant).toMatch(/foreign key/);
      const duplicate = await databaseErrorOf(
        owner.execute(sql`insert into contributions
          (id, broker_id, employer_id, scheme_id, member_id, period, kind, amount_cents, received_on, created_by)
          values (${createId()}, ${a.brokerId}, ${a.employerId}, ${a.schemeId}, ${a.member.id},
                  '2026-01', 'employee', 1, '2026-02-01', 'seed')`),
      );
      expect(duplicate).toMatch(/contributions_member_period_kind_key/);
    } finally {
      await t.dispose();
    }
  });
});
