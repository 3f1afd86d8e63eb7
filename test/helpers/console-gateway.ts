import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express from 'express';
import { expect } from 'vitest';
import { switchyardConsole } from '../../src/console/console-handler.js';
import type { ConsoleOptions } from '../../src/console/console-options.js';
import { gateway, type Gateway } from '../../src/gateway/gateway.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { silentLogger } from '../../src/logger.js';
import { ConsoleVisitor } from './console-visitor.js';
import type { Scratch } from './scratch.js';

export const PASSWORD = 'a long enough password';

/** A gateway instance with its console at /console, on a loopback port. */
export interface ConsoleGatewayInstance {
  origin: string;
  api: Gateway;
}

/** Starts a gateway with its console mounted at /console; the scratch closes both after the test. */
export async function serveWithConsole(
  scratch: Scratch,
  options: GatewayOptions,
  consoleOptions: Omit<ConsoleOptions, 'gateway'> = {},
): Promise<ConsoleGatewayInstance> {
  const api = gateway({ logger: silentLogger, ledger: { outbox: scratch.file('outbox'), intervalMs: 5 }, ...options });
  const app = express();
  app.use('/console', switchyardConsole({ gateway: api, logger: silentLogger, ...consoleOptions }));
  app.use(api);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  scratch.later(() => api.close());
  scratch.later(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  await api.ready();
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, api };
}

/** A visitor who registered `email` (and is signed in). */
export async function registered(origin: string, email: string, password = PASSWORD): Promise<ConsoleVisitor> {
  const visitor = new ConsoleVisitor(origin);
  expect((await visitor.post('/console/register', { email, password })).status).toBe(303);
  return visitor;
}

/** A new key the visitor made on the keys page: the whole key, shown once. */
export async function newKey(visitor: ConsoleVisitor, name = 'laptop'): Promise<string> {
  const made = await visitor.post('/console/keys', { name });
  const key = /id="new-key"[^>]*>(sk-sy-[^<]+)</.exec(made.text)?.[1];
  expect(key).toBeDefined();
  return key ?? '';
}

export async function userIdOf(api: Gateway, email: string): Promise<string> {
  const db = await api.storage!();
  const row = await db.selectFrom('console_users').select('id').where('email', '=', email).executeTakeFirstOrThrow();
  return row.id;
}
