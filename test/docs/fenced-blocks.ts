// The fenced code blocks of a markdown file, with the marker comment written just above each:
// `<!-- needs: provider-key -->` (it calls a real provider) or `<!-- not-run: REASON -->`.

export interface FencedBlock {
  /** The fence's info string, e.g. `sh`. */
  lang: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The marker above the fence, e.g. `needs: provider-key`, `not-run: interactive`. */
  mark: string | undefined;
}

export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = /^```(\S*)\s*$/.exec(lines[index]!);
    if (!open) continue;
    const close = lines.indexOf('```', index + 1);
    if (close === -1) throw new Error(`unclosed fence at line ${index + 1}`);
    let above = index - 1;
    while (above >= 0 && lines[above]!.trim() === '') above--;
    const mark = /^<!--\s*((?:needs|not-run):\s*[\w-]+)\s*-->$/.exec(lines[above]?.trim() ?? '')?.[1]?.replace(/:\s*/, ': ');
    blocks.push({ lang: open[1] ?? '', code: lines.slice(index + 1, close).join('\n'), line: index + 1, mark });
    index = close;
  }
  return blocks;
}

/** Shell blocks: the ones a reader pastes into a terminal. */
export const isShell = (block: FencedBlock) => ['sh', 'bash', 'shell', 'console'].includes(block.lang);
