import { createConnection, createServer, type Socket } from 'node:net';

/**
 * A loopback TCP proxy that holds every chunk the database sends for BENCH_DELAY_MS (default 1)
 * before passing it on, so each round trip to the database costs that much more, as on a
 * deployment where the database is a network hop away (docs/decisions/0060-request-path-one-round-trip.md). Run as its own process, so its
 * timers do not share a core with the load generator. Prints `listening <port>`.
 */
const target = new URL(process.env.BENCH_TARGET_URL ?? 'postgres://127.0.0.1:5432');
const delayMs = Number(process.env.BENCH_DELAY_MS ?? 1);

/** Writes chunks to `to` `delayMs` after they arrived, in the order they arrived. */
function delayed(to: Socket): (chunk: Buffer) => void {
  const queue: { chunk: Buffer; due: number }[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const now = performance.now();
    while (queue.length > 0 && (queue[0] as { due: number }).due <= now) {
      to.write((queue.shift() as { chunk: Buffer }).chunk);
    }
    if (queue.length > 0) {
      scheduled = true;
      setTimeout(flush, Math.max(0, (queue[0] as { due: number }).due - now));
    }
  };
  return (chunk) => {
    queue.push({ chunk, due: performance.now() + delayMs });
    if (!scheduled) {
      scheduled = true;
      setTimeout(flush, delayMs);
    }
  };
}

const server = createServer((client) => {
  client.setNoDelay(true);
  const upstream = createConnection(Number(target.port || 5432), target.hostname);
  upstream.setNoDelay(true);
  for (const socket of [client, upstream]) socket.on('error', () => socket.destroy());
  client.on('close', () => upstream.destroy());
  upstream.on('close', () => client.destroy());
  client.on('data', (chunk) => upstream.write(chunk));
  upstream.on('data', delayed(client));
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as { port: number }).port}\n`);
});
process.once('SIGTERM', () => process.exit(0));
