import { isAbsolute, resolve } from 'node:path';
import type { GatewayOptions } from '../gateway/options.js';
import type { LoadedConfig } from './config-schema.js';

/** The SQLite file the standalone server keeps keys and usage in when nothing else is said. */
export const DEFAULT_DATABASE_FILE = 'switchyard.db';

/**
 * The standalone server's database: `--database`, else the config file's `database`, else
 * `SWITCHYARD_DATABASE`, else `switchyard.db` in the working directory. `database: false` in the
 * file means none. A SQLite path is made absolute, so the banner says exactly where it is.
 */
export function resolveServerDatabase(config: LoadedConfig, env: NodeJS.ProcessEnv, flag?: string): GatewayOptions['database'] {
  if (flag !== undefined) return absolute(flag);
  if (config.withoutDatabase) return undefined;
  const configured = config.gateway.database;
  if (configured !== undefined) return typeof configured === 'string' ? absolute(configured) : configured;
  const fromEnv = env.SWITCHYARD_DATABASE?.trim();
  return absolute(fromEnv ? fromEnv : DEFAULT_DATABASE_FILE);
}

function absolute(database: string): string {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(database);
  return isUrl || database === ':memory:' || isAbsolute(database) ? database : resolve(database);
}

/** Where the database is, for the banner: a file path, or the URL without its password. */
export function describeDatabase(database: GatewayOptions['database']): string | undefined {
  if (database === undefined) return undefined;
  const url = typeof database === 'string' ? database : 'url' in database ? database.url : database.location;
  if (!/^postgres(ql)?:\/\//.test(url)) return url;
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  const schema = typeof database === 'object' && 'schema' in database && database.schema ? ` (schema ${database.schema})` : '';
  return `${parsed.toString()}${schema}`;
}
