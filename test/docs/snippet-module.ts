import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { projectRoot } from '../server/spawn-cli.js';
import { fencedBlocks, type FencedBlock } from './fenced-blocks.js';

const run = promisify(execFile);

/**
 * One module from a page's `ts` blocks (those `keep` selects): the first block at the top, each
 * later one in a block scope of its own, their imports merged and hoisted, so the blocks of a page
 * type-check together as a reader pastes them.
 */
export function snippetModule(markdown: string, keep: (block: FencedBlock) => boolean = () => true): string {
  const defaults = new Set<string>();
  const named = new Map<string, Set<string>>();
  const bodies = fencedBlocks(markdown)
    .filter((block) => block.lang === 'ts' && keep(block))
    .map((block, index) => {
      const body = block.code
        .split('\n')
        .filter((line) => {
          const names = /^import \{([^}]+)\} from (['"][^'"]+['"]);$/.exec(line);
          if (names) {
            const set = named.get(names[2]!) ?? new Set<string>();
            for (const name of names[1]!.split(',')) set.add(name.trim());
            named.set(names[2]!, set);
            return false;
          }
          if (line.startsWith('import ')) return (defaults.add(line), false);
          return true;
        })
        .join('\n');
      return index === 0 ? body : `{\n${body}\n}`;
    });
  const imports = [...defaults, ...[...named].map(([from, names]) => `import { ${[...names].join(', ')} } from ${from};`)];
  return [...imports, 'export {};', ...bodies].join('\n');
}

/**
 * Type-checks the `.ts` files of `dir` (under test-artifacts/, two levels below the project) with
 * the project's settings and `compilerOptions` on top; returns what tsc printed ('' when clean).
 */
export async function typeCheckFolder(dir: string, compilerOptions: Record<string, unknown>): Promise<string> {
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../tsconfig.json',
      compilerOptions: { noEmit: true, noUnusedLocals: false, ...compilerOptions },
      include: ['*.ts'],
    }),
  );
  const result = await run(process.execPath, [join(projectRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
    cwd: projectRoot,
  }).catch((error: Error & { stdout?: string }) => ({ stdout: error.stdout ?? error.message }));
  return result.stdout;
}
