import Fastify from 'fastify';

/** The baseline: Fastify with one route and nothing else, on the same machine in the same run. */
const app = Fastify({ logger: false });
app.get('/api/health/live', async () => ({ status: 'ok' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
