// A reference, not a gateway: the least any gateway that reads the bodies does per request, on
// bare node:http. The request body parsed and re-serialised with the upstream's model name, one
// undici call to the same endpoint upstream, the answer parsed and re-serialised; no auth,
// validation, routing or translation. Next to the passthrough (bytes piped, nothing parsed) it
// shows what reading and writing the JSON costs, so the rest of Switchyard's cost is its own.
// Streamed answers are piped unread, as the passthrough pipes them.
// Usage: node json-floor.js <upstream url>
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { UPSTREAM_MODEL } from './bodies.js';

const upstream = new URL(process.argv[2] ?? 'http://127.0.0.1:8080');
// No headers or body timeout: undici's timers for them are made per request and outlive it, which
// promoted about 3.9 KB a request to the old generation (`--allocation`); the floor has no deadline at
// all, and the gateway bounds its calls with its own (src/providers/transport/upstream.ts).
const pool = new Pool(upstream.origin, { connections: null, keepAliveTimeout: 30_000, headersTimeout: 0, bodyTimeout: 0 });

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

const server = createServer(async (req, res) => {
  const body = JSON.parse(await readText(req)) as Record<string, unknown>;
  const answer = await pool.request({
    method: 'POST',
    path: req.url ?? '/',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream-bench', 'anthropic-version': '2023-06-01' },
    body: JSON.stringify({ ...body, model: UPSTREAM_MODEL }),
  });
  if (body.stream === true) {
    // Streams are piped as the passthrough pipes them: the floor is for JSON answers.
    res.writeHead(answer.statusCode, { 'content-type': 'text/event-stream' });
    answer.body.pipe(res);
    return;
  }
  const text = JSON.stringify(JSON.parse(await answer.body.text()));
  res.writeHead(answer.statusCode, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  res.end(text);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
