import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Registry } from 'prom-client';

/**
 * A `node:http` / Express handler that answers with `registry`'s metrics in the Prometheus text
 * format, e.g. `app.get('/metrics', metricsHandler(gateway.metrics!))`.
 */
export function metricsHandler(registry: Registry): (req: IncomingMessage, res: ServerResponse) => void {
  return (_req, res) => {
    registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': registry.contentType, 'Cache-Control': 'no-store' });
        res.end(text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' });
        res.end(`# metrics could not be collected: ${error instanceof Error ? error.message : String(error)}\n`);
      },
    );
  };
}
