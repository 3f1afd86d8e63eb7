import { html, Html } from '../console/html.js';
import { BASE_MARK, NOTE_MARK } from './docs-markers.js';
import type { NavSection } from './docs-navigation.js';

/** Links of every page's header besides the guide's own: the status page, the console. */
export interface HeaderLinks {
  /** The service-check page (`/status`); undefined where there is none. */
  status: string | undefined;
  /** The console; undefined where there is none. */
  console: string | undefined;
}

// The marks are Html (never escaped): the request's base path and note replace them, escaped, when the page is sent.
const BASE = new Html(BASE_MARK);

function navigation(sections: readonly NavSection[], current: string | undefined): Html {
  return html`<nav aria-label="Guide">
<ul><li><a href="${BASE}/"${current === '' ? html` aria-current="page"` : ''}>Guide home</a></li></ul>
${sections.map(
  (section) => html`${section.title === undefined ? '' : html`<h2>${section.title}</h2>`}<ul>
${section.entries.map(
  (entry) => html`<li><a href="${BASE}/${entry.route}"${entry.route === current ? html` aria-current="page"` : ''}>${entry.title}</a></li>
`,
)}</ul>
`,
)}</nav>`;
}

/**
 * A page of the guide, with the marks for the request's base path and note: the header (search and
 * the status page on every page), the navigation, then `body`. No script: everything works without it.
 */
export function docsLayout(
  title: string,
  body: Html,
  sections: readonly NavSection[],
  links: HeaderLinks,
  current: string | undefined,
  query = '',
): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Switchyard guide</title>
<link rel="stylesheet" href="${BASE}/assets/docs.css">
<link rel="icon" href="data:,">
</head>
<body>
<a class="skip" href="#main">Skip to the page</a>
<header><a class="brand" href="${BASE}/">Switchyard guide</a>
<nav aria-label="Service"><ul>${links.status === undefined ? '' : html`<li><a class="status-link" href="${links.status}">Status page</a></li>`}${links.console === undefined ? '' : html`<li><a href="${links.console}">Console</a></li>`}</ul></nav>
<form role="search" method="get" action="${BASE}/search"><label class="visually-hidden" for="guide-search">Search the guide</label><input id="guide-search" type="search" name="q" value="${query}" placeholder="Search the guide"> <button type="submit">Search</button></form>
</header>
<div class="guide">
${navigation(sections, current)}
<main id="main">
${new Html(NOTE_MARK)}${body}
</main>
</div>
<footer>${links.status === undefined ? '' : html`Requests failing? The <a href="${links.status}">status page</a> shows how each model answered over the last hour, day and week. `}</footer>
</body>
</html>`.text;
}
