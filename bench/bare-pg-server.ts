import Fastify, { type FastifyRequest } from 'fastify';
import { jwtVerify } from 'jose';
import pg from 'pg';

/**
 * The baseline for the organisation API: Fastify and a pg pool of the same size running the same
 * SELECT as GET /api/schemes/:id, with no session, no row-level security and no schema.
 */
const pool = new pg.Pool({
  connectionString: process.env.BENCH_DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 10),
});
const app = Fastify({ logger: false });
app.get<{ Params: { id: string } }>('/api/schemes/:id', async (request, reply) => {
  const { rows } = await pool.query(
    'select id, broker_id, employer_id, name, type, created_at, updated_at from schemes where id = $1 and deleted_at is null',
    [request.params.id],
  );
  if (rows.length === 0) return reply.code(404).send({ error: 'Not found' });
  return rows[0];
});
/**
 * The same SELECT with the security work this design asks of every request and nothing else:
 * the session user's row read through its function, then the read inside a transaction as
 * pension_app with the tenant set. Shows how much of the cost is the design, how much the stack.
 */
app.get<{ Params: { id: string } }>('/api/secured/schemes/:id', async (request, reply) => {
  const userId = String(request.headers['x-user-id']);
  const tenantId = String(request.headers['x-tenant-id']);
  const { rows: found } = await pool.query('select * from auth_user_by_id($1)', [userId]);
  if (found.length === 0) return reply.code(401).send({ error: 'Unauthorized' });
  const client = await pool.connect();
  try {
    await client.query(
      `begin; select set_config('role', 'pension_app', true), set_config('app.tenant_id', '${tenantId.replace(/[^A-Za-z0-9]/g, '')}', true)`,
    );
    const { rows } = await client.query(
      'select id, broker_id, employer_id, name, type, created_at, updated_at from schemes where id = $1 and deleted_at is null',
      [request.params.id],
    );
    await client.query('commit');
    if (rows.length === 0) return reply.code(404).send({ error: 'Not found' });
    return rows[0];
  } finally {
    client.release();
  }
});
/**
 * The two secured baselines of docs/decisions/0060-request-path-one-round-trip.md: the security
 * work the service does on every read, with nothing else. The session token (the service's own,
 * signed with BENCH_AUTH_SECRET) is verified with jose on every request, then the user's current
 * state is checked, then the SELECT runs as pension_app with the tenant set, in a transaction.
 */
const key = await crypto.subtle.importKey(
  'raw',
  new TextEncoder().encode(process.env.BENCH_AUTH_SECRET ?? ''),
  { name: 'HMAC', hash: 'SHA-256' },
  false,
  ['verify'],
);
interface Claims {
  userId: string;
  role: string;
  brokerId: string;
  employerId: string | null;
  pwc: number;
  sep: number;
}
async function claimsOf(request: FastifyRequest): Promise<Claims | null> {
  const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
  if (!token) return null;
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: 'pension-admin',
      audience: 'pension-admin',
    });
    return payload as unknown as Claims;
  } catch {
    return null;
  }
}
const plain = (value: string) => value.replace(/[^A-Za-z0-9_-]/g, '');
const SCHEME_SELECT =
  'select id, broker_id, employer_id, name, type, created_at, updated_at from schemes where id = $1 and deleted_at is null';

/** Four round trips: the user's row read, BEGIN with the role and tenant, the SELECT, COMMIT. */
app.get<{ Params: { id: string } }>('/api/secured4/schemes/:id', async (request, reply) => {
  const claims = await claimsOf(request);
  if (!claims) return reply.code(401).send({ error: 'Unauthorized' });
  const { rows: found } = await pool.query('select * from auth_user_by_id($1)', [claims.userId]);
  const user = found[0];
  if (
    user?.status !== 'active' ||
    user.session_epoch !== claims.sep ||
    new Date(user.password_changed_at).getTime() !== claims.pwc ||
    user.role !== claims.role ||
    user.broker_id !== claims.brokerId ||
    user.employer_id !== claims.employerId
  ) {
    return reply.code(401).send({ error: 'Unauthorized' });
  }
  const client = await pool.connect();
  try {
    await client.query(
      `begin; select set_config('role', 'pension_app', true), set_config('app.tenant_id', '${plain(claims.brokerId)}', true)`,
    );
    const { rows } = await client.query(SCHEME_SELECT, [request.params.id]);
    await client.query('commit');
    if (rows.length === 0) return reply.code(404).send({ error: 'Not found' });
    return rows[0];
  } finally {
    client.release();
  }
});

/**
 * One round trip: the user's check (raising when it fails), the role, the tenant and the SELECT
 * as one simple-protocol message, values written in as checked literals; PostgreSQL runs it as
 * one implicit transaction, so there is nothing to commit.
 */
app.get<{ Params: { id: string } }>('/api/secured1/schemes/:id', async (request, reply) => {
  const claims = await claimsOf(request);
  if (!claims) return reply.code(401).send({ error: 'Unauthorized' });
  const employer = claims.employerId === null ? 'null' : `'${plain(claims.employerId)}'`;
  const results = (await pool.query(
    `select set_config('role', 'pension_app', true), set_config('app.tenant_id', '${plain(claims.brokerId)}', true)
       from app_session_check('${plain(claims.userId)}', ${Number(claims.sep)}, ${Number(claims.pwc)}, '${plain(claims.role)}', '${plain(claims.brokerId)}', ${employer}, true);
     ${SCHEME_SELECT.replace('$1', `'${plain(request.params.id)}'`)}`,
  )) as unknown as pg.QueryResult[];
  const rows = results[1]?.rows ?? [];
  if (rows.length === 0) return reply.code(404).send({ error: 'Not found' });
  return rows[0];
});

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
