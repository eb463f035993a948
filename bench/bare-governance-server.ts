import Fastify from 'fastify';
import pg from 'pg';

/**
 * The baseline for the compliance calendar and dashboard (docs/decisions/0059-governance-rules.md): Fastify and a pg pool of the
 * same size reading the same rows the service reads for one tenant (its live schemes with their
 * employers, the five registers, and the scheme year's trainings, filings and members counted
 * with the new joiners of each scheme, docs/decisions/0122-the-scheme-year.md) and answering them
 * as they come, with no session, no row-level security and no rules applied.
 */
const pool = new pg.Pool({
  connectionString: process.env.BENCH_DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});

const QUERIES = [
  `select s.id, s.broker_id, s.employer_id, s.name, s.type, s.rac_kind, s.year_end,
          (s.created_at at time zone 'Europe/Dublin')::date as added_on, e.name as employer_name
     from schemes s join employers e on e.id = s.employer_id and e.deleted_at is null
    where s.broker_id = $1 and s.deleted_at is null order by s.broker_id, s.id`,
  `select id, scheme_id, kind, director_count, appointed_on, ended_on, fitness_and_probity
     from trustees where broker_id = $1 and deleted_at is null`,
  `select id, scheme_id, function, holder_name, appointed_on, ended_on, fitness_and_probity,
          also_serves_employer, conflicts_protocol, notified_on
     from key_function_holders where broker_id = $1 and deleted_at is null`,
  `select id, scheme_id, kind, status, approved_on, next_review_due
     from written_policies where broker_id = $1 and deleted_at is null and status in ('draft','approved')`,
  `select id, scheme_id, performed_on, next_due from ora_reports where broker_id = $1 and deleted_at is null`,
  `select scheme_id, policy_id, occurred_on from significant_changes where broker_id = $1 and deleted_at is null`,
  `select scheme_id, trustee_id, completed_on, director_name
     from trustee_trainings where broker_id = $1 and deleted_at is null`,
  `select id, scheme_id, kind, period_end, completed_on, audited
     from filings where broker_id = $1 and deleted_at is null`,
  `select m.scheme_id, count(*)::int as members,
          coalesce(json_agg(json_build_object('joinedOn', m.date_joined, 'informationSentOn', m.information_sent_on))
            filter (where m.status = 'active'
                      and m.date_joined >= (s.created_at at time zone 'Europe/Dublin')::date), '[]') as new_members
     from members m join schemes s on s.broker_id = m.broker_id and s.id = m.scheme_id
    where m.broker_id = $1 and m.deleted_at is null and m.status in ('active','deferred')
    group by m.scheme_id`,
];

const app = Fastify({ logger: false });
app.get('/api/governance-rows', async (request) => {
  const brokerId = String(request.headers['x-tenant-id']);
  const client = await pool.connect();
  try {
    const answers = [];
    for (const text of QUERIES) answers.push((await client.query(text, [brokerId])).rows);
    return { schemes: answers[0], registers: answers.slice(1) };
  } finally {
    client.release();
  }
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
