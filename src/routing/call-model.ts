import type { CanonicalRequest, CanonicalResponse, UpstreamAttempt } from '../canonical/index.js';
import type { ProviderAdapter, ProviderContext } from '../providers/types.js';
import { mapEvents, readEvents, readRelay, type EventReader } from './event-reader.js';
import { flattenToolNamespaces } from './flatten-tool-namespaces.js';
import { CallDeadline } from './call-deadline.js';
import { readAhead, type OpenedStream, type StreamCallControl as StreamReadControl } from './read-ahead.js';
import type { Route } from './resolve-route.js';

/** A non-streamed answer, with the upstream's own body when it was passed through. */
export interface Answer {
  readonly response: CanonicalResponse;
  /** The body for the caller as the provider wrote it (same protocol): sent instead of encoding `response`. */
  readonly wire?: string;
  /** The deployment that answered (`<provider>/<upstream model>`, or a router's name for it); default: the route's model's. */
  readonly deployment?: string;
}

/** The name of the deployment a model is served by when the router names none: `<provider>/<upstream model>`. */
export function deploymentOf(route: Route): string {
  return `${route.model.providerId}/${route.model.upstreamModel}`;
}

/**
 * The "call" stage: gets a route's answer from a provider. The default calls the route's model
 * once; retries, other deployments and fallback models replace it (they can, because a stream
 * is handed over only once it was read ahead to its first output event).
 */
export interface CallStage {
  generate(route: Route, context: ProviderContext, control?: CallControl): Promise<Answer>;
  /** Resolves once the stream reached its first output event; fails (with a status) before it. */
  stream(route: Route, context: ProviderContext, control?: StreamCallControl): Promise<OpenedStream>;
}

/** What the endpoint tells the "call" stage, and learns from it, about one request. */
export interface CallControl {
  /** Whether the caller may be served by this (fallback) model: a key's model allowlist. Default: any. */
  mayCall?(modelId: string): boolean;
  /** Told of each upstream attempt as it ends (the ledger keeps a row per attempt). */
  onAttempt?(attempt: UpstreamAttempt): void;
}

/** What the endpoint tells the "call" stage while a stream is being opened: the above, and the held answer's signals (commit, reading, batches before output). */
export interface StreamCallControl extends CallControl, StreamReadControl {}

/** The request as the provider takes it: its upstream model id, and no tool namespaces where it has none. */
function providerRequestOf(route: Route) {
  const upstreamRequest: CanonicalRequest = { ...route.request, model: route.model.upstreamModel };
  // Namespaced (Codex) tools become plain functions for providers without namespaces.
  const flattened = route.model.adapter.protocol === 'responses' ? undefined : flattenToolNamespaces(upstreamRequest);
  return { request: flattened?.request ?? upstreamRequest, flattened };
}

/**
 * Whether the provider may pass its answer through (DESIGN's same-protocol fast path, when it
 * offers one): it speaks the caller's protocol, and no tools were flattened for it.
 */
function mayRelay(adapter: ProviderAdapter, route: Route, flattened: unknown): boolean {
  return adapter.protocol === route.inbound && flattened === undefined && route.relay !== false;
}

const labelsOf = (route: Route) => ({ model: route.model.id, provider: route.model.providerId });

/** One call to the route's model, no retries, within the model's timeouts: the default "call" stage. */
export const callModelOnce: CallStage = {
  generate(route, context) {
    const deadline = new CallDeadline(context, route.model.timeouts, false, labelsOf(route));
    return deadline.settle(generateOnce(route, deadline.context));
  },

  async stream(route, context, control) {
    const deadline = new CallDeadline(context, route.model.timeouts, true, labelsOf(route));
    let reader: EventReader;
    try {
      reader = openStream(route, deadline.context);
    } catch (error) {
      deadline.done();
      throw error;
    }
    const opened = await readAhead(deadline.guard(reader), control);
    deadline.outputStarted();
    return opened;
  },
};

/**
 * Not `async`: the provider's own promise is handed on, where an async function returning it would
 * wait three more microtasks to take it over. A throw before the call becomes a rejection, so the
 * deadline still settles.
 */
function generateOnce(route: Route, context: ProviderContext): Promise<Answer> {
  try {
    const { request, flattened } = providerRequestOf(route);
    const { adapter } = route.model;
    if (adapter.relayGenerate !== undefined && mayRelay(adapter, route, flattened)) {
      return adapter.relayGenerate(request, context, route.request.model);
    }
    return adapter
      .generate(request, context)
      .then((response) => ({ response: flattened ? flattened.restoreResponse(response) : response }));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** The route's stream, passed through when the provider can (same protocol), else translated. */
function openStream(route: Route, context: ProviderContext): EventReader {
  const { request, flattened } = providerRequestOf(route);
  const { adapter } = route.model;
  if (adapter.relayStream !== undefined && mayRelay(adapter, route, flattened)) {
    return readRelay(adapter.relayStream(request, context, route.request.model));
  }
  const events = readEvents(adapter.stream(request, context));
  return flattened ? mapEvents(events, flattened.restoreEvent) : events;
}
