import type { ServerKeySource } from './resolve-server-key.js';

export interface BannerInfo {
  root: string;
  openAIBaseURL: string;
  key: string | undefined;
  keySource: ServerKeySource;
  /** Model ids in configuration order. */
  models: readonly string[];
  /** The config file, or undefined for the zero-config start. */
  configPath: string | undefined;
  /** Where keys and usage are kept (password hidden); undefined without a database. */
  database?: string | undefined;
  /** Whether the database opened before the server listened. */
  databaseReady?: boolean | undefined;
  /** Where the web console is; undefined when it is off. */
  consoleUrl?: string | undefined;
  /** Where the guide is; undefined when it is off. */
  docsUrl?: string | undefined;
  /** What loading the configuration decided that the operator should know (`LoadedConfig.notes`). */
  notes?: readonly string[] | undefined;
}

function notesLines(info: BannerInfo): string {
  return (info.notes ?? []).map((note) => `  Note: ${note}\n`).join('');
}

function databaseLine(info: BannerInfo): string {
  if (info.database === undefined) return '';
  const state = info.databaseReady === false ? '  (not reachable yet; retrying)' : '';
  return `  Keys and usage:                         ${info.database}${state}\n`;
}

const shellSafe = /^[A-Za-z0-9._~+/=:@%-]+$/;
const singleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const shellWord = (text: string) => (shellSafe.test(text) ? text : singleQuoted(text));

/**
 * A key shown without giving it away: its first and last few characters (at most 6 and 4, and
 * never more than half of it), enough to tell which key is set.
 */
export function maskKey(key: string): string {
  const shown = Math.floor(key.length / 4);
  const head = Math.min(6, shown);
  const tail = Math.min(4, shown);
  return `${key.slice(0, head)}…${tail === 0 ? '' : key.slice(-tail)}`;
}

/** The environment variable an operator's key is read from: the snippets name it instead of printing the key. */
const KEY_VARIABLE = 'SWITCHYARD_API_KEY';

function keyLine(info: BannerInfo): string {
  switch (info.keySource) {
    case 'env':
      return `${maskKey(info.key ?? '')}  (from ${KEY_VARIABLE}; the snippets read it from there)`;
    case 'generated':
      return `${info.key ?? ''}  (generated for this run; set SWITCHYARD_API_KEY to choose one)`;
    case 'config':
      return `one of apiKeys in ${info.configPath ?? 'the config file'}`;
    case 'none':
      return 'none needed (requireApiKey: false)';
  }
}

/** The model Claude Code should use: a Claude model when one is served, else the first model. */
function claudeModels(models: readonly string[]): { main: string; small: string } {
  const first = models[0] ?? 'mock';
  const main =
    models.find((id) => id.startsWith('claude') && !id.includes('haiku')) ?? models.find((id) => id.startsWith('claude')) ?? first;
  const small = models.find((id) => id.startsWith('claude') && id.includes('haiku')) ?? main;
  return { main, small };
}

/** The key as each snippet writes it: the literal key, or where an operator's key is read from. */
interface KeyIn {
  /** The curl header, single- or double-quoted. */
  header: string;
  /** A JavaScript expression. */
  js: string;
  /** A Python expression. */
  python: string;
  /** A shell word. */
  shell: string;
}

function keyIn(info: BannerInfo): KeyIn {
  if (info.keySource === 'env') {
    return {
      header: `"Authorization: Bearer $${KEY_VARIABLE}"`,
      js: `process.env.${KEY_VARIABLE}`,
      python: `os.environ["${KEY_VARIABLE}"]`,
      shell: `"$${KEY_VARIABLE}"`,
    };
  }
  // Only a key the server generated for this run is printed (it is of no use unless shown).
  const key = info.key ?? (info.keySource === 'none' ? 'unused' : 'YOUR_KEY');
  return { header: singleQuoted(`Authorization: Bearer ${key}`), js: `'${key}'`, python: `"${key}"`, shell: shellWord(key) };
}

/**
 * What `switchyard` prints once it listens: where to point clients, the key, and snippets to
 * paste. A key the operator supplied (`SWITCHYARD_API_KEY`, or the config file's `apiKeys`) is
 * never printed in full: it is masked, and the snippets read it from the environment variable.
 */
export function formatBanner(info: BannerInfo): string {
  const key = keyIn(info);
  const model = info.models[0] ?? 'mock';
  const claude = claudeModels(info.models);
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
  return `Switchyard is listening${info.configPath ? ` (config: ${info.configPath})` : ''}.

  API root (Anthropic SDK, Claude Code):  ${info.root}
  OpenAI base URL:                        ${info.openAIBaseURL}
  API key:                                ${keyLine(info)}
  Models:                                 ${info.models.join(', ')}
${databaseLine(info)}${info.consoleUrl === undefined ? '' : `  Console (register, keys, usage):        ${info.consoleUrl}\n`}${info.docsUrl === undefined ? '' : `  Guide (clients, troubleshooting):       ${info.docsUrl}\n`}${notesLines(info)}
curl:
  curl ${info.openAIBaseURL}/chat/completions \\
    -H ${key.header} -H 'Content-Type: application/json' \\
    -d ${singleQuoted(body)}

openai SDK (base URL ends in /v1):
  JavaScript:  new OpenAI({ baseURL: '${info.openAIBaseURL}', apiKey: ${key.js} })
  Python:      OpenAI(base_url="${info.openAIBaseURL}", api_key=${key.python})

anthropic SDK (base URL is the API root, without /v1):
  JavaScript:  new Anthropic({ baseURL: '${info.root}', apiKey: ${key.js} })
  Python:      Anthropic(base_url="${info.root}", api_key=${key.python})

Claude Code:
  ANTHROPIC_BASE_URL=${info.root} ANTHROPIC_AUTH_TOKEN=${key.shell} \\
  ANTHROPIC_MODEL=${shellWord(claude.main)} ANTHROPIC_DEFAULT_HAIKU_MODEL=${shellWord(claude.small)} claude

Press Ctrl-C to stop.
`;
}
