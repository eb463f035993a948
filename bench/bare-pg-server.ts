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
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () =>
  app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0)),
);
