import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { configError } from '../canonical/index.js';
import { originOf, sendHtml, sendText } from '../console/console-http.js';
import { escapeHtml, html, Html } from '../console/html.js';
import { createHostCheck, sendHostNotAllowed } from '../http/allowed-hosts.js';
import type { HttpRequest, Next } from '../http/types.js';
import { consoleLogger } from '../logger.js';
import { DOCS_CSS } from './docs-assets.js';
import { docsLayout, type HeaderLinks } from './docs-layout.js';
import { BASE_MARK, compileTemplate, fillTemplate, NOTE_MARK, ORIGIN_MARK, WRITTEN_ORIGIN } from './docs-markers.js';
import type { DocsOptions } from './docs-options.js';
import { PACKAGE_DOCS_ROOT } from './docs-root.js';
import { IMAGE_TYPES, loadDocs, type DocsLibrary } from './load-docs.js';
import { searchDocs } from './search-docs.js';
import { signedInKeys, type SignedInKeys } from './signed-in-keys.js';

/** The guide as a request handler: Express middleware at any mount path, or a `node:http` handler. */
export type DocsHandler = (req: IncomingMessage, res: ServerResponse, next?: Next) => void;

/** A host as a browser sends it (`name`, `name:port`, `[v6]:port`): anything else is never shown as the origin. */
const PLAIN_HOST = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(:\d{1,5})?$/;
const MARKS = /[\uE000-\uE0FF]/g;

/** The note on every page for a signed-in console user: which of their keys the examples' `SWITCHYARD_API_KEY` may hold. */
function keysNote(signedIn: SignedInKeys | undefined, consolePath: string | undefined): string {
  if (signedIn === undefined) return '';
  const keys =
    signedIn.publicIds.length === 0
      ? html`you have no live key yet${consolePath === undefined ? '' : html` (<a href="${consolePath}">create one in the console</a>)`}`
      : html`your key${signedIn.publicIds.length === 1 ? '' : 's'} ${signedIn.publicIds.map((id, index) => html`${index === 0 ? '' : ', '}<code>${id}</code>`)}`;
  return html`<div class="notice" role="status">Signed in to the console as ${signedIn.email}: ${keys}. The examples read the key from <code>SWITCHYARD_API_KEY</code>: set it to the secret of one of them (the console showed it once, when the key was made).</div>
`.text.replace(MARKS, '');
}

/**
 * The integration and troubleshooting guide: the package's docs/*.md rendered once (markdown-it,
 * highlight.js) and served from memory, with a navigation from docs/index.md, a search
 * (`/search?q=`), the status page linked from every page, and every `http://localhost:8787` of
 * the pages shown as this server's own address. No script; the console's CSP.
 *
 * @example
 * app.use('/docs', switchyardDocs({ gateway: api }));
 */
export function switchyardDocs(options: DocsOptions = {}): DocsHandler {
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !basePath.startsWith('/'))
    throw configError('CONFIG_INVALID', `docs basePath must start with / (got '${basePath}'), e.g. '/docs'.`);
  if (options.apiRoot !== undefined && !/^https?:\/\/[^/]/.test(options.apiRoot)) {
    throw configError('CONFIG_INVALID', `docs apiRoot must be an http(s) URL (got '${options.apiRoot}'), e.g. 'https://llm.example.com'.`);
  }
  const root = options.root ?? PACKAGE_DOCS_ROOT;
  const apiRoot = options.apiRoot?.replace(/\/+$/, '');
  const trustProxy = options.trustProxy !== undefined && options.trustProxy !== false && options.trustProxy !== 0;
  const hostAllowed = createHostCheck(options.allowedHosts ?? true);
  const logger = options.logger ?? consoleLogger;
  const links: HeaderLinks = {
    status: options.statusPath === false ? undefined : (options.statusPath ?? '/status'),
    console: options.consolePath === false ? undefined : options.consolePath,
  };
  let library: Promise<DocsLibrary> | undefined;
  const images = new Map<string, Promise<Buffer>>();

  /** The pages, read and rendered at the first request and kept; a failed read is tried again at the next. */
  const load = () =>
    (library ??= loadDocs(root, links).catch((error: unknown) => {
      library = undefined;
      throw error;
    }));
  const image = (file: string) => {
    let bytes = images.get(file);
    if (bytes === undefined) {
      bytes = readFile(file);
      images.set(file, bytes);
      bytes.catch(() => images.delete(file));
    }
    return bytes;
  };

  return function switchyardDocsHandler(incoming, res, next) {
    const req = incoming as HttpRequest;
    const url = new URL(req.url ?? '/', 'http://docs.invalid');
    const within =
      basePath === ''
        ? url.pathname
        : url.pathname === basePath
          ? '/'
          : url.pathname.startsWith(`${basePath}/`)
            ? url.pathname.slice(basePath.length)
            : undefined;
    if (within === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) {
      if (next) next();
      else sendText(res, 404, 'text/plain; charset=utf-8', 'Not found.\n');
      return;
    }
    if (!hostAllowed(req.headers.host)) {
      sendHostNotAllowed(req, res, "the guide's allowedHosts");
      return;
    }
    if (within === '/assets/docs.css') {
      sendText(res, 200, 'text/css; charset=utf-8', DOCS_CSS, { 'Cache-Control': 'public, max-age=3600' });
      return;
    }
    const base = `${req.baseUrl ?? ''}${basePath}`;
    let route: string;
    try {
      route = decodeURIComponent(within).replace(/^\/+|\/+$/g, '');
    } catch {
      route = '\u0000';
    }
    void (async () => {
      const docs = await load();
      if (/\.md$/i.test(route)) {
        const page = route.replace(/\.md$/i, '').replace(/^index$/, '');
        if (docs.pages.has(page)) {
          res.writeHead(301, { Location: `${base}/${encodeURI(page)}`, 'Content-Length': 0 });
          res.end();
          return;
        }
      }
      const file = docs.images.get(route);
      if (file !== undefined) {
        const bytes = await image(file);
        res.writeHead(200, {
          'Content-Type': IMAGE_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream',
          'Content-Length': bytes.length,
          'Cache-Control': 'public, max-age=3600',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'",
        });
        res.end(bytes);
        return;
      }
      const query = route === 'search' ? (url.searchParams.get('q') ?? '').replace(MARKS, '') : undefined;
      const page = query !== undefined ? compileTemplate(searchPage(docs, query, links)) : docs.pages.get(route);
      const signedIn = await signedInKeys(req, options.gateway).catch((error: unknown) => {
        logger.warn({ error }, 'switchyard: the guide could not read the console sign-in');
        return undefined;
      });
      const { scheme, host } = originOf(req, trustProxy);
      const origin = apiRoot ?? (PLAIN_HOST.test(host) ? `${scheme === 'https' ? 'https' : 'http'}://${host}` : WRITTEN_ORIGIN);
      const template =
        page ??
        compileTemplate(
          docsLayout(
            'Not found',
            html`<h1>Not found</h1><p>The guide has no page here. <a href="${new Html(BASE_MARK)}/">The guide’s home</a></p>`,
            docs.navigation,
            links,
            undefined,
          ),
        );
      const text = fillTemplate(template, {
        [BASE_MARK]: escapeHtml(base),
        [ORIGIN_MARK]: escapeHtml(origin),
        [NOTE_MARK]: keysNote(signedIn, links.console),
      });
      sendHtml(res, page === undefined ? 404 : 200, new Html(text));
    })().catch((error: unknown) => {
      logger.error({ error, root }, 'switchyard: the guide could not be served');
      if (res.headersSent) res.end();
      else
        sendText(res, 503, 'text/plain; charset=utf-8', 'The guide cannot be read right now; try again in a moment.\n', {
          'Retry-After': '5',
        });
    });
  };
}

/** The search's answer: the pages with every word of the query, each with the text around its first match. */
function searchPage(docs: DocsLibrary, query: string, links: HeaderLinks): string {
  const hits = searchDocs(docs.searchable, query);
  const base = new Html(BASE_MARK);
  const body =
    query.trim() === ''
      ? html`<h1>Search the guide</h1><p>Type a word in the search box above.</p>`
      : html`<h1>Search: ${query}</h1>
<p role="status">${hits.length === 0 ? 'No page of the guide has every one of these words.' : `${hits.length} page${hits.length === 1 ? '' : 's'} of the guide.`}</p>
<ol class="results">${hits.map((hit) => html`<li><a href="${base}/${hit.route}">${hit.title}</a><p>${new Html(hit.snippet)}</p></li>`)}</ol>`;
  return docsLayout(query.trim() === '' ? 'Search' : `Search: ${query}`, body, docs.navigation, links, undefined, query);
}
