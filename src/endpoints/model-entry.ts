import type { ModelPrice } from '../canonical/index.js';
import type { ResolvedModel } from '../routing/resolve-model.js';

/** A price in the listing's snake_case, USD per million tokens. */
function pricesOf(price: Omit<ModelPrice, 'tiers'>) {
  return {
    input: price.input,
    output: price.output,
    ...(price.cachedInput === undefined ? {} : { cached_input: price.cachedInput }),
    ...(price.cacheWrite === undefined ? {} : { cache_write: price.cacheWrite }),
    ...(price.cacheWrite1h === undefined ? {} : { cache_write_1h: price.cacheWrite1h }),
    ...(price.reasoning === undefined ? {} : { reasoning: price.reasoning }),
  };
}

function pricingOf(model: ResolvedModel) {
  if (model.price === undefined) return {};
  const { price, source, sourceUrl, effectiveFrom, asOf, version } = model.price;
  return {
    pricing: {
      currency: 'USD',
      unit: 'per_million_tokens',
      ...pricesOf(price),
      ...(price.tiers === undefined
        ? {}
        : {
            tiers: price.tiers.map(({ aboveInputTokens, input, output, ...rest }) => ({
              above_input_tokens: aboveInputTokens,
              ...pricesOf({ input: input ?? price.input, output: output ?? price.output, ...rest }),
            })),
          }),
      source,
      ...(sourceUrl === undefined ? {} : { source_url: sourceUrl }),
      ...(effectiveFrom === undefined ? {} : { effective_from: effectiveFrom }),
      ...(asOf === undefined ? {} : { as_of: asOf }),
      version,
    },
  };
}

/**
 * A model in the OpenAI shape (`id`, `object`, `created`, `owned_by`), with what the gateway
 * knows of it: window and largest output when known, capabilities, and prices when known.
 */
export function openAIModelEntry(model: ResolvedModel) {
  const { capabilities } = model;
  return {
    id: model.id,
    object: 'model',
    created: model.created,
    owned_by: model.ownedBy,
    ...(model.contextWindow === undefined ? {} : { context_window: model.contextWindow }),
    ...(model.maxOutputTokens === undefined ? {} : { max_output_tokens: model.maxOutputTokens }),
    capabilities: {
      streaming: capabilities.streaming,
      tools: capabilities.tools,
      images: capabilities.images,
      files: capabilities.files,
      audio: capabilities.audio,
      reasoning: capabilities.reasoning,
      structured_output: capabilities.structuredOutput,
      hosted_tools: capabilities.providerTools,
      ...(model.reasoningControl === undefined ? {} : { reasoning_control: model.reasoningControl }),
    },
    ...pricingOf(model),
  };
}

/** A model in the Anthropic shape; `max_input_tokens` and `max_tokens` are null when unknown, as Anthropic's own are. */
export function anthropicModelEntry(model: ResolvedModel) {
  return {
    type: 'model',
    id: model.id,
    display_name: model.id,
    created_at: new Date(model.created * 1000).toISOString(),
    max_input_tokens: model.contextWindow ?? null,
    max_tokens: model.maxOutputTokens ?? null,
  };
}
