import type {
  AssistantContentPart,
  CanonicalRequest,
  FinishReason,
  FunctionTool,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  Usage,
} from '../../canonical/index.js';
import { exampleArguments } from './example-arguments.js';

/** The text the mock model answers with unless configured otherwise. */
export const DEFAULT_MOCK_REPLY = 'Hello from Switchyard! This is the mock model answering.';

export type MockReply = string | ((request: CanonicalRequest) => string);

/** Arguments for a tool call; default: an example value per property of the tool's schema. */
export type MockToolArguments = (tool: FunctionTool) => Record<string, unknown>;

/** What the mock model will answer: the same plan feeds `generate` and `stream`. */
export interface MockPlan {
  content: AssistantContentPart[];
  finishReason: FinishReason;
  stopSequence?: string;
  usage: Usage;
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The mock's input token count: 4 characters a token over the request's JSON. */
export function countMockInputTokens(request: CanonicalRequest): number {
  return estimateTokens(JSON.stringify([request.system ?? [], request.messages, request.tools ?? []]));
}

function lastUserText(request: CanonicalRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role === 'user') {
      return message.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
    }
  }
  return '';
}

/** After tool results, the mock model reports what the tools returned. */
function defaultReply(request: CanonicalRequest): string {
  const last = request.messages.at(-1);
  if (last?.role !== 'tool') return DEFAULT_MOCK_REPLY;
  const results = last.content.map((result) => {
    const text = result.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join(' ');
    return `${result.toolCallId}: ${text}`;
  });
  return `Tool results received. ${results.join('; ')}`;
}

/** Tools the request forces the model to call, honouring `parallelToolCalls: false`. */
function forcedTools(request: CanonicalRequest): FunctionTool[] {
  const functions = (request.tools ?? []).filter((tool): tool is FunctionTool => tool.type === 'function');
  const choice = request.toolChoice;
  if (!choice || functions.length === 0) return [];
  if (choice.type === 'tool') return functions.filter((tool) => tool.name === choice.name).slice(0, 1);
  if (choice.type !== 'required') return [];
  const allowed = choice.allowedTools;
  const candidates = allowed ? functions.filter((tool) => allowed.includes(tool.name)) : functions;
  return request.parallelToolCalls === false ? candidates.slice(0, 1) : candidates;
}

function reasoningPart(request: CanonicalRequest): ReasoningPart | undefined {
  const config = request.reasoning;
  if (!config || config.mode === 'disabled' || config.effort === 'none') return undefined;
  const thought = `The user asked: "${lastUserText(request).slice(0, 60)}". I will answer plainly.`;
  const signature = `mock-signature-${estimateTokens(thought)}-${request.messages.length}`;
  return { type: 'reasoning', text: config.display === 'omitted' ? '' : thought, signature };
}

/** Cuts text at the first stop sequence and at the output token budget. */
function limitText(text: string, request: CanonicalRequest, budget: number | undefined) {
  let limited = text;
  let stopSequence: string | undefined;
  for (const sequence of request.stopSequences ?? []) {
    const at = sequence === '' ? -1 : limited.indexOf(sequence);
    if (at >= 0) {
      limited = limited.slice(0, at);
      stopSequence = sequence;
    }
  }
  if (budget !== undefined && estimateTokens(limited) > budget) {
    return {
      text: Array.from(limited)
        .slice(0, budget * 4)
        .join(''),
      truncated: true,
      stopSequence: undefined,
    };
  }
  return { text: limited, truncated: false, stopSequence };
}

export function planMockReply(
  request: CanonicalRequest,
  reply: MockReply | undefined,
  toolArguments: MockToolArguments = (tool) => exampleArguments(tool.parameters),
): MockPlan {
  const content: AssistantContentPart[] = [];
  const reasoning = reasoningPart(request);
  if (reasoning) content.push(reasoning);
  const reasoningTokens = reasoning ? estimateTokens(reasoning.text) : undefined;

  const tools = forcedTools(request);
  const calls: ToolCallPart[] = tools.map((tool, index) => ({
    type: 'tool-call',
    id: `call_mock_${request.messages.length}_${index}`,
    name: tool.name,
    arguments: JSON.stringify(toolArguments(tool)),
    ...(tool.namespace === undefined ? {} : { namespace: tool.namespace }),
  }));

  let finishReason: FinishReason = { unified: 'stop', raw: 'stop' };
  let stopSequence: string | undefined;
  if (calls.length > 0) {
    content.push(...calls);
    finishReason = { unified: 'tool-calls', raw: 'tool_calls' };
  } else {
    const wanted = typeof reply === 'function' ? reply(request) : (reply ?? defaultReply(request));
    const budget = request.maxOutputTokens === undefined ? undefined : request.maxOutputTokens - (reasoningTokens ?? 0);
    const limited = limitText(wanted, request, budget === undefined ? undefined : Math.max(0, budget));
    if (limited.text.length > 0) content.push({ type: 'text', text: limited.text } satisfies TextPart);
    if (limited.truncated) finishReason = { unified: 'length', raw: 'length' };
    stopSequence = limited.stopSequence;
  }

  const outputText = content
    .map((part) => (part.type === 'text' || part.type === 'reasoning' ? part.text : part.type === 'tool-call' ? part.arguments : ''))
    .join('');
  const inputTokens = countMockInputTokens(request);
  const outputTokens = Math.max(1, estimateTokens(outputText));
  return {
    content,
    finishReason,
    ...(stopSequence === undefined ? {} : { stopSequence }),
    usage: {
      inputTokens,
      outputTokens,
      cachedInputTokens: 0,
      reasoningTokens: reasoningTokens ?? 0,
      totalTokens: inputTokens + outputTokens,
    },
  };
}
