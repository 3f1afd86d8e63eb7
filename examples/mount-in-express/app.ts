// Mounting Switchyard in an existing Express app. In your own project:
//   import { gateway } from 'switchyard-gateway';
import express from 'express';
import { gateway } from '../../src/index.js';

/** The host app: its own routes, plus the gateway's /v1 endpoints. */
export function createApp(apiKey: string) {
  const app = express();
  app.get('/health', (_req, res) => res.json({ ok: true }));

  // Mount the gateway before any global express.json(): it reads its own bodies (up to 32 MB).
  app.use(
    gateway({
      apiKeys: [apiKey],
      models: [{ id: 'mock', provider: 'mock' }],
    }),
  );
  return app;
}
