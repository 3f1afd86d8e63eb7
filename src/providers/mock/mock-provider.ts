import { setTimeout as sleep } from 'node:timers/promises';
import type { CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from '../../canonical/index.js';
import { GatewayError } from '../../canonical/index.js';
import { allCapabilities } from '../all-capabilities.js';
import type { ModelCapabilities, ProviderAdapter, ProviderContext } from '../types.js';
import { countMockInputTokens, planMockReply, type MockReply, type MockToolArguments } from './mock-plan.js';

export interface MockProviderOptions {
  /** The reply text, or a function of the request. Default: `DEFAULT_MOCK_REPLY`, or a summary of tool results after a tool turn. */
  reply?: MockReply;
  /** How many text deltas a streamed reply is split into. Default 4. */
  chunks?: number;
  /** Pause between streamed deltas, in milliseconds. Default 0. */
  chunkDelayMs?: number;
  /** Arguments the mock passes when it calls a tool. Default: example values from the tool's schema. */
  toolArguments?: MockToolArguments;
  /** Fail every call with this error (before any output), to test how clients handle it. */
  error?: GatewayError;
  /** Provider id used in logs. Default `mock`. */
  id?: string;
}

const mockCapabilities: ModelCapabilities = {
  ...allCapabilities,
  // Accepted and never called, so clients that always send hosted tools (Codex) work against it.
  providerTools: ['chat', 'responses', 'messages'],
};

/** Splits text into about `count` pieces without breaking a character. */
function splitText(text: string, count: number): string[] {
  const characters = Array.from(text);
  const size = Math.max(1, Math.ceil(characters.length / Math.max(1, count)));
  const pieces: string[] = [];
  for (let at = 0; at < characters.length; at += size) pieces.push(characters.slice(at, at + size).join(''));
  return pieces;
}

function abortError(): GatewayError {
  return new GatewayError({ code: 'REQUEST_ABORTED', message: 'The request was cancelled.' });
}

/**
 * A deterministic model for development and tests: answers with fixed text, calls the tools a
 * request forces (`tool_choice` required / a named tool; several in parallel unless parallel tool
 * calls are off), thinks when reasoning is requested, and streams in several chunks.
 *
 * @example
 * gateway({ providers: { mock: createMockProvider({ reply: 'pong' }) }, models: [{ id: 'mock', provider: 'mock' }] })
 */
export function createMockProvider(options: MockProviderOptions = {}): ProviderAdapter {
  const chunks = options.chunks ?? 4;
  const delay = options.chunkDelayMs ?? 0;

  const plan = (request: CanonicalRequest) => {
    if (options.error) throw options.error;
    return planMockReply(request, options.reply, options.toolArguments);
  };

  async function pause(signal: AbortSignal): Promise<void> {
    if (signal.aborted) throw abortError();
    if (delay > 0) await sleep(delay, undefined, { signal }).catch(() => Promise.reject(abortError()));
  }

  return {
    specificationVersion: 'v1',
    id: options.id ?? 'mock',
    capabilities: () => mockCapabilities,

    async generate(request: CanonicalRequest, context: ProviderContext): Promise<CanonicalResponse> {
      await pause(context.signal);
      return { id: `mock_${context.requestId}`, model: request.model, ...plan(request) };
    },

    async countTokens(request: CanonicalRequest): Promise<number> {
      return countMockInputTokens(request);
    },

    async *stream(request: CanonicalRequest, context: ProviderContext): AsyncIterable<CanonicalStreamEvent> {
      const reply = plan(request);
      yield { type: 'start', id: `mock_${context.requestId}`, model: request.model };
      let blockNumber = 0;
      for (const part of reply.content) {
        const id = `b${blockNumber++}`;
        await pause(context.signal);
        if (part.type === 'reasoning') {
          yield { type: 'reasoning-start', id };
          for (const piece of splitText(part.text, 2)) yield { type: 'reasoning-delta', id, delta: piece };
          yield { type: 'reasoning-end', id, ...(part.signature === undefined ? {} : { signature: part.signature }) };
        } else if (part.type === 'text') {
          yield { type: 'text-start', id };
          for (const piece of splitText(part.text, chunks)) {
            yield { type: 'text-delta', id, delta: piece };
            await pause(context.signal);
          }
          yield { type: 'text-end', id };
        } else if (part.type === 'tool-call') {
          yield {
            type: 'tool-call-start',
            id,
            toolCallId: part.id,
            name: part.name,
            ...(part.namespace === undefined ? {} : { namespace: part.namespace }),
          };
          for (const piece of splitText(part.arguments, 2)) yield { type: 'tool-call-delta', id, delta: piece };
          yield { type: 'tool-call-end', id };
        }
      }
      yield {
        type: 'finish',
        finishReason: reply.finishReason,
        usage: reply.usage,
        ...(reply.stopSequence === undefined ? {} : { stopSequence: reply.stopSequence }),
      };
    },
  };
}
