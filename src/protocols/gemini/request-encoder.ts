import { unsupportedFeatureError } from '../../canonical/index.js';
import type { CanonicalRequest, JsonSchema, ResponseFormat } from '../../canonical/index.js';
import { encodeGeminiContents } from './contents-encoder.js';
import type { GeminiGenerationConfig, GeminiRequest } from './upstream-schema.js';
import { encodeGeminiThinkingConfig, geminiThinkingControl } from './thinking-encoder.js';
import { encodeGeminiToolConfig, encodeGeminiTools } from './tools-encoder.js';

export interface EncodeGeminiRequestOptions {
  /** The model named in 400 messages (the gateway's id for it). Default: `request.model`. */
  modelLabel?: string;
}

/** `const` is not accepted in `responseJsonSchema`: rewrite it, at any depth, to a one-value `enum`. */
function withoutConst(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutConst);
  if (typeof schema !== 'object' || schema === null) return schema;
  const entries = Object.entries(schema as Record<string, unknown>).map(([key, value]): [string, unknown] =>
    key === 'const' ? ['enum', [value]] : [key, withoutConst(value)],
  );
  return Object.fromEntries(entries);
}

function encodeResponseFormat(format: ResponseFormat | undefined): GeminiGenerationConfig {
  if (format === undefined || format.type === 'text') return {};
  if (format.type === 'json') return { responseMimeType: 'application/json' };
  return { responseMimeType: 'application/json', responseJsonSchema: withoutConst(format.schema) as JsonSchema };
}

/** Penalties are refused by Gemini 2.5 on the Developer API; a zero penalty changes nothing and is left out. */
function encodePenalties(request: CanonicalRequest, modelLabel: string): GeminiGenerationConfig {
  const { presencePenalty, frequencyPenalty } = request.sampling ?? {};
  const config: GeminiGenerationConfig = {};
  const penaltiesRefused = geminiThinkingControl(request.model).kind === 'budget';
  if (presencePenalty !== undefined && presencePenalty !== 0) {
    if (penaltiesRefused)
      throw unsupportedFeatureError('a presence penalty', modelLabel, {
        param: 'presence_penalty',
        reason: 'Google Gemini has no equivalent',
      });
    config.presencePenalty = presencePenalty;
  }
  if (frequencyPenalty !== undefined && frequencyPenalty !== 0) {
    if (penaltiesRefused)
      throw unsupportedFeatureError('a frequency penalty', modelLabel, {
        param: 'frequency_penalty',
        reason: 'Google Gemini has no equivalent',
      });
    config.frequencyPenalty = frequencyPenalty;
  }
  return config;
}

function encodeGenerationConfig(request: CanonicalRequest, modelLabel: string): GeminiGenerationConfig | undefined {
  const { temperature, topP, topK, seed } = request.sampling ?? {};
  const thinkingConfig = encodeGeminiThinkingConfig(request.reasoning, request.model, modelLabel);
  const config: GeminiGenerationConfig = {
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(topK === undefined ? {} : { topK }),
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    ...(request.stopSequences === undefined || request.stopSequences.length === 0 ? {} : { stopSequences: request.stopSequences }),
    ...encodePenalties(request, modelLabel),
    ...(seed === undefined ? {} : { seed }),
    ...encodeResponseFormat(request.responseFormat),
    ...(thinkingConfig === undefined ? {} : { thinkingConfig }),
  };
  return Object.keys(config).length === 0 ? undefined : config;
}

/**
 * Canonical request → the body of `POST /models/{model}:generateContent` (or
 * `:streamGenerateContent?alt=sse`; the body is the same). System text → `systemInstruction`
 * (Gemma models refuse it: their system text leads the first user turn instead); messages →
 * `contents`; tools → `functionDeclarations` with `parametersJsonSchema`; sampling, limits,
 * stop sequences, JSON output and thinking → `generationConfig`.
 *
 * Left behind on purpose (no Gemini switch): `parallelToolCalls`, tool `strict`, `metadata`,
 * image `detail`. Anything else Gemini cannot carry is a 400 naming it.
 */
export function encodeGeminiRequest(request: CanonicalRequest, options: EncodeGeminiRequestOptions = {}): GeminiRequest {
  const modelLabel = options.modelLabel ?? request.model;
  const { contents, system: hoisted } = encodeGeminiContents(request.messages, modelLabel);
  const systemTexts = [...(request.system ?? []).map((part) => part.text), ...hoisted].filter((text) => text !== '');
  const body: GeminiRequest = { contents };

  if (systemTexts.length > 0) {
    if (/^(?:.*\/)?gemma/i.test(request.model)) {
      const firstUser = contents.find((content) => content.role === 'user');
      const preamble = { text: systemTexts.join('\n\n') };
      if (firstUser) firstUser.parts.unshift(preamble);
      else contents.unshift({ role: 'user', parts: [preamble] });
    } else {
      body.systemInstruction = { parts: systemTexts.map((text) => ({ text })) };
    }
  }

  const tools = encodeGeminiTools(request.tools, modelLabel);
  if (tools) body.tools = tools;
  const toolConfig = encodeGeminiToolConfig(request.toolChoice, request.tools);
  if (toolConfig) body.toolConfig = toolConfig;
  const generationConfig = encodeGenerationConfig(request, modelLabel);
  if (generationConfig) body.generationConfig = generationConfig;
  return body;
}
