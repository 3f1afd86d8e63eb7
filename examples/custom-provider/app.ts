// Mounting a custom provider. In your own project: import { gateway } from 'switchyard-gateway';
import express from 'express';
import { gateway } from '../../src/index.js';
import { shoutProvider } from './shout-provider.js';

export function createApp(apiKey: string) {
  const app = express();
  app.use(
    gateway({
      apiKeys: [apiKey],
      providers: { shout: shoutProvider },
      models: [{ id: 'shout', provider: 'shout' }],
    }),
  );
  return app;
}
