import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MOCK_REPLY } from '../../src/providers/mock/index.js';
import { startGateway, TEST_KEY, type RunningGateway } from '../helpers/start-gateway.js';
import { parseSseText } from '../helpers/parse-sse-text.js';

let running: RunningGateway;
beforeAll(async () => {
  running = await startGateway();
});
afterAll(() => running.close());

const padding = (size: number) => 'You are a careful coding agent. '.repeat(Math.ceil(size / 32)).slice(0, size);

/** Shaped like Claude Code's first request: big cached system blocks, many tools, adaptive thinking. */
function claudeCodeBody() {
  const tools = Array.from({ length: 18 }, (_, index) => ({
    name: `Tool${index}`,
    description: padding(3000),
    input_schema: {
      type: 'object',
      properties: { path: { type: 'string', description: 'A path' }, limit: { type: 'number' } },
      required: ['path'],
      additionalProperties: false,
      $schema: 'http://json-schema.org/draft-07/schema#',
    },
    ...(index === 0 ? { cache_control: { type: 'ephemeral' } } : {}),
    ...(index > 10 ? { defer_loading: true } : {}),
    ...(index === 3 ? { eager_input_streaming: true } : {}),
  }));
  return {
    model: 'mock',
    max_tokens: 32000,
    stream: true,
    system: [
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      { type: 'text', text: padding(24000), cache_control: { type: 'ephemeral', ttl: '1h' } },
    ],
    messages: [
      {
        role: 'user',
        content: [
          { type: 'text', text: '<system-reminder>context</system-reminder>' },
          { type: 'text', text: 'List the files in src/', cache_control: { type: 'ephemeral' } },
        ],
      },
    ],
    tools,
    thinking: { type: 'adaptive', display: 'omitted' },
    output_config: { effort: 'high' },
    context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
    metadata: { user_id: JSON.stringify({ device_id: 'abc', account_uuid: 'def', session_id: 'ghi' }) },
  };
}

/** Shaped like Codex CLI: developer item, client ids, namespace and hosted tools, store:false. */
function codexBody() {
  return {
    model: 'mock',
    stream: true,
    input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: padding(8000) }] },
      { type: 'message', role: 'user', id: 'msg_client_1', content: [{ type: 'input_text', text: 'Fix the failing test' }] },
    ],
    tools: [
      {
        type: 'function',
        name: 'shell',
        description: 'Runs a shell command',
        strict: false,
        parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
      },
      {
        type: 'namespace',
        name: 'mcp__files',
        description: 'File tools',
        tools: [{ type: 'function', name: 'read', description: 'Read a file', parameters: { type: 'object', properties: {} } }],
      },
      { type: 'web_search' },
    ],
    tool_choice: 'auto',
    parallel_tool_calls: true,
    reasoning: { effort: 'medium', summary: 'auto' },
    store: false,
    include: ['reasoning.encrypted_content'],
    prompt_cache_key: '7f1c6a52-7a5e-4d7c-8b8e-2d1f0f7a9c11',
    client_metadata: { originator: 'codex_cli_rs' },
    text: { verbosity: 'medium' },
  };
}

describe('bodies real clients send', () => {
  it('should accept a Claude Code request on /v1/messages?beta=true', async () => {
    const body = JSON.stringify(claudeCodeBody());
    expect(body.length).toBeGreaterThan(80_000);
    const response = await fetch(`${running.root}/v1/messages?beta=true`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${TEST_KEY}`,
        'anthropic-version': '2023-06-01',
        'anthropic-beta':
          'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27,prompt-caching-scope-2026-01-05,effort-2025-11-24',
        'content-type': 'application/json',
        'x-app': 'cli',
      },
      body,
    });
    expect(response.status).toBe(200);
    const events = parseSseText(await response.text());
    expect(events.every((event) => event.event !== undefined)).toBe(true);
    expect(events[0]?.event).toBe('message_start');
    expect(events.at(-1)?.event).toBe('message_stop');
    // Adaptive thinking with display "omitted": a thinking block with a signature and no text.
    const thinkingStart = events.find((event) => event.data.includes('"type":"thinking"'));
    expect(thinkingStart).toBeDefined();
    expect(events.some((event) => event.data.includes('signature_delta'))).toBe(true);
  });

  it('should accept a Codex CLI request on /v1/responses', async () => {
    const response = await fetch(`${running.openAIBaseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', originator: 'codex_cli_rs' },
      body: JSON.stringify(codexBody()),
    });
    expect(response.status).toBe(200);
    const events = parseSseText(await response.text()).map((event) => JSON.parse(event.data) as Record<string, any>);
    expect(events.map((event) => event.sequence_number)).toEqual(events.map((_, index) => index));
    const completed = events.at(-1);
    expect(completed?.type).toBe('response.completed');
    const message = completed?.response.output.find((item: { type: string }) => item.type === 'message');
    expect(message.content[0].text).toBe(DEFAULT_MOCK_REPLY);
  });

  it('should accept an AI SDK style Responses request with a system input item', async () => {
    const response = await fetch(`${running.openAIBaseURL}/responses`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'mock',
        input: [
          { role: 'system', content: 'You are helpful.' },
          { role: 'user', content: [{ type: 'input_text', text: 'Hi' }] },
        ],
      }),
    });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { output: Array<{ type: string; content?: Array<{ text: string }> }> };
    expect(body.output.find((item) => item.type === 'message')?.content?.[0]?.text).toBe(DEFAULT_MOCK_REPLY);
  });

  it('should accept an AI SDK style Messages request with eager_input_streaming and a beta header', async () => {
    const response = await fetch(`${running.root}/v1/messages`, {
      method: 'POST',
      headers: {
        'x-api-key': TEST_KEY,
        'anthropic-version': '2023-06-01',
        'anthropic-beta': 'fine-grained-tool-streaming-2025-05-14',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        model: 'mock',
        max_tokens: 64000,
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
        tools: [{ name: 'lookup', input_schema: { type: 'object', properties: {} }, eager_input_streaming: true }],
      }),
    });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { content: Array<{ text: string }> }).content[0]?.text).toBe(DEFAULT_MOCK_REPLY);
  });
});
