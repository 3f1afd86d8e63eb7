import { fencedBlocks, type FencedBlock } from './fenced-blocks.js';

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
