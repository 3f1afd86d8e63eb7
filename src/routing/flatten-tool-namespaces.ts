import type { CanonicalMessage, CanonicalRequest, CanonicalResponse, CanonicalStreamEvent } from '../canonical/index.js';

/** Tool names on Anthropic and OpenAI: letters, digits, `_` and `-`, at most 64. */
const MAX_NAME = 64;

export interface FlattenedNamespaces {
  /** The request with every namespaced function renamed `<namespace>__<name>`. */
  request: CanonicalRequest;
  /** Puts the namespace back on the tool calls of an answer. */
  restoreResponse(response: CanonicalResponse): CanonicalResponse;
  restoreEvent(event: CanonicalStreamEvent): CanonicalStreamEvent;
}

function flatName(namespace: string, name: string, taken: ReadonlySet<string>): string {
  const joined = `${namespace}__${name}`;
  if (joined.length <= MAX_NAME && !taken.has(joined)) return joined;
  // Too long (or clashing): a shortened name with a counter keeps it unique and valid.
  for (let counter = 1; ; counter++) {
    const candidate = `${joined.slice(0, MAX_NAME - 4)}_${counter.toString(36).padStart(3, '0')}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/**
 * Codex-style namespaced tools, for providers that have no namespaces (every protocol but
 * Responses): each namespaced function becomes one plain function named `<namespace>__<name>`,
 * in the request's tools and in the tool calls of its history, and calls in the answer get their
 * namespace back. Undefined when the request has no namespaced tools.
 */
export function flattenToolNamespaces(request: CanonicalRequest): FlattenedNamespaces | undefined {
  if (request.tools === undefined) return undefined;
  const functions = request.tools.filter((tool) => tool.type === 'function');
  if (!functions.some((tool) => tool.namespace !== undefined)) return undefined;

  const taken = new Set(functions.filter((tool) => tool.namespace === undefined).map((tool) => tool.name));
  const toFlat = new Map<string, string>();
  const fromFlat = new Map<string, { name: string; namespace: string }>();
  for (const tool of functions) {
    if (tool.namespace === undefined) continue;
    const flat = flatName(tool.namespace, tool.name, taken);
    taken.add(flat);
    toFlat.set(`${tool.namespace}\u0000${tool.name}`, flat);
    fromFlat.set(flat, { name: tool.name, namespace: tool.namespace });
  }
  const flatOf = (name: string, namespace: string | undefined) =>
    namespace === undefined ? name : (toFlat.get(`${namespace}\u0000${name}`) ?? flatName(namespace, name, new Set()));

  const messages = request.messages.map((message): CanonicalMessage => {
    if (message.role !== 'assistant') return message;
    return {
      ...message,
      content: message.content.map((part) => {
        if (part.type !== 'tool-call' || part.namespace === undefined) return part;
        const { namespace, ...plain } = part;
        return { ...plain, name: flatOf(part.name, namespace) };
      }),
    };
  });
  const tools = request.tools?.map((tool) => {
    if (tool.type !== 'function' || tool.namespace === undefined) return tool;
    const { namespace, ...plain } = tool;
    return { ...plain, name: flatOf(tool.name, namespace) };
  });
  // Tool choice names a function by its bare name; a namespaced one is chosen by its new name.
  const byBareName = (name: string) => {
    const namespaced = functions.find((tool) => tool.name === name && tool.namespace !== undefined);
    return namespaced === undefined ? name : flatOf(name, namespaced.namespace);
  };
  const choice = request.toolChoice;
  const toolChoice =
    choice?.type === 'tool'
      ? { ...choice, name: byBareName(choice.name) }
      : (choice?.type === 'auto' || choice?.type === 'required') && choice.allowedTools !== undefined
        ? { ...choice, allowedTools: choice.allowedTools.map(byBareName) }
        : choice;

  const restored = (name: string) => fromFlat.get(name);
  return {
    request: { ...request, messages, ...(tools === undefined ? {} : { tools }), ...(toolChoice === undefined ? {} : { toolChoice }) },
    restoreResponse: (response) => ({
      ...response,
      content: response.content.map((part) => {
        const original = part.type === 'tool-call' ? restored(part.name) : undefined;
        return original === undefined || part.type !== 'tool-call' ? part : { ...part, name: original.name, namespace: original.namespace };
      }),
    }),
    restoreEvent: (event) => {
      const original = event.type === 'tool-call-start' ? restored(event.name) : undefined;
      return original === undefined || event.type !== 'tool-call-start'
        ? event
        : { ...event, name: original.name, namespace: original.namespace };
    },
  };
}
