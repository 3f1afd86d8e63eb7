import { GatewayError } from '../canonical/index.js';
import { silentLogger } from '../logger.js';
import { checkOptions } from '../gateway/options.js';
import { loadConfig } from './load-config.js';
import { resolveServerDatabase } from './resolve-database.js';
import { resolveServerKey } from './resolve-server-key.js';

const counted = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

/**
 * `switchyard config check FILE`: everything `serve --config FILE` checks before it listens — the
 * file read and parsed, `${ENV}` references filled, the schema, each built-in provider's options,
 * the models bound to their providers, keys and admin settings — without listening, opening the
 * database or calling a provider. Resolves with the report to print
 * (`FILE is valid: 2 providers, 3 models (mock, gpt-5.4, llama3.2)`); throws the first
 * `CONFIG_*` GatewayError, its message naming the file.
 */
export async function checkConfig(path: string, env: NodeJS.ProcessEnv): Promise<string> {
  const config = await loadConfig(path, env);
  const database = resolveServerDatabase(config, env);
  const { options } = resolveServerKey({ ...config.gateway, ...(database === undefined ? {} : { database }) }, env);
  let checked;
  try {
    checked = checkOptions({ ...options, logger: silentLogger });
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw error;
    throw new GatewayError({
      kind: error.kind,
      code: error.code,
      message: `${path}: ${error.message}`,
      ...(error.param === undefined ? {} : { param: error.param }),
      cause: error,
    });
  }
  await Promise.all(Object.values(checked.providers).map((provider) => provider.close?.()));
  const providers = Object.keys(config.gateway.providers ?? {}).length;
  const models = checked.modelList.map((model) => model.id);
  const notes = (config.notes ?? []).map((note) => `  Note: ${note}\n`).join('');
  return `${path} is valid: ${counted(providers, 'provider')}, ${counted(models.length, 'model')} (${models.join(', ')})\n${notes}`;
}
