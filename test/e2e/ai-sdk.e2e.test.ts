import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, jsonSchema, stepCountIs, streamText, tool } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway();
});
afterAll(() => running.close());

const weather = tool({
  description: 'Weather for a city',
  inputSchema: jsonSchema<{ city: string }>({
    type: 'object',
    properties: { city: { type: 'string' } },
    required: ['city'],
    additionalProperties: false,
  }),
  execute: async ({ city }) => `sunny in ${city}`,
});

/** The AI SDK's three ways to reach the gateway: OpenAI Responses (its default), OpenAI Chat, Anthropic Messages. */
const models = {
  'openai responses': () => createOpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL }).responses('mock'),
  'openai chat': () => createOpenAI({ apiKey: TEST_KEY, baseURL: running.openAIBaseURL }).chat('mock'),
  anthropic: () => createAnthropic({ apiKey: TEST_KEY, baseURL: `${running.root}/v1` })('mock'),
};

describe('the Vercel AI SDK against the gateway', () => {
  for (const [name, model] of Object.entries(models)) {
    describe(name, () => {
      it('should generate text with usage', async () => {
        const result = await generateText({ model: model(), system: 'Be brief.', prompt: 'Hello' });
        expect(result.text).toBe(DEFAULT_MOCK_REPLY);
        expect(result.finishReason).toBe('stop');
        expect(result.usage.outputTokens).toBe(Math.ceil(DEFAULT_MOCK_REPLY.length / 4));
        expect(result.usage.inputTokens).toBeGreaterThan(0);
      });

      it('should stream text', async () => {
        const result = streamText({ model: model(), prompt: 'Hello' });
        const pieces: string[] = [];
        for await (const piece of result.textStream) pieces.push(piece);
        expect(pieces.length).toBeGreaterThan(1);
        expect(pieces.join('')).toBe(DEFAULT_MOCK_REPLY);
        expect(await result.finishReason).toBe('stop');
      });

      it('should run a tool loop: the forced call, its result, then the answer', async () => {
        const result = await generateText({
          model: model(),
          prompt: 'Weather in Paris?',
          tools: { get_weather: weather },
          toolChoice: 'required',
          prepareStep: ({ stepNumber }) => (stepNumber > 0 ? { toolChoice: 'auto' } : {}),
          stopWhen: stepCountIs(3),
        });
        const [first, second] = result.steps;
        expect(first?.toolCalls.map((call) => [call.toolName, call.input])).toEqual([['get_weather', { city: 'example' }]]);
        expect(first?.toolResults.map((toolResult) => toolResult.output)).toEqual(['sunny in example']);
        expect(second?.text).toContain('sunny in example');
        expect(result.finishReason).toBe('stop');
      });

      it('should stream a tool call', async () => {
        const result = streamText({
          model: model(),
          prompt: 'Weather in Paris?',
          tools: { get_weather: weather },
          toolChoice: 'required',
        });
        const calls = await result.toolCalls;
        expect(calls.map((call) => [call.toolName, call.input])).toEqual([['get_weather', { city: 'example' }]]);
        expect(await result.finishReason).toBe('tool-calls');
      });
    });
  }
});
