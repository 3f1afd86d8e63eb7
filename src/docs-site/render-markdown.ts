import GithubSlugger from 'github-slugger';
import MarkdownIt from 'markdown-it';
import { escapeHtml } from '../console/html.js';
import { resolveLink } from './docs-links.js';
import { markOrigin } from './docs-markers.js';
import { highlightCode } from './highlight-code.js';

type Token = ReturnType<MarkdownIt['parse']>[number];

/** A docs file rendered: its title, its HTML and its text (for search), both with the origin and base marks. */
export interface RenderedPage {
  /** Relative to docs/: `clients/openai.md`. */
  file: string;
  title: string;
  html: string;
  text: string;
  /** The parsed tokens (the home's list of links is the navigation). */
  tokens: Token[];
}

interface Env {
  file: string;
}

// Raw HTML passes as GitHub renders it (the pages are the project's own; the CSP still forbids
// inline script and style); bare URLs stay text, as written.
const markdown = new MarkdownIt({ html: true, linkify: false, typographer: false, highlight: highlightCode });

const plainText = (inline: Token | undefined) =>
  (inline?.children ?? [])
    .filter((child) => child.type === 'text' || child.type === 'code_inline')
    .map((child) => child.content)
    .join('');

/** Each heading gets the id GitHub gives it (the anchors of links between pages work on both); links and images point where they are served. */
markdown.core.ruler.push('switchyard_guide', (state) => {
  const { file } = state.env as Env;
  const slugger = new GithubSlugger();
  state.tokens.forEach((token, index) => {
    if (token.type === 'heading_open') token.attrSet('id', slugger.slug(plainText(state.tokens[index + 1])));
    if (token.type !== 'inline') return;
    const open: Token[] = [];
    for (const child of token.children ?? []) {
      if (child.type === 'link_open' || child.type === 'image') {
        const attribute = child.type === 'image' ? 'src' : 'href';
        const target = resolveLink(file, child.attrGet(attribute) ?? '');
        if (target.kind === 'outside') child.meta = { outside: target.path };
        else child.attrSet(attribute, target.href);
        if (child.type === 'link_open') open.push(child);
      } else if (child.type === 'link_close') {
        child.meta = open.pop()?.meta;
      }
    }
  });
});

// A link to a file outside docs/ works on GitHub only: here it is its text, naming the file.
const renderToken = markdown.renderer.renderToken.bind(markdown.renderer);
markdown.renderer.rules.link_open = (tokens, index, options) => {
  const outside = (tokens[index]?.meta as { outside?: string } | null)?.outside;
  return outside === undefined
    ? renderToken(tokens, index, options)
    : `<span class="outside" title="${escapeHtml(`${outside} in the repository`)}">`;
};
markdown.renderer.rules.link_close = (tokens, index, options) =>
  (tokens[index]?.meta as { outside?: string } | null)?.outside === undefined ? renderToken(tokens, index, options) : '</span>';

/** The words of a page, for search: its prose, inline code and code blocks. */
function textOf(tokens: readonly Token[]): string {
  return tokens
    .map((token) =>
      token.type === 'inline' ? plainText(token) : token.type === 'fence' || token.type === 'code_block' ? token.content : '',
    )
    .filter((part) => part !== '')
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Renders the docs file `file` (relative to docs/) whose markdown is `source`. */
export function renderMarkdown(file: string, source: string): RenderedPage {
  const env: Env = { file };
  const tokens = markdown.parse(source, env);
  const h1 = tokens.findIndex((token) => token.type === 'heading_open' && token.tag === 'h1');
  const title = (h1 === -1 ? '' : plainText(tokens[h1 + 1]).trim()) || file.replace(/\.md$/i, '');
  return {
    file,
    title,
    html: markOrigin(markdown.renderer.render(tokens, markdown.options, env)),
    text: markOrigin(textOf(tokens)),
    tokens,
  };
}
