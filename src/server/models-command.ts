import type { ModelPrice } from '../canonical/index.js';
import { openAIModelEntry } from '../endpoints/model-entry.js';
import { silentLogger } from '../logger.js';
import { checkOptions } from '../gateway/options.js';
import type { ResolvedModel } from '../routing/resolve-model.js';
import { formatTable } from './format-table.js';
import { loadConfig } from './load-config.js';
import { resolveServerDatabase } from './resolve-database.js';
import { resolveServerKey } from './resolve-server-key.js';
import { createZeroConfig } from './zero-config.js';

type Write = (text: string) => void;

/** Writes to stdout; a reader that stopped early (`switchyard models | head`) is not an error. */
function writeStdout(text: string): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(text);
}

const tokens = (count: number | undefined) => (count === undefined ? '-' : count.toLocaleString('en-US'));
const usd = (perMillion: number) => `$${perMillion}`;

/** What the model accepts, in a few words: the capabilities it has, and the protocols of the hosted tools it runs. */
function capabilitiesOf(model: ResolvedModel): string {
  const { capabilities } = model;
  const words = [
    capabilities.tools && 'tools',
    capabilities.images && 'images',
    capabilities.files && 'files',
    capabilities.audio && 'audio',
    capabilities.reasoning && (model.reasoningControl === undefined ? 'reasoning' : `reasoning(${model.reasoningControl})`),
    capabilities.structuredOutput && 'json',
    !capabilities.streaming && 'no-streaming',
    capabilities.providerTools.length > 0 && `hosted:${capabilities.providerTools.join('+')}`,
  ];
  return words.filter((word): word is string => typeof word === 'string').join(' ');
}

/** `in $3 · out $15 · cached $0.3 · write $3.75 (1h $6) · above 200,000: in $6 …` */
function priceOf(price: ModelPrice): string {
  const parts = [`in ${usd(price.input)}`, `out ${usd(price.output)}`];
  if (price.cachedInput !== undefined) parts.push(`cached ${usd(price.cachedInput)}`);
  if (price.cacheWrite !== undefined)
    parts.push(`write ${usd(price.cacheWrite)}${price.cacheWrite1h === undefined ? '' : ` (1h ${usd(price.cacheWrite1h)})`}`);
  else if (price.cacheWrite1h !== undefined) parts.push(`write 1h ${usd(price.cacheWrite1h)}`);
  if (price.reasoning !== undefined) parts.push(`reasoning ${usd(price.reasoning)}`);
  for (const tier of price.tiers ?? [])
    parts.push(`above ${tokens(tier.aboveInputTokens)}: in ${usd(tier.input ?? price.input)} out ${usd(tier.output ?? price.output)}`);
  return parts.join(' · ');
}

function sourceOf(model: ResolvedModel): string {
  const price = model.price;
  if (price === undefined) return '-';
  if (price.source === 'config') return 'config';
  if (price.effectiveFrom !== undefined) return `${price.source}, since ${price.effectiveFrom}`;
  return price.asOf === undefined ? price.source : `${price.source}, as of ${price.asOf}`;
}

/**
 * `switchyard models [--config FILE] [--json]`: the models the config file (or the zero-config
 * setup) serves, with what the gateway knows of each — capabilities, context window, largest
 * output, prices (USD per million tokens) and where they come from. Calls no provider.
 */
export async function runModelsCommand(
  command: { configPath?: string; json: boolean },
  env: NodeJS.ProcessEnv,
  write: Write = writeStdout,
): Promise<void> {
  const config = command.configPath === undefined ? createZeroConfig(env) : await loadConfig(command.configPath, env);
  const database = resolveServerDatabase(config, env);
  const { options } = resolveServerKey({ ...config.gateway, ...(database === undefined ? {} : { database }) }, env);
  const checked = checkOptions({ ...options, logger: silentLogger });
  await Promise.all(Object.values(checked.providers).map((provider) => provider.close?.()));
  const models = checked.modelList;
  if (command.json) {
    write(
      `${JSON.stringify(models.map((model) => ({ ...openAIModelEntry(model), provider: model.providerId, upstream_model: model.upstreamModel })))}\n`,
    );
    return;
  }
  const rows = models.map((model) => [
    model.id,
    model.providerId,
    model.upstreamModel,
    tokens(model.contextWindow),
    tokens(model.maxOutputTokens),
    capabilitiesOf(model),
    model.price === undefined ? '-' : priceOf(model.price.price),
    sourceOf(model),
  ]);
  const table = formatTable(
    ['ID', 'PROVIDER', 'UPSTREAM', 'WINDOW', 'MAX OUTPUT', 'CAPABILITIES', 'PRICE (USD / 1M TOKENS)', 'PRICE SOURCE'],
    rows,
  );
  write(`${table}\n- = not known: set contextWindow, maxOutputTokens or price on the model in the config file.\n`);
}
