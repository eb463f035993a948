import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEV_ACCOUNTS } from '../helpers/built-server.js';
import { auditVerify, type Deployment, faultSkipReason, startDeployment } from './processes.js';

/**
 * PostgreSQL stopped under load and started again (docs/faults.md, "PostgreSQL
 * restarted"). Clients keep creating employers through nginx while the cluster is shut down
 * (`pg_ctl stop -m fast`) and brought back. The service promises the generic 503 while the
 * database is out (docs/decisions/0008-http-answers.md), that its pools reconnect on their own,
 * and that a write is either committed with its audit record or not at all.
 */

if (faultSkipReason) console.warn(faultSkipReason);

type Phase = 'before' | 'down' | 'after';
interface Answer {
  name: string;
  phase: Phase;
  status: number;
  body: string;
}

const UNAVAILABLE = JSON.stringify({ error: 'Service unavailable' });
/** Two lanes, one request each per pause: under the 100-a-minute allowance of one user. */
const LANES = 2;
const PAUSE_MS = 500;

describe.skipIf(faultSkipReason)('PostgreSQL stopped mid-load and restarted', () => {
  let deployment: Deployment;

  beforeAll(async () => {
    deployment = await startDeployment();
  });

  afterAll(async () => {
    await deployment?.dispose();
  });

  it('answers only the generic 503 while the database is down, recovers without restarting an instance, and keeps every acknowledged write with its audit record and none half-written', async () => {
    const token = await deployment.signIn(DEV_ACCOUNTS.brokerAdmin);
    const answers: Answer[] = [];
    let phase: Phase = 'before';
    let writing = true;
    const lane = async (laneNumber: number) => {
      for (let sequence = 0; writing; sequence += 1) {
        const name = `Fault Employer ${laneNumber}-${sequence}`;
        const sentIn = phase;
        const answer = await deployment.request({
          method: 'POST',
          path: '/api/employers',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name }),
        });
        answers.push({ name, phase: sentIn, status: answer.status, body: answer.body });
        await sleep(PAUSE_MS);
      }
    };
    const lanes = Array.from({ length: LANES }, (_, index) => lane(index));

    await sleep(2_000);
    phase = 'down';
    await deployment.cluster.stop();
    await sleep(4_000);
    await deployment.cluster.start();
    phase = 'after';
    // Served again: a run of successes after the restart, within a minute.
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      const recent = answers.filter((answer) => answer.phase === 'after').slice(-4);
      if (recent.length === 4 && recent.every((answer) => answer.status === 201)) break;
      await sleep(250);
    }
    writing = false;
    await Promise.all(lanes);

    const statuses = answers.map((answer) => answer.status);
    // Nothing but success or the generic 503: no 500, no 502 from nginx, no detail.
    expect(new Set(statuses.filter((status) => status !== 201))).toEqual(new Set([503]));
    for (const answer of answers.filter((each) => each.status === 503)) {
      expect(answer.body).toBe(UNAVAILABLE);
    }
    expect(answers.some((answer) => answer.phase === 'before' && answer.status === 201)).toBe(true);
    expect(answers.some((answer) => answer.phase === 'down' && answer.status === 503)).toBe(true);
    expect(
      answers
        .filter((answer) => answer.phase === 'after')
        .slice(-4)
        .map((answer) => answer.status),
    ).toEqual([201, 201, 201, 201]);

    // The same two processes serve again: each answers its readiness probe directly.
    for (const instance of deployment.instances) {
      const ready = await fetch(`${instance.baseUrl}/api/health/ready`);
      expect(ready.status).toBe(200);
      expect(instance.output()).not.toMatch(/exited|uncaught/i);
    }

    const acknowledged = new Set(
      answers.filter((answer) => answer.status === 201).map((answer) => answer.name),
    );
    const refused = new Set(
      answers.filter((answer) => answer.status === 503).map((answer) => answer.name),
    );
    const stored = await deployment.cluster.query<{ id: string; name: string; audits: string }>(
      `select e.id, e.name,
              (select count(*) from audit_log a
                where a.entity_type = 'employer' and a.entity_id = e.id
                  and a.action = 'employer.created') as audits
         from employers e where e.name like 'Fault Employer %'`,
    );
    const storedNames = new Set(stored.map((row) => row.name));
    // No lost write: every 201 is a row.
    for (const name of acknowledged) expect(storedNames).toContain(name);
    // A row nobody was told about can only be a 503 whose commit raced the shutdown.
    for (const name of storedNames) {
      if (!acknowledged.has(name)) expect(refused).toContain(name);
    }
    // Never half-written: each row has exactly one creation record, and no record lacks its row.
    for (const row of stored) expect(Number(row.audits)).toBe(1);
    const orphans = await deployment.cluster.query<{ count: string }>(
      `select count(*) from audit_log a where a.action = 'employer.created'
         and not exists (select 1 from employers e where e.id = a.entity_id)`,
    );
    expect(Number(orphans[0]?.count)).toBe(0);

    const verified = auditVerify(deployment.env);
    expect(verified.output).not.toMatch(/BROKEN/);
    expect(verified.status, verified.output).toBe(0);
    console.info(
      `postgres restart: ${answers.length} writes, ${acknowledged.size} acknowledged, ${refused.size} refused with 503, ${stored.length} stored`,
    );
  });
});
