import type { ModelCapabilities, ModelSummary } from '../canonical/index.js';
import { costOf } from '../catalog/cost.js';
import { formatCount, formatPrice, formatUsd } from './format.js';
import { html, type Html } from './html.js';
import { layout, type PageContext } from './layout.js';

/** The capabilities the page lists (provider tools are per protocol, not a yes or no). */
type ListedCapability = Exclude<keyof ModelCapabilities, 'providerTools'>;

/** The request the cost column prices: a short conversation turn. */
const TYPICAL = { inputTokens: 1_000, outputTokens: 500, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

const typicalCost = (model: ModelSummary) => {
  const nanoUsd = model.price === undefined ? undefined : costOf(TYPICAL, model.price);
  return nanoUsd === undefined ? '—' : formatUsd(nanoUsd);
};

const CAPABILITY_NAMES: Record<ListedCapability, string> = {
  streaming: 'streaming',
  tools: 'tools',
  images: 'image input',
  files: 'file input',
  audio: 'audio',
  reasoning: 'reasoning',
  structuredOutput: 'structured output',
};

export function modelsPage(ctx: PageContext, models: readonly ModelSummary[]): Html {
  return layout(
    ctx,
    'Models',
    'models',
    html`<p>The models this gateway serves. Prices are US dollars per million tokens; a model without a price is recorded as unpriced, never as free. <em>A request</em> is what one of 1,000 input and 500 output tokens costs at that price.</p>
<div class="table-scroll"><table>
  <caption class="visually-hidden">Models, prices and capabilities</caption>
  <thead><tr><th scope="col">Model id</th><th scope="col">Served by</th><th scope="col" class="num">Input</th><th scope="col" class="num">Cached input</th><th scope="col" class="num">Output</th><th scope="col" class="num">A request</th><th scope="col" class="num">Context window</th><th scope="col" class="num">Max output</th><th scope="col">Capabilities</th></tr></thead>
  <tbody>
  ${models.map(
    (model) => html`<tr>
    <td><code>${model.id}</code></td><td>${model.ownedBy}</td>
    <td class="num">${formatPrice(model.price?.input)}</td><td class="num">${formatPrice(model.price === undefined ? undefined : (model.price.cachedInput ?? model.price.input))}</td><td class="num">${formatPrice(model.price?.output)}</td><td class="num">${typicalCost(model)}</td>
    <td class="num">${model.contextWindow === undefined ? '—' : formatCount(model.contextWindow)}</td><td class="num">${model.maxOutputTokens === undefined ? '—' : formatCount(model.maxOutputTokens)}</td>
    <td>${(Object.keys(CAPABILITY_NAMES) as ListedCapability[])
      .filter((name) => model.capabilities[name])
      .map((name) => CAPABILITY_NAMES[name])
      .join(', ')}</td>
  </tr>`,
  )}
  </tbody>
</table></div>`,
  );
}
