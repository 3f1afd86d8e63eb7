import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback upstream that plays a model for coding agents (Claude Code, Codex), in whichever
 * protocol each request speaks — OpenAI Chat, OpenAI Responses, Anthropic Messages or Gemini:
 * - a prompt with TOOL_LOOP_MARKER, before any tool result: it calls the agent's shell tool
 *   (`Bash`, `exec_command` or `shell`) with SHELL_COMMAND;
 * - after a tool result: it answers with what the command printed (`The tool printed sw-42-ok, says
 *   <label>.`), which only a shell that ran the command can have made;
 * - any other prompt: `PLAIN_ANSWER <label>.`
 */
export interface AgentUpstream {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** Paths of the requests received, in order. */
  readonly paths: string[];
  /** Answers that were not 200, with why. */
  readonly problems: string[];
  close(): Promise<void>;
}

export const TOOL_LOOP_MARKER = 'Use your shell tool';
/** Shell arithmetic: its output (`sw-42-ok`) is not in the command's text. */
export const SHELL_COMMAND = 'echo sw-$((6*7))-ok';
export const TOOL_OUTPUT = /sw-42-ok/;
export const PLAIN_ANSWER = 'Plain answer from';

type Json = Record<string, unknown>;
type Protocol = 'chat' | 'responses' | 'messages' | 'gemini';

/** What the model decides to do for one request. */
type Turn = { kind: 'text'; text: string } | { kind: 'tool'; name: string; arguments: Json };

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const text = (value: unknown): string => (typeof value === 'string' ? value : JSON.stringify(value ?? ''));

function protocolOf(path: string): Protocol | undefined {
  if (path.includes('/chat/completions')) return 'chat';
  if (path.includes('/responses')) return 'responses';
  if (path.includes('/messages')) return 'messages';
  if (path.includes(':generateContent') || path.includes(':streamGenerateContent')) return 'gemini';
  return undefined;
}

/** The text of every tool result in the request. */
function toolResults(protocol: Protocol, body: Json): string[] {
  if (protocol === 'chat')
    return asArray(body.messages)
      .filter((m) => (m as Json).role === 'tool')
      .map((m) => text((m as Json).content));
  if (protocol === 'responses')
    return asArray(body.input)
      .filter((i) => (i as Json).type === 'function_call_output')
      .map((i) => text((i as Json).output));
  if (protocol === 'messages') {
    return asArray(body.messages)
      .flatMap((m) => asArray((m as Json).content))
      .filter((b) => (b as Json).type === 'tool_result')
      .map((b) => text((b as Json).content));
  }
  return asArray(body.contents)
    .flatMap((c) => asArray((c as Json).parts))
    .filter((p) => (p as Json).functionResponse !== undefined)
    .map((p) => text((p as Json).functionResponse));
}

function toolNames(protocol: Protocol, body: Json): string[] {
  const tools = asArray(body.tools) as Json[];
  if (protocol === 'chat') return tools.map((tool) => (tool.function as Json | undefined)?.name as string);
  if (protocol === 'gemini') return tools.flatMap((tool) => asArray(tool.functionDeclarations).map((f) => (f as Json).name as string));
  return tools.map((tool) => tool.name as string);
}

/** The shell tool the agent offers, and its arguments for SHELL_COMMAND. */
function shellCall(names: string[]): Turn | undefined {
  if (names.includes('Bash')) return { kind: 'tool', name: 'Bash', arguments: { command: SHELL_COMMAND, description: 'Print the answer' } };
  if (names.includes('exec_command')) return { kind: 'tool', name: 'exec_command', arguments: { cmd: SHELL_COMMAND } };
  if (names.includes('shell')) return { kind: 'tool', name: 'shell', arguments: { command: ['bash', '-lc', SHELL_COMMAND] } };
  return undefined;
}

function decide(protocol: Protocol, body: Json, label: string): Turn {
  const results = toolResults(protocol, body);
  if (results.length > 0) {
    const printed = results.map((result) => TOOL_OUTPUT.exec(result)?.[0]).find(Boolean);
    return {
      kind: 'text',
      text: printed
        ? `The tool printed ${printed}, says ${label}.`
        : `The tool printed nothing useful: ${results.join(' | ').slice(0, 200)}`,
    };
  }
  if (JSON.stringify(body).includes(TOOL_LOOP_MARKER)) {
    const call = shellCall(toolNames(protocol, body));
    if (call) return call;
    return { kind: 'text', text: `No shell tool among: ${toolNames(protocol, body).join(', ')}` };
  }
  return { kind: 'text', text: `${PLAIN_ANSWER} ${label}.` };
}

const sse = (frames: Array<{ event?: string; data: unknown }>) =>
  frames
    .map(({ event, data }) => `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`)
    .join('');

function chatAnswer(turn: Turn, stream: boolean): string | Json {
  const base = { id: 'chatcmpl-1', created: 1, model: 'up' };
  const usage = { prompt_tokens: 20, completion_tokens: 5, total_tokens: 25 };
  const call =
    turn.kind === 'tool'
      ? [{ index: 0, id: 'call_1', type: 'function', function: { name: turn.name, arguments: JSON.stringify(turn.arguments) } }]
      : undefined;
  const finish = turn.kind === 'tool' ? 'tool_calls' : 'stop';
  if (!stream) {
    const message =
      turn.kind === 'tool'
        ? { role: 'assistant', content: null, tool_calls: call!.map(({ index: _index, ...rest }) => rest) }
        : { role: 'assistant', content: turn.text };
    return { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: finish }], usage };
  }
  const delta = turn.kind === 'tool' ? { role: 'assistant', tool_calls: call } : { role: 'assistant', content: turn.text };
  return sse([
    { data: { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] } },
    { data: { ...base, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: finish }] } },
    { data: { ...base, object: 'chat.completion.chunk', choices: [], usage } },
    { data: '[DONE]' },
  ]);
}

function responsesAnswer(turn: Turn, stream: boolean): string | Json {
  const item =
    turn.kind === 'tool'
      ? {
          id: 'fc_1',
          type: 'function_call',
          status: 'completed',
          call_id: 'call_1',
          name: turn.name,
          arguments: JSON.stringify(turn.arguments),
        }
      : {
          id: 'msg_1',
          type: 'message',
          role: 'assistant',
          status: 'completed',
          content: [{ type: 'output_text', text: turn.text, annotations: [] }],
        };
  const response = {
    id: 'resp_1',
    object: 'response',
    created_at: 1,
    model: 'up',
    status: 'completed',
    output: [item],
    usage: { input_tokens: 20, output_tokens: 5, total_tokens: 25 },
  };
  if (!stream) return response;
  const started = { ...response, status: 'in_progress', output: [], usage: null };
  const frames: Json[] = [{ type: 'response.created', sequence_number: 0, response: started }];
  if (item.type === 'function_call') {
    frames.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } },
      { type: 'response.function_call_arguments.delta', output_index: 0, item_id: item.id, delta: item.arguments },
      { type: 'response.function_call_arguments.done', output_index: 0, item_id: item.id, arguments: item.arguments },
    );
  } else {
    const words = turn.kind === 'text' ? turn.text : '';
    frames.push(
      { type: 'response.output_item.added', output_index: 0, item: { ...item, status: 'in_progress', content: [] } },
      {
        type: 'response.content_part.added',
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        part: { type: 'output_text', text: '', annotations: [] },
      },
      { type: 'response.output_text.delta', output_index: 0, item_id: item.id, content_index: 0, delta: words },
      { type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text: words },
      {
        type: 'response.content_part.done',
        output_index: 0,
        item_id: item.id,
        content_index: 0,
        part: { type: 'output_text', text: words, annotations: [] },
      },
    );
  }
  frames.push({ type: 'response.output_item.done', output_index: 0, item }, { type: 'response.completed', response });
  return sse(frames.map((data, index) => ({ event: data.type as string, data: { ...data, sequence_number: index } })));
}

function messagesAnswer(turn: Turn, stream: boolean): string | Json {
  const block =
    turn.kind === 'tool' ? { type: 'tool_use', id: 'toolu_1', name: turn.name, input: turn.arguments } : { type: 'text', text: turn.text };
  const stopReason = turn.kind === 'tool' ? 'tool_use' : 'end_turn';
  const message = {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'up',
    content: [block],
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 20, output_tokens: 5 },
  };
  if (!stream) return message;
  const delta =
    turn.kind === 'tool'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(turn.arguments) }
      : { type: 'text_delta', text: turn.text };
  const start = turn.kind === 'tool' ? { ...block, input: {} } : { type: 'text', text: '' };
  return sse(
    [
      { type: 'message_start', message: { ...message, content: [], stop_reason: null, usage: { input_tokens: 20, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: start },
      { type: 'content_block_delta', index: 0, delta },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } },
      { type: 'message_stop' },
    ].map((data) => ({ event: data.type, data })),
  );
}

function geminiAnswer(turn: Turn, stream: boolean): string | Json {
  const part = turn.kind === 'tool' ? { functionCall: { name: turn.name, args: turn.arguments } } : { text: turn.text };
  const answer = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 20, candidatesTokenCount: 5, totalTokenCount: 25 },
    modelVersion: 'up',
  };
  return stream ? sse([{ data: answer }]) : answer;
}

function answer(protocol: Protocol, turn: Turn, stream: boolean): string | Json {
  if (protocol === 'chat') return chatAnswer(turn, stream);
  if (protocol === 'responses') return responsesAnswer(turn, stream);
  if (protocol === 'messages') return messagesAnswer(turn, stream);
  return geminiAnswer(turn, stream);
}

function handle(
  req: IncomingMessage,
  res: ServerResponse,
  raw: string,
  label: string,
  upstream: { paths: string[]; problems: string[] },
): void {
  const path = req.url ?? '';
  upstream.paths.push(path);
  const protocol = protocolOf(path);
  let body: Json;
  try {
    body = JSON.parse(raw) as Json;
  } catch {
    body = {};
  }
  if (protocol === undefined || req.method !== 'POST') {
    upstream.problems.push(`${req.method} ${path}: not a generation call`);
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${path}` } }));
    return;
  }
  const stream = protocol === 'gemini' ? path.includes(':streamGenerateContent') : body.stream === true;
  const answered = answer(protocol, decide(protocol, body, label), stream);
  if (typeof answered === 'string') res.writeHead(200, { 'content-type': 'text/event-stream' }).end(answered);
  else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answered));
}

/** Starts an AgentUpstream whose plain answers name `label`. */
export async function startAgentUpstream(label: string): Promise<AgentUpstream> {
  const upstream = { url: '', paths: [] as string[], problems: [] as string[], close: () => Promise.resolve() };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (raw += chunk));
    req.on('end', () => handle(req, res, raw, label, upstream));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  upstream.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  upstream.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return upstream;
}
