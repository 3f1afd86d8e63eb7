// Switchyard as users run it: compiled output (`dist/`, through the package's own export), API keys
// on, one model on the built-in `openai` provider pointed at the mock upstream. Served from a bare
// `node:http` server, as the standalone server does; `BENCH_HOST=express` mounts it in an Express
// app instead. Usage: node gateway-server.js <upstream url>
// `BENCH_PROVIDER=mock` serves the built-in mock provider instead (no upstream; harness checks only).
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { gateway, type GatewayOptions, type Logger } from 'switchyard';
import { BENCH_KEY, BENCH_MODEL, UPSTREAM_MODEL } from './bodies.js';

const upstream = process.argv[2] ?? 'http://127.0.0.1:8080';
const providers: GatewayOptions['providers'] =
  process.env.BENCH_PROVIDER === 'mock'
    ? { mock: { type: 'mock', chunks: 50 } }
    : { openai: { apiKey: 'sk-upstream-bench', baseURL: `${upstream}/v1` } };
const provider = process.env.BENCH_PROVIDER === 'mock' ? 'mock' : 'openai';

const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };

const handler = gateway({
  apiKeys: [BENCH_KEY],
  providers,
  models: [{ id: BENCH_MODEL, provider, upstreamModel: UPSTREAM_MODEL }],
  logger: silentLogger,
});

const server = process.env.BENCH_HOST === 'express' ? createServer(express().use(handler)) : createServer(handler);
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`listening ${(server.address() as AddressInfo).port}\n`);
});
// `--cpu-prof` writes its profile on a normal exit, so SIGTERM exits normally.
process.on('SIGTERM', () => process.exit(0));
