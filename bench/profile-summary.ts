// Reads `node --cpu-prof` output and prints where the time went: by package, then the hottest functions,
// then Switchyard functions by inclusive time (`BENCH_PROFILE_ALL=1`: every function, packages too).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Which package (or part of Switchyard, or Node itself) a script URL belongs to. */
function ownerOf(url: string): string {
  const modules = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (modules) return modules[1] ?? url;
  const own = /\/dist\/(.+)$/.exec(url);
  if (own) return `switchyard ${own[1]?.split('/').slice(0, -1).join('/') || '(root)'}`;
  if (url.startsWith('node:')) return 'node core';
  return url === '' ? '(native / gc / idle)' : url;
}

const pad = (text: string, width: number) => (text.length >= width ? text.slice(0, width) : text + ' '.repeat(width - text.length));

/** A text summary of every `.cpuprofile` in `dir`: self time by owner, then the `top` hottest functions. */
export function summariseProfiles(dir: string, top: number): string {
  const byOwner = new Map<string, number>();
  const byFunction = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
    const parents = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
    const keyOf = (node: ProfileNode) =>
      `${node.callFrame.functionName || '(anonymous)'}  ${node.callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
    profile.samples.forEach((id, index) => {
      const node = nodes.get(id);
      const micros = profile.timeDeltas[index] ?? 0;
      if (!node || node.callFrame.functionName === '(idle)') return;
      const { url } = node.callFrame;
      total += micros;
      byOwner.set(ownerOf(url), (byOwner.get(ownerOf(url)) ?? 0) + micros);
      const key = keyOf(node);
      byFunction.set(key, (byFunction.get(key) ?? 0) + micros);
      // Inclusive time: every function on the stack, once per sample.
      const seen = new Set<string>();
      for (let at: ProfileNode | undefined = node; at; at = nodes.get(parents.get(at.id) ?? -1)) {
        const atKey = keyOf(at);
        if (seen.has(atKey) || !(process.env.BENCH_PROFILE_ALL ? at.callFrame.url !== '' : at.callFrame.url.includes('/dist/'))) continue;
        seen.add(atKey);
        inclusive.set(atKey, (inclusive.get(atKey) ?? 0) + micros);
      }
    });
  }
  const share = (micros: number) => `${((micros / total) * 100).toFixed(1).padStart(5)}%`;
  const sorted = (map: Map<string, number>) => [...map.entries()].sort((a, b) => b[1] - a[1]);
  return [
    'busy time by owner (self time):',
    ...sorted(byOwner)
      .slice(0, 15)
      .map(([owner, micros]) => `  ${share(micros)}  ${owner}`),
    `hottest ${top} functions (self time):`,
    ...sorted(byFunction)
      .slice(0, top)
      .map(([name, micros]) => `  ${share(micros)}  ${pad(name, 110)}`),
    `Switchyard functions by inclusive time (self + callees):`,
    ...sorted(inclusive)
      .slice(0, top)
      .map(([name, micros]) => `  ${share(micros)}  ${pad(name, 110)}`),
  ].join('\n');
}
