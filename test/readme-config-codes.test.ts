import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..');

function sourceText(dir: string): string {
  return readdirSync(dir, { withFileTypes: true })
    .map((entry) => {
      const path = join(dir, entry.name);
      return entry.isDirectory() ? sourceText(path) : entry.name.endsWith('.ts') ? readFileSync(path, 'utf8') : '';
    })
    .join('\n');
}

// The table moved from the README to the guide's Errors page (docs/errors.md).
describe('docs/errors.md configuration errors', () => {
  const page = readFileSync(join(root, 'docs', 'errors.md'), 'utf8');
  const table = page.slice(page.indexOf('## Configuration errors'));
  const documented = new Set([...table.matchAll(/^\| `(CONFIG_[A-Z_]+)` \|/gm)].map((match) => match[1]));
  const thrown = new Set([...sourceText(join(root, 'src')).matchAll(/'(CONFIG_[A-Z_]+)'/g)].map((match) => match[1]));

  it('should document every CONFIG_* code the source throws, and no other', () => {
    expect(thrown.size).toBeGreaterThan(10);
    expect([...documented].sort()).toEqual([...thrown].sort());
  });
});
