import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/**
 * A loopback TCP proxy in front of the database server, so a test can make the database
 * unreachable (stop) and bring it back (start) on the same address. It also counts round trips
 * at the protocol level (docs/decisions/0060-request-path-one-round-trip.md): on each connection, every time the client sends after the
 * server has answered (or sends first) starts one round trip, however many messages or TCP
 * segments either side's turn takes.
 */
export async function startTcpProxy(targetHost: string, targetPort: number) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  let roundTrips = 0;

  const listen = async () => {
    server = createServer((client) => {
      const upstream = createConnection(targetPort, targetHost);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      let serverAnswered = true;
      client.on('data', (chunk) => {
        if (serverAnswered) roundTrips += 1;
        serverAnswered = false;
        upstream.write(chunk);
      });
      upstream.on('data', (chunk) => {
        serverAnswered = true;
        client.write(chunk);
      });
      client.on('end', () => upstream.end());
      upstream.on('end', () => client.end());
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
    /** Round trips on every connection since the proxy started or since the last reset. */
    get roundTrips() {
      return roundTrips;
    },
    resetRoundTrips() {
      roundTrips = 0;
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
