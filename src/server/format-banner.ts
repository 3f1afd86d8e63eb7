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
}

function databaseLine(info: BannerInfo): string {
  if (info.database === undefined) return '';
  const state = info.databaseReady === false ? '  (not reachable yet; retrying)' : '';
  return `  Keys and usage:                         ${info.database}${state}\n`;
}

const shellSafe = /^[A-Za-z0-9._~+/=:@%-]+$/;
const singleQuoted = (text: string) => `'${text.replaceAll("'", `'\\''`)}'`;
const shellWord = (text: string) => (shellSafe.test(text) ? text : singleQuoted(text));

function keyLine(info: BannerInfo): string {
  switch (info.keySource) {
    case 'env':
      return `${info.key ?? ''}  (from SWITCHYARD_API_KEY)`;
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
  const main = models.find((id) => id.startsWith('claude') && !id.includes('haiku')) ?? models.find((id) => id.startsWith('claude')) ?? first;
  const small = models.find((id) => id.startsWith('claude') && id.includes('haiku')) ?? main;
  return { main, small };
}

/** What `switchyard` prints once it listens: where to point clients, the key, and snippets to paste. */
export function formatBanner(info: BannerInfo): string {
  const key = info.key ?? (info.keySource === 'none' ? 'unused' : 'YOUR_KEY');
  const model = info.models[0] ?? 'mock';
  const claude = claudeModels(info.models);
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello' }] });
  return `Switchyard is listening${info.configPath ? ` (config: ${info.configPath})` : ''}.

  API root (Anthropic SDK, Claude Code):  ${info.root}
  OpenAI base URL:                        ${info.openAIBaseURL}
  API key:                                ${keyLine(info)}
  Models:                                 ${info.models.join(', ')}
${databaseLine(info)}
curl:
  curl ${info.openAIBaseURL}/chat/completions \\
    -H ${singleQuoted(`Authorization: Bearer ${key}`)} -H 'Content-Type: application/json' \\
    -d ${singleQuoted(body)}

openai SDK (base URL ends in /v1):
  JavaScript:  new OpenAI({ baseURL: '${info.openAIBaseURL}', apiKey: '${key}' })
  Python:      OpenAI(base_url="${info.openAIBaseURL}", api_key="${key}")

anthropic SDK (base URL is the API root, without /v1):
  JavaScript:  new Anthropic({ baseURL: '${info.root}', apiKey: '${key}' })
  Python:      Anthropic(base_url="${info.root}", api_key="${key}")

Claude Code:
  ANTHROPIC_BASE_URL=${info.root} ANTHROPIC_AUTH_TOKEN=${shellWord(key)} \\
  ANTHROPIC_MODEL=${shellWord(claude.main)} ANTHROPIC_DEFAULT_HAIKU_MODEL=${shellWord(claude.small)} claude

Press Ctrl-C to stop.
`;
}
