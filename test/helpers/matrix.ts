import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ProviderAdapter } from '../../src/providers/types.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from './mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from './start-gateway.js';

/** What every matrix upstream answers, in canonical terms. */
export const MATRIX = {
  system: 'You are a weather bot.',
  question: 'What is the weather in Paris?',
  /** Multi-byte on purpose: split SSE must not break it. */
  text: 'Sunny over Paris — 21 °C ☀️',
  afterToolText: 'It is sunny, 21 °C.',
  toolName: 'get_weather',
  toolArguments: { city: 'Paris' },
  toolResult: 'sunny, 21 C',
  /** The second of two parallel calls, and its result. */
  secondToolArguments: { city: 'London' },
  secondToolResult: 'rainy, 14 C',
  /** Earlier turns of the multi-turn cell, user first, in order; MATRIX.question follows them. */
  history: ['I am planning a trip.', 'Where would you like to go?', 'France, in June.', 'June is a lovely month for Paris.'],
  /** The upstream's reasoning text (thinking), multi-byte too. */
  reasoning: 'The user wants Paris — check the forecast first.',
  stop: ['END', '\n\nObservation:'],
  maxTokens: 77,
  /** The JSON-schema cell's schema, and the JSON text the upstream answers with. */
  schema: {
    type: 'object',
    properties: { city: { type: 'string' }, celsius: { type: 'number' } },
    required: ['city', 'celsius'],
    additionalProperties: false,
  },
  jsonText: '{"city":"Paris","celsius":21}',
  /** Canonical usage of every answer: input includes the cached part; output includes reasoning (when there is some). */
  usage: { input: 42, cached: 10, output: 9, reasoning: 4 },
  /** A 1×1 PNG. */
  pngBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  imageUrl: 'https://example.com/cat.png',
} as const;

export type Inbound = 'chat' | 'responses' | 'messages';
export const INBOUNDS: readonly Inbound[] = ['chat', 'responses', 'messages'];

/** An answer in canonical terms; each upstream renders it on its own wire (with its own ids and signatures). */
export interface MatrixAnswer {
  /** Reasoning (MATRIX.reasoning) first, signed the upstream's way; usage then reports MATRIX.usage.reasoning. */
  reasoning?: boolean;
  text?: string;
  /** Calls of MATRIX.toolName with these arguments, ids `toolCallIds[i]`. */
  toolCalls?: ReadonlyArray<Readonly<Record<string, string>>>;
  /**
   * `length`: cut off by the output limit; `stop-sequence`: stopped at MATRIX.stop[0] (said so
   * where the wire can). Default: a normal stop (a tool-call stop with calls).
   */
  finish?: 'stop' | 'length' | 'stop-sequence';
}

export type ToolChoiceForm = 'auto' | 'required' | 'named' | 'none';
export const TOOL_CHOICE_FORMS: readonly ToolChoiceForm[] = ['auto', 'required', 'named', 'none'];

/** `true`, or the gateway must answer a 400 whose message contains `refused` (and call no upstream). */
export type Support = true | { refused: string };

/** What an upstream can carry. Every cell runs: an unsupported one asserts the 400. */
export interface UpstreamSupport {
  toolChoice: Readonly<Record<ToolChoiceForm, Support>>;
  stopSequences: Support;
  jsonSchema: Support;
  /** JSON mode without a schema (Chat `json_object`, Responses `text.format: json_object`). */
  jsonObject: Support;
  reasoning: Support;
  /** The upstream says which stop sequence fired (a Messages client then gets `stop_sequence` and the text). */
  reportsStopSequence: boolean;
  /** The upstream reports reasoning tokens in its usage. */
  reasoningTokens: boolean;
  /**
   * Whether the upstream's reasoning state (Anthropic signature, OpenAI encrypted reasoning,
   * Gemini thought signature) goes back to it on the next turn; `n/a`: nothing to send back.
   * What exactly arrives, per client, is `expect.replayedReasoning`.
   */
  reasoningReplay: true | 'n/a';
}

/** What one parallel-tool follow-up looked like on the upstream's wire. */
export interface ToolTurn {
  /** The wire messages/items that carry the calls and results, e.g. `assistant[tool_use,tool_use] user[tool_result,tool_result]`. */
  shape: string;
  /** Calls replayed, ids as the client saw them. */
  calls: Array<{ id: string; arguments: unknown }>;
  /** Results, in order, ids as the client sent them. */
  results: Array<{ id: string; text: string }>;
}

/** The rows of the README feature table; `notes` of an upstream are keyed by them. */
export type MatrixFeature =
  | 'text'
  | 'multiTurn'
  | 'tools'
  | 'parallelTools'
  | 'toolChoiceAuto'
  | 'toolChoiceRequired'
  | 'toolChoiceNamed'
  | 'toolChoiceNone'
  | 'stopSequences'
  | 'maxTokens'
  | 'jsonSchema'
  | 'jsonObject'
  | 'reasoning'
  | 'reasoningTokens'
  | 'reasoningReplay'
  | 'images';

export interface MatrixUpstream {
  /** Shown in test names, e.g. `openai-compatible-vllm`. */
  name: string;
  /** The README column, e.g. `vLLM`. */
  label: string;
  /** The wire protocol the upstream speaks, when it is one of the gateway's (same as its adapter's `protocol`). */
  protocol?: Inbound;
  /** Short notes for the README cells, e.g. the upstream's field for a feature. */
  notes?: Partial<Record<MatrixFeature, string>>;
  createAdapter(upstreamUrl: string): ProviderAdapter;
  upstreamModel: string;
  /** Whether a recorded upstream request asked for a stream. */
  isStream(request: RecordedRequest): boolean;
  /** The upstream's wire reply for `answer`. */
  reply(answer: MatrixAnswer, stream: boolean): MockReply;
  /** The ids the client must see for the first and second call of an answer. */
  toolCallIds: readonly [string, string];
  supports: UpstreamSupport;
  /** What the upstream must receive, on its own wire. */
  expect: {
    /** `read.toolChoice` for each supported form (MATRIX.toolName for the named one). */
    toolChoice: Partial<Record<ToolChoiceForm, unknown>>;
    /** `read.reasoning` when each client asks for reasoning (see `askForReasoning`). */
    reasoning: Partial<Record<Inbound, unknown>>;
    /** `read.responseFormat` (matched as a subset) for a JSON schema and, when supported, JSON mode. */
    jsonSchema?: unknown;
    jsonObject?: unknown;
    /** `read.toolTurn(...).shape` of the parallel-tool follow-up. */
    parallelShape: string;
    /** `read.replayedReasoning` of the follow-up after a reasoning + tool-call answer, per client. */
    replayedReasoning: Record<Inbound, unknown>;
  };
  /** Reads what the upstream received. */
  read: {
    systemText(body: unknown): string;
    toolNames(body: unknown): string[];
    /** The tool result in a follow-up request: its call id (if the wire has one) and text. */
    toolResult(body: unknown): { id?: string; text: string } | undefined;
    /** Images in the last user turn: `url` or `base64` each. */
    images(body: unknown): Array<'url' | 'base64'>;
    /** The conversation's text turns in order (system and tool traffic left out). */
    turns(body: unknown): Array<{ role: 'user' | 'assistant'; text: string }>;
    /** The calls of the last assistant turn and the results after it. */
    toolTurn(body: unknown): ToolTurn;
    toolChoice(body: unknown): unknown;
    stopSequences(body: unknown): unknown;
    maxTokens(body: unknown): unknown;
    /** The upstream's own structured-output field(s). */
    responseFormat(body: unknown): unknown;
    /** The upstream's own reasoning configuration. */
    reasoning(body: unknown): unknown;
    /** The reasoning state sent back in the last assistant turn (byte-exact where it is opaque). */
    replayedReasoning(body: unknown): unknown;
  };
  /** Image URLs the upstream cannot take (they are refused with a 400 instead). */
  refusesImageUrls?: boolean;
}

/**
 * A feature the caller's protocol has no field for: sent anyway, it is a 400 whose message
 * contains `refused` — unless `sameProtocolPassthrough`: then an upstream speaking the caller's
 * protocol gets the field as sent (unknown fields are carried verbatim there) and decides itself.
 */
export type InboundSupport = true | { refused: string; note: string; sameProtocolPassthrough?: boolean };

/** What each inbound protocol can ask for. */
export const INBOUND_SUPPORT: Readonly<
  Record<Inbound, { label: string; stopSequences: InboundSupport; jsonObject: InboundSupport; signatureCarrier: string }>
> = {
  chat: { label: 'Chat', stopSequences: true, jsonObject: true, signatureCarrier: '`thinking_blocks`' },
  responses: {
    label: 'Responses',
    stopSequences: { refused: "the 'stop' field", note: 'no `stop` field', sameProtocolPassthrough: true },
    jsonObject: true,
    signatureCarrier: '`encrypted_content`',
  },
  messages: {
    label: 'Messages',
    stopSequences: true,
    jsonObject: { refused: 'output_config.format.type', note: 'no such mode' },
    signatureCarrier: 'native `thinking` blocks',
  },
};

/** How each client asks for reasoning in the reasoning cells. */
export const REASONING_REQUEST = {
  chat: { reasoning_effort: 'high' },
  responses: { reasoning: { effort: 'high', summary: 'auto' } },
  messages: { thinking: { type: 'enabled', budget_tokens: 4096 }, max_tokens: 8192 },
} as const;

interface Turn {
  text: string;
  reasoning: string;
  toolCalls: Array<{ id: string; name: string; arguments: unknown }>;
  /** Chat `finish_reason`, Responses `status[/incomplete reason]`, Messages `stop_reason`. */
  finish: string;
  /** Messages `stop_sequence`; `null` elsewhere. */
  stopSequence: string | null;
  usage: { input: number; output: number; cached: number; reasoning: number };
}

/** Per-call options: the features a cell switches on, in the caller's own words. */
interface Ask {
  tools?: boolean;
  toolChoice?: ToolChoiceForm;
  stop?: boolean;
  maxTokens?: boolean;
  format?: 'json-schema' | 'json-object';
  reasoning?: boolean;
}

type Body = Record<string, unknown>;

const toolParameters = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;

function chatFields(ask: Ask): Body {
  const choice = { auto: 'auto', required: 'required', none: 'none', named: { type: 'function', function: { name: MATRIX.toolName } } };
  return {
    ...(ask.tools ? { tools: [{ type: 'function', function: { name: MATRIX.toolName, parameters: toolParameters } }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    ...(ask.stop ? { stop: [...MATRIX.stop] } : {}),
    ...(ask.maxTokens ? { max_completion_tokens: MATRIX.maxTokens } : {}),
    ...(ask.format === 'json-schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: 'weather', schema: MATRIX.schema, strict: true } } }
      : ask.format === 'json-object'
        ? { response_format: { type: 'json_object' } }
        : {}),
    ...(ask.reasoning ? REASONING_REQUEST.chat : {}),
  };
}

function responsesFields(ask: Ask): Body {
  const choice = { auto: 'auto', required: 'required', none: 'none', named: { type: 'function', name: MATRIX.toolName } };
  return {
    ...(ask.tools ? { tools: [{ type: 'function', name: MATRIX.toolName, parameters: toolParameters, strict: false }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    // Responses has no stop field: a client that sends one anyway.
    ...(ask.stop ? { stop: [...MATRIX.stop] } : {}),
    ...(ask.maxTokens ? { max_output_tokens: MATRIX.maxTokens } : {}),
    ...(ask.format === 'json-schema'
      ? { text: { format: { type: 'json_schema', name: 'weather', schema: MATRIX.schema, strict: true } } }
      : ask.format === 'json-object'
        ? { text: { format: { type: 'json_object' } } }
        : {}),
    ...(ask.reasoning ? REASONING_REQUEST.responses : {}),
  };
}

function messagesFields(ask: Ask): Body {
  const choice = { auto: { type: 'auto' }, required: { type: 'any' }, none: { type: 'none' }, named: { type: 'tool', name: MATRIX.toolName } };
  return {
    max_tokens: 1024,
    ...(ask.tools ? { tools: [{ name: MATRIX.toolName, input_schema: toolParameters }] } : {}),
    ...(ask.toolChoice ? { tool_choice: choice[ask.toolChoice] } : {}),
    ...(ask.stop ? { stop_sequences: [...MATRIX.stop] } : {}),
    ...(ask.format === 'json-schema' ? { output_config: { format: { type: 'json_schema', schema: MATRIX.schema } } } : {}),
    // Messages has no JSON mode without a schema: a client that asks for one anyway.
    ...(ask.format === 'json-object' ? { output_config: { format: { type: 'json_object' } } } : {}),
    ...(ask.reasoning ? REASONING_REQUEST.messages : {}),
    ...(ask.maxTokens ? { max_tokens: MATRIX.maxTokens } : {}),
  };
}

/** One official client per inbound protocol, folded to the same shape. */
function createClients(gateway: RunningGateway) {
  const openai = new OpenAI({ apiKey: TEST_KEY, baseURL: gateway.openAIBaseURL, maxRetries: 0 });
  const anthropic = new Anthropic({ apiKey: TEST_KEY, baseURL: gateway.root, maxRetries: 0 });

  async function chat(model: string, stream: boolean, messages: OpenAI.Chat.ChatCompletionMessageParam[], ask: Ask = {}) {
    const body = { model, messages, ...chatFields(ask) } as OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
    let streamedReasoning = '';
    let completion: OpenAI.Chat.ChatCompletion;
    if (stream) {
      const events = openai.chat.completions.stream({ ...body, stream: true, stream_options: { include_usage: true } });
      // The SDK keeps only the last `reasoning_content` fragment; a real client adds them up.
      for await (const chunk of events) {
        const delta = chunk.choices[0]?.delta as { reasoning_content?: string } | undefined;
        streamedReasoning += delta?.reasoning_content ?? '';
      }
      completion = await events.finalChatCompletion();
    } else {
      completion = await openai.chat.completions.create(body);
    }
    const message = completion.choices[0]?.message as (OpenAI.Chat.ChatCompletionMessage & { reasoning_content?: string }) | undefined;
    if (message !== undefined && stream && streamedReasoning !== '') message.reasoning_content = streamedReasoning;
    const details = completion.usage?.completion_tokens_details;
    const turn: Turn = {
      text: message?.content ?? '',
      reasoning: message?.reasoning_content ?? '',
      toolCalls: (message?.tool_calls ?? []).flatMap((call) =>
        call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: JSON.parse(call.function.arguments) }] : [],
      ),
      finish: completion.choices[0]?.finish_reason ?? '',
      stopSequence: null,
      usage: {
        input: completion.usage?.prompt_tokens ?? -1,
        output: completion.usage?.completion_tokens ?? -1,
        cached: completion.usage?.prompt_tokens_details?.cached_tokens ?? -1,
        reasoning: details?.reasoning_tokens ?? -1,
      },
    };
    return { turn, message };
  }

  async function responses(model: string, stream: boolean, input: OpenAI.Responses.ResponseInput, ask: Ask = {}) {
    const body = { model, input, instructions: MATRIX.system, ...responsesFields(ask) };
    const response = stream
      ? await openai.responses.stream(body as OpenAI.Responses.ResponseCreateParamsStreaming).finalResponse()
      : await openai.responses.create(body as OpenAI.Responses.ResponseCreateParamsNonStreaming);
    const turn: Turn = {
      text: response.output_text,
      reasoning: response.output
        .flatMap((item) =>
          item.type === 'reasoning' ? [...item.summary.map((part) => part.text), ...(item.content ?? []).map((part) => part.text)] : [],
        )
        .join(''),
      toolCalls: response.output.flatMap((item) =>
        item.type === 'function_call' ? [{ id: item.call_id, name: item.name, arguments: JSON.parse(item.arguments) }] : [],
      ),
      finish: [response.status ?? '', response.incomplete_details?.reason ?? ''].filter((word) => word !== '').join('/'),
      stopSequence: null,
      usage: {
        input: response.usage?.input_tokens ?? -1,
        output: response.usage?.output_tokens ?? -1,
        cached: response.usage?.input_tokens_details.cached_tokens ?? -1,
        reasoning: response.usage?.output_tokens_details.reasoning_tokens ?? -1,
      },
    };
    return { turn, output: response.output };
  }

  async function messages(model: string, stream: boolean, history: Anthropic.MessageParam[], ask: Ask = {}) {
    const body = { model, system: MATRIX.system, messages: history, ...messagesFields(ask) } as Anthropic.MessageCreateParamsNonStreaming;
    const message = stream ? await anthropic.messages.stream(body).finalMessage() : await anthropic.messages.create(body);
    const usage = message.usage as Anthropic.Usage & { output_tokens_details?: { thinking_tokens?: number } | null };
    const turn: Turn = {
      text: message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join(''),
      reasoning: message.content.flatMap((block) => (block.type === 'thinking' ? [block.thinking] : [])).join(''),
      toolCalls: message.content.flatMap((block) => (block.type === 'tool_use' ? [{ id: block.id, name: block.name, arguments: block.input }] : [])),
      finish: message.stop_reason ?? '',
      stopSequence: message.stop_sequence,
      usage: {
        // Anthropic input excludes the cache: add it back to compare in canonical terms.
        input: usage.input_tokens + (usage.cache_read_input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0),
        output: usage.output_tokens,
        cached: usage.cache_read_input_tokens ?? -1,
        reasoning: usage.output_tokens_details?.thinking_tokens ?? -1,
      },
    };
    return { turn, content: message.content };
  }

  /** A question (after `history` turns, if any), with the features of `ask`. */
  async function ask(inbound: Inbound, model: string, stream: boolean, options: Ask = {}, history: readonly string[] = []): Promise<Turn> {
    const roleOf = (index: number) => (index % 2 === 0 ? ('user' as const) : ('assistant' as const));
    if (inbound === 'chat') {
      const earlier = history.map((text, index): OpenAI.Chat.ChatCompletionMessageParam => ({ role: roleOf(index), content: text }));
      const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: MATRIX.system },
        ...earlier,
        { role: 'user', content: MATRIX.question },
      ];
      return (await chat(model, stream, messages, options)).turn;
    }
    if (inbound === 'responses') {
      const earlier = history.map((text, index): OpenAI.Responses.ResponseInputItem => ({ role: roleOf(index), content: text }));
      return (await responses(model, stream, [...earlier, { role: 'user', content: MATRIX.question }], options)).turn;
    }
    const earlier = history.map((text, index): Anthropic.MessageParam => ({ role: roleOf(index), content: text }));
    return (await messages(model, stream, [...earlier, { role: 'user', content: MATRIX.question }], options)).turn;
  }

  /**
   * A question with the tool; every call of the answer gets a result (`results[i]`) and the
   * conversation goes back whole, as the client returned it (reasoning included).
   */
  async function toolRoundTrip(
    inbound: Inbound,
    model: string,
    stream: boolean,
    results: readonly string[] = [MATRIX.toolResult],
    options: Ask = {},
  ): Promise<{ first: Turn; second: Turn }> {
    const ask: Ask = { ...options, tools: true };
    if (inbound === 'chat') {
      const history: OpenAI.Chat.ChatCompletionMessageParam[] = [
        { role: 'system', content: MATRIX.system },
        { role: 'user', content: MATRIX.question },
      ];
      const first = await chat(model, stream, history, ask);
      history.push(first.message!);
      first.turn.toolCalls.forEach((call, index) => history.push({ role: 'tool', tool_call_id: call.id, content: results[index] ?? '' }));
      return { first: first.turn, second: (await chat(model, stream, history, ask)).turn };
    }
    if (inbound === 'responses') {
      const input: OpenAI.Responses.ResponseInput = [{ role: 'user', content: MATRIX.question }];
      const first = await responses(model, stream, input, ask);
      input.push(...(first.output as OpenAI.Responses.ResponseInputItem[]));
      first.turn.toolCalls.forEach((call, index) =>
        input.push({ type: 'function_call_output', call_id: call.id, output: results[index] ?? '' }),
      );
      return { first: first.turn, second: (await responses(model, stream, input, ask)).turn };
    }
    const history: Anthropic.MessageParam[] = [{ role: 'user', content: MATRIX.question }];
    const first = await messages(model, stream, history, ask);
    history.push(
      { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] },
      {
        role: 'user',
        content: first.turn.toolCalls.map((call, index) => ({ type: 'tool_result' as const, tool_use_id: call.id, content: results[index] ?? '' })),
      },
    );
    return { first: first.turn, second: (await messages(model, stream, history, ask)).turn };
  }

  /** A question with a base64 image and, unless skipped, an image URL. */
  async function askWithImages(inbound: Inbound, model: string, withUrl: boolean): Promise<Turn> {
    const data = `data:image/png;base64,${MATRIX.pngBase64}`;
    if (inbound === 'chat') {
      const parts: OpenAI.Chat.ChatCompletionContentPart[] = [
        { type: 'text', text: 'What is in these pictures?' },
        { type: 'image_url', image_url: { url: data } },
        ...(withUrl ? [{ type: 'image_url' as const, image_url: { url: MATRIX.imageUrl } }] : []),
      ];
      return (await chat(model, false, [{ role: 'user', content: parts }])).turn;
    }
    if (inbound === 'responses') {
      const parts: OpenAI.Responses.ResponseInputContent[] = [
        { type: 'input_text', text: 'What is in these pictures?' },
        { type: 'input_image', image_url: data, detail: 'auto' },
        ...(withUrl ? [{ type: 'input_image' as const, image_url: MATRIX.imageUrl, detail: 'auto' as const }] : []),
      ];
      return (await responses(model, false, [{ role: 'user', content: parts }])).turn;
    }
    const blocks: Anthropic.ContentBlockParam[] = [
      { type: 'text', text: 'What is in these pictures?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: MATRIX.pngBase64 } },
      ...(withUrl ? [{ type: 'image' as const, source: { type: 'url' as const, url: MATRIX.imageUrl } }] : []),
    ];
    return (await messages(model, false, [{ role: 'user', content: blocks }])).turn;
  }

  return { ask, toolRoundTrip, askWithImages };
}

/** Each client's words for a normal stop, a tool-call stop, and an answer cut off by the output limit. */
export const FINISH_WORDS: Readonly<Record<Inbound, { stop: string; tool: string; length: string }>> = {
  chat: { stop: 'stop', tool: 'tool_calls', length: 'length' },
  responses: { stop: 'completed', tool: 'completed', length: 'incomplete/max_output_tokens' },
  messages: { stop: 'end_turn', tool: 'tool_use', length: 'max_tokens' },
};

/**
 * The 400 a cell must get, if any: the caller's protocol cannot say it (unless the field goes
 * verbatim to an upstream of that protocol), or the upstream cannot carry it.
 */
export function refusalFor(inbound: InboundSupport, upstream: Support, sameProtocol: boolean): { refused: string } | undefined {
  if (inbound !== true) return inbound.sameProtocolPassthrough && sameProtocol ? undefined : inbound;
  return upstream === true ? undefined : upstream;
}

/** Asserts a refused request: a 400 whose message names the feature, and no upstream call. */
async function expectRefusal(attempt: Promise<unknown>, support: { refused: string }, mock: MockUpstream): Promise<void> {
  const error = await attempt.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the gateway must refuse with a 400').toBeDefined();
  expect((error as { status?: number }).status).toBe(400);
  expect(String((error as Error).message).toLowerCase()).toContain(support.refused.toLowerCase());
  expect(mock.requests).toHaveLength(0);
}

/**
 * The e2e matrix for one upstream: each official client (openai for Chat and Responses,
 * @anthropic-ai/sdk for Messages) × streaming and not, through the gateway to `upstream`
 * played by a mock server. Every cell checks what the client got and what the upstream
 * received; a feature the upstream cannot carry (`upstream.supports`) asserts the 400 instead.
 */
export function runMatrix(upstream: MatrixUpstream): void {
  describe(`matrix: every client → ${upstream.name}`, () => {
    let mock: MockUpstream;
    let gateway: RunningGateway;
    let clients: ReturnType<typeof createClients>;
    const model = `${upstream.name}-model`;
    const { supports } = upstream;

    beforeAll(async () => {
      mock = await startMockUpstream();
      const adapter = upstream.createAdapter(mock.url);
      expect(adapter.protocol).toBe(upstream.protocol);
      gateway = await startGateway({
        providers: { upstream: adapter },
        models: [{ id: model, provider: 'upstream', upstreamModel: upstream.upstreamModel }],
      });
      clients = createClients(gateway);
    });
    afterAll(async () => {
      await gateway.close();
      await mock.close();
    });
    beforeEach(() => {
      mock.requests.length = 0;
    });

    /** The mock's replies, in order: each rendered for the stream mode of the request it answers. */
    const script = (...answers: MatrixAnswer[]) =>
      mock.reply(...answers.map((answer) => (request: RecordedRequest) => upstream.reply(answer, upstream.isStream(request))));
    const received = (index = 0) => mock.requests[index]!.body;

    for (const inbound of INBOUNDS) {
      const words = FINISH_WORDS[inbound];
      for (const stream of [false, true]) {
        const mode = stream ? 'streaming' : 'non-streaming';

        it(`should answer ${inbound} (${mode}) with text, finish reason and usage`, async () => {
          script({ text: MATRIX.text });
          const turn = await clients.ask(inbound, model, stream);
          expect(turn.text).toBe(MATRIX.text);
          expect(turn.finish).toBe(words.stop);
          expect(turn.usage).toMatchObject({ input: MATRIX.usage.input, output: MATRIX.usage.output, cached: MATRIX.usage.cached });
          const request = mock.requests[0]!;
          expect(upstream.isStream(request)).toBe(stream);
          expect(upstream.read.systemText(request.body)).toContain(MATRIX.system);
          expect(request.headers.authorization ?? '').not.toContain(TEST_KEY);
          expect(request.headers['x-api-key'] ?? '').not.toContain(TEST_KEY);
        });

        it(`should complete a tool round trip from ${inbound} (${mode})`, async () => {
          script({ toolCalls: [MATRIX.toolArguments] }, { text: MATRIX.afterToolText });
          const { first, second } = await clients.toolRoundTrip(inbound, model, stream);
          expect(first.toolCalls).toHaveLength(1);
          const call = first.toolCalls[0]!;
          expect(call.id).toBe(upstream.toolCallIds[0]);
          expect(call.name).toBe(MATRIX.toolName);
          expect(call.arguments).toEqual(MATRIX.toolArguments);
          expect(first.finish).toBe(words.tool);
          expect(second.text).toBe(MATRIX.afterToolText);
          expect(second.finish).toBe(words.stop);

          expect(upstream.read.toolNames(received(0))).toEqual([MATRIX.toolName]);
          const result = upstream.read.toolResult(received(1));
          expect(result?.text).toContain(MATRIX.toolResult);
          if (result?.id !== undefined) expect(result.id).toBe(upstream.toolCallIds[0]);
        });

        it(`should pass two parallel tool calls and both results from ${inbound} (${mode})`, async () => {
          script({ toolCalls: [MATRIX.toolArguments, MATRIX.secondToolArguments] }, { text: MATRIX.afterToolText });
          const { first, second } = await clients.toolRoundTrip(inbound, model, stream, [MATRIX.toolResult, MATRIX.secondToolResult]);
          expect(first.toolCalls).toEqual([
            { id: upstream.toolCallIds[0], name: MATRIX.toolName, arguments: MATRIX.toolArguments },
            { id: upstream.toolCallIds[1], name: MATRIX.toolName, arguments: MATRIX.secondToolArguments },
          ]);
          expect(first.finish).toBe(words.tool);
          expect(second.text).toBe(MATRIX.afterToolText);

          const turn = upstream.read.toolTurn(received(1));
          expect(turn.shape).toBe(upstream.expect.parallelShape);
          expect(turn.calls).toEqual([
            { id: upstream.toolCallIds[0], arguments: MATRIX.toolArguments },
            { id: upstream.toolCallIds[1], arguments: MATRIX.secondToolArguments },
          ]);
          expect(turn.results).toEqual([
            { id: upstream.toolCallIds[0], text: MATRIX.toolResult },
            { id: upstream.toolCallIds[1], text: MATRIX.secondToolResult },
          ]);
        });

        it(`should send max tokens from ${inbound} (${mode}) and report a cut-off answer as ${words.length}`, async () => {
          script({ text: MATRIX.text, finish: 'length' });
          const turn = await clients.ask(inbound, model, stream, { maxTokens: true });
          expect(turn.text).toBe(MATRIX.text);
          expect(turn.finish).toBe(words.length);
          expect(upstream.read.maxTokens(received())).toBe(MATRIX.maxTokens);
        });

        it(`should send stop sequences from ${inbound} (${mode}) and report a stop at one`, async () => {
          script({ text: MATRIX.text, finish: 'stop-sequence' });
          const attempt = clients.ask(inbound, model, stream, { stop: true });
          const refusal = refusalFor(INBOUND_SUPPORT[inbound].stopSequences, supports.stopSequences, upstream.protocol === inbound);
          if (refusal !== undefined) return expectRefusal(attempt, refusal, mock);
          const turn = await attempt;
          expect(turn.text).toBe(MATRIX.text);
          expect(upstream.read.stopSequences(received())).toEqual(MATRIX.stop);
          // Only Messages has a word for it, and only an upstream that says which sequence fired fills it in.
          const named = inbound === 'messages' && supports.reportsStopSequence;
          expect(turn.finish).toBe(named ? 'stop_sequence' : words.stop);
          expect(turn.stopSequence).toBe(named ? MATRIX.stop[0] : null);
        });

        it(`should ask for reasoning from ${inbound} (${mode}) and return it with its token count`, async () => {
          script({ reasoning: true, text: MATRIX.text });
          const attempt = clients.ask(inbound, model, stream, { reasoning: true });
          if (supports.reasoning !== true) return expectRefusal(attempt, supports.reasoning, mock);
          const turn = await attempt;
          expect(upstream.read.reasoning(received())).toEqual(upstream.expect.reasoning[inbound]);
          expect(turn.reasoning).toBe(MATRIX.reasoning);
          expect(turn.text).toBe(MATRIX.text);
          expect(turn.finish).toBe(words.stop);
          expect(turn.usage.output).toBe(MATRIX.usage.output);
          if (supports.reasoningTokens) expect(turn.usage.reasoning).toBe(MATRIX.usage.reasoning);
        });

        it(`should carry reasoning through a tool round trip from ${inbound} via ${INBOUND_SUPPORT[inbound].signatureCarrier} (${mode})`, async () => {
          script({ reasoning: true, toolCalls: [MATRIX.toolArguments] }, { text: MATRIX.afterToolText });
          const attempt = clients.toolRoundTrip(inbound, model, stream, [MATRIX.toolResult], { reasoning: true });
          if (supports.reasoning !== true) return expectRefusal(attempt, supports.reasoning, mock);
          const { first, second } = await attempt;
          expect(first.reasoning).toBe(MATRIX.reasoning);
          expect(first.toolCalls.map((call) => call.id)).toEqual([upstream.toolCallIds[0]]);
          expect(second.text).toBe(MATRIX.afterToolText);
          expect(upstream.read.replayedReasoning(received(1))).toEqual(upstream.expect.replayedReasoning[inbound]);
          // Reasoning never leaks into the answer text sent back (mapping pitfall 23).
          expect(upstream.read.turns(received(1)).map((turn) => turn.text).join('')).not.toContain(MATRIX.reasoning);
        });
      }

      it(`should translate a multi-turn history from ${inbound} in order`, async () => {
        script({ text: MATRIX.text });
        const turn = await clients.ask(inbound, model, false, {}, MATRIX.history);
        expect(turn.text).toBe(MATRIX.text);
        const expected = [...MATRIX.history, MATRIX.question].map((text, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', text }));
        expect(upstream.read.turns(received())).toEqual(expected);
        expect(upstream.read.systemText(received())).toContain(MATRIX.system);
      });

      for (const form of TOOL_CHOICE_FORMS) {
        it(`should send tool choice '${form}' from ${inbound}`, async () => {
          script({ text: MATRIX.text });
          const attempt = clients.ask(inbound, model, false, { tools: true, toolChoice: form });
          const support = supports.toolChoice[form];
          if (support !== true) return expectRefusal(attempt, support, mock);
          expect((await attempt).text).toBe(MATRIX.text);
          expect(upstream.read.toolChoice(received())).toEqual(upstream.expect.toolChoice[form]);
        });
      }


      it(`should send a JSON schema from ${inbound} in the upstream's own field`, async () => {
        script({ text: MATRIX.jsonText });
        const attempt = clients.ask(inbound, model, false, { format: 'json-schema' });
        if (supports.jsonSchema !== true) return expectRefusal(attempt, supports.jsonSchema, mock);
        expect(JSON.parse((await attempt).text)).toEqual({ city: 'Paris', celsius: 21 });
        expect(upstream.read.responseFormat(received())).toMatchObject(upstream.expect.jsonSchema as object);
      });

      it(`should send JSON mode without a schema from ${inbound}`, async () => {
        script({ text: MATRIX.jsonText });
        const attempt = clients.ask(inbound, model, false, { format: 'json-object' });
        const refusal = refusalFor(INBOUND_SUPPORT[inbound].jsonObject, supports.jsonObject, upstream.protocol === inbound);
        if (refusal !== undefined) return expectRefusal(attempt, refusal, mock);
        expect(JSON.parse((await attempt).text)).toEqual({ city: 'Paris', celsius: 21 });
        expect(upstream.read.responseFormat(received())).toEqual(upstream.expect.jsonObject);
      });

      it(`should carry images from ${inbound}`, async () => {
        script({ text: MATRIX.text });
        const withUrl = !upstream.refusesImageUrls;
        const turn = await clients.askWithImages(inbound, model, withUrl);
        expect(turn.text).toBe(MATRIX.text);
        expect(upstream.read.images(received())).toEqual(withUrl ? ['base64', 'url'] : ['base64']);
      });

      if (upstream.refusesImageUrls) {
        it(`should refuse an image URL from ${inbound} with a 400 naming it`, async () => {
          await expectRefusal(clients.askWithImages(inbound, model, true), { refused: 'image' }, mock);
        });
      }
    }
  });
}
