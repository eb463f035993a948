import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of the database server, so a test can make the database
 * unreachable (stop) and bring it back (start) on the same address.
 */
export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;

  const listen = async () => {
    server = createServer((client) => {
      const upstream = createConnection(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    port = (server.address() as { port: number }).port;
  };

  await listen();
  return {
    get port() {
      return port;
    },
    /** Drops every open connection and refuses new ones. */
    async stop() {
      for (const socket of sockets) socket.destroy();
      const closing = server;
      server = null;
      if (closing) await new Promise((resolve) => closing.close(resolve));
    },
    start: listen,
  };
}
