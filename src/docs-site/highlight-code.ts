import { createRequire } from 'node:module';
import { WRITTEN_ORIGIN } from './docs-markers.js';

/** What the guide uses of highlight.js. */
interface Highlighter {
  registerLanguage(name: string, language: unknown): void;
  getLanguage(name: string): object | undefined;
  highlight(code: string, options: { language: string; ignoreIllegals: boolean }): { value: string };
}

// Loaded with require, untyped: highlight.js's own types pull the DOM library into the whole
// program's globals (`/// <reference lib="dom" />`), which changes what `fetch`'s Response is here.
const require = createRequire(import.meta.url);
const hljs = require('highlight.js/lib/core') as Highlighter;

// Only the languages a gateway's guide shows (each with its aliases: sh, js, ts, yml, toml, py, console…).
const LANGUAGES = ['bash', 'diff', 'dockerfile', 'http', 'ini', 'javascript', 'json', 'python', 'shell', 'sql', 'typescript', 'yaml'];
for (const name of LANGUAGES) hljs.registerLanguage(name, require(`highlight.js/lib/languages/${name}`));

const count = (text: string, part: string) => text.split(part).length - 1;

/**
 * A fenced block's code as highlighted HTML; '' (markdown-it then escapes it plainly) for an unknown
 * language, or where highlighting cut the written server address apart (the page shows the
 * server's own address in its place, so the address must stay whole).
 */
export function highlightCode(code: string, language: string): string {
  if (language === '' || hljs.getLanguage(language) === undefined) return '';
  const highlighted = hljs.highlight(code, { language, ignoreIllegals: true }).value;
  return count(highlighted, WRITTEN_ORIGIN) === count(code, WRITTEN_ORIGIN) ? highlighted : '';
}
