import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { silentLogger, type Logger } from '../../src/logger.js';
import { startGateway } from '../helpers/start-gateway.js';
import { useScratch } from '../helpers/scratch.js';
import { startTcpRelay } from '../helpers/tcp-relay.js';

const ADMIN_KEY = 'admin-0123456789abcdef';
const scratch = useScratch();

describe('revoking a key while Redis is away', () => {
  it('should answer at once that the key is revoked (it is, in the database), and log that other instances were not told', async () => {
    const relay = await startTcpRelay('127.0.0.1', 6379);
    scratch.later(() => relay.close());
    const prefix = `test:revoke-down:${randomBytes(6).toString('hex')}:`;
    const warnings: string[] = [];
    const logger: Logger = { ...silentLogger, warn: (_object, message) => void warnings.push(message ?? '') };
    const running = await startGateway({
      database: scratch.file('revoke'),
      adminKey: ADMIN_KEY,
      redis: `redis://127.0.0.1:${relay.port}`,
      redisPrefix: prefix,
      logger,
    });
    scratch.later(() => running.gateway.close());
    scratch.later(() => running.close());
    await running.gateway.ready();
    const admin = (method: string, path: string, body?: unknown) =>
      fetch(`${running.root}${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });

    // Once the gateway's revocation channel is open, a revoke is heard on the shared Redis.
    const listener = new Redis({ host: '127.0.0.1', port: 6379 });
    scratch.later(() => listener.disconnect());
    const heard: string[] = [];
    listener.on('message', (_channel: string, publicId: string) => heard.push(publicId));
    await listener.subscribe(`${prefix}keys:revoked`);
    await expect
      .poll(async () => (await admin('DELETE', '/admin/keys/not-a-key'), heard.includes('not-a-key')), { timeout: 15_000, interval: 200 })
      .toBe(true);

    const created = (await (await admin('POST', '/admin/keys', { name: 'to revoke' })).json()) as { key: string; publicId: string };
    await relay.cut();
    const revoked = await admin('DELETE', `/admin/keys/${created.publicId}`);
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ publicId: created.publicId, revoked: true });
    expect(warnings.some((message) => message.includes('could not tell other instances'))).toBe(true);
    // The revoke holds on this instance.
    const call = await fetch(`${running.openAIBaseURL}/models`, { headers: { authorization: `Bearer ${created.key}` } });
    expect(call.status).toBe(401);
  });
});
