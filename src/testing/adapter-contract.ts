import { describe, expect, it } from 'vitest';
import type { CanonicalRequest, CanonicalStreamEvent, RelayBatches } from '../canonical/index.js';
import { GatewayError } from '../canonical/index.js';
import { silentLogger } from '../logger.js';
import type { ProviderAdapter, ProviderContext } from '../providers/types.js';
import { checkStreamEvents } from './check-stream-events.js';

/**
 * How the upstream behind the adapter must behave, for both non-streaming and streaming calls:
 * - `text`: answers with some text, finish reason stop, and usage;
 * - `tool-call`: calls the tool `get_weather` with the arguments `{"city":"Paris"}`;
 * - `rate-limit`: answers 429 with `retry-after: 3`;
 * - `bad-request`: answers 400;
 * - `hang`: starts a stream (and a non-stream call) and never finishes unless aborted.
 */
export type ContractScenario = 'text' | 'tool-call' | 'rate-limit' | 'bad-request' | 'hang';

export interface AdapterUnderTest {
  adapter: ProviderAdapter;
  /** The upstream model id to send. */
  model: string;
  close?(): Promise<void> | void;
}

/** @deprecated Use `AdapterUnderTest`: the same type, renamed by the naming rule (docs/architecture.md#names-of-parameter-objects). */
export type ContractSetup = AdapterUnderTest;

export interface AdapterContractOptions {
  /** Shown in the test names. */
  name: string;
  /** An adapter whose upstream behaves as `scenario` says. Called once per test. */
  createAdapter(scenario: ContractScenario): Promise<AdapterUnderTest> | AdapterUnderTest;
  /** Scenarios this adapter cannot be tested in. */
  skip?: readonly ContractScenario[];
}

const weatherTool = {
  type: 'function' as const,
  name: 'get_weather',
  description: 'Current weather for a city',
  parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

function request(model: string, stream: boolean, withTool: boolean): CanonicalRequest {
  return {
    model,
    stream,
    maxOutputTokens: 256,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'What is the weather in Paris?' }] }],
    ...(withTool ? { tools: [weatherTool], toolChoice: { type: 'required' as const } } : {}),
  };
}

function context(signal: AbortSignal = new AbortController().signal): ProviderContext {
  return { signal, requestId: 'req_contract', gatewayModel: 'contract-model', logger: silentLogger };
}

async function collect(events: AsyncIterable<CanonicalStreamEvent>): Promise<CanonicalStreamEvent[]> {
  const all: CanonicalStreamEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

/** Everything a relayed stream hands over: its frames and the events it reported. */
async function collectRelay(relay: RelayBatches): Promise<{ wire: string; events: CanonicalStreamEvent[] }> {
  let wire = '';
  const events: CanonicalStreamEvent[] = [];
  try {
    for (let batch = await relay.nextBatch(); batch !== undefined; batch = await relay.nextBatch()) {
      wire += batch.wire;
      events.push(...batch.events);
    }
  } finally {
    await relay.stop();
  }
  return { wire, events };
}

async function failureOf(work: () => Promise<unknown>): Promise<GatewayError> {
  try {
    await work();
  } catch (error) {
    if (GatewayError.isInstance(error)) return error;
    throw new Error(`expected a GatewayError, got: ${String(error)}`);
  }
  throw new Error('expected the call to fail');
}

/**
 * The contract every provider adapter keeps, as a vitest suite: text, tools, a stream, an upstream
 * 429, an upstream 400 and an abort. Built-in adapters run it; run it on yours:
 *
 * @example
 * import { runAdapterContract } from 'switchyard-gateway/testing';
 * runAdapterContract({ name: 'my-adapter', createAdapter: async (scenario) => ({ adapter, model: 'm' }) });
 */
export function runAdapterContract(options: AdapterContractOptions): void {
  const skip = new Set(options.skip ?? []);
  const scenario = (name: ContractScenario, title: string, body: (setup: AdapterUnderTest) => Promise<void>) =>
    it.skipIf(skip.has(name))(title, async () => {
      const setup = await options.createAdapter(name);
      try {
        await body(setup);
      } finally {
        await setup.close?.();
      }
    });

  describe(`adapter contract: ${options.name}`, () => {
    scenario('text', 'should answer text with a stop finish and usage', async ({ adapter, model }) => {
      const response = await adapter.generate(request(model, false, false), context());
      const text = response.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      expect(text.length).toBeGreaterThan(0);
      expect(response.finishReason.unified).toBe('stop');
      expect(response.usage.outputTokens).toBeGreaterThan(0);
    });

    scenario('text', 'should stream well-formed events whose text equals the answer', async ({ adapter, model }) => {
      const answer = await adapter.generate(request(model, false, false), context());
      const events = await collect(adapter.stream(request(model, true, false), context()));
      expect(checkStreamEvents(events)).toEqual([]);
      const streamed = events.flatMap((event) => (event.type === 'text-delta' ? [event.delta] : [])).join('');
      const text = answer.content.flatMap((part) => (part.type === 'text' ? [part.text] : [])).join('');
      expect(streamed).toBe(text);
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    });

    scenario(
      'text',
      'should relay a stream (when it can) reporting the finish and usage its translated stream reports',
      async ({ adapter, model }) => {
        if (adapter.relayStream === undefined) return;
        const events = await collect(adapter.stream(request(model, true, false), context()));
        const relayed = await collectRelay(adapter.relayStream(request(model, true, false), context(), 'caller-model'));
        expect(relayed.wire.length).toBeGreaterThan(0);
        expect(relayed.events[0]).toMatchObject({ type: 'start' });
        expect(relayed.events.at(-1)).toEqual(events.at(-1));
        // The answer names the model the caller asked for, never the upstream id.
        expect(relayed.wire).toContain('caller-model');
        expect(relayed.wire).not.toContain(`"model":${JSON.stringify(model)}`);
      },
    );

    scenario('text', 'should relay an answer (when it can) that says what its translated answer says', async ({ adapter, model }) => {
      if (adapter.relayGenerate === undefined) return;
      const answer = await adapter.generate(request(model, false, false), context());
      const relayed = await adapter.relayGenerate(request(model, false, false), context(), 'caller-model');
      expect(relayed.response).toEqual(answer);
      expect(JSON.parse(relayed.wire)).toMatchObject({ model: 'caller-model' });
    });

    scenario('tool-call', 'should return the tool call with its arguments', async ({ adapter, model }) => {
      const response = await adapter.generate(request(model, false, true), context());
      const call = response.content.find((part) => part.type === 'tool-call');
      expect(call).toMatchObject({ type: 'tool-call', name: 'get_weather' });
      expect(call?.type === 'tool-call' && JSON.parse(call.arguments)).toEqual({ city: 'Paris' });
      expect(call?.type === 'tool-call' && call.id.length).toBeGreaterThan(0);
      expect(response.finishReason.unified).toBe('tool-calls');
    });

    scenario('tool-call', 'should stream the tool call as partial JSON', async ({ adapter, model }) => {
      const events = await collect(adapter.stream(request(model, true, true), context()));
      expect(checkStreamEvents(events)).toEqual([]);
      const start = events.find((event) => event.type === 'tool-call-start');
      expect(start).toMatchObject({ name: 'get_weather' });
      const json = events.flatMap((event) => (event.type === 'tool-call-delta' && start && event.id === start.id ? [event.delta] : []));
      expect(JSON.parse(json.join(''))).toEqual({ city: 'Paris' });
      expect(events.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'tool-calls' } });
    });

    scenario('rate-limit', 'should throw a retryable 429 with retry-after', async ({ adapter, model }) => {
      for (const work of [
        () => adapter.generate(request(model, false, false), context()),
        () => collect(adapter.stream(request(model, true, false), context())),
        ...(adapter.relayStream === undefined
          ? []
          : [() => collectRelay(adapter.relayStream!(request(model, true, false), context(), model))]),
        ...(adapter.relayGenerate === undefined ? [] : [() => adapter.relayGenerate!(request(model, false, false), context(), model)]),
      ]) {
        const error = await failureOf(work);
        expect(error).toMatchObject({ status: 429, kind: 'rate_limit', retryable: true, retryAfter: 3 });
      }
    });

    scenario('bad-request', 'should throw a non-retryable 400', async ({ adapter, model }) => {
      for (const work of [
        () => adapter.generate(request(model, false, false), context()),
        () => collect(adapter.stream(request(model, true, false), context())),
        ...(adapter.relayStream === undefined
          ? []
          : [() => collectRelay(adapter.relayStream!(request(model, true, false), context(), model))]),
        ...(adapter.relayGenerate === undefined ? [] : [() => adapter.relayGenerate!(request(model, false, false), context(), model)]),
      ]) {
        const error = await failureOf(work);
        expect(error).toMatchObject({ status: 400, retryable: false });
        expect(error.message.length).toBeGreaterThan(0);
      }
    });

    scenario('hang', 'should stop when the signal fires', async ({ adapter, model }) => {
      const controller = new AbortController();
      const events = adapter.stream(request(model, true, false), context(controller.signal));
      const iterator = events[Symbol.asyncIterator]();
      await iterator.next();
      controller.abort();
      // Either the stream ends or it rejects; hanging here fails the test by timeout.
      await iterator.next().catch(() => undefined);

      if (adapter.relayStream !== undefined) {
        const relayController = new AbortController();
        const relay = adapter.relayStream(request(model, true, false), context(relayController.signal), model);
        await relay.nextBatch();
        relayController.abort();
        await relay.nextBatch().catch(() => undefined);
        await relay.stop();
      }

      const generateController = new AbortController();
      const pending = adapter.generate(request(model, false, false), context(generateController.signal));
      setTimeout(() => generateController.abort(), 50);
      await expect(pending).rejects.toBeDefined();
    });
  });
}
