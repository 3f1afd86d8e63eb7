// A TCP relay between a gateway and its PostgreSQL that can stall: every byte held in both
// directions for a while, as a database that stops answering (a lock, a failover, a full disk) does.
import { once } from 'node:events';
import { createConnection, createServer, type Socket } from 'node:net';

export interface DbRelay {
  port: number;
  /** Holds all traffic, and new connections, for `ms`. */
  stall(ms: number): Promise<void>;
  close(): Promise<void>;
}

export async function startDbRelay(host: string, port: number): Promise<DbRelay> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const held: Array<() => void> = [];
  const server = createServer((client) => {
    const connect = () => {
      const upstream = createConnection(port, host);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    };
    if (stalled) held.push(connect);
    else connect();
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: (server.address() as { port: number }).port,
    async stall(ms) {
      stalled = true;
      for (const socket of sockets) socket.pause();
      await new Promise((resolve) => setTimeout(resolve, ms));
      stalled = false;
      for (const socket of sockets) socket.resume();
      for (const connect of held.splice(0)) connect();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
