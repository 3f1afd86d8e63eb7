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
export async function openRevocationChannel(
  redis: Redis,
  prefix: string,
  onRevoked: (publicId: string) => void,
): Promise<RevocationChannel> {
  const channel = `${prefix}keys:revoked`;
  // ioredis's own re-subscribe after a reconnect has no error handler: a close while it is out
  // would reject with no one to hear it. The channel subscribes again itself, on each reconnect.
  const subscriber = redis.duplicate({ autoResubscribe: false });
  // The main client reports Redis being away; without a listener ioredis prints each failed reconnect of this one.
  subscriber.on('error', () => undefined);
  subscriber.on('message', (from: string, publicId: string) => {
    if (from === channel) onRevoked(publicId);
  });
  await subscriber.subscribe(channel);
  // Registered after the first connection is ready: from now on, each 'ready' is a reconnect. A
  // subscribe that fails (the connection went again, or was closed) is retried on the next one.
  subscriber.on('ready', () => {
    subscriber.subscribe(channel).catch(() => undefined);
  });
  return {
    async publish(publicId) {
      await redis.publish(channel, publicId);
    },
    async close() {
      subscriber.disconnect();
    },
  };
}
