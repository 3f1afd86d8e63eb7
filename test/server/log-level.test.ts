import { afterEach, describe, expect, it, vi } from 'vitest';
import { createServerLogger, logsAt } from '../../src/server/log-level.js';
import { parseConfigText } from '../../src/server/load-config.js';
import { parseCliArgs } from '../../src/server/parse-cli-args.js';
import { gatewayErrorOf } from '../helpers/gateway-error-of.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('logsAt', () => {
  it('should print a message at the level or above', () => {
    expect(logsAt('info', 'info')).toBe(true);
    expect(logsAt('info', 'debug')).toBe(false);
    expect(logsAt('warn', 'info')).toBe(false);
    expect(logsAt('silent', 'error')).toBe(false);
  });
});

describe('createServerLogger', () => {
  it('should write the messages at the level or above as JSON lines on stderr', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => (written.push(String(text)), true));
    const logger = createServerLogger('warn');
    logger.debug({ a: 1 }, 'debug');
    logger.info({ a: 1 }, 'info');
    logger.warn({ a: 1 }, 'careful');
    logger.error({ err: new Error('boom') }, 'failed');
    expect(written.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      { level: 'warn', time: expect.any(String), a: 1, msg: 'careful' },
      { level: 'error', time: expect.any(String), err: { name: 'Error', message: 'boom' }, msg: 'failed' },
    ]);
  });

  it('should write debug and info at debug, and nothing when silent', () => {
    const written: string[] = [];
    vi.spyOn(process.stderr, 'write').mockImplementation((text) => (written.push(String(text)), true));
    createServerLogger('debug').debug({}, 'shown');
    createServerLogger('silent').error({}, 'hidden');
    expect(written.map((line) => (JSON.parse(line) as { msg: string }).msg)).toEqual(['shown']);
  });
});

describe('the log level setting', () => {
  it('should take --log-level on serve', () => {
    expect(parseCliArgs(['--log-level', 'warn'])).toEqual({ command: 'serve', logLevel: 'warn' });
    expect(parseCliArgs(['serve', '--log-level=silent'])).toMatchObject({ logLevel: 'silent' });
  });

  it('should refuse an unknown level, naming the levels', () => {
    const error = gatewayErrorOf(() => parseCliArgs(['--log-level', 'verbose']));
    expect(error.code).toBe('CONFIG_FLAG_INVALID');
    expect(error.message).toContain('debug, info, warn, error, silent');
  });

  it("should take the config file's server.logLevel", () => {
    expect(parseConfigText('server: { logLevel: debug }', 'switchyard.yaml', {}).server).toEqual({ logLevel: 'debug' });
    expect(gatewayErrorOf(() => parseConfigText('server: { logLevel: loud }', 'switchyard.yaml', {})).param).toBe('server.logLevel');
  });
});
