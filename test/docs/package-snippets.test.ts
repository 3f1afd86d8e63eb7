import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../server/spawn-cli.js';
import { snippetModule } from './snippet-module.js';

// The TypeScript in the README and the guide that uses the package (every `ts` block importing
// 'switchyard-gateway') type-checks against the package's source, so an option, export or stage
// field renamed in the code fails here, not in a reader's editor. A page's blocks are one module
// (`snippetModule`); what the guide's fragments take as already there (the host app, its keys and
// models) is declared once, in AMBIENT.

const run = promisify(execFile);
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
    writeFileSync(
      join(dir, 'tsconfig.json'),
      JSON.stringify({
        extends: '../../tsconfig.json',
        compilerOptions: { noEmit: true, rootDir: '../..', noUnusedLocals: false, paths: { 'switchyard-gateway': ['../../src/index.ts'] } },
        include: ['*.ts'],
      }),
    );
    const result = await run(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
      cwd: projectRoot,
    }).catch((error: Error & { stdout?: string }) => ({ stdout: error.stdout ?? error.message }));
    expect(result.stdout).toBe('');
  }, 120_000);
});
