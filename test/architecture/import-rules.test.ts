import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcRoot = join(import.meta.dirname, '../../src');

/**
 * Top-level src entry (a folder, or a file such as `gateway.ts`) → what its files may import: other
 * entries, and packages. DESIGN.md's allow-list. Folders the next subsystems add (catalog, storage,
 * limits, usage, observability, console) have their rule before their first file, and every entry
 * of src/ must have one.
 */
const rules: Record<string, { imports: string[]; packages: RegExp }> = {
  canonical: { imports: ['canonical'], packages: /^$/ },
  sse: { imports: ['sse'], packages: /^eventsource-parser$/ },
  protocols: { imports: ['canonical', 'sse', 'protocols'], packages: /^zod$/ },
  providers: {
    imports: ['canonical', 'sse', 'protocols', 'providers', 'logger.ts'],
    packages: /^(undici|eventsource-parser|zod|node:.*)$/,
  },
  routing: { imports: ['canonical', 'catalog', 'providers', 'routing', 'logger.ts'], packages: /^(ioredis|node:.*)$/ },
  // The model catalog: curated data over the bundled price data of genai-prices (never fetched).
  catalog: { imports: ['canonical', 'catalog'], packages: /^(zod|@pydantic\/genai-prices|node:.*)$/ },
  storage: { imports: ['canonical', 'storage'], packages: /^(kysely|better-sqlite3|pg|node:.*)$/ },
  access: { imports: ['canonical', 'storage', 'access'], packages: /^(ioredis|node:.*)$/ },
  limits: { imports: ['canonical', 'storage', 'limits'], packages: /^(ioredis|rate-limiter-flexible|node:.*)$/ },
  usage: { imports: ['canonical', 'storage', 'catalog', 'usage'], packages: /^(kysely|gpt-tokenizer\/.*|node:.*)$/ },
  // The request log, metrics and traces are "record" stages: they read the usage record (and price it as the ledger does).
  observability: {
    imports: ['canonical', 'usage', 'observability', 'logger.ts'],
    packages: /^(pino|prom-client|@opentelemetry\/api|node:.*)$/,
  },
  http: { imports: ['canonical', 'http', 'protocols', 'logger.ts'], packages: /^(express|node:.*)$/ },
  // The request policy: pure functions over the canonical request (and its zod option schema).
  policy: { imports: ['canonical', 'policy'], packages: /^zod$/ },
  // The request pipeline: the stage interface, the context, the runner, the compiler, the built-in
  // stages over the subsystems' services (seen through their stage interfaces), the stream responder.
  pipeline: {
    imports: ['canonical', 'http', 'protocols', 'providers', 'routing', 'access', 'limits', 'usage', 'policy', 'logger.ts', 'pipeline'],
    packages: /^node:.*$/,
  },
  endpoints: {
    imports: [
      'canonical',
      'http',
      'protocols',
      'providers',
      'routing',
      'access',
      'limits',
      'usage',
      'catalog',
      'observability',
      'policy',
      'pipeline',
      'logger.ts',
      'endpoints',
    ],
    packages: /^node:.*$/,
  },
  // Reconciliation: the providers' own usage reports (read over HTTP with an admin key) against the ledger.
  reconcile: { imports: ['canonical', 'storage', 'usage', 'reconcile'], packages: /^(kysely|node:.*)$/ },
  console: {
    imports: ['canonical', 'http', 'catalog', 'storage', 'access', 'limits', 'usage', 'observability', 'reconcile', 'logger.ts', 'console'],
    packages: /^(express|argon2|kysely|node:.*)$/,
  },
  // The guide (docs/*.md at /docs): markdown rendered once with markdown-it and highlight.js, in the
  // console's style and CSP, reading the console's sign-in for a user's key ids.
  'docs-site': {
    imports: ['canonical', 'http', 'console', 'logger.ts', 'docs-site'],
    packages: /^(markdown-it|highlight\.js\/.*|github-slugger|node:.*)$/,
  },
  // The service-check page (/status) over the ledger, and its probe's lock (Redis or a lease row).
  status: { imports: ['canonical', 'http', 'storage', 'usage', 'logger.ts', 'status'], packages: /^(ioredis|node:.*)$/ },
  // The admin HTTP API over stored keys and the ledger.
  admin: { imports: ['canonical', 'access', 'http', 'protocols', 'usage', 'logger.ts', 'admin'], packages: /^node:.*$/ },
  testing: { imports: ['canonical', 'providers', 'logger.ts', 'testing'], packages: /^vitest$/ },
  'logger.ts': { imports: [], packages: /^$/ },
  // The composition root: gateway() (path dispatch), the options' types and zod schema, their check,
  // and resolving them — opening the database, Redis, limits and routing, and filling the stages' services.
  gateway: {
    imports: [
      'canonical',
      'access',
      'admin',
      'catalog',
      'endpoints',
      'http',
      'limits',
      'observability',
      'pipeline',
      'policy',
      'protocols',
      'providers',
      'routing',
      'status',
      'storage',
      'usage',
      'logger.ts',
      'gateway',
    ],
    packages: /^(zod|ioredis|node:.*)$/,
  },
  'index.ts': {
    imports: [
      'canonical',
      'access',
      'catalog',
      'console',
      'docs-site',
      'limits',
      'observability',
      'providers',
      'routing',
      'status',
      'storage',
      'usage',
      'pipeline',
      'gateway',
      'logger.ts',
    ],
    packages: /^$/,
  },
  // The standalone CLI imports anything; nothing imports it (checked below).
  server: { imports: ['*'], packages: /.*/ },
};

/**
 * The endpoints see the subsystems around them only through their stage interfaces (and the
 * token estimate count_tokens falls back to): these are the only files of those folders they import.
 */
const stageFiles: Record<string, RegExp> = {
  access: /^access\/[a-z-]+-stage\.ts$/,
  limits: /^limits\/[a-z-]+-stage\.ts$/,
  usage: /^usage\/([a-z-]+-stage|estimate-input-tokens|input-token-bound)\.ts$/,
  observability: /^observability\/[a-z-]+-stage\.ts$/,
};

/**
 * Sibling subfolders (one protocol, one provider) stand alone: what one may import of another is
 * listed here, with why; anything else is a violation.
 */
const siblingImports: Record<string, string[]> = {
  // OpenAI's two APIs share one error body: Responses renders it with Chat's renderer.
  'protocols/responses': ['protocols/chat-completions'],
  // Every built-in adapter talks HTTP through the shared transport.
  'providers/anthropic': ['providers/transport'],
  'providers/gemini': ['providers/transport'],
  'providers/openai': ['providers/transport'],
  'providers/openai-responses': ['providers/transport'],
  // An OpenAI-compatible server is the OpenAI Chat adapter with a quirks table.
  'providers/openai-compatible': ['providers/openai', 'providers/transport'],
  'providers/mock': ['providers/transport'],
};

/** Who may import the router (routing/): the request path and the composition root, never a subsystem beside it. */
const routerImporters = ['endpoints', 'pipeline', 'gateway', 'index.ts', 'server'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  // Comments may show imports as examples; only code counts.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  // `from '…'`, `import '…'` and `import('…')`; not a string that merely ends in "from" (`time('from')`).
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** The src file an import lands in, relative to src/ (`routing/read-ahead.ts`). */
function resolvedOf(file: string, specifier: string): string {
  return relative(srcRoot, join(file, '..', specifier)).replace(/\.js$/, '.ts');
}

/** The top-level src entry an import lands in: a folder name, or a file such as `logger.ts`. */
function targetOf(file: string, specifier: string): string {
  const resolved = resolvedOf(file, specifier);
  return resolved.split('/')[0] ?? resolved;
}

/** The top-level src entry a file belongs to. */
const entryOf = (file: string) => relative(srcRoot, file).split('/')[0] ?? '';

describe('import rules', () => {
  const files = sourceFiles(srcRoot);

  it('should find the source files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  it('should have a rule for every folder and file at the top of src/', () => {
    const entries = readdirSync(srcRoot).filter((name) => name.endsWith('.ts') || !name.includes('.'));
    expect(entries.filter((entry) => rules[entry] === undefined)).toEqual([]);
  });

  for (const [entry, rule] of Object.entries(rules)) {
    it(`should keep ${entry} importing only what DESIGN.md allows`, () => {
      const violations = files
        .filter((file) => entryOf(file) === entry)
        .flatMap((file) =>
          importsOf(file)
            .filter((specifier) =>
              specifier.startsWith('.')
                ? !rule.imports.includes('*') && !rule.imports.includes(targetOf(file, specifier))
                : !rule.packages.test(specifier),
            )
            .map((specifier) => `${relative(srcRoot, file)} imports ${specifier}`),
        );
      expect(violations).toEqual([]);
    });
  }

  it('should let endpoints/ and pipeline/ see access, limits, usage and observability only through their stage interfaces', () => {
    const violations = files
      .filter((file) => entryOf(file) === 'endpoints' || entryOf(file) === 'pipeline')
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.'))
          .map((specifier) => resolvedOf(file, specifier))
          .filter((target) => {
            const pattern = stageFiles[target.split('/')[0] ?? ''];
            return pattern !== undefined && !pattern.test(target);
          })
          .map((target) => `${relative(srcRoot, file)} imports ${target}`),
      );
    expect(violations).toEqual([]);
  });

  it('should keep sibling subfolders of protocols/ and providers/ apart, but for the listed imports', () => {
    const subfolderOf = (path: string) => {
      const [top, sub, file] = path.split('/');
      return (top === 'protocols' || top === 'providers') && file !== undefined ? `${top}/${sub}` : undefined;
    };
    const violations = files.flatMap((file) => {
      const own = subfolderOf(relative(srcRoot, file));
      if (own === undefined) return [];
      return importsOf(file)
        .filter((specifier) => specifier.startsWith('.'))
        .map((specifier) => resolvedOf(file, specifier))
        .filter((target) => {
          const theirs = subfolderOf(target);
          const sameFolder = theirs?.split('/')[0] === own.split('/')[0];
          return theirs !== undefined && sameFolder && theirs !== own && !(siblingImports[own] ?? []).includes(theirs);
        })
        .map((target) => `${relative(srcRoot, file)} imports ${target}`);
    });
    expect(violations).toEqual([]);
  });

  it('should let only the request path and the composition root import the router', () => {
    const allowed = Object.entries(rules)
      .filter(([entry, rule]) => entry !== 'routing' && (rule.imports.includes('routing') || rule.imports.includes('*')))
      .map(([entry]) => entry);
    expect(allowed.sort()).toEqual([...routerImporters].sort());
  });

  it('should let nothing import server/ (the CLI imports anything; nothing imports it)', () => {
    const importers = files
      .filter((file) => !relative(srcRoot, file).startsWith('server/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.') && targetOf(file, specifier) === 'server')
          .map((specifier) => `${relative(srcRoot, file)} imports ${specifier}`),
      );
    expect(importers).toEqual([]);
  });

  it('should never let src/ read the shared reference folder', () => {
    const offenders = files.filter((file) => readFileSync(file, 'utf8').includes('../shared'));
    expect(offenders).toEqual([]);
  });
});
