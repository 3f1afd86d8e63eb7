import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseDocument } from 'yaml';
import { createProviderFromConfig } from '../providers/create-provider.js';
import { configError, configIssueMessage, fieldPath, formatConfigIssue, GatewayError } from '../canonical/index.js';
import { configFileSchema, splitConfigFile, type ConfigFile, type LoadedConfig } from './config-schema.js';
import { interpolateEnv } from './interpolate-env.js';
import { withoutReportFields } from '../reconcile/report-sources.js';
import { detectableProviders } from './zero-config.js';

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
      createProviderFromConfig(key, withoutReportFields(provider));
    } catch (error) {
      if (!GatewayError.isInstance(error)) throw error;
      throw new GatewayError({
        kind: 'internal',
        code: error.code,
        message: `${source}: ${error.message}`,
        param: `providers.${key}`,
        cause: error,
      });
    }
  }
}

/** Issues listed in one error; the rest are counted. */
const MAX_LISTED_ISSUES = 5;

/**
 * The models a file with `providers:` but no `models:` is served with: the mock model and the
 * zero-config default models of each provider, as when its key is in the environment and there is
 * no file at all — with a note for the banner. A provider without defaults (`openai-compatible`,
 * `mock`, a second provider of one type) cannot be guessed: the file is refused, listing those
 * providers and an example `models:` entry, rather than served with only the mock model.
 */
function defaultModels(file: ConfigFile, source: string): { models: NonNullable<ConfigFile['models']>; note: string } | undefined {
  const providers = Object.entries(file.providers ?? {});
  if (file.models !== undefined || providers.length === 0) return undefined;
  const types = new Set<string>();
  const served: { key: string; models: readonly string[] }[] = [];
  const unguessable: string[] = [];
  for (const [key, provider] of providers) {
    const type = provider.type ?? key;
    const detected = detectableProviders.find((candidate) => candidate.provider === type);
    if (detected === undefined) unguessable.push(`${key} (type ${type})`);
    else if (types.has(type)) unguessable.push(`${key} (a second provider of type ${type})`);
    else served.push({ key, models: detected.models });
    types.add(type);
  }
  if (unguessable.length > 0) {
    const examples = providers.map(([key]) => `    - { id: MODEL_ID, provider: ${key} }`).join('\n');
    throw new GatewayError({
      code: 'CONFIG_FILE_INVALID',
      param: 'models',
      message:
        `${source} defines providers but no models, and there are no default models for ${unguessable.join(', ')}: ` +
        `only the mock model would be served. Add a models: list naming each model by the id its provider knows, e.g.\n  models:\n${examples}`,
    });
  }
  return {
    models: [{ id: 'mock', provider: 'mock' }, ...served.flatMap(({ key, models }) => models.map((id) => ({ id, provider: key })))],
    note: `${source} has no models: list, so the default models of ${served.map(({ key }) => key).join(' and ')} are served; add models: to choose others.`,
  };
}

/**
 * Validates a config document (YAML, or JSON when `source` ends in `.json`): `${ENV}` references
 * are filled from `env` (every missing variable reported at once), the shape is checked with zod,
 * and built-in provider options with each provider's own schema. Errors are `CONFIG_*`
 * GatewayErrors naming the file, whose message (and `param`) give the path of the bad field, e.g.
 * `server.port must be a port number 0–65535 (got 'eighty')`. Providers without `models:` are
 * served with their default models (see `defaultModels`).
 */
export function parseConfigText(text: string, source: string, env: NodeJS.ProcessEnv): LoadedConfig {
  const document = interpolateEnv(parseText(text, source) ?? {}, env, source);
  const parsed = configFileSchema.safeParse(document, { error: configIssueMessage });
  if (!parsed.success) {
    const { issues } = parsed.error;
    const lines = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => `  ${formatConfigIssue(issue)}`);
    if (issues.length > MAX_LISTED_ISSUES) lines.push(`  … and ${issues.length - MAX_LISTED_ISSUES} more`);
    const first = issues[0];
    throw new GatewayError({
      code: 'CONFIG_FILE_INVALID',
      message: `${source} has ${issues.length === 1 ? 'an invalid field' : 'invalid fields'}:\n${lines.join('\n')}`,
      ...(first ? { param: fieldPath(first.path) || '(top level)' } : {}),
    });
  }
  checkProviders(parsed.data.providers, source);
  const defaults = defaultModels(parsed.data, source);
  if (defaults === undefined) return splitConfigFile(parsed.data);
  return { ...splitConfigFile({ ...parsed.data, models: defaults.models }), notes: [defaults.note] };
}

/** Reads and validates a `switchyard serve --config` file; see `parseConfigText`. */
export async function loadConfig(path: string, env: NodeJS.ProcessEnv = process.env): Promise<LoadedConfig> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw configError('CONFIG_FILE_UNREADABLE', `Cannot read the config file ${path}: ${(error as Error).message}`, error);
  }
  return parseConfigText(text, path, env);
}
