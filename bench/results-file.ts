// bench/RESULTS.md: the bench writes what it measured there itself, with when, where and what
// code, so no measurement is ever copied by hand. One section per kind of run (the timed run,
// `--instructions`, `--allocation`); a run replaces its own section and keeps the others.

import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

export type ResultsKind = 'timed' | 'instructions' | 'allocation';

/** When, on what and of which code a run was made. */
export interface RunFacts {
  /** ISO time the run ended. */
  date: string;
  cpuModel: string;
  cores: number;
  node: string;
  /** The commit measured, `-dirty` when tracked files had changes; `unknown` outside git. */
  commit: string;
}

const TITLES: Record<ResultsKind, string> = {
  timed: 'Timed run',
  instructions: 'Instructions per request (`--instructions`)',
  allocation: 'Heap allocation per request (`--allocation`)',
};
const ORDER: readonly ResultsKind[] = ['timed', 'instructions', 'allocation'];

const HEADER = `# Bench results

Written by \`npm run bench\` (bench/run.ts) at the end of each run: do not edit by hand. The method
is in [docs/performance.md](../docs/performance.md). Each section is the last run of its kind, with
the date, the machine and the commit it measured; compare runs of one machine only.
`;

const start = (kind: ResultsKind) => `<!-- bench-results:${kind}:start -->`;
const end = (kind: ResultsKind) => `<!-- bench-results:${kind}:end -->`;

/** The commit of the work tree at `cwd`, with `-dirty` when tracked files differ from it. */
export function currentCommit(cwd: string): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    const changes = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], {
      cwd,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    return changes === '' ? commit : `${commit}-dirty`;
  } catch {
    return 'unknown';
  }
}

/** This machine's facts, now. */
export function runFacts(cwd: string, now = new Date()): RunFacts {
  return {
    date: now.toISOString(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown CPU',
    cores: cpus().length,
    node: process.version,
    commit: currentCommit(cwd),
  };
}

/** One kind's section: its title, the facts, the command, then the tables as the bench printed them. */
export function renderSection(kind: ResultsKind, facts: RunFacts, command: string, body: string): string {
  return [
    start(kind),
    `## ${TITLES[kind]}`,
    '',
    `- date: ${facts.date}`,
    `- machine: ${facts.cpuModel}, ${facts.cores} cores, Node ${facts.node}`,
    `- commit: ${facts.commit}`,
    `- command: \`${command}\``,
    '',
    body.trim(),
    end(kind),
  ].join('\n');
}

/** The sections already in `existing` (a RESULTS.md), by kind. */
function sectionsOf(existing: string): Partial<Record<ResultsKind, string>> {
  const found: Partial<Record<ResultsKind, string>> = {};
  for (const kind of ORDER) {
    const from = existing.indexOf(start(kind));
    const to = existing.indexOf(end(kind));
    if (from !== -1 && to > from) found[kind] = existing.slice(from, to + end(kind).length);
  }
  return found;
}

/** The whole file from its sections (none: a file that says no run is recorded). */
export function renderResultsFile(sections: Partial<Record<ResultsKind, string>>): string {
  const body = ORDER.map((each) => sections[each]).filter((text): text is string => text !== undefined);
  if (body.length === 0) body.push('No run has been recorded yet: run `npm run bench`.');
  return `${[HEADER, ...body].join('\n')}\n`;
}

/** The whole file: `section` in place of its kind's, the other kind's kept from `existing`. */
export function mergeResults(existing: string | undefined, kind: ResultsKind, section: string): string {
  return renderResultsFile({ ...sectionsOf(existing ?? ''), [kind]: section });
}

/** Writes this run's tables into `file` (bench/RESULTS.md). */
export function writeResults(file: string, kind: ResultsKind, facts: RunFacts, command: string, body: string): void {
  const existing = existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  writeFileSync(file, mergeResults(existing, kind, renderSection(kind, facts, command, body)));
}
