import type { CanonicalRequest, CanonicalStreamEvent } from './canonical/index.js';
import { GatewayError } from './canonical/index.js';
import { authenticate } from './access/authenticate.js';
import { checkAnthropicVersion } from './http/check-anthropic-version.js';
import { createJsonBodyReader } from './http/read-json-body.js';
import { createRequestId } from './http/request-id.js';
import { sendError, toGatewayError } from './http/send-error.js';
import { sendJson } from './http/send-json.js';
import { SseWriter, startSse } from './http/sse-writer.js';
import type { EndpointHandler, HttpRequest, HttpResponse } from './http/types.js';
import type { EncodeContext, InboundCodec } from './protocols/codec.js';
import { createProviderContext, RequestAbort } from './providers/request-abort.js';
import type { Logger } from './providers/types.js';
import { checkCapabilities } from './routing/check-capabilities.js';
import { flattenToolNamespaces, restoreStream } from './routing/flatten-tool-namespaces.js';
import { omitHostedTools } from './routing/omit-hosted-tools.js';
import { resolveModel } from './routing/resolve-model.js';
import type { ResolvedGatewayOptions } from './options.js';

/**
 * Checks the caller's key when keys are required; x-api-key counts on Anthropic-style calls.
 * Returns a promise only when the key verifier is asynchronous (configured keys are checked at once).
 */
export function checkAccess(req: HttpRequest, options: ResolvedGatewayOptions, acceptXApiKey: boolean): Promise<void> | undefined {
  if (options.requireApiKey && options.verifyKey) return authenticate(req.headers, options.verifyKey, acceptXApiKey);
  return undefined;
}

function endedEarly(): GatewayError {
  return new GatewayError({
    kind: 'upstream',
    code: 'STREAM_ENDED_EARLY',
    message: "The provider's stream ended before the answer was finished.",
  });
}

/**
 * Sends a stream. The provider is read ahead to its first output event first, so a failure
 * before it is still an HTTP error status; after it, failures become the protocol's in-band error.
 */
async function sendStream(
  res: HttpResponse,
  codec: InboundCodec,
  events: AsyncIterable<CanonicalStreamEvent>,
  encodeContext: EncodeContext,
  signal: { readonly aborted: boolean },
  logger: Logger,
): Promise<void> {
  const iterator = events[Symbol.asyncIterator]();
  const writer = new SseWriter(res);
  try {
    const ahead: CanonicalStreamEvent[] = [];
    let step = await iterator.next();
    while (!step.done && step.value.type === 'start') {
      ahead.push(step.value);
      step = await iterator.next();
    }
    if (step.done) throw endedEarly();
    if (step.value.type === 'error') throw step.value.error;
    ahead.push(step.value);

    const encoder = codec.createStreamEncoder(encodeContext);
    let opening = '';
    let finished = false;
    for (const event of ahead) {
      finished ||= event.type === 'finish';
      opening += encoder.encode(event);
    }
    await startSse(res, encodeContext.requestId, opening);
    while (!finished && !signal.aborted) {
      let event: CanonicalStreamEvent;
      try {
        const next = await iterator.next();
        event = next.done ? { type: 'error', error: endedEarly() } : next.value;
      } catch (error) {
        if (signal.aborted) break;
        const gatewayError = toGatewayError(error, logger, encodeContext.requestId);
        logger.warn({ requestId: encodeContext.requestId, code: gatewayError.code }, `stream failed after its first event: ${gatewayError.message}`);
        event = { type: 'error', error: gatewayError };
      }
      const full = writer.write(encoder.encode(event));
      if (full) await full;
      finished = event.type === 'finish' || event.type === 'error';
    }
    writer.end();
  } finally {
    writer.flush(); // what was encoded before a throw still goes out
    // Releases the provider (and its upstream request) when we stop early.
    await iterator.return?.().catch(() => undefined);
  }
}

export interface EndpointRules {
  /** Anthropic clients send their key in `x-api-key`. */
  acceptXApiKey: boolean;
  requireAnthropicVersion: boolean;
  /** Caller headers passed to the provider as `clientHeaders` (lower-case names). */
  forwardedHeaders: readonly string[];
}

/** The caller headers named in `names` that are present. */
export function pickClientHeaders(req: HttpRequest, names: readonly string[]): Record<string, string> | undefined {
  let picked: Record<string, string> | undefined;
  for (const name of names) {
    const value = req.headers[name];
    if (typeof value === 'string' && value !== '') (picked ??= {})[name] = value;
  }
  return picked;
}

/** The POST handler for one protocol: read → decode → route → provider → encode. */
export function createGenerationHandler(
  codec: InboundCodec,
  options: ResolvedGatewayOptions,
  rules: EndpointRules,
): EndpointHandler {
  const readBody = createJsonBodyReader(options.bodyLimit);
  return async (req, res) => {
    // The request id goes on the answer's headers with the answer (sendJson, startSse, sendError).
    const requestId = createRequestId();
    const abort = new RequestAbort();
    res.on('close', () => {
      if (!res.writableFinished) abort.abort();
    });
    try {
      const access = checkAccess(req, options, rules.acceptXApiKey);
      if (access) await access;
      if (rules.requireAnthropicVersion) checkAnthropicVersion(req.headers);
      const decoded: CanonicalRequest = codec.decodeRequest(await readBody(req));
      const model = resolveModel(options.models, decoded.model);
      const request = model.omitHostedTools ? omitHostedTools(decoded, model.capabilities) : decoded;
      checkCapabilities({
        request,
        inbound: codec.protocol,
        upstream: model.adapter.protocol,
        hintFields: codec.hintFields,
        modelId: model.id,
        capabilities: model.capabilities,
      });
      const upstreamRequest: CanonicalRequest = { ...request, model: model.upstreamModel };
      const clientHeaders = pickClientHeaders(req, rules.forwardedHeaders);
      const context = createProviderContext(abort, {
        requestId,
        gatewayModel: model.id,
        logger: options.logger,
        ...(clientHeaders ? { clientHeaders } : {}),
      });
      const encodeContext: EncodeContext = { requestId, created: Math.floor(Date.now() / 1000), request };
      // Namespaced (Codex) tools become plain functions for providers without namespaces.
      const flattened = model.adapter.protocol === 'responses' ? undefined : flattenToolNamespaces(upstreamRequest);
      const providerRequest = flattened?.request ?? upstreamRequest;
      if (request.stream) {
        const events = model.adapter.stream(providerRequest, context);
        const restored = flattened ? restoreStream(events, flattened.restoreEvent) : events;
        await sendStream(res, codec, restored, encodeContext, abort, options.logger);
      } else {
        const response = await model.adapter.generate(providerRequest, context);
        sendJson(res, 200, codec.encodeResponse(flattened ? flattened.restoreResponse(response) : response, encodeContext), requestId);
      }
    } catch (error) {
      if (abort.aborted && !res.headersSent) return; // the client left; nobody to answer
      const gatewayError = toGatewayError(error, options.logger, requestId);
      if (res.headersSent) {
        res.end();
        return;
      }
      if (gatewayError.status >= 500) options.logger.warn({ requestId, code: gatewayError.code }, gatewayError.message);
      sendError(res, codec, gatewayError, requestId);
    }
  };
}
