import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import path from 'node:path';
import Fastify from 'fastify';

/**
 * The documents benchmark's HTTP baseline: bare Fastify taking a raw 20 MiB body to a file (written
 * and synced as the service's staging does) and sending a file back as a stream, with no parsing,
 * hashing, database or audit. What is left between it and the service is the service's own work.
 */
const directory = process.env.BENCH_DIRECTORY as string;
const app = Fastify({ logger: false, bodyLimit: 30 * 1024 * 1024 });
app.removeAllContentTypeParsers();
app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
app.post('/upload', async (request) => {
  const handle = await open(path.join(directory, 'upload'), 'w', 0o600);
  for await (const chunk of request.body as AsyncIterable<Buffer>) await handle.write(chunk);
  await handle.sync();
  await handle.close();
  return { ok: true };
});
app.get('/download', async (_request, reply) => {
  const file = path.join(directory, 'sample.pdf');
  const { size } = await stat(file);
  return reply
    .header('content-type', 'application/pdf')
    .header('content-length', String(size))
    .send(createReadStream(file));
});
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening ${(app.server.address() as { port: number }).port}\n`);
process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
