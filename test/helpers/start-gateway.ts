import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import express, { type Express } from 'express';
import { gateway, type Gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';

export const TEST_KEY = 'sk-test-switchyard-0123456789';

export interface RunningGateway {
  /** Where the gateway is mounted: Anthropic clients' base URL. */
  root: string;
  /** `root + '/v1'`: OpenAI clients' base URL. */
  openAIBaseURL: string;
  app: Express;
  /** The mounted gateway (its `keys`, `usage`, `close`). */
  gateway: Gateway;
  /** Stops the server; the gateway itself is closed only by `gateway.close()`. */
  close(): Promise<void>;
}

/** Starts an Express app with the gateway mounted at `mountPath` on a loopback port. */
export async function startGateway(
  options: GatewayOptions = {},
  mountPath = '/',
  prepare?: (app: Express) => void,
  finish?: (app: Express) => void,
): Promise<RunningGateway> {
  const app = express();
  prepare?.(app);
  const mounted = gateway({ apiKeys: [TEST_KEY], logger: silentLogger, ...options });
  app.use(mountPath, mounted);
  finish?.(app);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const { port } = server.address() as AddressInfo;
  const root = `http://127.0.0.1:${port}${mountPath === '/' ? '' : mountPath}`;
  return {
    root,
    openAIBaseURL: `${root}/v1`,
    app,
    gateway: mounted,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
