import Fastify from 'fastify';
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
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
