import { readdir, readFile } from 'node:fs/promises';
import { extname, join, relative, sep } from 'node:path';
import { html, Html } from '../console/html.js';
import { routeOfPage } from './docs-links.js';
import { compileTemplate, type PageTemplate } from './docs-markers.js';
import { docsLayout, type HeaderLinks } from './docs-layout.js';
import { buildNavigation, type NavSection } from './docs-navigation.js';
import { renderMarkdown } from './render-markdown.js';
import { searchable, type SearchablePage } from './search-docs.js';

/** The files besides pages that the guide serves (its screenshots), by extension. */
export const IMAGE_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
};

/** The whole guide, rendered once: each page's HTML with the base, origin and note marks, ready to send. */
export interface DocsLibrary {
  /** Route (`configuration`, `clients/openai`; '' for the home) → the page's HTML, cut at its marks. */
  pages: ReadonlyMap<string, PageTemplate>;
  /** Route (`screenshots/console-keys.png`) → the image's file. */
  images: ReadonlyMap<string, string>;
  searchable: readonly SearchablePage[];
  navigation: readonly NavSection[];
}

/** Every file under `dir`, relative to it with `/`; dot-folders (and dot-files) are left out. */
async function filesUnder(dir: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !file.split('/').some((part) => part.startsWith('.')))
    .sort();
}

/** The home when docs/ has no index.md: the navigation lists every page. */
const emptyHome = (root: string, count: number) =>
  html`<h1>Switchyard guide</h1>\n<p>${count === 0 ? 'This server has no guide pages' : 'The guide has no home page (index.md)'} in <code>${root}</code>.</p>\n`;

/** Reads and renders every markdown file under `root` (the docs folder). */
export async function loadDocs(root: string, links: HeaderLinks): Promise<DocsLibrary> {
  const files = await filesUnder(root);
  const rendered = await Promise.all(
    files
      .filter((file) => file.toLowerCase().endsWith('.md'))
      .map(async (file) => renderMarkdown(file, await readFile(join(root, file), 'utf8'))),
  );
  const routeOf = (page: { file: string }) => routeOfPage(page.file);
  const home = rendered.find((page) => routeOf(page) === '');
  const navigation = buildNavigation(home, rendered, routeOf);
  const pages = new Map<string, PageTemplate>();
  for (const page of rendered)
    pages.set(routeOf(page), compileTemplate(docsLayout(page.title, new Html(page.html), navigation, links, routeOf(page))));
  if (home === undefined)
    pages.set('', compileTemplate(docsLayout('Switchyard guide', emptyHome(root, rendered.length), navigation, links, '')));
  const images = new Map(
    files.filter((file) => IMAGE_TYPES[extname(file).toLowerCase()] !== undefined).map((file) => [file, join(root, file)]),
  );
  return { pages, images, navigation, searchable: rendered.map((page) => searchable(routeOf(page), page.title, page.text)) };
}
