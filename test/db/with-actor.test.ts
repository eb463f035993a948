import { createId } from '@paralleldrive/cuid2';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_IDS } from '../../src/contracts/route-kit.js';
import { issueToken } from '../../src/server/modules/auth/password-reset.service.js';
import { createSealedBox, deriveKey } from '../../src/server/platform/crypto/sealed-box.js';
import { rowsOf } from '../../src/server/platform/db/database.js';
import { openPostgres } from '../../src/server/platform/db/postgres.js';
import {
  aiDrafts,
  aiSettings,
  aiUsage,
  brokers,
  complianceReminders,
  contributionAdjustments,
  contributions,
  dataProtectionReminders,
  dataRequestRecipients,
  dataRequests,
  documents,
  employers,
  erasures,
  fundAllocationLines,
  fundAllocations,
  fundPrices,
  fundSwitches,
  funds,
  ictIncidentReminders,
  ictIncidentReports,
  ictIncidents,
  imports,
  memberDependants,
  memberPayouts,
  memberRestrictions,
  memberStatusChanges,
  memberTransactions,
  payrollEmployees,
  payrollUploadLines,
  payrollUploads,
  ppsReveals,
  schemes,
  significantChanges,
  statementAssumptions,
  statementRuns,
  statements,
  userPasskeys,
  userRecoveryCodes,
  userTotpSecrets,
} from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { createOutbox } from '../../src/server/platform/email/outbox.js';
import { platformActor, tenantActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { testAuditService } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import {
  databaseErrorOf,
  onPostgres,
  openTestDatabase,
  ownerOf,
  type TestDatabase,
} from '../helpers/database.js';
import { createMember, createPolicy, createUser } from '../helpers/factories.js';
import { payLinesRow } from '../helpers/pay-lines.js';
import {
  collectionOf,
  creationOf,
  creationRoutes,
  exampleBody,
  exampleQuery,
  parametersOf,
  pathWith,
  tableRoute,
} from '../helpers/route-examples.js';

let t: TestDatabase;
let app: TestApp;
const tenantA = createId();
const tenantB = createId();
beforeAll(async () => {
  t = await openTestDatabase();
  app = await buildTestApp({ database: t.database, counters: uncountedStore() });
  await withActor(t.database, platformActor(), async (tx) => {
    await tx.insert(brokers).values([
      { id: tenantA, name: 'A' },
      { id: tenantB, name: 'B' },
    ]);
    await tx.insert(employers).values([
      { id: createId(), brokerId: tenantA, name: 'A1' },
      { id: createId(), brokerId: tenantA, name: 'A2' },
      { id: createId(), brokerId: tenantB, name: 'B1' },
    ]);
  });
});
afterAll(async () => {
  await app.close();
  await t.dispose();
});

/**
 * One record of every register the API creates (the route table's `<group>.create` routes), made
 * by a BrokerAdmin of the tenant through its route with its example, as a person would: a register
 * added later is held to row-level security below without a line here. A record a route's path or
 * example names is the tenant's own, made the same way where the seed does not hold one.
 */
async function seedThroughApi(scope: {
  brokerId: string;
  employerId: string;
  schemeId: string;
  memberId: string;
}) {
  const admin = await createUser(t.database, { brokerId: scope.brokerId, role: 'BrokerAdmin' });
  const token = await app.tokenFor(admin);
  const held = new Map<string, Promise<string>>([
    ['brokers', Promise.resolve(scope.brokerId)],
    ['employers', Promise.resolve(scope.employerId)],
    ['schemes', Promise.resolve(scope.schemeId)],
    ['members', Promise.resolve(scope.memberId)],
  ]);
  const recordOf = (collection: string): Promise<string> => {
    let record = held.get(collection);
    if (record === undefined) {
      const key = creationOf(collection);
      if (key === undefined) throw new Error(`no route creates ${collection}`);
      record = created(key);
      held.set(collection, record);
    }
    return record;
  };
  const created = async (key: string): Promise<string> => {
    const [method, path] = key.split(' ') as ['POST', string];
    const values: Record<string, string> = {};
    for (const name of parametersOf(path)) values[name] = await recordOf(collectionOf(path, name));
    const route = tableRoute(key);
    // A fund only where the example names one: the fund's own route names none.
    const namesFund = JSON.stringify(route?.example?.body ?? null).includes(EXAMPLE_IDS.fund);
    const body = exampleBody(route, {
      employer: scope.employerId,
      scheme: scope.schemeId,
      member: scope.memberId,
      fund: namesFund ? await recordOf('funds') : EXAMPLE_IDS.fund,
      assumptions: EXAMPLE_IDS.assumptions,
    });
    const response = await app.app.inject({
      method,
      url: `${pathWith(path, values)}${exampleQuery(route)}`,
      remoteAddress: uniqueClientAddress(),
      headers: { authorization: `Bearer ${token}` },
      payload: body as object,
    });
    if (response.statusCode !== 201) throw new Error(`${key} failed: ${response.body}`);
    return response.json().id;
  };
  for (const { collection } of creationRoutes()) await recordOf(collection);
}

/** One row in every tenant table for this tenant, written as the platform would. */
async function seedEveryTenantTable(tenantId: string) {
  const user = await createUser(t.database, { brokerId: tenantId, role: 'BrokerUser' });
  const employerId = createId();
  const schemeId = createId();
  await withActor(t.database, platformActor(), async (tx) => {
    await tx.insert(employers).values({ id: employerId, brokerId: tenantId, name: 'Seeded' });
    await tx
      .insert(schemes)
      .values({ id: schemeId, brokerId: tenantId, employerId, name: 'Seeded', type: 'DC' });
  });
  const scope = { brokerId: tenantId, employerId, schemeId };
  const member = await createMember(t.database, scope);
  await seedThroughApi({ ...scope, memberId: member.id });
  const fundId = createId();
  const contributionId = createId();
  await withActor(t.database, platformActor(), async (tx) => {
    const allocationId = createId();
    await tx.insert(funds).values({ id: fundId, ...scope, name: 'Seeded fund' });
    await tx.insert(fundAllocations).values({
      id: allocationId,
      ...scope,
      memberId: member.id,
      effectiveFrom: '2026-01-01',
      createdBy: user.id,
    });
    await tx
      .insert(fundAllocationLines)
      .values({ allocationId, brokerId: tenantId, schemeId, fundId, percent: 100 });
    await tx.insert(contributions).values({
      id: contributionId,
      ...scope,
      memberId: member.id,
      period: '2026-01',
      kind: 'employee',
      amountCents: 10_000,
      receivedOn: '2026-02-02',
      createdBy: user.id,
    });
    await tx.insert(contributionAdjustments).values({
      id: createId(),
      brokerId: tenantId,
      contributionId,
      deltaCents: -100,
      receivedOn: '2026-02-03',
      reason: 'Seeded correction',
      createdBy: user.id,
    });
    const at = new Date();
    await tx.insert(imports).values({
      id: createId(),
      ...scope,
      kind: 'members',
      createdBy: user.id,
      createdAt: at,
      updatedAt: at,
    });
    await issueToken(tx, { id: user.id, brokerId: tenantId }, new Date(), 'reset');
    // An account's second factors (docs/decisions/0110-second-factor.md, 0111-passkeys.md).
    const ofUser = { userId: user.id, id: createId(), brokerId: tenantId, createdAt: at };
    await tx.insert(userTotpSecrets).values({ ...ofUser, secretSealed: 'sealed', keyId: 'k' });
    await tx.insert(userRecoveryCodes).values({ ...ofUser, codeHash: '0'.repeat(64) });
    await tx.insert(userPasskeys).values({
      ...ofUser,
      credentialId: createId(),
      publicKey: 'key',
      counter: 0,
      name: 'Seeded',
      backedUp: false,
    });
    await outbox.enqueue(tx, {
      brokerId: tenantId,
      userId: user.id,
      kind: 'password_changed',
      message: { to: user.email, subject: 's', text: 't', html: 'h' },
      discardAfter: new Date(Date.now() + 60_000),
    });
    await testAuditService().record(tx, platformActor(), {
      action: 'employer.created',
      entityType: 'employer',
      entityId: employerId,
      tenantId,
      previousState: null,
      newState: null,
    });
  });
  // DC money (docs/decisions/0127-dc-money.md): a price, a movement it priced and a switch.
  // Only the settlement writes movements, and prices and switches have no `create` route:
  // planted by the owner, as the platform role only reads them.
  const priceId = createId();
  await ownerOf(t.database)
    .insert(fundPrices)
    .values({
      id: priceId,
      ...scope,
      fundId,
      pricedOn: '2026-02-02',
      price: 1_000_000n,
      createdBy: user.id,
      createdAt: new Date(),
    });
  await ownerOf(t.database)
    .insert(memberTransactions)
    .values({
      id: createId(),
      ...scope,
      memberId: member.id,
      fundId,
      kind: 'contribution',
      source: `contribution:${contributionId}`,
      dealtOn: '2026-02-02',
      units: 100_000_000n,
      price: 1_000_000n,
      priceId,
      amountCents: 10_000,
      createdAt: new Date(),
    });
  await ownerOf(t.database)
    .insert(fundSwitches)
    .values({
      id: createId(),
      ...scope,
      memberId: member.id,
      requestedOn: '2026-02-03',
      status: 'pending',
      targets: [{ fundId, percent: 100 }],
      createdBy: user.id,
      createdAt: new Date(),
      updatedAt: new Date(),
    });
  const changeId = createId();
  await ownerOf(t.database).insert(memberStatusChanges).values({
    brokerId: tenantId,
    id: changeId,
    employerId,
    schemeId,
    memberId: member.id,
    kind: 'left',
    fromStatus: 'active',
    toStatus: 'deferred',
    effectiveOn: '2026-01-31',
    createdBy: user.id,
    createdAt: new Date(),
  });
  await ownerOf(t.database).insert(memberPayouts).values({
    brokerId: tenantId,
    id: createId(),
    employerId,
    schemeId,
    memberId: member.id,
    changeId,
    kind: 'transfer_out',
    fromOn: '2026-02-01',
    status: 'pending',
    createdBy: user.id,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  // As the owner: the tenant role alone writes the register (migrations/0043_data_requests.sql).
  const dataRequestId = createId();
  await ownerOf(t.database).insert(dataRequests).values({
    brokerId: tenantId,
    id: dataRequestId,
    memberId: member.id,
    kind: 'access',
    receivedOn: '2026-01-05',
    originalDueOn: '2026-02-05',
    dueOn: '2026-02-05',
    createdBy: user.id,
  });
  // The erasure ledger's rows are written only by an erasure, which takes the member with it
  // (docs/decisions/0149-retention-and-erasure.md): planted by hand, for a member id.
  await ownerOf(t.database).insert(erasures).values({
    brokerId: tenantId,
    id: createId(),
    memberId: createId(),
    scope: 'contact_details',
    trigger: 'retention_ended',
    documentCount: 0,
    erasedAt: new Date(),
  });
  await ownerOf(t.database).insert(memberRestrictions).values({
    brokerId: tenantId,
    id: createId(),
    memberId: member.id,
    reason: 'The salary recorded is disputed',
    restrictedOn: '2026-01-05',
    createdBy: user.id,
  });
  // A report of an ICT incident: its route answers the incident, not a record of its own
  // (docs/decisions/0139-dora-ict-incidents.md), so the incident and its report are planted.
  const incidentId = createId();
  await withActor(t.database, platformActor(), async (tx) => {
    const at = new Date();
    await tx.insert(ictIncidents).values({
      brokerId: tenantId,
      id: incidentId,
      reference: 'ICT-1999-001',
      title: 'Seeded',
      description: 'Seeded',
      detectedAt: at,
      becameAwareAt: at,
      servicesAffected: ['other'],
      schemeIds: [],
      createdBy: user.id,
      createdAt: at,
      updatedAt: at,
    });
    await tx.insert(ictIncidentReports).values({
      brokerId: tenantId,
      id: createId(),
      incidentId,
      kind: 'initial',
      submittedAt: at,
      recordedBy: user.id,
      recordedAt: at,
    });
  });
  // A reminder of the incident's report, written by the scheduler's job alone: planted by the owner.
  await ownerOf(t.database).insert(ictIncidentReminders).values({
    brokerId: tenantId,
    id: createId(),
    incidentId,
    deadlineKind: 'initial',
    dueAt: new Date(),
    stage: 'hours_2',
    recipientKind: 'user',
    recipientId: user.id,
    createdAt: new Date(),
  });
  // As the owner: a reveal is written by the tenant role only (migrations/0045_pps_reveals.sql).
  await ownerOf(t.database).insert(ppsReveals).values({
    brokerId: tenantId,
    id: createId(),
    memberId: member.id,
    revealedBy: user.id,
    reason: 'identity_check',
    revealedAt: new Date(),
  });
  await ownerOf(t.database).insert(memberDependants).values({
    brokerId: tenantId,
    id: createId(),
    employerId,
    schemeId,
    memberId: member.id,
    name: 'Seeded',
    relationship: 'Spouse',
    createdBy: user.id,
    createdAt: new Date(),
  });
  const policyId = await createPolicy(t.database, scope, { status: 'approved' });
  await withActor(t.database, platformActor(), async (tx) => {
    const at = new Date();
    await tx.insert(significantChanges).values({
      id: createId(),
      ...scope,
      policyId,
      occurredOn: '2025-01-01',
      description: 'Seeded change',
      createdBy: user.id,
      createdAt: at,
      updatedAt: at,
    });
    await tx.insert(documents).values({
      id: createId(),
      ...scope,
      documentType: 'trust_deed',
      filename: 'Seeded.pdf',
      originalFilename: 'Seeded.pdf',
      title: null,
      memberFacing: false,
      contentType: 'application/pdf',
      size: 1,
      sha256: '0'.repeat(64),
      version: 1,
      scanStatus: 'unscanned',
      storageKey: `${tenantId}/${schemeId}/trust_deed/Seeded.pdf/v1`,
      createdBy: user.id,
      createdAt: at,
      updatedAt: at,
    });
  });
  // Only the reminders job's role writes reminders; the owner plants one here.
  await ownerOf(t.database)
    .insert(complianceReminders)
    .values({
      brokerId: tenantId,
      id: createId(),
      schemeId,
      obligationKey: `${schemeId}:own_risk_assessment:`,
      dueOn: '2027-03-01',
      stage: 'before_60',
      userId: user.id,
      createdAt: new Date(),
    });
  // And a recipient told of a rectification (docs/decisions/0148-rectification-and-recipients.md).
  await ownerOf(t.database).insert(dataRequestRecipients).values({
    brokerId: tenantId,
    id: createId(),
    dataRequestId,
    position: 0,
    name: 'Seeded payroll',
    toldOn: '2026-01-06',
    createdBy: user.id,
    createdAt: new Date(),
  });
  // Likewise a data-protection reminder (docs/decisions/0147-data-protection-reminders.md).
  await ownerOf(t.database).insert(dataProtectionReminders).values({
    brokerId: tenantId,
    id: createId(),
    dataRequestId,
    dueOn: '2026-02-05',
    stage: 'before_7',
    userId: user.id,
    createdAt: new Date(),
  });
  // AI settings, usage and drafts and a payroll upload (docs/decisions/0068-auto-enrolment-readiness.md), planted by the owner:
  // their services' own paths are tested in test/ai and test/auto-enrolment.
  const at = new Date();
  const owner = ownerOf(t.database);
  await owner
    .insert(aiSettings)
    .values({ brokerId: tenantId, updatedBy: user.id, createdAt: at, updatedAt: at });
  await owner
    .insert(aiUsage)
    .values({ brokerId: tenantId, month: '2026-11', createdAt: at, updatedAt: at });
  await owner.insert(aiDrafts).values({
    brokerId: tenantId,
    id: createId(),
    employerId,
    schemeId,
    kind: 'ora_outline',
    status: 'draft',
    generatedBy: 'template',
    generatedContent: 'Outline',
    content: 'Outline',
    createdBy: user.id,
    createdAt: at,
    updatedAt: at,
  });
  const uploadId = createId();
  const employeeId = createId();
  await owner.insert(payrollUploads).values({
    brokerId: tenantId,
    id: uploadId,
    employerId,
    status: 'succeeded',
    createdBy: user.id,
    createdAt: at,
    updatedAt: at,
  });
  await owner.insert(payrollEmployees).values({
    brokerId: tenantId,
    id: employeeId,
    employerId,
    ppsEncrypted: 'sealed',
    ppsLookup: 'a'.repeat(64),
    ppsKeyId: 'k1',
    dateOfBirth: '1985-04-12',
    createdAt: at,
    updatedAt: at,
  });
  await owner
    .insert(payrollUploadLines)
    .values(
      await payLinesRow({ brokerId: tenantId, uploadId, employerId }, [
        { employeeId, start: '2026-01-05', end: '2026-01-11', grossCents: 80_000 },
      ]),
    );
  // A firm's own assumption set, a statement run and a member's statement
  // (docs/decisions/0141-pension-benefit-statements.md); their services' paths are tested in
  // test/statements.
  const assumptionsId = createId();
  const runId = createId();
  await owner.insert(statementAssumptions).values({
    id: assumptionsId,
    brokerId: tenantId,
    name: 'Seeded',
    version: 1,
    effectiveFrom: '2026-01-01',
    source: 'Seeded',
    bestEstimateReturnBasisPoints: 475,
    unfavourableReturnBasisPoints: 150,
    inflationBasisPoints: 250,
    salaryGrowthBasisPoints: 250,
    annuityFactorHundredths: 2_500,
    createdBy: user.id,
    createdAt: at,
    updatedAt: at,
  });
  await owner.insert(statementRuns).values({
    brokerId: tenantId,
    id: runId,
    employerId,
    schemeId,
    informationDate: '2026-12-31',
    membersBy: '2027-06-30',
    assumptionsId,
    status: 'queued',
    total: 1,
    done: 0,
    failed: 0,
    issues: [],
    createdBy: user.id,
    createdAt: at,
    updatedAt: at,
  });
  await owner.insert(statements).values({
    brokerId: tenantId,
    id: createId(),
    runId,
    employerId,
    schemeId,
    memberId: member.id,
    informationDate: '2026-12-31',
    status: 'pending',
    createdAt: at,
    updatedAt: at,
  });
}
const outbox = createOutbox({
  box: createSealedBox(deriveKey('a secret only these tests use, long enough', 'email-outbox')),
  now: () => new Date(),
});

describe('withActor and row-level security', () => {
  it('returns no other tenant’s rows to a deliberately unscoped query', async () => {
    const rows = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx.select().from(employers),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(['A1', 'A2']);
    const visibleBrokers = await withActor(t.database, tenantActor(tenantB), (tx) =>
      tx.select().from(brokers),
    );
    expect(visibleBrokers.map((row) => row.id)).toEqual([tenantB]);
  });

  it('keeps every table with a tenant column to the transaction’s tenant, found from the catalogue', async () => {
    await seedEveryTenantTable(tenantA);
    await seedEveryTenantTable(tenantB);
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await ownerOf(t.database).execute(
        sql`select table_name, column_name from information_schema.columns
             where table_schema = 'public' and column_name in ('broker_id', 'tenant_id')
             order by table_name`,
      ),
    );
    expect(columns.length).toBeGreaterThanOrEqual(6);
    for (const { table_name: table, column_name: column } of columns) {
      const select = sql`select ${sql.identifier(column)} as tenant from ${sql.identifier(table)}`;
      // Not vacuous: the other tenant does have rows here (read as the owner, outside RLS).
      const everyone = rowsOf<{ tenant: string | null }>(await ownerOf(t.database).execute(select));
      expect(
        everyone.map((row) => row.tenant),
        table,
      ).toContain(tenantB);
      let seen: Array<{ tenant: string | null }>;
      try {
        seen = rowsOf(
          await withActor(t.database, tenantActor(tenantA), (tx) => tx.execute(select)),
        );
      } catch (error) {
        // A table the tenant role may not read at all (the e-mail outbox) is isolated too.
        const { cause } = error as { cause?: { message?: string } };
        expect(cause?.message ?? String(error), table).toMatch(/permission denied/);
        continue;
      }
      expect(new Set(seen.map((row) => row.tenant)), table).toEqual(new Set([tenantA]));
    }
  });

  it('does not update a row of another tenant, even by primary key', async () => {
    const [bEmployer] = await withActor(t.database, tenantActor(tenantB), (tx) =>
      tx.select().from(employers),
    );
    const updated = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx
        .update(employers)
        .set({ name: 'Hijacked' })
        .where(sql`${employers.id} = ${bEmployer?.id}`)
        .returning(),
    );
    expect(updated).toEqual([]);
  });

  it('refuses to write a row into another tenant (WITH CHECK)', async () => {
    const message = await databaseErrorOf(
      withActor(t.database, tenantActor(tenantA), (tx) =>
        tx.insert(employers).values({ id: createId(), brokerId: tenantB, name: 'Planted' }),
      ),
    );
    expect(message).toMatch(/row-level security/);
  });

  it('fails closed when the restricted role runs without a tenant setting', async () => {
    const rows = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('role', 'pension_app', true)`);
      return rowsOf(await tx.execute(sql`select * from employers`));
    });
    expect(rows).toEqual([]);
  });

  it('lets the platform role see every tenant', async () => {
    const rows = await withActor(t.database, platformActor(), (tx) => tx.select().from(employers));
    expect(rows.length).toBeGreaterThanOrEqual(3);
  });

  it('runs tenant work as pension_app, which is no superuser, cannot bypass RLS and owns no table', async () => {
    const [role] = await withActor(t.database, tenantActor(tenantA), async (tx) =>
      rowsOf<{ user: string; rolsuper: boolean; rolbypassrls: boolean }>(
        await tx.execute(
          sql`select current_user as user, rolsuper, rolbypassrls from pg_roles where rolname = current_user`,
        ),
      ),
    );
    expect(role).toEqual({ user: 'pension_app', rolsuper: false, rolbypassrls: false });
    const owned = rowsOf(
      await ownerOf(t.database).execute(
        sql`select tablename from pg_tables where tableowner in ('pension_app', 'pension_platform')`,
      ),
    );
    expect(owned).toEqual([]);
    const unforced = rowsOf(
      await ownerOf(t.database).execute(
        sql`select relname from pg_class where relname in ('brokers', 'employers', 'audit_log', 'users', 'schemes') and not (relrowsecurity and relforcerowsecurity)`,
      ),
    );
    expect(unforced).toEqual([]);
  });

  // PGlite is one connection by nature; on PostgreSQL a pool of one forces the same sharing.
  it('leaks no tenant setting or role between requests sharing one pooled connection', async () => {
    const single = onPostgres
      ? await openPostgres(t.url as string, t.url as string, 1)
      : t.database;
    try {
      const seen = await Promise.all(
        [tenantA, tenantB, tenantA, tenantB, tenantA, tenantB].map((tenant) =>
          withActor(single, tenantActor(tenant), async (tx) =>
            (await tx.select().from(employers)).map((row) => row.brokerId),
          ),
        ),
      );
      seen.forEach((brokerIds, index) => {
        const expected = index % 2 === 0 ? tenantA : tenantB;
        expect(new Set(brokerIds)).toEqual(new Set([expected]));
      });
      const [after] = rowsOf<{ user: string; tenant: string | null }>(
        await single.db.execute(
          sql`select current_user as user, nullif(current_setting('app.tenant_id', true), '') as tenant`,
        ),
      );
      expect(after?.tenant).toBeNull();
      expect(after?.user).not.toBe('pension_app');
    } finally {
      if (single !== t.database) await single.close();
    }
  });

  it('rolls back everything in the transaction when the work throws', async () => {
    const id = createId();
    await expect(
      withActor(t.database, tenantActor(tenantA), async (tx) => {
        await tx.insert(employers).values({ id, brokerId: tenantA, name: 'Rolled back' });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    const rows = await withActor(t.database, tenantActor(tenantA), (tx) =>
      tx.select().from(employers).where(sql`${employers.id} = ${id}`),
    );
    expect(rows).toEqual([]);
  });
});
