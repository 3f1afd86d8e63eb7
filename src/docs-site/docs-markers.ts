/**
 * The parts of a cached page that differ per request, held as private-use characters (which no docs
 * page contains and neither markdown-it nor highlight.js touches) until the page is sent.
 */
export const ORIGIN_MARK = '\uE000';
/** Where the guide is mounted (`/docs`; an Express mount path). */
export const BASE_MARK = '\uE001';
/** The signed-in user's note about their keys. */
export const NOTE_MARK = '\uE002';

/** The address the guide's pages are written with; each page shows the server's own instead. */
export const WRITTEN_ORIGIN = 'http://localhost:8787';

/** `http://localhost:8787` → the origin mark, wherever the text has it. */
export const markOrigin = (text: string): string => text.replaceAll(WRITTEN_ORIGIN, ORIGIN_MARK);

/** A page cut at its marks: text, then a mark, then text… (a mark alone at each odd index). */
export type PageTemplate = readonly string[];

export const compileTemplate = (page: string): PageTemplate => page.split(/([\uE000-\uE002])/);

/** The page for one request: each mark replaced by its value (already HTML). */
export function fillTemplate(template: PageTemplate, values: Readonly<Record<string, string>>): string {
  return template.map((part, index) => (index % 2 === 1 ? (values[part] ?? '') : part)).join('');
}
