import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRevocationChannel } from '../../src/access/revocation-channel.js';
import { startTcpRelay, type TcpRelay } from '../helpers/tcp-relay.js';

const REDIS_URL = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let relay: TcpRelay;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
beforeEach(async () => {
  relay = await startTcpRelay(REDIS_URL.hostname, Number(REDIS_URL.port || 6379));
  unhandled.length = 0;
  process.on('unhandledRejection', onUnhandled);
});
afterEach(async () => {
  process.off('unhandledRejection', onUnhandled);
  await relay.close();
});

/** A client through the relay, and the subscriber connection the channel opens from it (its `duplicate()`). */
function clientThroughRelay(): { redis: Redis; subscriber: () => Redis } {
  const redis = new Redis(relay.port, '127.0.0.1');
  redis.on('error', () => undefined);
  let duplicated: Redis | undefined;
  const duplicate = redis.duplicate.bind(redis);
  redis.duplicate = (...args: Parameters<Redis['duplicate']>) => (duplicated = duplicate(...args));
  return { redis, subscriber: () => duplicated! };
}

/** Resolves when `client` has reconnected (its `ready` event), at most within 10 s. */
function reconnected(client: Redis): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('did not reconnect')), 10_000);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

describe('key revocation channel', () => {
  it('closes right after a reconnect with no unhandled rejection, replayed 30 times', { timeout: 120_000 }, async () => {
    for (let round = 0; round < 30; round += 1) {
      const { redis, subscriber } = clientThroughRelay();
      const channel = await openRevocationChannel(redis, `test:${randomBytes(6).toString('hex')}:`, () => undefined);
      await relay.cut();
      const back = reconnected(subscriber());
      await relay.restore();
      await back;
      // The moment the subscriber is connected again, before any re-subscription is answered.
      await channel.close();
      redis.disconnect();
      // The rejections of what was pending come when the connection has closed.
      while (subscriber().status !== 'end') await sleep(5);
      await new Promise((resolve) => setImmediate(resolve));
      await sleep(20);
      expect(unhandled, `round ${round}`).toEqual([]);
    }
  });

  it('still delivers a revocation published after a reconnect', async () => {
    const { redis, subscriber } = clientThroughRelay();
    const revoked: string[] = [];
    const channel = await openRevocationChannel(redis, `test:${randomBytes(6).toString('hex')}:`, (publicId) => revoked.push(publicId));
    try {
      await channel.publish('before');
      while (!revoked.includes('before')) await sleep(10);
      await relay.cut();
      const back = reconnected(subscriber());
      await relay.restore();
      await back;
      // Published until heard: the subscriber subscribes again once it is connected.
      const startedAt = Date.now();
      while (!revoked.includes('after') && Date.now() - startedAt < 10_000) {
        await channel.publish('after').catch(() => undefined);
        await sleep(50);
      }
      expect(revoked).toContain('after');
    } finally {
      await channel.close();
      redis.disconnect();
    }
  });
});
