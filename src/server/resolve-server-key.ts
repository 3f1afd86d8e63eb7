import { randomBytes } from 'node:crypto';
import type { GatewayOptions } from '../gateway/options.js';

/** Where the key callers must send came from; only a `generated` key is printed in full (an `env` key is masked). */
export type ServerKeySource = 'env' | 'generated' | 'config' | 'none';

export interface ResolvedServerKey {
  /** The options with `apiKeys` filled in when the server chose the key. */
  options: GatewayOptions;
  /** The key, when the server chose it (`env` or `generated`); the banner prints only a generated one in full. */
  key: string | undefined;
  source: ServerKeySource;
}

/**
 * The gateway key of the standalone server: `apiKeys` from the config file when given; none when
 * the file says `requireApiKey: false`; otherwise `SWITCHYARD_API_KEY`, or a development key
 * generated for this run.
 */
export function resolveServerKey(options: GatewayOptions, env: NodeJS.ProcessEnv): ResolvedServerKey {
  if (options.apiKeys !== undefined) return { options, key: undefined, source: 'config' };
  if (options.requireApiKey === false) return { options, key: undefined, source: 'none' };
  const fromEnv = env.SWITCHYARD_API_KEY?.trim();
  const key = fromEnv ? fromEnv : `sk-dev-${randomBytes(18).toString('hex')}`;
  return { options: { ...options, apiKeys: [key] }, key, source: fromEnv ? 'env' : 'generated' };
}
