import { readFileSync } from 'node:fs';
import { GatewayError } from '../canonical/index.js';
import { checkConfig } from './check-config.js';
import { runCheckCommand } from './check/check-command.js';
import { flagError } from './cli-flags.js';
import type { GracefulClose } from './close-gracefully.js';
import type { ResolvedServerOptions } from './config-schema.js';
import { formatBanner } from './format-banner.js';
import { loadConfig } from './load-config.js';
import { parseCliArgs, USAGE, type CliCommand } from './parse-cli-args.js';
import { describeDatabase, resolveServerDatabase } from './resolve-database.js';
import { runModelsCommand } from './models-command.js';
import { runStoreCommand } from './store-commands.js';
import { resolveServerKey } from './resolve-server-key.js';
import { DEFAULT_SERVER_OPTIONS, startServer, type RunningServer } from './start-server.js';
import { watchParent } from './watch-parent.js';
import { createZeroConfig } from './zero-config.js';

/** A second signal at least this long after the first cuts open requests off at once; one repeated sooner (a supervisor relaying the same Ctrl-C) is not a second request. */
const FORCE_AFTER_MS = 500;

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}

/**
 * Stops gracefully on SIGINT or SIGTERM (a second one, later, ends open requests at once), and
 * under npm (`npm start`, `npx switchyard`) also when the npm process that started it is gone:
 * npm's shell dies of a SIGTERM without passing it on.
 */
function stopOnSignals(running: RunningServer, settings: ResolvedServerOptions, env: NodeJS.ProcessEnv): void {
  let closing: GracefulClose | undefined;
  let firstSignalAt = 0;
  const onSignal = (signal: string) => {
    if (closing) {
      if (Date.now() - firstSignalAt >= FORCE_AFTER_MS) {
        process.stdout.write(`${signal} again: closing open requests now.\n`);
        closing.force();
      }
      return;
    }
    firstSignalAt = Date.now();
    const open = running.openRequests();
    const waiting =
      open === 0
        ? 'no requests are open'
        : `waiting up to ${settings.shutdownTimeoutMs / 1000}s for ${open} open request${open === 1 ? '' : 's'}`;
    process.stdout.write(`\n${signal}: no longer accepting connections; ${waiting}.\n`);
    closing = running.close();
    void closing.done.then(({ forced }) => {
      process.stdout.write(forced ? 'Stopped; requests still open were ended with a "shutting down" error and closed.\n' : 'Stopped.\n');
      process.exit(0);
    });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // npm sets npm_lifecycle_event in the scripts it runs (`start`, `npx`); elsewhere a reparented
  // server (`nohup switchyard &` after its shell exited) is meant to keep running.
  if (env.npm_lifecycle_event !== undefined) {
    watchParent(() => {
      process.stdout.on('error', () => undefined); // whoever read the output may be gone too
      onSignal('npm exited');
    });
  }
}

async function serve(command: Extract<CliCommand, { command: 'serve' }>, env: NodeJS.ProcessEnv): Promise<void> {
  const config = command.configPath === undefined ? createZeroConfig(env) : await loadConfig(command.configPath, env);
  const settings: ResolvedServerOptions = {
    ...DEFAULT_SERVER_OPTIONS,
    ...config.server,
    ...(command.port === undefined ? {} : { port: command.port }),
    ...(command.host === undefined ? {} : { host: command.host }),
    ...(command.allowedHosts === undefined ? {} : { allowedHosts: command.allowedHosts }),
    ...(command.logLevel === undefined ? {} : { logLevel: command.logLevel }),
    ...(command.noConsole === true ? { console: false as const } : {}),
  };
  // The admins' Reconcile page reads the providers' usage reports with the admin keys from the config.
  if (settings.console !== false && config.reportSources !== undefined)
    settings.console = { ...settings.console, reportSources: config.reportSources };
  const database = resolveServerDatabase(config, env, command.database);
  const withDatabase = { ...config.gateway, ...(database === undefined ? {} : { database }) };
  const { options, key, source } = resolveServerKey(withDatabase, env);
  const running = await startServer(options, settings);
  stopOnSignals(running, settings, env);
  process.stdout.write(
    formatBanner({
      root: running.root,
      openAIBaseURL: running.openAIBaseURL,
      key,
      keySource: source,
      models: (options.models ?? [{ id: 'mock' }]).map((model) => model.id),
      configPath: command.configPath,
      database: describeDatabase(database),
      databaseReady: running.databaseReady,
      consoleUrl: running.consoleUrl,
      docsUrl: running.docsUrl,
      notes: config.notes,
    }),
  );
}

/** `switchyard [serve] [--config FILE] [--port N] [--host H]`, `switchyard config check FILE`, …; configuration errors print one message and exit 1. */
export async function runCli(argv: readonly string[], env: NodeJS.ProcessEnv): Promise<void> {
  try {
    const command = parseCliArgs(argv);
    if (command.command === 'help') process.stdout.write(USAGE);
    else if (command.command === 'version') process.stdout.write(`${version()}\n`);
    else if (command.command === 'serve') await serve(command, env);
    else if (command.command === 'config-check') process.stdout.write(await checkConfig(command.configPath, env));
    else if (command.command === 'models') await runModelsCommand(command, env);
    else if (command.command === 'check') {
      const key = command.key ?? env.SWITCHYARD_API_KEY;
      if (key === undefined || key.trim() === '')
        throw flagError("'check' needs the gateway key: --key KEY, or SWITCHYARD_API_KEY in the environment.");
      process.exitCode = await runCheckCommand({ ...command, key });
    } else await runStoreCommand(command, env);
  } catch (error) {
    if (!GatewayError.isInstance(error)) throw error;
    process.stderr.write(`switchyard: ${error.message}\n`);
    process.exit(error.code === 'CONFIG_FLAG_INVALID' ? 2 : 1);
  }
}
