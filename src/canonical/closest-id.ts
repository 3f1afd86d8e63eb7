/** Levenshtein distance, two rows at a time: ids are short. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** Longest id compared with the candidates: the edit distance costs the product of the lengths. */
const LONGEST_COMPARED = 128;

/**
 * The candidate most like `id` (a model id, a field name), or undefined when none is close enough
 * to be a plausible typo (distance over half the id's length, unless one contains the other). An
 * id longer than any plausible typo gets no suggestion: the caller controls its length.
 */
export function findClosestId(id: string, candidates: Iterable<string>): string | undefined {
  if (id.length > LONGEST_COMPARED) return undefined;
  const wanted = id.toLowerCase();
  let best: string | undefined;
  let bestScore = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const lower = candidate.toLowerCase();
    const score = lower.includes(wanted) || wanted.includes(lower) ? 0.5 : editDistance(wanted, lower);
    if (score < bestScore) {
      best = candidate;
      bestScore = score;
    }
  }
  return bestScore <= Math.max(2, Math.ceil(wanted.length / 2)) ? best : undefined;
}
