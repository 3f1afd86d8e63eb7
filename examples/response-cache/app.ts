// An Express app whose gateway answers repeated requests from a cache:
//   npx tsx examples/response-cache/app.ts   (REDIS_URL=redis://… to share the cache between instances)
// In your own project: import { gateway, type GatewayOptions } from 'switchyard-gateway';
import express from 'express';
import { Redis } from 'ioredis';
import { gateway, type GatewayOptions } from '../../src/index.js';
import { responseCache, type CacheStore } from './response-cache.js';
import { memoryCacheStore, redisCacheStore } from './stores.js';

export function createApp(options: GatewayOptions, store: CacheStore = memoryCacheStore()) {
  const app = express();
  app.use(gateway({ ...options, stages: [responseCache({ store })] }));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const apiKey = process.env.SWITCHYARD_API_KEY ?? 'sk-example-cache';
  const store = process.env.REDIS_URL === undefined ? memoryCacheStore() : redisCacheStore(new Redis(process.env.REDIS_URL));
  createApp({ apiKeys: [apiKey] }, store).listen(8787, '127.0.0.1', () => {
    console.log(`Listening on http://127.0.0.1:8787 (key ${apiKey}, model mock)`);
  });
}
