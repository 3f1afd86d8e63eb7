import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A request as Node's `http` server hands it over. An Express request is one too; when a host app
 * mounts the gateway, Express adds `baseUrl` (the mount path) and, if a body parser ran first, `body`.
 */
export interface HttpRequest extends IncomingMessage {
  body?: unknown;
  baseUrl?: string;
  /** Express's scheme, which honours its `trust proxy` setting. */
  protocol?: string;
}

export type HttpResponse = ServerResponse;

/** Express's `next`: hands a request the gateway does not own back to the host app. */
export type Next = (error?: unknown) => void;

/** A handler for one endpoint; the gateway has already matched its path and method. */
export type EndpointHandler = (req: HttpRequest, res: HttpResponse) => Promise<void>;
