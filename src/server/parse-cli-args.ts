import { parseArgs } from 'node:util';
import { configError, findClosestId } from '../canonical/index.js';
import { allowOnly, cliOptions, flagError, USAGE, type CliFlags } from './cli-flags.js';
import { escapeDashPublicIds } from './dash-public-ids.js';
import { isLogLevel, LOG_LEVELS, type LogLevel } from './log-level.js';
import { parseStoreFlags, type StoreCommand } from './parse-store-flags.js';
import type { CheckCommand } from './check/check-command.js';
import type { CheckProtocol } from './check/check-steps.js';
import type { AllowedHosts } from '../http/allowed-hosts.js';

export { USAGE } from './cli-flags.js';

export type CliCommand =
  | {
      command: 'serve';
      configPath?: string;
      port?: number;
      host?: string;
      allowedHosts?: AllowedHosts;
      database?: string;
      logLevel?: LogLevel;
      noConsole?: boolean;
    }
  | StoreCommand
  | { command: 'config-check'; configPath: string }
  | { command: 'models'; configPath?: string; json: boolean }
  | (Omit<CheckCommand, 'key'> & { key: string | undefined })
  | { command: 'help' }
  | { command: 'version' };

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw configError('CONFIG_FLAG_INVALID', `--port takes a number from 0 to 65535, e.g. --port 9000; got '${text}'.`);
  }
  return port;
}

function parseLogLevel(text: string): LogLevel {
  if (!isLogLevel(text))
    throw configError('CONFIG_FLAG_INVALID', `--log-level takes one of ${LOG_LEVELS.join(', ')}, e.g. --log-level warn; got '${text}'.`);
  return text;
}

/** The flags each command takes; any other flag given is an error. */
const serveFlags = new Set(['config', 'port', 'host', 'allowed-hosts', 'database', 'log-level', 'no-console']);

/** `--allowed-hosts a.example,.b.example` or `'*'` (or `true`) for any. */
function parseAllowedHosts(text: string): AllowedHosts {
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (names.includes('*') || names.includes('true')) return true;
  if (names.length === 0)
    throw configError(
      'CONFIG_FLAG_INVALID',
      `--allowed-hosts takes host names, comma-separated, e.g. --allowed-hosts llm.example.com,.internal; or '*' for any; got '${text}'.`,
    );
  return names;
}

/** `config check FILE`, or `config check --config FILE`. */
function parseConfigCommand(rest: readonly string[], values: CliFlags): CliCommand {
  const [subcommand, file, ...extra] = rest;
  if (subcommand !== 'check' || extra.length > 0)
    throw flagError(`Unknown command 'config${rest.map((word) => ` ${word}`).join('')}'; did you mean 'config check FILE'?`);
  allowOnly(values, new Set(['config']), 'config check');
  if (file !== undefined && values.config !== undefined && file !== values.config) {
    throw flagError(`'config check' takes one file; got '${file}' and --config '${values.config}'.`);
  }
  const configPath = file ?? values.config;
  if (configPath === undefined) throw flagError("'config check' needs the file to check, e.g. switchyard config check switchyard.yaml.");
  return { command: 'config-check', configPath };
}

const PROTOCOLS: Record<string, readonly CheckProtocol[]> = {
  chat: ['chat'],
  responses: ['responses'],
  messages: ['messages'],
  all: ['chat', 'responses', 'messages'],
};

/** `check --base-url URL --key KEY --model ID [--protocol P] [--timeout S] [--json]`; the key may come from the environment later. */
function parseCheckCommand(rest: readonly string[], values: CliFlags): CliCommand {
  if (rest.length > 0) throw flagError(`'check' takes no words after it; got '${rest.join(' ')}'.`);
  allowOnly(values, new Set(['base-url', 'key', 'model', 'protocol', 'timeout', 'json']), 'check');
  const baseUrl = values['base-url'];
  if (baseUrl === undefined || !/^https?:\/\/[^/]/.test(baseUrl)) {
    throw flagError(
      `'check' needs --base-url, the gateway's OpenAI base URL, e.g. --base-url http://localhost:8787/v1${baseUrl === undefined ? '' : `; got '${baseUrl}'`}.`,
    );
  }
  if (values.model === undefined || values.model === '')
    throw flagError("'check' needs --model, the model id to try, e.g. --model gpt-4.1-mini.");
  const protocols = PROTOCOLS[values.protocol ?? 'all'];
  if (protocols === undefined)
    throw flagError(
      `--protocol takes chat, responses, messages or all; got '${values.protocol ?? ''}'.${suggested(values.protocol ?? '', Object.keys(PROTOCOLS))}`,
    );
  const seconds = values.timeout === undefined ? 60 : Number(values.timeout);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw flagError(`--timeout takes seconds, e.g. --timeout 30; got '${values.timeout ?? ''}'.`);
  return {
    command: 'check',
    baseUrl,
    key: values.key,
    model: values.model,
    protocols,
    timeoutMs: Math.round(seconds * 1000),
    json: values.json === true,
  };
}

/** The commands, for a near miss; only those with its first letter (a typo seldom changes it, and short words are all near each other). */
const COMMANDS = ['serve', 'keys', 'users', 'accounts', 'usage', 'reconcile', 'migrate', 'config', 'models', 'check', 'help'];

/** ` Did you mean 'x'?` for a near miss among `known`; '' otherwise. */
function suggested(word: string, known: readonly string[], prefix = ''): string {
  const closest = findClosestId(word, known);
  return closest === undefined ? '' : ` Did you mean '${prefix}${closest}'?`;
}

/** `parseArgs`'s error in the CLI's words: an unknown flag gets its closest flag, not Node's advice about positionals. */
function describeParseError(error: Error & { code?: string }): string {
  const unknown = error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? /^Unknown option '(-{1,2})([^']*)'/.exec(error.message) : null;
  if (unknown === null) return error.message;
  const [, dashes = '', name = ''] = unknown;
  const flags = Object.keys(cliOptions);
  const hint = dashes === '--' ? suggested(name.split('=')[0] ?? name, flags, '--') : '';
  return `Unknown option '${dashes}${name}'.${hint === '' ? ` The options are listed below.` : hint}`;
}

/** The command `argv` (without node and the script) asks for; a bad flag is a `CONFIG_FLAG_INVALID` error. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({ args: escapeDashPublicIds(argv), allowPositionals: true, strict: true, options: cliOptions });
  } catch (error) {
    throw configError('CONFIG_FLAG_INVALID', `${describeParseError(error as Error & { code?: string })}\n\n${USAGE}`, error);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command = 'serve', ...rest] = positionals;
  if (
    command === 'keys' ||
    command === 'users' ||
    command === 'accounts' ||
    command === 'usage' ||
    command === 'migrate' ||
    command === 'reconcile'
  )
    return parseStoreFlags(command, rest, values);
  if (command === 'config') return parseConfigCommand(rest, values);
  if (command === 'models') {
    if (rest.length > 0) throw flagError(`Unknown command 'models ${rest.join(' ')}'; 'models' takes only --config FILE and --json.`);
    allowOnly(values, new Set(['config', 'json']), 'models');
    return { command: 'models', ...(values.config === undefined ? {} : { configPath: values.config }), json: values.json === true };
  }
  if (command === 'check') return parseCheckCommand(rest, values);
  if (command !== 'serve' || rest.length > 0)
    throw flagError(
      `Unknown command '${[command, ...rest].join(' ')}'.${
        command === 'serve'
          ? ''
          : suggested(
              command,
              COMMANDS.filter((known) => known[0] === command[0]),
            )
      }`,
    );
  allowOnly(values, serveFlags, 'serve');
  return {
    command: 'serve',
    ...(values.config === undefined ? {} : { configPath: values.config }),
    ...(values.port === undefined ? {} : { port: parsePort(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
    ...(values['allowed-hosts'] === undefined ? {} : { allowedHosts: parseAllowedHosts(values['allowed-hosts']) }),
    ...(values.database === undefined ? {} : { database: values.database }),
    ...(values['log-level'] === undefined ? {} : { logLevel: parseLogLevel(values['log-level']) }),
    ...(values['no-console'] === true ? { noConsole: true } : {}),
  };
}
