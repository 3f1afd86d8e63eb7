// A deployment that keeps failing is taken out, on every instance sharing Redis, and probed back in
// by one trial request once its cooldown is over.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { GatewayOptions } from '../../src/gateway/options.js';
import type { UpstreamAttempt } from '../../src/canonical/index.js';
import type { CooldownEvent } from '../../src/routing/with-fallback.js';
import { startFaultUpstream, type FaultUpstream } from '../helpers/fault-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const prefix = `test:${randomBytes(6).toString('hex')}:`;
const COOLDOWN_MS = 600;

let east: FaultUpstream;
let west: FaultUpstream;
let first: RunningGateway;
let second: RunningGateway;
let redis: Redis;

const options = (): GatewayOptions => ({
  redis: REDIS_URL,
  redisPrefix: prefix,
  providers: {
    east: { type: 'openai', apiKey: 'sk-east', baseURL: `${east.url}/v1` },
    west: { type: 'openai', apiKey: 'sk-west', baseURL: `${west.url}/v1` },
  },
  retries: { attempts: 1, baseDelayMs: 5, maxDelayMs: 10 },
  cooldowns: { failures: 2, windowMs: 30_000, cooldownMs: COOLDOWN_MS },
  // East is drawn first whenever it is in service.
  models: [
    {
      id: 'pair',
      deployments: [
        { provider: 'east', weight: 1_000_000 },
        { provider: 'west', weight: 1 },
      ],
      upstreamModel: 'gpt-pair',
    },
  ],
});

beforeAll(async () => {
  [east, west] = await Promise.all([startFaultUpstream(), startFaultUpstream()]);
  [first, second] = await Promise.all([startGateway(options()), startGateway(options())]);
  redis = new Redis(REDIS_URL);
});
afterAll(async () => {
  for (const running of [first, second]) {
    await running.close();
    await running.gateway.close();
  }
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  redis.disconnect();
  await Promise.all([east.close(), west.close()]);
});

const ask = (running: RunningGateway) =>
  new OpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL, maxRetries: 0 }).chat.completions.create({
    model: 'pair',
    messages: [{ role: 'user', content: 'Hi' }],
  });

describe('cooldowns shared through Redis', () => {
  it('should take a failing deployment out on every instance, then let one trial request bring it back', async () => {
    const cooldowns: CooldownEvent[] = [];
    const attempts: UpstreamAttempt[] = [];
    first.gateway.routing.onCooldown((event) => cooldowns.push(event));
    second.gateway.routing.onAttempt((event) => attempts.push(event));
    east.script({ kind: 'status', status: 503 });

    // Two failures on the first instance: each request still answered, from west.
    for (let index = 0; index < 2; index++) expect((await ask(first)).choices[0]?.message.content).toBe('Hello from the upstream');
    expect(east.calls).toHaveLength(2);
    await vi.waitFor(() => expect(cooldowns).toEqual([{ deployment: 'east/gpt-pair', state: 'cooling', forMs: COOLDOWN_MS }]));
    expect(await redis.keys(`${prefix}cooldown:v1:east/gpt-pair:*`)).toContain(`${prefix}cooldown:v1:east/gpt-pair:out`);

    // The second instance never made a call of its own to east, yet skips it.
    await ask(second);
    await ask(second);
    expect(east.calls).toHaveLength(2);
    expect(attempts.map((event) => event.deployment)).toEqual(['west/gpt-pair', 'west/gpt-pair']);

    // East recovers; once the cooldown is over, one request probes it and it is back in service for both.
    east.script({ kind: 'ok', text: 'east is back' });
    await new Promise((resolve) => setTimeout(resolve, COOLDOWN_MS + 100));
    const [probe, beside] = await Promise.all([ask(second), ask(first)]);
    const answers = [probe.choices[0]?.message.content, beside.choices[0]?.message.content];
    // Exactly one of the two concurrent requests was the trial; the other stayed on west.
    expect(answers.filter((text) => text === 'east is back')).toHaveLength(1);
    expect(east.calls).toHaveLength(3);
    await vi.waitFor(async () => expect(await redis.keys(`${prefix}cooldown:v1:east/gpt-pair:*`)).toEqual([]));
    // The instance whose request was the trial knows at once; the other goes on what it read of
    // Redis (east cooling while the trial is out) for up to `refreshMs` (1 s by default), then
    // reads again.
    const [trialBy, other] = answers[0] === 'east is back' ? [second, first] : [first, second];
    expect((await ask(trialBy)).choices[0]?.message.content).toBe('east is back');
    const recoveredAt = Date.now();
    let seen = (await ask(other)).choices[0]?.message.content;
    while (seen !== 'east is back' && Date.now() - recoveredAt < 3_000) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      seen = (await ask(other)).choices[0]?.message.content;
    }
    expect(seen).toBe('east is back');
    expect(Date.now() - recoveredAt).toBeLessThan(1_500);
  });
});
