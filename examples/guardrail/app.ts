// An Express app whose gateway refuses (or redacts) card numbers in requests:
//   npx tsx examples/guardrail/app.ts   then send a request with a card number in it.
// In your own project: import { gateway, type GatewayOptions } from 'switchyard-gateway';
import express from 'express';
import { gateway, type GatewayOptions } from '../../src/index.js';
import { cardNumberGuardrail, type CardNumberGuardrailOptions } from './card-number-guardrail.js';

export function createApp(options: GatewayOptions, guardrail: CardNumberGuardrailOptions = {}) {
  const app = express();
  app.use(gateway({ ...options, stages: [cardNumberGuardrail(guardrail)] }));
  return app;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const apiKey = process.env.SWITCHYARD_API_KEY ?? 'sk-example-guardrail';
  createApp({ apiKeys: [apiKey] }, { mode: process.env.GUARDRAIL_MODE === 'redact' ? 'redact' : 'refuse' }).listen(
    8787,
    '127.0.0.1',
    () => {
      console.log(`Listening on http://127.0.0.1:8787 (key ${apiKey}, model mock)`);
    },
  );
}
