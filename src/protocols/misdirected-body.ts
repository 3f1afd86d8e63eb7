import { GatewayError, type ProtocolName } from '../canonical/index.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const present = (body: Json, field: string) => body[field] !== undefined && body[field] !== null;

/** Where each API's bodies go, and what it calls its conversation. */
const endpoints: Readonly<Record<ProtocolName, { path: string; name: string }>> = {
  chat: { path: '/v1/chat/completions', name: 'Chat Completions' },
  responses: { path: '/v1/responses', name: 'Responses' },
  messages: { path: '/v1/messages', name: 'Messages' },
};

/** Roles only Chat messages have (Messages has user, assistant and, mid-conversation, system turns). */
const chatOnlyRoles: ReadonlySet<unknown> = new Set(['developer', 'tool', 'function']);

/**
 * The API a body sent to `endpoint` was written for, judged by the conversation field only that
 * API has, when the endpoint's own is missing; undefined when it is this endpoint's (or no API's).
 * A body with `messages` goes to Messages when it has Messages' top-level `system` or
 * `stop_sequences`, and to Chat otherwise.
 */
function intendedProtocol(body: Json, endpoint: ProtocolName): ProtocolName | undefined {
  switch (endpoint) {
    case 'responses':
      if (present(body, 'input') || !present(body, 'messages')) return undefined;
      return present(body, 'system') || present(body, 'stop_sequences') ? 'messages' : 'chat';
    case 'chat':
      return !present(body, 'messages') && present(body, 'input') ? 'responses' : undefined;
    case 'messages': {
      if (!present(body, 'messages')) return present(body, 'input') ? 'responses' : undefined;
      const messages = body.messages;
      const chatRoles = Array.isArray(messages) && messages.some((message) => isObject(message) && chatOnlyRoles.has(message.role));
      return chatRoles ? 'chat' : undefined;
    }
  }
}

/** How to say the same thing on `endpoint`. */
function onThisEndpoint(endpoint: ProtocolName, intended: ProtocolName): string {
  if (endpoint === 'responses') {
    return intended === 'messages' ? 'or use `input` (and `instructions` for the system prompt) here' : 'or use `input` here';
  }
  if (endpoint === 'messages' && intended === 'chat') {
    return 'or use the Messages shapes here: instructions in the top-level `system`, tool results as `tool_result` blocks in a user message';
  }
  return 'or use `messages` here';
}

/**
 * The 400 `WRONG_ENDPOINT` for a body written for another of the gateway's APIs — a Chat or
 * Messages body (`messages`) sent to `/v1/responses`, a Responses body (`input`) sent to
 * `/v1/chat/completions` or `/v1/messages`, a Chat conversation (developer or tool messages) sent
 * to `/v1/messages` — naming the endpoint it belongs to; undefined for any other body. The decoders
 * ask only when a body has failed, or lacks its own conversation field, so a valid request pays
 * nothing.
 *
 * @example
 * misdirectedBodyError({ model: 'gpt-4o', messages: [] }, 'responses')?.message;
 * // → 'This looks like a Chat Completions body: send it to /v1/chat/completions, or use `input` here.'
 */
export function misdirectedBodyError(body: unknown, endpoint: ProtocolName): GatewayError | undefined {
  if (!isObject(body)) return undefined;
  const intended = intendedProtocol(body, endpoint);
  if (intended === undefined) return undefined;
  const { path, name } = endpoints[intended];
  return new GatewayError({
    code: 'WRONG_ENDPOINT',
    param: intended === 'responses' ? 'input' : 'messages',
    message: `This looks like a ${name} body: send it to ${path}, ${onThisEndpoint(endpoint, intended)}.`,
  });
}
