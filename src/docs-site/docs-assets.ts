import { CONSOLE_CSS } from '../console/assets.js';

/**
 * The guide's stylesheet: the console's, plus the two columns, the search box and the code colours
 * (highlight.js's class names; each keeps a contrast of at least 4.5:1 on the code background).
 */
export const DOCS_CSS = `${CONSOLE_CSS}
header form[role=search] { margin-left: auto; display: flex; gap: .4rem; }
header form[role=search] input { min-width: 12rem; }
header .status-link { font-weight: 600; }
.guide { display: flex; gap: 2rem; max-width: 80rem; margin: 0 auto; padding: 0 1.5rem; }
.guide > nav { flex: 0 0 15rem; padding: 1.5rem 0; }
.guide > nav ul { display: block; padding: 0; margin: 0 0 1rem; }
.guide > nav li { margin: .25rem 0; }
.guide > nav h2 { font-size: .8rem; text-transform: uppercase; letter-spacing: .05em; color: var(--muted); margin: 1rem 0 .35rem; }
.guide > main { flex: 1 1 auto; min-width: 0; max-width: 52rem; margin: 0; padding: 1.5rem 0; }
main img { max-width: 100%; height: auto; border: 1px solid var(--line); }
main h1 { font-size: 1.75rem; }
main h3 { font-size: 1rem; margin: 1.25rem 0 .4rem; }
main blockquote { margin: 1rem 0; padding: .25rem 1rem; border-left: 4px solid var(--line); color: var(--muted); }
main :not(pre) > code { background: var(--soft); padding: .05rem .3rem; border-radius: 3px; }
.outside { border-bottom: 1px dotted var(--muted); }
.results li { margin: 0 0 1rem; }
.results p { margin: .2rem 0; color: var(--muted); }
mark { background: #fde68a; color: var(--fg); }
footer { max-width: 80rem; margin: 0 auto; padding: 1rem 1.5rem 2rem; border-top: 1px solid var(--line); color: var(--muted); font-size: .9rem; }
@media (max-width: 50rem) { .guide { display: block; } .guide > nav { padding-bottom: 0; } }
.hljs-comment, .hljs-quote, .hljs-meta { color: #5c6370; font-style: italic; }
.hljs-keyword, .hljs-selector-tag, .hljs-built_in, .hljs-doctag { color: #8b1ea8; }
.hljs-string, .hljs-regexp, .hljs-addition, .hljs-meta .hljs-string { color: #1d6b2a; }
.hljs-number, .hljs-literal, .hljs-symbol, .hljs-bullet { color: #9a4a00; }
.hljs-title, .hljs-section, .hljs-name, .hljs-function .hljs-title { color: #0b4fb3; }
.hljs-attr, .hljs-attribute, .hljs-variable, .hljs-template-variable, .hljs-property, .hljs-params { color: #a1260d; }
.hljs-type, .hljs-class .hljs-title, .hljs-title.class_ { color: #7a5200; }
.hljs-deletion { color: #a50e0e; }
.hljs-emphasis { font-style: italic; }
.hljs-strong { font-weight: 700; }
`;
