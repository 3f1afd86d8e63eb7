import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcRoot = join(import.meta.dirname, '../../src');

/** Folder → what its files may import (other src folders, `logger.ts` and packages). DESIGN.md's allow-list. */
const rules: Record<string, { folders: string[]; packages: RegExp }> = {
  canonical: { folders: ['canonical'], packages: /^$/ },
  protocols: { folders: ['canonical', 'sse', 'protocols'], packages: /^zod$/ },
  providers: {
    folders: ['canonical', 'sse', 'protocols', 'providers', 'logger.ts'],
    packages: /^(undici|eventsource-parser|zod|node:.*)$/,
  },
  routing: { folders: ['canonical', 'providers', 'routing', 'logger.ts'], packages: /^node:.*$/ },
  sse: { folders: ['sse'], packages: /^eventsource-parser$/ },
  access: { folders: ['canonical', 'access'], packages: /^node:.*$/ },
  testing: { folders: ['canonical', 'providers', 'logger.ts', 'testing'], packages: /^vitest$/ },
  usage: { folders: ['canonical', 'usage'], packages: /^gpt-tokenizer\/.*$/ },
  http: { folders: ['canonical', 'http', 'protocols', 'logger.ts'], packages: /^(express|node:.*)$/ },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  // Comments may show imports as examples; only code counts.
  const text = readFileSync(file, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1] ?? '');
}

/** The top-level src entry an import lands in: a folder name, or a file such as `logger.ts`. */
function targetOf(file: string, specifier: string): string {
  const resolved = relative(srcRoot, join(file, '..', specifier)).replace(/\.js$/, '.ts');
  return resolved.split('/')[0] ?? resolved;
}

describe('import rules', () => {
  const files = sourceFiles(srcRoot);

  it('should find the source files', () => {
    expect(files.length).toBeGreaterThan(20);
  });

  for (const [folder, rule] of Object.entries(rules)) {
    it(`should keep ${folder}/ importing only what DESIGN.md allows`, () => {
      const violations = files
        .filter((file) => relative(srcRoot, file).startsWith(`${folder}/`))
        .flatMap((file) =>
          importsOf(file)
            .filter((specifier) =>
              specifier.startsWith('.') ? !rule.folders.includes(targetOf(file, specifier)) : !rule.packages.test(specifier),
            )
            .map((specifier) => `${relative(srcRoot, file)} imports ${specifier}`),
        );
      expect(violations).toEqual([]);
    });
  }

  it('should let nothing import server/ (the CLI imports anything; nothing imports it)', () => {
    const importers = files
      .filter((file) => !relative(srcRoot, file).startsWith('server/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('.') && targetOf(file, specifier) === 'server')
          .map((specifier) => `${relative(srcRoot, file)} imports ${specifier}`),
      );
    expect(importers).toEqual([]);
  });

  it('should never let src/ read the shared reference folder', () => {
    const offenders = files.filter((file) => readFileSync(file, 'utf8').includes('../shared'));
    expect(offenders).toEqual([]);
  });
});
