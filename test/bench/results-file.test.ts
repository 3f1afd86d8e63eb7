import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mergeResults, renderResultsFile, renderSection, runFacts, writeResults, type RunFacts } from '../../bench/results-file.js';

const facts: RunFacts = { date: '2026-11-28T16:00:00.000Z', cpuModel: 'Test CPU 9000', cores: 2, node: 'v20.20.2', commit: '0123456789ab' };
const scratch = mkdtempSync(join(tmpdir(), 'bench-results-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('bench/RESULTS.md writer', () => {
  it('should head each section with the date, the machine, the commit and the command', () => {
    const section = renderSection('timed', facts, 'npm run bench -- --rounds 1', '| metric | a |\n|---|---|\n| x | 1 |');
    expect(section).toContain('- date: 2026-11-28T16:00:00.000Z');
    expect(section).toContain('- machine: Test CPU 9000, 2 cores, Node v20.20.2');
    expect(section).toContain('- commit: 0123456789ab');
    expect(section).toContain('- command: `npm run bench -- --rounds 1`');
    expect(section).toContain('| x | 1 |');
  });

  it('should replace the run of the same kind and keep the other, timed first', () => {
    const first = mergeResults(
      undefined,
      'instructions',
      renderSection('instructions', facts, 'npm run bench -- --instructions', 'INSTRUCTIONS-1'),
    );
    const second = mergeResults(first, 'timed', renderSection('timed', facts, 'npm run bench', 'TIMED-1'));
    const third = mergeResults(second, 'timed', renderSection('timed', { ...facts, commit: 'fedcba987654' }, 'npm run bench', 'TIMED-2'));
    expect(third).toContain('INSTRUCTIONS-1');
    expect(third).toContain('TIMED-2');
    expect(third).not.toContain('TIMED-1');
    expect(third).toContain('- commit: fedcba987654');
    expect(third.indexOf('TIMED-2')).toBeLessThan(third.indexOf('INSTRUCTIONS-1'));
    expect(third.match(/^# Bench results$/gm)).toHaveLength(1);
  });

  it('should keep an allocation run after the other two, and replace only its own', () => {
    const timed = mergeResults(undefined, 'timed', renderSection('timed', facts, 'npm run bench', 'TIMED-1'));
    const allocation = mergeResults(timed, 'allocation', renderSection('allocation', facts, 'npm run bench -- --allocation', 'HEAP-1'));
    const both = mergeResults(
      allocation,
      'instructions',
      renderSection('instructions', facts, 'npm run bench -- --instructions', 'COUNTS-1'),
    );
    const again = mergeResults(both, 'allocation', renderSection('allocation', facts, 'npm run bench -- --allocation', 'HEAP-2'));
    expect(again).toContain('## Heap allocation per request (`--allocation`)');
    expect(again).not.toContain('HEAP-1');
    expect(again.indexOf('TIMED-1')).toBeLessThan(again.indexOf('COUNTS-1'));
    expect(again.indexOf('COUNTS-1')).toBeLessThan(again.indexOf('HEAP-2'));
  });

  it('should write the file, and say so when no run is recorded', () => {
    const file = join(scratch, 'RESULTS.md');
    expect(renderResultsFile({})).toContain('No run has been recorded yet');
    writeResults(file, 'timed', facts, 'npm run bench', 'TABLE');
    writeResults(file, 'instructions', facts, 'npm run bench -- --instructions', 'COUNTS');
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('TABLE');
    expect(text).toContain('COUNTS');
    expect(text).toContain('do not edit by hand');
    expect(text).not.toContain('No run has been recorded yet');
  });

  it("should read this machine's CPU, cores, Node version and the commit of the work tree", () => {
    const here = runFacts(join(import.meta.dirname, '..', '..'), new Date('2026-11-28T16:00:00Z'));
    const head = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { encoding: 'utf8' }).trim();
    expect(here).toMatchObject({ date: '2026-11-28T16:00:00.000Z', cores: cpus().length, node: process.version });
    expect(here.cpuModel).toBe(cpus()[0]?.model.trim());
    expect(here.commit).toMatch(new RegExp(`^${head}(-dirty)?$`));
    expect(runFacts(scratch).commit).toBe('unknown');
  });
});
