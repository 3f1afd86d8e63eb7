import type { parseArgs } from 'node:util';
import { configError } from '../canonical/index.js';

export const USAGE = `Usage:
  switchyard [serve] [--config FILE] [--port PORT] [--host HOST] [--allowed-hosts NAMES] [--database DB]
                   [--log-level LEVEL] [--no-console]
  switchyard keys create --name NAME [--models a,b] [--expires 30d|DATE] [--budget USD] [--budget-period day|month|never]
                       [--rpm N] [--tpm N] [--concurrency N] [--json]
  switchyard keys list [--json]
  switchyard keys revoke PUBLIC_ID
  switchyard keys unpause PUBLIC_ID
  switchyard users reset-password EMAIL
  switchyard accounts top-up EMAIL --usd=AMOUNT [--kind top-up|refund|adjustment] [--note TEXT]
  switchyard accounts credit-limit EMAIL --usd=AMOUNT
  switchyard usage [--by key|model|day] [--from DATE] [--to DATE] [--key PUBLIC_ID] [--model ID] [--json]
  switchyard reconcile --provider openai|anthropic --from DAY [--to DAY] [--threshold PERCENT] [--json]
  switchyard migrate
  switchyard config check FILE
  switchyard models [--config FILE] [--json]
  switchyard check --base-url URL --key KEY --model ID [--protocol chat|responses|messages|all]
                   [--timeout SECONDS] [--json]

  With no --config, serves the built-in mock model plus the providers whose keys are set
  (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY). The gateway key is SWITCHYARD_API_KEY,
  or a development key generated for this run; stored keys (switchyard keys create) work too.

  Keys and usage live in the database: --database, else the config file's 'database', else
  SWITCHYARD_DATABASE, else ./switchyard.db (SQLite). A postgres:// URL shares one database
  between instances. keys, users, usage and migrate read the same settings (and --config) as serve.

  reconcile reads the provider's own usage and cost reports with the admin key the config gives
  (providers.NAME.adminKey) and compares them with the ledger per UTC day, model and API key:
  tokens by kind (uncached input, cache read, cache write, output) and cost, each difference in
  tokens and percent, marked above --threshold (default 0.5 %). --from and --to are UTC days,
  both included (--to defaults to today). It reads; it changes nothing.

  users reset-password EMAIL gives a console account a new random password, printed once, and
  ends its sessions: the way back in for a forgotten password.

  accounts top-up EMAIL --usd AMOUNT credits a console account's balance (gateway 'balances'):
  a row of its balance ledger, in the console's audit log as done by the CLI. An adjustment may
  be negative. With 'redis' in the config, running instances count it at once.
  accounts credit-limit EMAIL --usd AMOUNT lets the balance go down to -AMOUNT (0: not below
  zero), in the audit log as done by the CLI.

  keys unpause PUBLIC_ID lifts the pause of a key paused for unusual spend (gateway
  'unusualSpend.pause'), in the audit log as done by the CLI.

  config check FILE (or --config FILE) checks a config file as serve would — environment
  variables, fields, provider options, models — without listening or opening the database.
  It prints what the file serves and exits 0, or prints the errors and exits 1.

  models lists the models served (by --config FILE, or without it the zero-config setup) with
  their capabilities, context window, largest output and prices, from the config and the
  model catalog. It calls no provider.

  check tries a gateway (this one or any other) step by step: a minimal request on each
  endpoint, then streaming, a tool call and image input. It prints what works and what to fix
  (/v1 missing or twice in the base URL, a key typed with 'Bearer ', an unknown model, 401, 429,
  timeouts), and exits 0 only when everything asked for works. The key may come from
  SWITCHYARD_API_KEY instead of --key. --timeout is per request (default 60).

Options:
  -c, --config FILE   YAML or JSON config file (\${ENV_VAR} references are filled in)
  -p, --port PORT     port to listen on (default 8787; 0 picks a free one)
      --host HOST     address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)
      --allowed-hosts NAMES
                      host names the server answers to besides IP addresses, localhost and
                      --host, comma-separated (.example.com: it and every name under it;
                      '*': any); others are refused (403 HOST_NOT_ALLOWED)
      --database DB   SQLite file or postgres:// URL for keys and usage
      --log-level L   debug, info (default: a line per request), warn, error or silent
      --no-console    do not serve the web console at / (the API stays under /v1)
  -h, --help          show this help
  -v, --version       print the version
`;

export const flagError = (message: string) => configError('CONFIG_FLAG_INVALID', `${message}\n\n${USAGE}`);

export const cliOptions = {
  config: { type: 'string', short: 'c' },
  port: { type: 'string', short: 'p' },
  host: { type: 'string' },
  'allowed-hosts': { type: 'string' },
  database: { type: 'string' },
  'log-level': { type: 'string' },
  name: { type: 'string' },
  models: { type: 'string' },
  expires: { type: 'string' },
  budget: { type: 'string' },
  'budget-period': { type: 'string' },
  rpm: { type: 'string' },
  tpm: { type: 'string' },
  concurrency: { type: 'string' },
  by: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  key: { type: 'string' },
  model: { type: 'string' },
  provider: { type: 'string' },
  threshold: { type: 'string' },
  json: { type: 'boolean' },
  usd: { type: 'string' },
  kind: { type: 'string' },
  note: { type: 'string' },
  'base-url': { type: 'string' },
  protocol: { type: 'string' },
  timeout: { type: 'string' },
  'no-console': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

export type CliFlags = ReturnType<typeof parseArgs<{ options: typeof cliOptions; allowPositionals: true; strict: true }>>['values'];

/** Refuses flags `command` does not take. */
export function allowOnly(values: CliFlags, allowed: ReadonlySet<string>, command: string): void {
  const extra = Object.keys(values).filter((flag) => !allowed.has(flag) && flag !== 'help' && flag !== 'version');
  if (extra.length > 0) throw flagError(`'${command}' does not take ${extra.map((flag) => `--${flag}`).join(', ')}.`);
}
