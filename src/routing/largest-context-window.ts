import type { ModelTable } from './resolve-model.js';

/**
 * The largest context window a request to `id` can reach: its model's, or that of a model it may
 * fall back to (fallbacks and contextFallback, in turn) — an input can never be longer. Undefined
 * when one of them has no known window.
 */
export function largestContextWindow(table: ModelTable, id: string): number | undefined {
  let largest = 0;
  const seen = new Set<string>();
  const queue = [id];
  while (queue.length > 0) {
    const model = table.get(queue.pop()!);
    if (model === undefined || seen.has(model.id)) continue;
    seen.add(model.id);
    if (model.contextWindow === undefined) return undefined;
    largest = Math.max(largest, model.contextWindow);
    queue.push(...model.fallbacks, ...(model.contextFallback === undefined ? [] : [model.contextFallback]));
  }
  return largest === 0 ? undefined : largest;
}
