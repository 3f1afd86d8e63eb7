import type { AllowedHosts } from '../http/allowed-hosts.js';
import type { Logger } from '../logger.js';
import type { DocsGateway } from './signed-in-keys.js';

export interface DocsOptions {
  /**
   * The gateway whose console sign-in the guide reads: a signed-in user sees their keys' public
   * ids on every page. Without one (or without its database) the pages are the same for everyone.
   */
  gateway?: DocsGateway;
  /** The folder of markdown pages (index.md is the home and the table of contents). Default: the package's docs/. */
  root?: string;
  /** The path the guide is mounted at when a plain `node:http` server routes to it (Express's mount path is read from the request). */
  basePath?: string;
  /**
   * Where the API is, as clients reach it (`https://llm.example.com`): every `http://localhost:8787`
   * of the pages shows it. Default: the origin the browser asked the guide at.
   */
  apiRoot?: string;
  /** Take the origin from `X-Forwarded-Proto` / `X-Forwarded-Host` (behind a reverse proxy). Default false. */
  trustProxy?: boolean | number;
  /**
   * Host names the guide answers to besides IP literals, `localhost` and `*.localhost`; others get
   * a 403 (`HOST_NOT_ALLOWED`): a page's origin is the request's, so only known names may set it.
   * Default `true` (any name: the host app owns its Host policy; the standalone server checks its own first).
   */
  allowedHosts?: AllowedHosts;
  /** Where the service-check page is, linked from every page; `false`: nowhere. Default `/status`. */
  statusPath?: string | false;
  /** Where the console is, linked from every page; default `false` (no link). */
  consolePath?: string | false;
  logger?: Logger;
}
