import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../server/spawn-cli.js';
import { snippetModule, typeCheckFolder } from './snippet-module.js';

// The TypeScript of the client guides whose SDKs are dev dependencies (openai, @anthropic-ai/sdk,
// ai with @ai-sdk/*) type-checks against the installed versions, so an option name that is wrong
// fails here. Each page's blocks are one module: the first block (the client) at the top, each
// later one in a block scope of its own, their imports merged. LangChain, the Agents SDK and the
// CLIs are not installed: their pages are not checked here.

const CHECKED = ['openai', 'anthropic', 'vercel-ai-sdk'];
const dir = join(projectRoot, 'test-artifacts', 'client-snippets');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('TypeScript in the client guides', () => {
  it('should type-check against the installed SDKs', async () => {
    mkdirSync(dir, { recursive: true });
    for (const page of CHECKED)
      writeFileSync(join(dir, `${page}.ts`), snippetModule(readFileSync(join(projectRoot, 'docs/clients', `${page}.md`), 'utf8')));
    expect(await typeCheckFolder(dir, { rootDir: '.' })).toBe('');
  }, 120_000);
});
