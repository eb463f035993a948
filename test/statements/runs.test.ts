import { createId } from '@paralleldrive/cuid2';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dateInWords } from '../../src/contracts/irish-dates.js';
import { formatCents } from '../../src/contracts/money.js';
import { PROJECTION_CAVEAT } from '../../src/contracts/statement-rules.js';
import {
  runHoldsItsDate,
  runMadeNothing,
  type StatementFigures,
} from '../../src/contracts/statements.js';
import { createStatementWorker, statementPdf } from '../../src/server/modules/statements/index.js';
import { auditChainKey } from '../../src/server/platform/audit/audit-chain.js';
import { createAuditService } from '../../src/server/platform/audit/audit-log.js';
import {
  auditLog,
  documents,
  members,
  statementRuns,
  statements,
} from '../../src/server/platform/db/schema.js';
import { buildTestApp, type TestApp, uncountedStore } from '../helpers/app.js';
import { ownerOf } from '../helpers/database.js';
import { createUser, type UserRow } from '../helpers/factories.js';
import { readOutbox } from '../helpers/mail.js';
import { flowing, readPdf } from '../helpers/pdf-text.js';
import { dcScheme, runInvestments, testClock } from '../investments/money.js';

/**
 * Statement runs through the API (docs/decisions/0141-pension-benefit-statements.md): a DC
 * scheme's members checked, their statements made in the background, approved, issued to each
 * member alone, and read back from the PDF figure by figure.
 */
const clock = testClock('2027-01-15');
let t: TestApp;
let scheme: Awaited<ReturnType<typeof dcScheme>>;
let other: UserRow;
let assumptionsId: string;
const names = ['Aoife', 'Brian', 'Ciara', 'Donal'];

async function waitFor(runId: string, status: string) {
  for (let tries = 0; tries < 200; tries += 1) {
    const read = await scheme.staff.get(`/api/statement-runs/${runId}`);
    if (read.json().status === status) return read.json();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the run did not become ${status}`);
}

const textOf = (bytes: Buffer) => flowing(readPdf(bytes).text);

beforeAll(async () => {
  t = await buildTestApp({ counters: uncountedStore(), now: clock.now });
  scheme = await dcScheme(
    t,
    [
      { name: 'Global Equity', annualChargeBasisPoints: 75 },
      { name: 'Cash Fund', annualChargeBasisPoints: 25 },
    ],
    4,
  );
  const [equity, cash] = scheme.fundIds as [string, string];
  const patched = await scheme.staff.patch(`/api/schemes/${scheme.schemeId}`, {
    normalRetirementAge: 65,
  });
  expect(patched.statusCode, patched.body).toBe(200);
  for (const fundId of [equity, cash]) {
    await scheme.prices(fundId, [
      { on: '2026-01-20', price: '1.000000' },
      { on: '2026-06-30', price: '1.100000' },
      { on: '2026-12-31', price: '1.200000' },
    ]);
  }
  const ids = scheme.members.map((member) => member.id);
  for (const [index, memberId] of ids.entries()) {
    await ownerOf(t.database)
      .update(members)
      .set({ firstName: names[index] as string, lastName: 'Walsh' })
      .where(eq(members.id, memberId));
    await scheme.choose(
      memberId,
      index === 1
        ? [
            { fundId: equity, percent: 50 },
            { fundId: cash, percent: 50 },
          ]
        : [{ fundId: equity, percent: 100 }],
    );
    for (const kind of ['employee', 'employer']) {
      await scheme.contribute(memberId, {
        period: '2026-01',
        kind,
        amountCents: 300_000,
        receivedOn: '2026-01-20',
      });
    }
  }
  // Ciara's date of birth makes her 11: implausible, so she is listed and gets no statement.
  await ownerOf(t.database)
    .update(members)
    .set({ dateOfBirth: '2015-01-01' })
    .where(eq(members.id, ids[2] as string));
  // Donal left service: a deferred member.
  await ownerOf(t.database)
    .update(members)
    .set({ status: 'deferred', statusOn: '2026-06-30' })
    .where(eq(members.id, ids[3] as string));
  await runInvestments(t);
  const set = await scheme.as(scheme.admin).post('/api/statement-assumptions', {
    name: 'Pensions Authority guidance',
    effectiveFrom: '2026-01-01',
    source:
      'The Pensions Authority’s guidance on benefit statement projections, updated 10 March 2023',
    bestEstimateReturnPct: 4.75,
    unfavourableReturnPct: 1.5,
    inflationPct: 2.5,
    salaryGrowthPct: 2.5,
    annuityFactor: 25,
  });
  assumptionsId = set.json().id;
  other = await createUser(t.database, { role: 'BrokerAdmin' });
});
afterAll(() => t.close());

describe('a statement run', () => {
  let runId: string;

  it('is queued (202), checks every active and deferred member, and makes each statement', async () => {
    const queued = await scheme.staff.post(`/api/schemes/${scheme.schemeId}/statement-runs`, {
      informationDate: '2026-12-31',
      membersBy: '2027-06-30',
      assumptionsId,
    });
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json()).toMatchObject({ status: 'queued', trusteesBy: '2027-05-31' });
    runId = queued.json().id;
    const ready = await waitFor(runId, 'ready');
    expect(ready).toMatchObject({ total: 3, done: 3, failed: 0 });
    expect(ready.issues).toEqual([
      {
        memberId: scheme.members[2]?.id,
        issues: ['implausible_age'],
        words: ['The member’s age on the information date is under 16 or over 80'],
      },
    ]);
  });

  it('refuses a second run for the date (409), bad dates and an unknown set (400)', async () => {
    const url = `/api/schemes/${scheme.schemeId}/statement-runs`;
    const again = await scheme.staff.post(url, {
      informationDate: '2026-12-31',
      membersBy: '2027-06-30',
      assumptionsId,
    });
    expect(again.statusCode).toBe(409);
    for (const [body, path] of [
      [{ informationDate: '2026-11-30', membersBy: '2026-11-30', assumptionsId }, 'membersBy'],
      [
        { informationDate: '2027-02-28', membersBy: '2027-06-30', assumptionsId },
        'informationDate',
      ],
      [
        { informationDate: '2026-11-30', membersBy: '2027-06-30', assumptionsId: createId() },
        'assumptionsId',
      ],
    ] as const) {
      const refused = await scheme.staff.post(url, body);
      expect(refused.statusCode, path).toBe(400);
      expect(refused.json().issues[0].path).toBe(path);
    }
    const runs = await ownerOf(t.database)
      .select()
      .from(statementRuns)
      .where(eq(statementRuns.schemeId, scheme.schemeId));
    expect(runs).toHaveLength(1);
    expect((await t.requestAs(other, 'GET', `/api/statement-runs/${runId}`)).statusCode).toBe(404);
  });

  it('makes a PDF that reads back with its title, information date, every figure and its tags', async () => {
    const made = await scheme.staff.get(`/api/statement-runs/${runId}/statements`);
    const list = made.json() as Array<{ id: string; memberId: string; figures: StatementFigures }>;
    expect(list).toHaveLength(3);
    for (const statement of list) {
      const pdf = await scheme.staff.get(`/api/statements/${statement.id}/pdf`);
      expect(pdf.statusCode).toBe(200);
      // Named by the member, surname first, and the statement's information date.
      const first = statement.figures.memberName.split(' ')[0]?.toLowerCase();
      expect(pdf.headers['content-disposition']).toBe(
        `inline; filename="pension-benefit-statement-walsh-${first}-2026-12-31.pdf"`,
      );
      const bytes = pdf.rawPayload;
      const raw = bytes.toString('latin1');
      const text = textOf(bytes);
      const figures = statement.figures;
      expect(raw).toContain('/StructTreeRoot');
      expect(raw).toMatch(/\/Lang \(en-IE\)/);
      for (const tag of [
        '/S /H1',
        '/S /H2',
        '/S /P',
        '/S /L',
        '/S /Table',
        '/S /TR',
        '/S /TH',
        '/S /TD',
      ]) {
        expect(raw, tag).toContain(tag);
      }
      expect(text).toContain(`Pension Benefit Statement: ${figures.schemeName}`);
      expect(text).toContain('Your benefits at 31 Dec 2026');
      expect(text).toContain(figures.memberName);
      const dc = figures.dc as NonNullable<StatementFigures['dc']>;
      for (const cents of [
        dc.fundValueCents,
        figures.year.memberCents,
        figures.year.employerCents,
        figures.year.costsCents,
        dc.bestEstimate.fundCents,
        dc.bestEstimate.pensionCents,
        dc.unfavourable.fundCents,
        dc.unfavourable.pensionCents,
        ...dc.funds.map((fund) => fund.valueCents),
      ]) {
        expect(text, formatCents(cents)).toContain(formatCents(cents));
      }
      expect(text).toContain(flowing(PROJECTION_CAVEAT));
      // No other member's name in any statement, and none in the metadata.
      for (const name of names) {
        if (!figures.memberName.startsWith(name)) expect(text).not.toContain(name);
      }
      expect(raw).not.toContain('Walsh');
    }
    const aoife = list.find((statement) => statement.figures.memberName === 'Aoife Walsh');
    // €3,000 each way invested at 1.000000, worth 1.200000 at the information date, less charges.
    expect(aoife?.figures.year).toMatchObject({ memberCents: 300_000, employerCents: 300_000 });
    expect(aoife?.figures.status).toBe('active');
    const donal = list.find((statement) => statement.figures.memberName === 'Donal Walsh');
    expect(donal?.figures.status).toBe('deferred');
    expect(donal?.figures.dc?.annualContributionCents).toBe(0);
    expect(dateInWords('2026-12-31')).toBe('31 Dec 2026');
  });

  it('is hidden from members until issued, approved by a BrokerAdmin only, then issued to each member alone', async () => {
    const self = scheme.as(scheme.self);
    const own = scheme.members[0]?.id as string;
    expect((await self.get(`/api/members/${own}/statements`)).json()).toEqual([]);
    expect((await scheme.staff.post(`/api/statement-runs/${runId}/issue`, {})).statusCode).toBe(
      409,
    );
    expect((await scheme.staff.post(`/api/statement-runs/${runId}/approve`, {})).statusCode).toBe(
      403,
    );
    const approved = await scheme.as(scheme.admin).post(`/api/statement-runs/${runId}/approve`, {});
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().status).toBe('approved');
    const issued = await scheme.staff.post(`/api/statement-runs/${runId}/issue`, {});
    expect(issued.statusCode, issued.body).toBe(200);
    expect(issued.json().status).toBe('issued');
    expect((await scheme.staff.post(`/api/statement-runs/${runId}/issue`, {})).statusCode).toBe(
      409,
    );

    const mine = (await self.get(`/api/members/${own}/statements`)).json();
    expect(mine).toHaveLength(1);
    expect(mine[0].figures.memberName).toBe('Aoife Walsh');
    const read = await self.get(`/api/statements/${mine[0].id}/pdf`);
    expect(read.statusCode).toBe(200);
    expect(textOf(read.rawPayload)).toContain('Aoife Walsh');
    // Another member's statement and list answer 404 to her.
    const brian = (
      await scheme.staff.get(`/api/members/${scheme.members[1]?.id}/statements`)
    ).json();
    expect((await self.get(`/api/statements/${brian[0].id}/pdf`)).statusCode).toBe(404);
    expect((await self.get(`/api/members/${scheme.members[1]?.id}/statements`)).statusCode).toBe(
      404,
    );
    // Each statement is its member's own member-facing document.
    const docs = await ownerOf(t.database)
      .select()
      .from(documents)
      .where(
        and(
          eq(documents.schemeId, scheme.schemeId),
          eq(documents.documentType, 'benefit_statement'),
        ),
      );
    expect(docs).toHaveLength(3);
    for (const doc of docs) expect(doc.memberFacing).toBe(true);
    expect(new Set(docs.map((doc) => doc.memberId))).toEqual(
      new Set([scheme.members[0]?.id, scheme.members[1]?.id, scheme.members[3]?.id]),
    );
    const notices = (await readOutbox(t.database, t.config)).filter(
      (row) => row.kind === 'benefit_statement_issued',
    );
    expect(notices.map((row) => row.userId)).toEqual([scheme.self.id]);
    // Issued on time, the scheme year's duty is ok.
    const compliance = await scheme.staff.get(`/api/schemes/${scheme.schemeId}/compliance`);
    const duty = compliance
      .json()
      .obligations.find((entry: { kind: string }) => entry.kind === 'benefit_statements');
    expect(duty).toMatchObject({ status: 'ok', dueOn: '2028-06-30' });
    expect(duty.reason).toContain('issued on 15 Jan 2027');
  });

  it('marks a statement for printing on the member’s request, audited, on the run’s printing list', async () => {
    const brian = scheme.members[1]?.id as string;
    const [statement] = (await scheme.staff.get(`/api/members/${brian}/statements`)).json();
    const url = `/api/statements/${statement.id}/paper`;
    expect((await scheme.staff.get(`/api/statement-runs/${runId}/paper`)).json()).toEqual([]);
    const marked = await scheme.staff.post(url, { paper: true });
    expect(marked.statusCode, marked.body).toBe(200);
    expect(marked.json()).toMatchObject({ id: statement.id, paper: true });
    // Asked again, nothing changes and nothing more is recorded.
    expect((await scheme.staff.post(url, { paper: true })).json().paper).toBe(true);
    expect((await scheme.staff.get(`/api/statement-runs/${runId}/paper`)).json()).toEqual([
      {
        id: statement.id,
        memberId: brian,
        memberName: 'Brian Walsh',
        issuedAt: statement.issuedAt,
      },
    ]);
    const refused = await scheme.staff.post(url, { paper: 'yes' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().issues[0].message).toBe(
      'Say whether the member asked for the statement on paper',
    );
    // The member asks the firm; they do not mark it themselves, nor does another firm reach it.
    expect((await scheme.as(scheme.self).post(url, { paper: false })).statusCode).toBe(403);
    expect((await t.requestAs(other, 'POST', url, { paper: false })).statusCode).toBe(404);
    const withdrawn = await scheme.staff.post(url, { paper: false });
    expect(withdrawn.json().paper).toBe(false);
    expect((await scheme.staff.get(`/api/statement-runs/${runId}/paper`)).json()).toEqual([]);
    const records = await ownerOf(t.database)
      .select()
      .from(auditLog)
      .where(eq(auditLog.entityId, statement.id))
      .orderBy(auditLog.chainIndex);
    expect(records.map((record) => record.action)).toEqual([
      'statement.paper_requested',
      'statement.paper_withdrawn',
    ]);
    expect(records[0]?.newState).toEqual({
      id: statement.id,
      runId,
      memberId: brian,
      paper: true,
    });
    expect(JSON.stringify(records)).not.toContain('Walsh');
  });
});

describe('a run interrupted', () => {
  it('is resumed where it stopped and makes each statement once', async () => {
    const at = new Date();
    const runId = createId();
    await ownerOf(t.database).insert(statementRuns).values({
      brokerId: scheme.brokerId,
      id: runId,
      employerId: scheme.employerId,
      schemeId: scheme.schemeId,
      informationDate: '2026-11-30',
      membersBy: '2027-05-31',
      assumptionsId,
      status: 'queued',
      total: 0,
      done: 0,
      failed: 0,
      issues: [],
      createdBy: scheme.consultant.id,
      createdAt: at,
      updatedAt: at,
    });
    const rendered: string[] = [];
    const first = createStatementWorker({
      database: t.database,
      audit: createAuditService({
        now: clock.now,
        chainKey: auditChainKey(t.config.secrets.AUDIT_CHAIN_KEY),
      }),
      now: clock.now,
      render: async (figures) => {
        rendered.push(figures.memberName);
        // The instance closes while it makes its first statements. It makes two at once
        // (AT_ONCE), and each of the two took its statement before either reached a render, so
        // both are finished and no third is begun. Closing at the second render instead raced:
        // the first maker could have taken the third statement already.
        if (rendered.length === 1) void first.stop();
        return statementPdf(figures);
      },
    });
    await first.process(scheme.brokerId, runId);
    const [stopped] = await ownerOf(t.database)
      .select()
      .from(statementRuns)
      .where(eq(statementRuns.id, runId));
    expect(stopped).toMatchObject({ status: 'running', done: 2, total: 3, leaseUntil: null });

    const second = createStatementWorker({
      database: t.database,
      audit: createAuditService({
        now: clock.now,
        chainKey: auditChainKey(t.config.secrets.AUDIT_CHAIN_KEY),
      }),
      now: clock.now,
      render: async (figures) => {
        rendered.push(figures.memberName);
        return statementPdf(figures);
      },
    });
    await second.process(scheme.brokerId, runId);
    const ready = await scheme.staff.get(`/api/statement-runs/${runId}`);
    expect(ready.json()).toMatchObject({ status: 'ready', total: 3, done: 3, failed: 0 });
    expect(rendered.sort()).toEqual(['Aoife Walsh', 'Brian Walsh', 'Donal Walsh']);
    const rows = await ownerOf(t.database)
      .select()
      .from(statements)
      .where(eq(statements.runId, runId));
    expect(rows.map((row) => row.status)).toEqual(['made', 'made', 'made']);
    // A third worker finds nothing to do.
    await second.process(scheme.brokerId, runId);
    expect(rendered).toHaveLength(3);
  });
});

describe('a run that made no statement', () => {
  it('is not approved, and leaves its date free for a new run once the records are corrected', async () => {
    const url = `/api/schemes/${scheme.schemeId}/statement-runs`;
    const body = { informationDate: '2026-10-31', membersBy: '2027-04-30', assumptionsId };
    const cleared = await scheme.staff.patch(`/api/schemes/${scheme.schemeId}`, {
      normalRetirementAge: null,
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    const queued = await scheme.staff.post(url, body);
    expect(queued.statusCode, queued.body).toBe(202);
    const empty = await waitFor(queued.json().id, 'ready');
    expect(empty).toMatchObject({ total: 0, done: 0 });
    expect(empty.issues).toHaveLength(4);
    for (const issue of empty.issues) {
      expect(issue.issues).toContain('no_retirement_age');
      expect(issue.words).toContain('The scheme has no normal retirement age');
    }

    const approve = await scheme
      .as(scheme.admin)
      .post(`/api/statement-runs/${empty.id}/approve`, {});
    expect(approve.statusCode).toBe(409);
    // Audited as what it is: a run that made none, not one ready for the trustees.
    const finished = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, empty.id));
    expect(finished.map((row) => row.action)).toContain('statement_run.none_made');
    expect(finished.map((row) => row.action)).not.toContain('statement_run.ready');
    expect(approve.json().error).toBe(
      'This run made no statement, so there is nothing for the trustees to approve. Its page says what to correct, in the scheme’s details or the members’ records; then start a new run for the same date',
    );

    const corrected = await scheme.staff.patch(`/api/schemes/${scheme.schemeId}`, {
      normalRetirementAge: 65,
    });
    expect(corrected.statusCode, corrected.body).toBe(200);
    const again = await scheme.staff.post(url, body);
    expect(again.statusCode, again.body).toBe(202);
    const made = await waitFor(again.json().id, 'ready');
    expect(made).toMatchObject({ total: 3, done: 3, failed: 0 });
    const readied = await ownerOf(t.database)
      .select({ action: auditLog.action })
      .from(auditLog)
      .where(eq(auditLog.entityId, made.id));
    expect(readied.map((row) => row.action)).toContain('statement_run.ready');

    // The run that made statements holds the date.
    const third = await scheme.staff.post(url, body);
    expect(third.statusCode).toBe(409);
    expect(third.json().error).toBe(
      `A statement run for this scheme at ${dateInWords('2026-10-31')} is already under way or has made statements`,
    );
  });

  it('is told from one under way, which holds its date whatever it has made so far', () => {
    for (const status of ['queued', 'running'] as const) {
      expect(runMadeNothing({ status, done: 0 })).toBe(false);
      expect(runHoldsItsDate({ status, done: 0 })).toBe(true);
    }
    for (const status of ['ready', 'approved', 'issued'] as const) {
      expect(runMadeNothing({ status, done: 0 })).toBe(true);
      expect(runHoldsItsDate({ status, done: 0 })).toBe(false);
      expect(runHoldsItsDate({ status, done: 1 })).toBe(true);
    }
    expect(runHoldsItsDate({ status: 'failed', done: 0 })).toBe(false);
  });
});

describe('a DC run whose quarter was imported after the information date', () => {
  it('counts each pay period up to the date, at the default fund’s charge, and a year’s worth to come', async () => {
    const late = await dcScheme(t, [{ name: 'Default Fund', annualChargeBasisPoints: 75 }], 1);
    const fundId = late.fundIds[0] as string;
    const patched = await late.staff.patch(`/api/schemes/${late.schemeId}`, {
      normalRetirementAge: 65,
      defaultFundId: fundId,
    });
    expect(patched.statusCode, patched.body).toBe(200);
    await late.prices(fundId, [
      { on: '2026-01-20', price: '1.000000' },
      { on: '2026-12-31', price: '1.000000' },
    ]);
    const memberId = late.members[0]?.id as string;
    // August to October at €480 a month, keyed on 30 Nov; the member made no fund choice.
    const keyed: string[] = [];
    for (const period of ['2026-08', '2026-09', '2026-10']) {
      const made = await late.contribute(memberId, {
        period,
        amountCents: 48_000,
        receivedOn: '2026-11-30',
      });
      keyed.push(made.id);
    }
    // September was €60 too much: corrected after the date, it is still September's.
    const correction = await late.staff.post(`/api/contributions/${keyed[1]}/adjustments`, {
      deltaCents: -6_000,
      reason: 'Overtime keyed twice',
    });
    expect(correction.statusCode, correction.body).toBe(201);
    await runInvestments(t);
    const set = await late.as(late.admin).post('/api/statement-assumptions', {
      name: 'Pensions Authority guidance',
      effectiveFrom: '2026-01-01',
      source: 'The Pensions Authority’s guidance',
      bestEstimateReturnPct: 4.75,
      unfavourableReturnPct: 1.5,
      inflationPct: 2.5,
      salaryGrowthPct: 2.5,
      annuityFactor: 25,
    });
    expect(set.statusCode, set.body).toBe(201);
    const queued = await late.staff.post(`/api/schemes/${late.schemeId}/statement-runs`, {
      informationDate: '2026-10-31',
      membersBy: '2027-04-30',
      assumptionsId: set.json().id,
    });
    expect(queued.statusCode, queued.body).toBe(202);
    let run: { status: string; done: number; failed: number; issues: unknown[] } | undefined;
    for (let tries = 0; tries < 200 && run?.status !== 'ready'; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      run = (await late.staff.get(`/api/statement-runs/${queued.json().id}`)).json();
    }
    expect(run).toMatchObject({ status: 'ready', done: 1, failed: 0, issues: [] });

    const [statement] = (
      await late.staff.get(`/api/statement-runs/${queued.json().id}/statements`)
    ).json() as Array<{ id: string; figures: StatementFigures }>;
    const figures = statement?.figures as StatementFigures;
    // €1,440 less the €60 correction, a year's worth at the corrected €460 a month.
    expect(figures.year).toMatchObject({ memberCents: 138_000, employerCents: 0 });
    expect(figures.dc).toMatchObject({
      fundValueCents: 138_000,
      awaitingInvestmentCents: 138_000,
      annualContributionCents: 552_000,
      chargeBasisPoints: 75,
    });
    const text = textOf((await late.staff.get(`/api/statements/${statement?.id}/pdf`)).rawPayload);
    expect(text).toContain('yearly charges of 0.75%');
    expect(text).toContain(`contributions of ${formatCents(552_000)} a year`);
    expect(text).toContain(
      'This statement is given under S.I. No. 128/2021, regulations 31 to 35.',
    );
  });
});
