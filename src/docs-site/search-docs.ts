import { escapeHtml } from '../console/html.js';

export interface SearchablePage {
  route: string;
  title: string;
  text: string;
  /** The title and text in lower case, made once (a search compares every page). */
  lowerTitle: string;
  lowerText: string;
}

export const searchable = (route: string, title: string, text: string): SearchablePage => ({
  route,
  title,
  text,
  lowerTitle: title.toLowerCase(),
  lowerText: text.toLowerCase(),
});

export interface SearchHit {
  route: string;
  title: string;
  /** HTML: escaped text around the first match, the matched words in `<mark>`. */
  snippet: string;
}

const MAX_QUERY = 200;
const MAX_TERMS = 8;
const CONTEXT = 90;

export const termsOf = (query: string) =>
  query
    .slice(0, MAX_QUERY)
    .toLowerCase()
    .split(/\s+/)
    .filter((term) => term !== '')
    .slice(0, MAX_TERMS);

const occurrences = (text: string, term: string) => text.split(term).length - 1;

function snippetOf(text: string, lower: string, terms: readonly string[]): string {
  const first = Math.min(...terms.map((term) => lower.indexOf(term)).filter((at) => at !== -1));
  if (!Number.isFinite(first)) return escapeHtml(text.slice(0, CONTEXT * 2));
  // Whole words at both ends.
  const space = text.indexOf(' ', Math.max(0, first - CONTEXT));
  const start = first - CONTEXT <= 0 || space === -1 || space >= first ? Math.max(0, first - CONTEXT) : space + 1;
  const after = text.lastIndexOf(' ', first + CONTEXT);
  const end = first + CONTEXT >= text.length ? text.length : after > first ? after : first + CONTEXT;
  const part = text.slice(start, end);
  const pattern = new RegExp(terms.map((term) => term.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  let html = '';
  let last = 0;
  for (const match of part.matchAll(pattern)) {
    html += `${escapeHtml(part.slice(last, match.index))}<mark>${escapeHtml(match[0])}</mark>`;
    last = match.index + match[0].length;
  }
  return `${start > 0 ? '… ' : ''}${html}${escapeHtml(part.slice(last))}${end < text.length ? ' …' : ''}`;
}

/** The pages holding every word of `query` (case-insensitive), those with it in their title and most often first. */
export function searchDocs(pages: readonly SearchablePage[], query: string): SearchHit[] {
  const terms = termsOf(query);
  if (terms.length === 0) return [];
  return pages
    .map((page) => {
      const title = page.lowerTitle;
      const text = page.lowerText;
      const found = terms.every((term) => title.includes(term) || text.includes(term));
      const score = terms.reduce((sum, term) => sum + occurrences(title, term) * 20 + occurrences(text, term), 0);
      return { page, found, score };
    })
    .filter((hit) => hit.found)
    .sort((a, b) => b.score - a.score || a.page.title.localeCompare(b.page.title))
    .map(({ page }) => ({ route: page.route, title: page.title, snippet: snippetOf(page.text, page.lowerText, terms) }));
}
