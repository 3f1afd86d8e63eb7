import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent } from '../../../src/canonical/index.js';
import { GatewayError } from '../../../src/canonical/index.js';
import { silentLogger } from '../../../src/logger.js';
import { createMockProvider, DEFAULT_MOCK_REPLY } from '../../../src/providers/mock/index.js';
import type { ProviderContext } from '../../../src/providers/types.js';

const context = (signal = new AbortController().signal): ProviderContext => ({
  signal,
  requestId: 'req_test',
  gatewayModel: 'mock',
  logger: silentLogger,
});

const ask = (text: string, extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  model: 'mock',
  messages: [{ role: 'user', content: [{ type: 'text', text }] }],
  stream: false,
  ...extra,
});

const weather = {
  type: 'function' as const,
  name: 'get_weather',
  parameters: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
};
const time = { type: 'function' as const, name: 'get_time', parameters: { type: 'object', properties: {} } };

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

describe('createMockProvider', () => {
  describe('generate', () => {
    it('should answer with the default reply and count tokens', async () => {
      const response = await createMockProvider().generate(ask('hi'), context());
      expect(response.content).toEqual([{ type: 'text', text: DEFAULT_MOCK_REPLY }]);
      expect(response.finishReason.unified).toBe('stop');
      expect(response.usage.outputTokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
      expect(response.usage.inputTokens).toBeGreaterThan(0);
    });

    it('should answer with a configured reply, also as a function of the request', async () => {
      expect((await createMockProvider({ reply: 'pong' }).generate(ask('ping'), context())).content).toEqual([
        { type: 'text', text: 'pong' },
      ]);
      const echo = createMockProvider({ reply: (request) => `model=${request.model}` });
      expect((await echo.generate(ask('x'), context())).content).toEqual([{ type: 'text', text: 'model=mock' }]);
    });

    it('should call every tool in parallel when a tool call is required', async () => {
      const response = await createMockProvider().generate(
        ask('weather?', { tools: [weather, time], toolChoice: { type: 'required' } }),
        context(),
      );
      expect(response.finishReason.unified).toBe('tool-calls');
      expect(response.content).toEqual([
        { type: 'tool-call', id: 'call_mock_1_0', name: 'get_weather', arguments: '{"city":"example","days":1}' },
        { type: 'tool-call', id: 'call_mock_1_1', name: 'get_time', arguments: '{}' },
      ]);
    });

    it('should call one tool when parallel tool calls are off, and the named one when forced', async () => {
      const single = await createMockProvider().generate(
        ask('x', { tools: [weather, time], toolChoice: { type: 'required' }, parallelToolCalls: false }),
        context(),
      );
      expect(single.content.map((part) => part.type === 'tool-call' && part.name)).toEqual(['get_weather']);
      const named = await createMockProvider().generate(
        ask('x', { tools: [weather, time], toolChoice: { type: 'tool', name: 'get_time' } }),
        context(),
      );
      expect(named.content.map((part) => part.type === 'tool-call' && part.name)).toEqual(['get_time']);
    });

    it('should not call tools when the choice is auto', async () => {
      const response = await createMockProvider().generate(ask('x', { tools: [weather] }), context());
      expect(response.content.every((part) => part.type === 'text')).toBe(true);
    });

    it('should report tool results after a tool turn', async () => {
      const request: CanonicalRequest = {
        model: 'mock',
        stream: false,
        messages: [
          { role: 'user', content: [{ type: 'text', text: 'weather?' }] },
          { role: 'assistant', content: [{ type: 'tool-call', id: 'call_1', name: 'get_weather', arguments: '{}' }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_1', content: [{ type: 'text', text: 'sunny' }] }] },
        ],
      };
      const response = await createMockProvider().generate(request, context());
      expect(response.content).toEqual([{ type: 'text', text: 'Tool results received. call_1: sunny' }]);
    });

    it('should think first, with a signature, when reasoning is requested', async () => {
      const response = await createMockProvider().generate(ask('why?', { reasoning: { effort: 'high' } }), context());
      const [reasoning, text] = response.content;
      expect(reasoning?.type).toBe('reasoning');
      expect(reasoning?.type === 'reasoning' && reasoning.signature).toMatch(/^mock-signature-/);
      expect(text?.type).toBe('text');
      expect(response.usage.reasoningTokens).toBeGreaterThan(0);
    });

    it('should omit thinking text but keep the signature when display is omitted', async () => {
      const response = await createMockProvider().generate(ask('why?', { reasoning: { mode: 'adaptive', display: 'omitted' } }), context());
      expect(response.content[0]).toMatchObject({ type: 'reasoning', text: '' });
    });

    it('should stop at a stop sequence and report it', async () => {
      const response = await createMockProvider({ reply: 'one two three' }).generate(ask('x', { stopSequences: [' three'] }), context());
      expect(response.content).toEqual([{ type: 'text', text: 'one two' }]);
      expect(response.stopSequence).toBe(' three');
    });

    it('should truncate at the output token budget and finish with length', async () => {
      const response = await createMockProvider({ reply: 'x'.repeat(100) }).generate(ask('x', { maxOutputTokens: 5 }), context());
      expect(response.content).toEqual([{ type: 'text', text: 'x'.repeat(20) }]);
      expect(response.finishReason.unified).toBe('length');
    });

    it('should refuse to start when the request is already cancelled', async () => {
      const controller = new AbortController();
      controller.abort();
      await expect(createMockProvider().generate(ask('x'), context(controller.signal))).rejects.toSatisfy(
        (error) => GatewayError.isInstance(error) && error.code === 'REQUEST_ABORTED',
      );
    });
  });

  describe('stream', () => {
    it('should stream the reply in several chunks that add up to the generated answer', async () => {
      const provider = createMockProvider({ chunks: 5 });
      const events = await collect(provider.stream(ask('hi'), context()));
      const deltas = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : []));
      expect(deltas.length).toBe(5);
      expect(deltas.join('')).toBe(DEFAULT_MOCK_REPLY);
      expect(events[0]?.type).toBe('start');
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
      const generated = await provider.generate(ask('hi'), context());
      expect(events.at(-1)).toMatchObject({ usage: generated.usage });
    });

    it('should stream parallel tool calls as separate blocks', async () => {
      const events = await collect(
        createMockProvider().stream(ask('x', { tools: [weather, time], toolChoice: { type: 'required' } }), context()),
      );
      const starts = events.filter((event) => event.type === 'tool-call-start');
      expect(starts.map((event) => event.type === 'tool-call-start' && event.toolCallId)).toEqual(['call_mock_1_0', 'call_mock_1_1']);
      const firstId = starts[0]?.id;
      const args = events.flatMap((event) => (event.type === 'tool-call-delta' && event.id === firstId ? [event.delta] : []));
      expect(args.join('')).toBe('{"city":"example","days":1}');
    });

    it('should stop streaming when the signal fires', async () => {
      const controller = new AbortController();
      const provider = createMockProvider({ chunks: 10, chunkDelayMs: 5 });
      const seen: CanonicalStreamEvent[] = [];
      await expect(
        (async () => {
          for await (const event of provider.stream(ask('hi'), context(controller.signal))) {
            seen.push(event);
            if (event.type === 'text-delta') controller.abort();
          }
        })(),
      ).rejects.toSatisfy((error) => GatewayError.isInstance(error) && error.code === 'REQUEST_ABORTED');
      expect(seen.filter((event) => event.type === 'text-delta')).toHaveLength(1);
      expect(seen.some((event) => event.type === 'finish')).toBe(false);
    });
  });
});
