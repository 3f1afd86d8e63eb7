import type { Redis } from 'ioredis';

/** Tells every instance sharing a Redis that a key was revoked, so their caches forget it at once. */
export interface RevocationChannel {
  publish(publicId: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * Subscribes to revocations on `redis` (a second connection is opened: a subscribed connection can
 * do nothing else) and calls `onRevoked` for each, this instance's own included.
 */
export async function openRevocationChannel(redis: Redis, prefix: string, onRevoked: (publicId: string) => void): Promise<RevocationChannel> {
  const channel = `${prefix}keys:revoked`;
  const subscriber = redis.duplicate();
  // The main client reports Redis being away; without a listener ioredis prints each failed reconnect of this one.
  subscriber.on('error', () => undefined);
  subscriber.on('message', (from: string, publicId: string) => {
    if (from === channel) onRevoked(publicId);
  });
  // A reconnecting client re-subscribes by itself (ioredis's autoResubscribe).
  await subscriber.subscribe(channel);
  return {
    async publish(publicId) {
      await redis.publish(channel, publicId);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
