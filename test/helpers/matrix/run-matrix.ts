// The e2e matrix for one upstream: every client, streamed and not, every feature cell.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMockUpstream, type MockUpstream, type RecordedRequest } from '../mock-upstream.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../start-gateway.js';
import {
  MATRIX,
  type Inbound,
  INBOUNDS,
  type MatrixAnswer,
  TOOL_CHOICE_FORMS,
  type Support,
  type MatrixUpstream,
  type InboundSupport,
  INBOUND_SUPPORT,
} from './definitions.js';
import { createClients } from './clients.js';

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
          expect(
            upstream.read
              .turns(received(1))
              .map((turn) => turn.text)
              .join(''),
          ).not.toContain(MATRIX.reasoning);
        });
      }

      it(`should translate a multi-turn history from ${inbound} in order`, async () => {
        script({ text: MATRIX.text });
        const turn = await clients.ask(inbound, model, false, {}, MATRIX.history);
        expect(turn.text).toBe(MATRIX.text);
        const expected = [...MATRIX.history, MATRIX.question].map((text, index) => ({
          role: index % 2 === 0 ? 'user' : 'assistant',
          text,
        }));
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
