import { encodeToolCallId, type GeminiPart, type GeminiRequest } from '../../../src/protocols/gemini/index.js';
import { createGeminiProvider } from '../../../src/providers/gemini/index.js';
import { MATRIX, runMatrix } from '../../helpers/matrix.js';
import type { MockReply, RecordedRequest } from '../../helpers/mock-upstream.js';

const CALL_ID = 'fc-matrix-1';
const CALL_SIGNATURE = 'Q2lRQmUveCtBQUE9Cg==';
const TEXT_SIGNATURE = 'VGV4dFNpZ25hdHVyZQ==';

/** Canonical usage 42 in (10 cached), 9 out = 5 visible + 4 thinking. */
const usageMetadata = {
  promptTokenCount: MATRIX.usage.input,
  cachedContentTokenCount: MATRIX.usage.cached,
  candidatesTokenCount: MATRIX.usage.output - 4,
  thoughtsTokenCount: 4,
  totalTokenCount: MATRIX.usage.input + MATRIX.usage.output,
};

const chunk = (parts: GeminiPart[], last: boolean) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
  usageMetadata: last ? usageMetadata : { promptTokenCount: MATRIX.usage.input, totalTokenCount: MATRIX.usage.input },
  modelVersion: 'gemini-3.5-flash',
  responseId: 'resp-matrix',
});

/** Non-streamed: one response with every part. Streamed: the text in two pieces, calls whole, then (Gemini 3.5 style) a trailing STOP chunk. */
function answer(parts: GeminiPart[], trailing: GeminiPart[] = [{ text: '' }]) {
  return (streaming: boolean): MockReply => {
    if (!streaming) return { json: chunk(parts, true) };
    const pieces = parts.flatMap((part): GeminiPart[] => {
      if (part.text === undefined) return [part];
      const characters = Array.from(part.text);
      const cut = Math.ceil(characters.length / 2);
      return [{ text: characters.slice(0, cut).join('') }, { ...part, text: characters.slice(cut).join('') }];
    });
    const frames = [...pieces.map((part) => chunk([part], false)), chunk(trailing, true)];
    return { sse: frames.map((frame) => `data: ${JSON.stringify(frame)}\r\n\r\n`).join(''), chunkBytes: 5 };
  };
}

const lastUser = (body: unknown) => (body as GeminiRequest).contents.filter((content) => content.role === 'user').at(-1);

runMatrix({
  name: 'gemini',
  createAdapter: (upstreamUrl) => createGeminiProvider({ apiKey: 'AIza-upstream-key', baseURL: `${upstreamUrl}/v1beta` }),
  upstreamModel: 'gemini-3.5-flash',
  isStream: (request: RecordedRequest) => request.url.includes(':streamGenerateContent?alt=sse'),
  replies: {
    text: answer([{ text: MATRIX.text }]),
    toolCall: answer(
      [{ functionCall: { name: MATRIX.toolName, args: { ...MATRIX.toolArguments }, id: CALL_ID }, thoughtSignature: CALL_SIGNATURE }],
      [{ text: '', thoughtSignature: TEXT_SIGNATURE }],
    ),
    afterTool: answer([{ text: MATRIX.afterToolText }]),
  },
  // The thought signature rides in the id every client echoes.
  toolCallId: encodeToolCallId(CALL_ID, CALL_SIGNATURE),
  read: {
    systemText: (body) => ((body as GeminiRequest).systemInstruction?.parts ?? []).map((part) => part.text).join('\n'),
    toolNames: (body) => ((body as GeminiRequest).tools ?? []).flatMap((tool) => tool.functionDeclarations.map((declaration) => declaration.name)),
    toolResult: (body) => {
      const response = lastUser(body)?.parts.find((part) => part.functionResponse !== undefined)?.functionResponse;
      if (response === undefined) return undefined;
      // Rebuild the canonical id from what Gemini received: the call id and the signature replayed on its call.
      const call = (body as GeminiRequest).contents
        .flatMap((content) => content.parts)
        .find((part) => part.functionCall?.id === response.id && part.functionCall?.name === response.name);
      return { id: encodeToolCallId(response.id ?? '', call?.thoughtSignature), text: String(response.response.output) };
    },
    images: (body) =>
      (lastUser(body)?.parts ?? []).flatMap((part): Array<'url' | 'base64'> =>
        part.inlineData ? ['base64'] : part.fileData ? ['url'] : [],
      ),
  },
});
