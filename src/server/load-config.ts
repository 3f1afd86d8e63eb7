import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { createProviderFromConfig } from '../providers/create-provider.js';
import { configError, fieldPath, GatewayError } from '../canonical/index.js';
import { configFileSchema, splitConfigFile, type ConfigFile, type ServerConfig } from './config-schema.js';
import { interpolateEnv } from './interpolate-env.js';

function parseText(text: string, source: string): unknown {
  if (extname(source).toLowerCase() === '.json') {
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      throw configError('CONFIG_FILE_SYNTAX', `${source} is not valid JSON: ${(error as Error).message}`, error);
    }
  }
  const document = parseDocument(text, { prettyErrors: true });
  const [first] = document.errors;
  if (first) throw configError('CONFIG_FILE_SYNTAX', `${source} is not valid YAML: ${first.message}`, first);
  return document.toJS() as unknown;
}

/** Built-in provider options are checked now, so a typo fails at load time with its path. */
function checkProviders(providers: ConfigFile['providers'], source: string): void {
  for (const [key, provider] of Object.entries(providers ?? {})) {
    try {
      createProviderFromConfig(key, provider);
    } catch (error) {
      if (!GatewayError.isInstance(error)) throw error;
      throw new GatewayError({ kind: 'internal', code: error.code, message: `${source}: ${error.message}`, param: `providers.${key}`, cause: error });
    }
  }
}

/**
 * Validates a config document (YAML, or JSON when `source` ends in `.json`): `${ENV}` references
 * are filled from `env`, the shape is checked with zod, and built-in provider options with each
 * provider's own schema. Errors are `CONFIG_*` GatewayErrors whose message (and `param`) give the
 * path of the bad field, e.g. `models[1].provider`.
 */
export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv): ServerConfig {
  const document = interpolateEnv(parseText(text, source) ?? {}, env);
  const parsed = configFileSchema.safeParse(document);
  if (!parsed.success) {
    const lines = parsed.error.issues.slice(0, 5).map((issue) => `  ${fieldPath(issue.path) || '(top level)'}: ${issue.message}`);
    const first = parsed.error.issues[0];
    throw new GatewayError({
      kind: 'internal',
      code: 'CONFIG_FILE_INVALID',
      message: `${source} has ${parsed.error.issues.length === 1 ? 'an invalid field' : 'invalid fields'}:\n${lines.join('\n')}`,
      ...(first ? { param: fieldPath(first.path) || '(top level)' } : {}),
    });
  }
  checkProviders(parsed.data.providers, source);
  return splitConfigFile(parsed.data);
}

/** Reads and validates a `switchyard serve --config` file; see `parseConfigText`. */
export async function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<ServerConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw configError('CONFIG_FILE_UNREADABLE', `Cannot read the config file ${path}: ${(error as Error).message}`, error);
  }
  return parseConfigText(text, path, env);
}
