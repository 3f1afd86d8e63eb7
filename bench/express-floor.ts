// A reference, not a gateway: the least an Express-mounted gateway can do per request. Express 5
// with a Router and express.json, one undici call to the upstream, JSON parse and stringify of the
// answer; no auth, validation or translation. Usage: node express-floor.js <upstream url>
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Pool } from 'undici';

const upstream = new URL(process.argv[2] ?? 'http://127.0.0.1:8080');
const pool = new Pool(upstream.origin, { connections: null, keepAliveTimeout: 30_000 });

const router = express.Router();
router.post(
  ['/v1/chat/completions', '/v1/messages', '/v1/responses'],
  express.json({ limit: '32mb', type: () => true }),
  async (req, res) => {
    const answer = await pool.request({
      method: 'POST',
      path: '/v1/chat/completions',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk-upstream-bench' },
      body: JSON.stringify({ ...(req.body as object), model: 'gpt-bench' }),
    });
    const text = JSON.stringify(JSON.parse(await answer.body.text()));
    res.statusCode = answer.statusCode;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', Buffer.byteLength(text));
    res.end(text);
  },
);

const app = express();
app.use(router);
const server = app.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
server.keepAliveTimeout = 60_000;
process.on('SIGTERM', () => process.exit(0));
