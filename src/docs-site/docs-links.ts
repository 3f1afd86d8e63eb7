import { posix } from 'node:path';
import { BASE_MARK, ORIGIN_MARK, WRITTEN_ORIGIN } from './docs-markers.js';

/** Where a link of a docs page goes once served. */
export type LinkTarget =
  /** Unchanged: an anchor on the page, another site, an absolute path of the server. */
  | { kind: 'as-is'; href: string }
  /** A page or an image of the guide, at its route. */
  | { kind: 'guide'; href: string }
  /** A file of the repository outside docs/ (README.md, bench/RESULTS.md): no page serves it. */
  | { kind: 'outside'; path: string };

/** `configuration.md` → `configuration`, `clients/openai.md` → `clients/openai`, `index.md` → '' (the guide's home). */
export function routeOfPage(file: string): string {
  const route = file.replace(/\.md$/i, '');
  return route === 'index' ? '' : route;
}

/** A route as a path from the guide's mount point (`/configuration`; the home is `/`). */
export const hrefOfRoute = (route: string, anchor = '') => `${BASE_MARK}/${route}${anchor}`;

/**
 * Where `href`, written in the docs file `from` (relative to docs/, `clients/openai.md`), points
 * when served: a relative `.md` link becomes its page's route (anchor kept), a relative link to
 * another file its route under the guide, the written server address the server's own.
 */
export function resolveLink(from: string, href: string): LinkTarget {
  if (href.startsWith(WRITTEN_ORIGIN)) return { kind: 'as-is', href: ORIGIN_MARK + href.slice(WRITTEN_ORIGIN.length) };
  // A scheme (https:, mailto:), a path from the root (/status), a protocol-relative or anchor-only link.
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('/') || href.startsWith('#') || href === '') return { kind: 'as-is', href };
  const cut = href.search(/[?#]/);
  const target = cut === -1 ? href : href.slice(0, cut);
  const suffix = cut === -1 ? '' : href.slice(cut);
  let path: string;
  try {
    path = posix.normalize(posix.join(posix.dirname(from), decodeURIComponent(target)));
  } catch {
    return { kind: 'as-is', href };
  }
  if (path === '..' || path.startsWith('../')) return { kind: 'outside', path: path.replace(/^(\.\.\/)+/, '') };
  if (path === '.') return { kind: 'guide', href: hrefOfRoute('', suffix) };
  if (/\.md$/i.test(path)) return { kind: 'guide', href: hrefOfRoute(routeOfPage(path), suffix) };
  if (target.endsWith('/')) return { kind: 'guide', href: hrefOfRoute(routeOfPage(posix.join(path, 'index.md')), suffix) };
  return { kind: 'guide', href: hrefOfRoute(path.split('/').map(encodeURIComponent).join('/'), suffix) };
}
