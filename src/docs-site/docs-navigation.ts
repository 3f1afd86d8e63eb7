import { BASE_MARK } from './docs-markers.js';
import type { RenderedPage } from './render-markdown.js';

export interface NavEntry {
  route: string;
  title: string;
}

/** A heading of the home page and the pages listed under it (the first section may have no heading). */
export interface NavSection {
  title: string | undefined;
  entries: NavEntry[];
}

const routeOfHref = (href: string) => (href.startsWith(`${BASE_MARK}/`) ? href.slice(2).replace(/[?#].*$/, '') : undefined);

/**
 * The navigation: the home page's (docs/index.md) headings and the pages its lists link to, in
 * its order; pages it does not list follow under "More pages", so every page is reachable.
 */
export function buildNavigation(
  home: RenderedPage | undefined,
  pages: readonly RenderedPage[],
  routeOf: (page: RenderedPage) => string,
): NavSection[] {
  const titles = new Map(pages.map((page) => [routeOf(page), page.title]));
  const listed = new Set<string>(['']);
  const sections: NavSection[] = [];
  let current: NavSection = { title: undefined, entries: [] };
  const tokens = home?.tokens ?? [];
  let inList = 0;
  tokens.forEach((token, index) => {
    if (token.type === 'heading_open' && token.tag !== 'h1') {
      if (current.entries.length > 0) sections.push(current);
      current = { title: tokens[index + 1]?.content, entries: [] };
    }
    if (token.type === 'list_item_open') inList += 1;
    if (token.type === 'list_item_close') inList -= 1;
    // The table of contents is the lists' links; a link in the home's prose is not an entry.
    if (token.type !== 'inline' || inList === 0) return;
    const children = token.children ?? [];
    children.forEach((child, at) => {
      const route = child.type === 'link_open' ? routeOfHref(child.attrGet('href') ?? '') : undefined;
      if (route === undefined || listed.has(route) || !titles.has(route)) return;
      listed.add(route);
      const end = children.findIndex((next, after) => after > at && next.type === 'link_close');
      const label = children
        .slice(at + 1, end === -1 ? undefined : end)
        .map((part) => part.content)
        .join('')
        .trim();
      current.entries.push({ route, title: label || (titles.get(route) ?? route) });
    });
  });
  if (current.entries.length > 0) sections.push(current);
  const rest = pages.filter((page) => !listed.has(routeOf(page))).map((page) => ({ route: routeOf(page), title: page.title }));
  if (rest.length > 0)
    sections.push({
      title: sections.length === 0 ? undefined : 'More pages',
      entries: rest.sort((a, b) => a.route.localeCompare(b.route)),
    });
  return sections;
}
