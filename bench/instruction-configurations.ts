// The servers `npm run bench -- --instructions` counts, in table order. The first is the baseline
// every ratio is taken against. To measure another configuration, add an entry: `env` goes to
// bench/gateway-server.ts, which reads the `BENCH_*` variables listed at its top.

export interface InstructionConfiguration {
  /** Short name: the table's row label and what `--configurations` selects. */
  name: string;
  /** What is on, for the table's legend. */
  description: string;
  script: 'passthrough.js' | 'json-floor.js' | 'gateway-server.js';
  /** The server's environment; `scratch` is a directory of its own, `run` is unique to this run. */
  env?: (scratch: string, run: string) => Record<string, string>;
  /** Authenticate with the stored key the server prints (`key sk-sy-…`) rather than the bench's API key. */
  storedKey?: boolean;
}

const standaloneDefaults = (scratch: string): Record<string, string> => ({
  BENCH_STORE: 'sqlite',
  BENCH_DATABASE: `${scratch}/ledger.db`,
  BENCH_OPS: 'on',
  BENCH_LOG_FILE: `${scratch}/requests.log`,
});

export const instructionConfigurations: readonly InstructionConfiguration[] = [
  { name: 'passthrough', description: 'raw node:http passthrough (bench/passthrough.ts)', script: 'passthrough.js' },
  {
    name: 'json-floor',
    description: 'a reference: node:http + undici with both bodies parsed and re-serialised, nothing else (bench/json-floor.ts)',
    script: 'json-floor.js',
  },
  { name: 'off', description: 'gateway, every feature off (API keys only, as in the main table)', script: 'gateway-server.js' },
  {
    name: 'default',
    description: 'the standalone server as it starts: SQLite ledger, request log (to a file), metrics; API key',
    script: 'gateway-server.js',
    env: standaloneDefaults,
  },
  // One feature of the default each, against `off`: what each stage costs.
  {
    name: 'ledger',
    description: 'off + the SQLite ledger only',
    script: 'gateway-server.js',
    env: (scratch) => ({ BENCH_STORE: 'sqlite', BENCH_DATABASE: `${scratch}/ledger.db` }),
  },
  {
    name: 'ledger-unwatched',
    description: 'the ledger row without the unusual-spend watch it brings (`unusualSpend: false`)',
    script: 'gateway-server.js',
    env: (scratch) => ({ BENCH_STORE: 'sqlite', BENCH_DATABASE: `${scratch}/ledger.db`, BENCH_UNUSUAL_SPEND: 'off' }),
  },
  {
    name: 'request-log',
    description: 'off + the request log (to a file) only',
    script: 'gateway-server.js',
    env: (scratch) => ({ BENCH_OPS: 'log', BENCH_LOG_FILE: `${scratch}/requests.log` }),
  },
  { name: 'metrics', description: 'off + Prometheus metrics only', script: 'gateway-server.js', env: () => ({ BENCH_OPS: 'metrics' }) },
  // The pipeline's other stages, each on `off`.
  {
    name: 'tracing',
    description: 'off + traces, to a tracer that keeps each span until it ends (bench/bench-tracer.ts)',
    script: 'gateway-server.js',
    env: () => ({ BENCH_TRACING: 'on' }),
  },
  {
    name: 'policy',
    description: 'off + a request policy with a rule of every kind and a layer for the key',
    script: 'gateway-server.js',
    env: () => ({ BENCH_POLICY: 'layers' }),
  },
  {
    name: 'user-stage',
    description: "off + a user's stage that reads the context before the call and after the answer",
    script: 'gateway-server.js',
    env: () => ({ BENCH_USER_STAGE: 'on' }),
  },
  {
    name: 'redis+keys',
    description: 'default + per-key limits in Redis (never reached) + a stored key',
    script: 'gateway-server.js',
    env: (scratch, run) => ({ ...standaloneDefaults(scratch), BENCH_LIMITS: 'redis', BENCH_REDIS_PREFIX: `bench:instructions:${run}:` }),
    storedKey: true,
  },
  // The two halves of `redis+keys`, each on the default: what each costs.
  {
    name: 'default+keys',
    description: 'default + a stored key (no limits)',
    script: 'gateway-server.js',
    env: standaloneDefaults,
    storedKey: true,
  },
  {
    name: 'default+redis',
    description: 'default + per-key limits in Redis (never reached), with the API key',
    script: 'gateway-server.js',
    env: (scratch, run) => ({ ...standaloneDefaults(scratch), BENCH_LIMITS: 'redis', BENCH_REDIS_PREFIX: `bench:instructions:${run}:` }),
  },
  // The limits without Redis: the stage's own cost (planning, checking, the rate-limit headers), apart from the store's calls.
  {
    name: 'default+memory',
    description: 'default + per-key limits in memory (never reached), with the API key',
    script: 'gateway-server.js',
    env: (scratch) => ({ ...standaloneDefaults(scratch), BENCH_LIMITS: 'memory' }),
  },
  // A request on an account with a balance against the same request on a key with a budget (both in memory, never reached).
  {
    name: 'budget',
    description: 'ledger + a stored key with a budget (priced model)',
    script: 'gateway-server.js',
    env: (scratch) => ({ BENCH_STORE: 'sqlite', BENCH_DATABASE: `${scratch}/ledger.db`, BENCH_MONEY: 'budget' }),
    storedKey: true,
  },
  {
    name: 'balance',
    description: 'ledger + a console account’s key with a balance (priced model)',
    script: 'gateway-server.js',
    env: (scratch) => ({ BENCH_STORE: 'sqlite', BENCH_DATABASE: `${scratch}/ledger.db`, BENCH_MONEY: 'balance' }),
    storedKey: true,
  },
];
