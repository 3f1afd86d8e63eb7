// The matrix's vocabulary: what every upstream answers, what each side can carry, how each client asks.
import type { ProviderAdapter } from '../../../src/providers/types.js';
import type { MockReply, RecordedRequest } from '../mock-upstream.js';

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
    stopSequences: {
      refused: "'stop' is not a field of the responses api: it has no stop sequences",
      note: 'no `stop` field',
      sameProtocolPassthrough: true,
    },
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
