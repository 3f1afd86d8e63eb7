import fc from 'fast-check';
import request from 'supertest';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { gateway } from '../../src/gateway/gateway.js';
import { silentLogger } from '../../src/logger.js';
import { TEST_KEY } from '../helpers/start-gateway.js';

const app = express().use(gateway({ apiKeys: [TEST_KEY], logger: silentLogger }));

/** Mostly `good`, sometimes any JSON value. */
const mostly = <T>(good: fc.Arbitrary<T>) =>
  fc.oneof({ arbitrary: good, weight: 4 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });
const rarely = fc.oneof({ arbitrary: fc.constant(undefined), weight: 5 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 });
const message = mostly(
  fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool'), content: mostly(fc.string({ minLength: 1 })) }),
);
const body = fc
  .record({
    model: mostly(fc.constantFrom('mock', 'mok')),
    messages: mostly(fc.array(message, { minLength: 1, maxLength: 3 })),
    input: mostly(fc.string({ minLength: 1 })),
    max_tokens: mostly(fc.nat(5000)),
    stream: mostly(fc.boolean()),
    tools: rarely,
    tool_choice: rarely,
    reasoning: rarely,
    thinking: rarely,
  })
  .map((fields) => Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)));

const endpoints = [
  { path: '/v1/chat/completions', headers: { authorization: `Bearer ${TEST_KEY}` }, anthropic: false },
  { path: '/v1/responses', headers: { authorization: `Bearer ${TEST_KEY}` }, anthropic: false },
  { path: '/v1/messages', headers: { 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' }, anthropic: true },
];

describe('the gateway on any JSON body', () => {
  for (const endpoint of endpoints) {
    it(`should answer ${endpoint.path} with a success or a protocol-native 4xx, never a 5xx`, async () => {
      await fc.assert(
        fc.asyncProperty(body, async (value) => {
          const response = await request(app).post(endpoint.path).set(endpoint.headers).send(value);
          expect(response.status).toBeLessThan(500);
          expect(response.headers['x-request-id']).toMatch(/^req_/);
          if (response.status >= 400) {
            // Both error shapes keep the message under `error` (Anthropic adds `type: "error"` around it).
            expect(typeof response.body.error?.message).toBe('string');
            if (endpoint.anthropic) expect(response.body.type).toBe('error');
          }
        }),
        { numRuns: 60 },
      );
    });
  }
});
