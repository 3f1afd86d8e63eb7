import { sseData } from './check-http.js';

export type CheckProtocol = 'chat' | 'responses' | 'messages';
export type Capability = 'minimal' | 'streaming' | 'tools' | 'image';

export const CAPABILITIES: readonly Capability[] = ['minimal', 'streaming', 'tools', 'image'];
export const CAPABILITY_LABEL: Record<Capability, string> = {
  minimal: 'minimal request',
  streaming: 'streaming',
  tools: 'tool call',
  image: 'image input',
};

/** A 1×1 PNG, sent inline. */
export const TINY_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** The path below the OpenAI-style base URL (`…/v1`) each protocol is served at. */
export const ENDPOINT: Record<CheckProtocol, string> = { chat: '/chat/completions', responses: '/responses', messages: '/messages' };

const OUTPUT_TOKENS = 64;
const PROMPT = 'Reply with the single word OK.';
const IMAGE_PROMPT = 'What colour is this image? Answer in one word.';
const WEATHER = {
  name: 'get_weather',
  description: 'The current weather in a city.',
  schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};
const TOOL_PROMPT = 'What is the weather in Paris? Use the get_weather tool.';

/** The body of one step's request. */
export function bodyOf(protocol: CheckProtocol, capability: Capability, model: string): Record<string, unknown> {
  const stream = capability === 'streaming';
  if (protocol === 'chat') {
    const base = { model, max_tokens: OUTPUT_TOKENS, ...(stream ? { stream: true } : {}) };
    if (capability === 'tools') {
      return {
        ...base,
        messages: [{ role: 'user', content: TOOL_PROMPT }],
        tools: [{ type: 'function', function: { name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.schema } }],
        tool_choice: { type: 'function', function: { name: WEATHER.name } },
      };
    }
    if (capability === 'image') {
      const content = [
        { type: 'text', text: IMAGE_PROMPT },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${TINY_PNG}` } },
      ];
      return { ...base, messages: [{ role: 'user', content }] };
    }
    return { ...base, messages: [{ role: 'user', content: PROMPT }] };
  }
  if (protocol === 'responses') {
    const base = { model, max_output_tokens: OUTPUT_TOKENS, ...(stream ? { stream: true } : {}) };
    if (capability === 'tools') {
      return {
        ...base,
        input: TOOL_PROMPT,
        tools: [{ type: 'function', name: WEATHER.name, description: WEATHER.description, parameters: WEATHER.schema }],
        tool_choice: { type: 'function', name: WEATHER.name },
      };
    }
    if (capability === 'image') {
      const content = [
        { type: 'input_text', text: IMAGE_PROMPT },
        { type: 'input_image', image_url: `data:image/png;base64,${TINY_PNG}` },
      ];
      return { ...base, input: [{ role: 'user', content }] };
    }
    return { ...base, input: PROMPT };
  }
  const base = { model, max_tokens: OUTPUT_TOKENS, ...(stream ? { stream: true } : {}) };
  if (capability === 'tools') {
    return {
      ...base,
      messages: [{ role: 'user', content: TOOL_PROMPT }],
      tools: [{ name: WEATHER.name, description: WEATHER.description, input_schema: WEATHER.schema }],
      tool_choice: { type: 'tool', name: WEATHER.name },
    };
  }
  if (capability === 'image') {
    const content = [
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: TINY_PNG } },
      { type: 'text', text: IMAGE_PROMPT },
    ];
    return { ...base, messages: [{ role: 'user', content }] };
  }
  return { ...base, messages: [{ role: 'user', content: PROMPT }] };
}

/** The request headers: a Bearer key for OpenAI's protocols, `x-api-key` and a version for Anthropic's. */
export function headersOf(protocol: CheckProtocol, key: string): Record<string, string> {
  const common = { 'content-type': 'application/json', 'user-agent': 'switchyard-check' };
  return protocol === 'messages'
    ? { ...common, 'x-api-key': key, 'anthropic-version': '2023-06-01' }
    : { ...common, authorization: `Bearer ${key}` };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Whether a successful answer is what the step asked for; a sentence saying what is wrong otherwise. */
export function verify(protocol: CheckProtocol, capability: Capability, text: string, json: unknown): string | undefined {
  if (capability === 'streaming') {
    const events = sseData(text);
    if (events.length === 0) return 'the answer was not a stream of server-sent events';
    const finished =
      protocol === 'chat'
        ? events.includes('[DONE]') ||
          events.some((event) => isObject(event) && list(event.choices).some((choice) => isObject(choice) && choice.finish_reason != null))
        : protocol === 'responses'
          ? events.some((event) => isObject(event) && event.type === 'response.completed')
          : events.some((event) => isObject(event) && event.type === 'message_stop');
    return finished ? undefined : 'the stream ended without its final event';
  }
  if (!isObject(json)) return 'the answer was not JSON';
  if (protocol === 'chat') {
    const message = list(json.choices)
      .map((choice) => (isObject(choice) ? choice.message : undefined))
      .find(isObject);
    if (message === undefined) return 'the answer has no choices[0].message';
    if (capability !== 'tools') return undefined;
    const calls = list(message.tool_calls).filter(isObject);
    return calls.some((call) => isObject(call.function) && call.function.name === WEATHER.name)
      ? undefined
      : 'the answer has no call of the tool';
  }
  if (protocol === 'responses') {
    if (!Array.isArray(json.output)) return 'the answer has no output list';
    if (capability !== 'tools') return undefined;
    return json.output.some((item) => isObject(item) && item.type === 'function_call' && item.name === WEATHER.name)
      ? undefined
      : 'the answer has no function_call of the tool';
  }
  if (!Array.isArray(json.content)) return 'the answer has no content list';
  if (capability !== 'tools') return undefined;
  return json.content.some((block) => isObject(block) && block.type === 'tool_use' && block.name === WEATHER.name)
    ? undefined
    : 'the answer has no tool_use of the tool';
}

/** The error message an error answer carries, in any of the three protocols' shapes. */
export function errorMessageOf(json: unknown, text: string): string {
  if (isObject(json)) {
    const error = json.error;
    if (isObject(error) && typeof error.message === 'string') return error.message;
    if (typeof error === 'string') return error;
    if (typeof json.message === 'string') return json.message;
    if (typeof json.detail === 'string') return json.detail;
  }
  return text.trim().slice(0, 200);
}

/** The error code an error answer carries (`UNKNOWN_MODEL`, `model_not_found`, …). */
export function errorCodeOf(json: unknown): string | undefined {
  if (!isObject(json)) return undefined;
  const error = json.error;
  if (isObject(error)) {
    if (typeof error.code === 'string') return error.code;
    if (typeof error.type === 'string') return error.type;
  }
  return undefined;
}
