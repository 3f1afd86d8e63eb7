import type { Server } from 'node:http';

export interface GracefulClose {
  /** Resolves once every connection is closed; `forced` when the deadline (or `force()`) cut some. */
  done: Promise<{ forced: boolean }>;
  /** Ends the requests still open now (a second Ctrl-C), as at the deadline. */
  force(): void;
}

/** How long requests ended by `interrupt` have to finish their answers before their connections are closed. */
export const INTERRUPT_GRACE_MS = 1_000;

/**
 * Stops accepting connections, closes idle keep-alive connections as they become idle, lets open
 * requests finish for up to `timeoutMs`, then ends whatever is left: `interrupt` (when given) makes
 * the open requests end their answers with an error in their own protocol — a stream's in-band
 * error event and a properly ended body rather than a cut connection — and the connections still
 * open `INTERRUPT_GRACE_MS` later are closed.
 */
export function closeGracefully(server: Server, timeoutMs: number, interrupt?: () => void): GracefulClose {
  let forced = false;
  let backstop: NodeJS.Timeout | undefined;
  const force = () => {
    if (forced) return;
    forced = true;
    if (interrupt === undefined) {
      server.closeAllConnections();
      return;
    }
    interrupt();
    // The interrupted answers end within a few ticks; their connections then go idle and are swept.
    server.closeIdleConnections();
    backstop = setTimeout(() => server.closeAllConnections(), INTERRUPT_GRACE_MS);
  };
  const idleSweep = setInterval(() => server.closeIdleConnections(), 100);
  const deadline = setTimeout(force, timeoutMs);
  const done = new Promise<{ forced: boolean }>((resolve) => {
    server.close(() => {
      clearInterval(idleSweep);
      clearTimeout(deadline);
      clearTimeout(backstop);
      resolve({ forced });
    });
    server.closeIdleConnections();
  });
  return { done, force };
}
