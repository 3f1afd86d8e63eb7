import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/logger.js';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
import { parseConfigText } from '../../src/server/load-config.js';
import { DEFAULT_TIMEOUTS, resolveTimeouts } from '../../src/routing/timeouts.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

describe('resolveTimeouts', () => {
  it('should keep every limit that catches a hang at three minutes or less', () => {
    for (const limit of [
      DEFAULT_TIMEOUTS.connectMs,
      DEFAULT_TIMEOUTS.firstTokenMs,
      DEFAULT_TIMEOUTS.idleMs,
      DEFAULT_TIMEOUTS.failoverWindowMs,
      DEFAULT_TIMEOUTS.keepAliveMs,
    ]) {
      expect(limit).toBeLessThanOrEqual(180_000);
    }
    // A keep-alive, and the commit before it, well inside a 60 s proxy idle timeout.
    expect(DEFAULT_TIMEOUTS.failoverWindowMs + DEFAULT_TIMEOUTS.keepAliveMs).toBeLessThan(60_000);
  });

  it('should apply the given fields only, a totalMs to both kinds of call', () => {
    const resolved = resolveTimeouts(DEFAULT_TIMEOUTS, { firstTokenMs: 1_000, totalMs: 5_000 });
    expect(resolved).toEqual({ ...DEFAULT_TIMEOUTS, firstTokenMs: 1_000, streamTotalMs: 5_000, answerTotalMs: 5_000 });
    expect(resolveTimeouts(DEFAULT_TIMEOUTS, undefined)).toBe(DEFAULT_TIMEOUTS);
  });
});

describe('the timeouts options', () => {
  it("should layer a model's timeouts over the gateway's over the defaults", () => {
    const resolved = resolveOptions({
      logger: silentLogger,
      timeouts: { idleMs: 30_000, keepAliveMs: 5_000 },
      models: [
        { id: 'plain', provider: 'mock' },
        { id: 'thinker', provider: 'mock', timeouts: { firstTokenMs: 600_000, idleMs: 90_000 } },
      ],
    });
    expect(resolved.models.get('plain')!.timeouts).toEqual({ ...DEFAULT_TIMEOUTS, idleMs: 30_000, keepAliveMs: 5_000 });
    expect(resolved.models.get('thinker')!.timeouts).toEqual({
      ...DEFAULT_TIMEOUTS,
      idleMs: 90_000,
      keepAliveMs: 5_000,
      firstTokenMs: 600_000,
    });
  });

  it('should refuse a timeout that is not a positive whole number of milliseconds, naming it', () => {
    const error = gatewayErrorOf(() =>
      resolveOptions({ logger: silentLogger, models: [{ id: 'm', provider: 'mock', timeouts: { idleMs: -5 } }] }),
    );
    expect(error.code).toBe('CONFIG_INVALID');
    expect(error.message).toContain('models[0].timeouts.idleMs');
    expect(gatewayErrorOf(() => resolveOptions({ logger: silentLogger, timeouts: { firstTokenSeconds: 5 } as never })).code).toBe(
      'CONFIG_INVALID',
    );
  });

  it('should be read from a config file', () => {
    const config = parseConfigText(
      'timeouts: { firstTokenMs: 240000, failoverWindowMs: 5000 }\nmodels: [{ id: m, provider: mock, timeouts: { idleMs: 60000 } }]\n',
      'switchyard.yaml',
      {},
    );
    expect(config.gateway.timeouts).toEqual({ firstTokenMs: 240_000, failoverWindowMs: 5_000 });
    expect(config.gateway.models?.[0]?.timeouts).toEqual({ idleMs: 60_000 });
  });
});
