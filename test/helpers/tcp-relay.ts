import { once } from 'node:events';
import { createConnection, createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP relay to a real server, that a test can cut and restore: the network failing, not a fake server. */
export interface TcpRelay {
  port: number;
  /** Drops every open connection and refuses new ones (the port closes). */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  /** Holds every byte, both ways, and new connections, until `resume`: a server that hangs without closing anything. */
  stall(): void;
  /** Lets everything held go on. */
  resume(): void;
  close(): Promise<void>;
}

/** `delayMs`: added to everything the client sends (a slow network), in order. */
export async function startTcpRelay(targetHost: string, targetPort: number, options: { delayMs?: number } = {}): Promise<TcpRelay> {
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  let stalled = false;
  const held: Array<() => void> = [];
  const makeServer = () =>
    createServer((client) => {
      track(client);
      if (stalled) {
        client.pause();
        held.push(() => connect(client));
      } else connect(client);
    });
  const connect = (client: Socket) => {
    const upstream = createConnection(targetPort, targetHost);
    track(upstream);
    if (options.delayMs === undefined) client.pipe(upstream);
    else client.on('data', (chunk: Buffer) => setTimeout(() => upstream.destroyed || upstream.write(chunk), options.delayMs));
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  };
  let server: Server = makeServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as { port: number }).port;
  let open = true;

  const stop = async () => {
    if (!open) return;
    open = false;
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    async restore() {
      if (open) return;
      server = makeServer();
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      open = true;
    },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    resume() {
      stalled = false;
      for (const socket of sockets) socket.resume();
      for (const connectHeld of held.splice(0)) connectHeld();
    },
    close: stop,
  };
}
