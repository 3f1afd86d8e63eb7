import { encodeToolCallId, type GeminiContent, type GeminiPart, type GeminiRequest } from '../../../src/protocols/gemini/index.js';
import { createGeminiProvider } from '../../../src/providers/gemini/index.js';
import { MATRIX, type MatrixAnswer, type MatrixUpstream } from '../../helpers/matrix/index.js';
import type { MockReply, RecordedRequest } from '../../helpers/mock-upstream.js';

type Body = GeminiRequest & Record<string, unknown>;

/** Gemini 3 signs the first call of a turn only. */
const CALL_IDS = ['fc-matrix-1', 'fc-matrix-2'] as const;
const CALL_SIGNATURE = 'Q2lRQmUveCtBQUE9Cg==';
const TEXT_SIGNATURE = 'VGV4dFNpZ25hdHVyZQ==';

/** Canonical output 9 = candidates + thoughts (4 when the answer reasons). */
const usageOf = (answer: MatrixAnswer) => {
  const thoughts = answer.reasoning ? MATRIX.usage.reasoning : 0;
  return {
    promptTokenCount: MATRIX.usage.input,
    cachedContentTokenCount: MATRIX.usage.cached,
    candidatesTokenCount: MATRIX.usage.output - thoughts,
    ...(answer.reasoning ? { thoughtsTokenCount: thoughts } : {}),
    totalTokenCount: MATRIX.usage.input + MATRIX.usage.output,
  };
};

function partsOf(answer: MatrixAnswer): GeminiPart[] {
  return [
    ...(answer.reasoning ? [{ text: MATRIX.reasoning, thought: true }] : []),
    ...(answer.text === undefined ? [] : [{ text: answer.text }]),
    ...(answer.toolCalls ?? []).map(
      (args, index): GeminiPart => ({
        functionCall: { name: MATRIX.toolName, args: { ...args }, id: CALL_IDS[index] },
        ...(index === 0 ? { thoughtSignature: CALL_SIGNATURE } : {}),
      }),
    ),
  ];
}

/** Non-streamed: one response with every part. Streamed: text and thoughts in two pieces, calls whole, then (Gemini 3.5 style) a trailing chunk with the finish reason. */
function reply(answer: MatrixAnswer, streaming: boolean): MockReply {
  const finishReason = answer.finish === 'length' ? 'MAX_TOKENS' : 'STOP';
  const chunk = (parts: GeminiPart[], last: boolean) => ({
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason } : {}) }],
    usageMetadata: last ? usageOf(answer) : { promptTokenCount: MATRIX.usage.input, totalTokenCount: MATRIX.usage.input },
    modelVersion: 'gemini-3.5-flash',
    responseId: 'resp-matrix',
  });
  const parts = partsOf(answer);
  if (!streaming) return { json: chunk(parts, true) };
  const pieces = parts.flatMap((part): GeminiPart[] => {
    if (part.text === undefined) return [part];
    const characters = Array.from(part.text);
    const cut = Math.ceil(characters.length / 2);
    const { thoughtSignature: _signature, ...unsigned } = part;
    return [
      { ...unsigned, text: characters.slice(0, cut).join('') },
      { ...part, text: characters.slice(cut).join('') },
    ];
  });
  // After calls, Gemini 3.5 ends the turn with an empty signed text part.
  const trailing: GeminiPart[] = (answer.toolCalls ?? []).length > 0 ? [{ text: '', thoughtSignature: TEXT_SIGNATURE }] : [{ text: '' }];
  const frames = [...pieces.map((part) => chunk([part], false)), chunk(trailing, true)];
  return { sse: frames.map((frame) => `data: ${JSON.stringify(frame)}\r\n\r\n`).join(''), chunkBytes: 5 };
}

const contentsOf = (body: unknown) => (body as Body).contents;
const lastUser = (body: unknown) =>
  contentsOf(body)
    .filter((content) => content.role === 'user')
    .at(-1);

/** The canonical id of a replayed call: Gemini's call id with the signature replayed on its part. */
function canonicalId(body: unknown, callId: string | undefined, name: string): string {
  const call = contentsOf(body)
    .flatMap((content) => content.parts)
    .find((part) => part.functionCall?.id === callId && part.functionCall?.name === name);
  return encodeToolCallId(callId ?? '', call?.thoughtSignature);
}

export const geminiUpstream: MatrixUpstream = {
  name: 'gemini',
  label: 'gemini',
  notes: {
    parallelTools: 'results in one user turn',
    toolChoiceRequired: '`ANY`',
    toolChoiceNamed: '`ANY` + `allowedFunctionNames`',
    maxTokens: '`maxOutputTokens`',
    jsonSchema: '`responseJsonSchema`',
    jsonObject: '`responseMimeType`',
    reasoning: '`thinkingLevel`',
    reasoningReplay: 'thought signature via the call id',
  },
  createAdapter: (upstreamUrl) => createGeminiProvider({ apiKey: 'AIza-upstream-key', baseURL: `${upstreamUrl}/v1beta` }),
  upstreamModel: 'gemini-3.5-flash',
  isStream: (request: RecordedRequest) => request.url.includes(':streamGenerateContent?alt=sse'),
  reply,
  // The thought signature rides in the id every client echoes.
  toolCallIds: [encodeToolCallId(CALL_IDS[0], CALL_SIGNATURE), CALL_IDS[1]],
  supports: {
    toolChoice: { auto: true, required: true, named: true, none: true },
    stopSequences: true,
    reportsStopSequence: false,
    jsonSchema: true,
    jsonObject: true,
    reasoning: true,
    reasoningTokens: true,
    reasoningReplay: true,
  },
  expect: {
    toolChoice: {
      auto: { functionCallingConfig: { mode: 'AUTO' } },
      required: { functionCallingConfig: { mode: 'ANY' } },
      named: { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [MATRIX.toolName] } },
      none: { functionCallingConfig: { mode: 'NONE' } },
    },
    // Gemini 3.x takes levels; a 4096-token budget (Messages) is the MEDIUM level.
    reasoning: {
      chat: { thinkingLevel: 'HIGH', includeThoughts: true },
      responses: { thinkingLevel: 'HIGH', includeThoughts: true },
      messages: { thinkingLevel: 'MEDIUM', includeThoughts: true },
    },
    jsonSchema: { responseMimeType: 'application/json', responseJsonSchema: MATRIX.schema },
    jsonObject: { responseMimeType: 'application/json' },
    parallelShape: 'model[functionCall,functionCall] user[functionResponse,functionResponse]',
    // The call's thought signature (carried in its id) comes back on the call, whatever the client.
    replayedReasoning: { chat: CALL_SIGNATURE, responses: CALL_SIGNATURE, messages: CALL_SIGNATURE },
  },
  read: {
    systemText: (body) => ((body as Body).systemInstruction?.parts ?? []).map((part) => part.text).join('\n'),
    toolNames: (body) => ((body as Body).tools ?? []).flatMap((tool) => tool.functionDeclarations.map((declaration) => declaration.name)),
    toolResult: (body) => {
      const response = lastUser(body)?.parts.find((part) => part.functionResponse !== undefined)?.functionResponse;
      if (response === undefined) return undefined;
      return { id: canonicalId(body, response.id, response.name), text: String(response.response.output) };
    },
    images: (body) =>
      (lastUser(body)?.parts ?? []).flatMap(
        (part): Array<'url' | 'base64'> => (part.inlineData ? ['base64'] : part.fileData ? ['url'] : []),
      ),
    turns: (body) =>
      contentsOf(body).map((content) => ({
        role: content.role === 'model' ? 'assistant' : 'user',
        text: content.parts
          .filter((part) => part.text !== undefined && part.thought !== true)
          .map((part) => part.text)
          .join(''),
      })),
    toolTurn: (body) => {
      const contents = contentsOf(body);
      const after = contents.slice(contents.findLastIndex((content) => content.role === 'model'));
      const parts = after.flatMap((content) => content.parts);
      const kind = (part: GeminiPart) =>
        part.functionCall ? 'functionCall' : part.functionResponse ? 'functionResponse' : part.thought ? 'thought' : 'text';
      // The streamed turn's trailing signature-only text part comes back too (clients keep it with their reasoning, first); it is no call or result.
      const signatureOnly = (part: GeminiPart) => part.text === '' && part.thoughtSignature !== undefined;
      const shapeOf = (content: GeminiContent) =>
        `${content.role}[${content.parts
          .filter((part) => !signatureOnly(part))
          .map(kind)
          .join(',')}]`;
      return {
        shape: after.map(shapeOf).join(' '),
        calls: parts.flatMap((part) =>
          part.functionCall
            ? [{ id: encodeToolCallId(part.functionCall.id ?? '', part.thoughtSignature), arguments: part.functionCall.args }]
            : [],
        ),
        results: parts.flatMap((part) =>
          part.functionResponse
            ? [
                {
                  id: canonicalId(body, part.functionResponse.id, part.functionResponse.name),
                  text: String(part.functionResponse.response.output),
                },
              ]
            : [],
        ),
      };
    },
    toolChoice: (body) => (body as Body).toolConfig,
    stopSequences: (body) => (body as Body).generationConfig?.stopSequences,
    maxTokens: (body) => (body as Body).generationConfig?.maxOutputTokens,
    responseFormat: (body) => {
      const { responseMimeType, responseJsonSchema } = (body as Body).generationConfig ?? {};
      return Object.fromEntries(Object.entries({ responseMimeType, responseJsonSchema }).filter(([, value]) => value !== undefined));
    },
    reasoning: (body) => (body as Body).generationConfig?.thinkingConfig,
    replayedReasoning: (body) =>
      contentsOf(body)
        .filter((content) => content.role === 'model')
        .at(-1)
        ?.parts.find((part) => part.functionCall !== undefined)?.thoughtSignature,
  },
};
