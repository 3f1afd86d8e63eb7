// The floor for any Node gateway: a node:http proxy that parses nothing. It pipes the request to the
// upstream over keep-alive connections and pipes the answer back. Usage: node passthrough.js <upstream url>
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

const upstream = new URL(process.argv[2] ?? 'http://127.0.0.1:8080');
const agent = new Agent({ keepAlive: true, maxSockets: Infinity, keepAliveMsecs: 30_000 });

const server = createServer((req, res) => {
  const outbound = request(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  outbound.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  res.on('close', () => {
    if (!res.writableFinished) outbound.destroy();
  });
  req.pipe(outbound);
});
server.keepAliveTimeout = 60_000;

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
process.on('SIGTERM', () => process.exit(0));
