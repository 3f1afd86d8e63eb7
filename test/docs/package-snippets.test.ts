import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../server/spawn-cli.js';
import { snippetModule, typeCheckFolder } from './snippet-module.js';

// The TypeScript in the README and the guide that uses the package (every `ts` block importing
// 'switchyard-gateway') type-checks against the package's source, so an option, export or stage
// field renamed in the code fails here, not in a reader's editor. A page's blocks are one module
// (`snippetModule`); what the guide's fragments take as already there (the host app, its keys and
// models) is declared once, in AMBIENT.

const dir = join(projectRoot, 'test-artifacts', 'package-snippets');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const AMBIENT = `// What the guide's fragments take as already there.
declare const app: import('express').Express;
declare const apiKeys: string[];
declare const models: NonNullable<import('switchyard-gateway').GatewayOptions['models']>;
`;

const importsPackage = (code: string) => /from 'switchyard-gateway';/.test(code);

/** README.md and the guide's pages (docs/, not the client pages: client-snippets.test.ts) with such a block. */
function pages(): { name: string; module: string }[] {
  const files = [
    'README.md',
    ...readdirSync(join(projectRoot, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => join('docs', file)),
  ];
  return files.flatMap((file) => {
    const markdown = readFileSync(join(projectRoot, file), 'utf8');
    const module = snippetModule(markdown, (block) => importsPackage(block.code));
    return importsPackage(module) ? [{ name: file.replace(/[/.]/g, '-'), module }] : [];
  });
}

describe('TypeScript in the README and the guide', () => {
  it('should type-check against the package source', async () => {
    const checked = pages();
    // The README's own example and the stage guide's at least: a filter that found nothing would check nothing.
    expect(checked.map((page) => page.name)).toEqual(expect.arrayContaining(['README-md', 'docs-writing-a-stage-md']));
    mkdirSync(dir, { recursive: true });
    for (const page of checked) writeFileSync(join(dir, `${page.name}.ts`), page.module);
    writeFileSync(join(dir, 'ambient.d.ts'), AMBIENT);
    expect(await typeCheckFolder(dir, { rootDir: '../..', paths: { 'switchyard-gateway': ['../../src/index.ts'] } })).toBe('');
  }, 120_000);
});
