import type { Server } from 'node:http';

export interface GracefulClose {
  /** Resolves once every connection is closed; `forced` when the deadline (or `force()`) cut some. */
  done: Promise<{ forced: boolean }>;
  /** Closes every remaining connection now (a second Ctrl-C). */
  force(): void;
}

/**
 * Stops accepting connections, closes idle keep-alive connections as they become idle, lets open
 * requests finish for up to `timeoutMs`, then closes whatever is left.
 */
export function closeGracefully(server: Server, timeoutMs: number): GracefulClose {
  let forced = false;
  const force = () => {
    forced = true;
    server.closeAllConnections();
  };
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(force, timeoutMs);
  const done = new Promise<{ forced: boolean }>((resolve) => {
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(deadline);
      resolve({ forced });
    });
    server.closeIdleConnections();
  });
  return { done, force };
}
