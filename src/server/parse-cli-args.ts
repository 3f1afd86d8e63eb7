import { parseArgs } from 'node:util';
import { configError } from '../canonical/index.js';

export type CliCommand =
  | { command: 'serve'; configPath?: string; port?: number; host?: string }
  | { command: 'help' }
  | { command: 'version' };

export const USAGE = `Usage:
  switchyard [serve] [--config FILE] [--port PORT] [--host HOST]

  With no --config, serves the built-in mock model plus the providers whose keys are set
  (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). The gateway key is SWITCHYARD_API_KEY,
  or a development key generated for this run.

Options:
  -c, --config FILE   YAML or JSON config file (\${ENV_VAR} references are filled in)
  -p, --port PORT     port to listen on (default 8787; 0 picks a free one)
      --host HOST     address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
  -h, --help          show this help
  -v, --version       print the version
`;

function parsePort(text: string): number {
  const port = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(port) || port > 65535) {
    throw configError('CONFIG_FLAG_INVALID', `--port takes a number from 0 to 65535, e.g. --port 9000; got '${text}'.`);
  }
  return port;
}

/** The command `argv` (without node and the script) asks for; a bad flag is a `CONFIG_FLAG_INVALID` error. */
export function parseCliArgs(argv: readonly string[]): CliCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        config: { type: 'string', short: 'c' },
        port: { type: 'string', short: 'p' },
        host: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    throw configError('CONFIG_FLAG_INVALID', `${(error as Error).message}\n\n${USAGE}`, error);
  }
  const { values, positionals } = parsed;
  if (values.help || positionals[0] === 'help') return { command: 'help' };
  if (values.version) return { command: 'version' };
  const [command = 'serve', ...rest] = positionals;
  if (command !== 'serve' || rest.length > 0) {
    throw configError('CONFIG_FLAG_INVALID', `Unknown command '${[command, ...rest].join(' ')}'.\n\n${USAGE}`);
  }
  return {
    command: 'serve',
    ...(values.config === undefined ? {} : { configPath: values.config }),
    ...(values.port === undefined ? {} : { port: parsePort(values.port) }),
    ...(values.host === undefined ? {} : { host: values.host }),
  };
}
