import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../server/spawn-cli.js';

// The guide's conventions, which the /docs site and GitHub both rely on: a page starts with one
// `# Title`, docs/index.md lists every page, and relative links reach a file and a heading there.

const pages = readdirSync(join(projectRoot, 'docs'), { recursive: true })
  .map(String)
  .filter((path) => path.endsWith('.md'))
  .map((path) => join('docs', path));
const read = (file: string) => readFileSync(join(projectRoot, file), 'utf8');
const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, '');

/** GitHub's heading ids: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function headingIds(text: string): Set<string> {
  const seen = new Map<string, number>();
  const ids = new Set<string>();
  for (const match of withoutCode(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = match[1]!
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    ids.add(count === 0 ? base : `${base}-${count}`);
    seen.set(base, count + 1);
  }
  return ids;
}

describe('the guide in docs/', () => {
  it('should start every page with one # Title line', () => {
    for (const page of pages) {
      const text = read(page);
      expect(text.split('\n')[0], page).toMatch(/^# \S/);
      expect(withoutCode(text).match(/^# /gm), page).toHaveLength(1);
    }
  });

  it('should list every page in docs/index.md', () => {
    const listed = new Set([...read('docs/index.md').matchAll(/\]\(\.\/([^)#]+\.md)\)/g)].map((match) => join('docs', match[1]!)));
    expect(pages.filter((page) => page !== join('docs', 'index.md') && !listed.has(page))).toEqual([]);
  });

  it('should link only to files and headings that exist, from the pages and the README', () => {
    const broken: string[] = [];
    for (const file of ['README.md', ...pages]) {
      for (const match of withoutCode(read(file)).matchAll(/\]\(([^)\s]+)\)/g)) {
        const link = match[1]!;
        if (/^[a-z]+:/i.test(link)) continue;
        const [path, anchor] = link.split('#');
        const target = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(join(projectRoot, target))) broken.push(`${file}: ${link}`);
        else if (anchor && target.endsWith('.md') && !headingIds(read(target)).has(anchor))
          broken.push(`${file}: ${link} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('should write the server as http://localhost:8787, never another loopback address', () => {
    for (const file of ['README.md', ...pages.filter((page) => page.startsWith(join('docs', 'clients')))]) {
      expect(read(file), file).not.toMatch(/http:\/\/127\.0\.0\.1:8787/);
    }
  });
});
