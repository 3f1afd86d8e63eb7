import fc from 'fast-check';
import type {
  AssistantMessage,
  CanonicalMessage,
  CanonicalRequest,
  FunctionTool,
  ToolCallPart,
  ToolMessage,
  UserMessage,
} from '../../src/canonical/index.js';

/** Non-empty text without surrounding spaces (protocols reject empty text blocks). */
const text = fc
  .string({ minLength: 1, maxLength: 40, unit: fc.constantFrom('a', 'b', 'é', ' ', '☀', '\n', '"', '{', '1') })
  .map((value) => value.trim())
  .filter((value) => value.length > 0);

const toolName = fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/);
const callId = fc.stringMatching(/^call_[A-Za-z0-9]{4,12}$/);

const jsonArguments = fc
  .dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean()), { maxKeys: 3 })
  .map((value) => JSON.stringify(value));

const tool: fc.Arbitrary<FunctionTool> = fc.record({
  type: fc.constant('function' as const),
  name: toolName,
  description: text,
  parameters: fc.constant({ type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }),
});

const user: fc.Arbitrary<UserMessage> = fc.record({
  role: fc.constant('user' as const),
  content: fc.array(
    text.map((value) => ({ type: 'text' as const, text: value })),
    { minLength: 1, maxLength: 2 },
  ),
});

/** An assistant turn with text and/or calls, and the tool turn answering its calls. */
const assistantTurn: fc.Arbitrary<CanonicalMessage[]> = fc
  .record({
    text: fc.option(text, { nil: undefined }),
    calls: fc.uniqueArray(fc.record({ id: callId, name: toolName, arguments: jsonArguments }), {
      maxLength: 2,
      selector: (call) => call.id,
    }),
    result: text,
  })
  .filter(({ text: reply, calls }) => reply !== undefined || calls.length > 0)
  .map(({ text: reply, calls, result }) => {
    const assistant: AssistantMessage = {
      role: 'assistant',
      content: [
        ...(reply === undefined ? [] : [{ type: 'text' as const, text: reply }]),
        ...calls.map((call): ToolCallPart => ({ type: 'tool-call', ...call })),
      ],
    };
    if (calls.length === 0) return [assistant];
    const tools: ToolMessage = {
      role: 'tool',
      content: calls.map((call) => ({ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text: result }] })),
    };
    return [assistant, tools];
  });

/** Alternating turns ending with a user (or tool) turn, as every protocol accepts. */
const conversation: fc.Arbitrary<CanonicalMessage[]> = fc
  .array(fc.tuple(user, assistantTurn), { maxLength: 3 })
  .chain((turns) => user.map((last) => [...turns.flatMap(([question, answer]) => [question, ...answer]), last]));

export interface ArbitraryRequestOptions {
  /** Whether the protocol has stop sequences (Responses has none). */
  stopSequences: boolean;
}

/** Canonical requests inside what all three protocols can express. */
export function arbitraryCanonicalRequest(options: ArbitraryRequestOptions): fc.Arbitrary<CanonicalRequest> {
  return fc
    .record({
      system: fc.option(
        text.map((value) => [{ type: 'text' as const, text: value }]),
        { nil: undefined },
      ),
      messages: conversation,
      tools: fc.option(fc.uniqueArray(tool, { minLength: 1, maxLength: 2, selector: (item) => item.name }), { nil: undefined }),
      maxOutputTokens: fc.integer({ min: 1, max: 8192 }),
      temperature: fc.option(
        fc.integer({ min: 0, max: 10 }).map((tenths) => tenths / 10),
        { nil: undefined },
      ),
      stopSequences: options.stopSequences
        ? fc.option(fc.array(fc.stringMatching(/^[A-Z]{1,5}$/), { minLength: 1, maxLength: 3 }), { nil: undefined })
        : fc.constant(undefined),
      stream: fc.boolean(),
    })
    .map(({ system, messages, tools, maxOutputTokens, temperature, stopSequences, stream }) => ({
      model: 'model-x',
      messages,
      maxOutputTokens,
      stream,
      ...(system === undefined ? {} : { system }),
      ...(tools === undefined ? {} : { tools }),
      ...(temperature === undefined ? {} : { sampling: { temperature } }),
      ...(stopSequences === undefined ? {} : { stopSequences }),
    }));
}
