/** One dependency's answer to a readiness probe. */
export interface ReadinessCheck {
  readonly ok: boolean;
  /** Why it failed: the error's message, or `timed out after <n> ms`. */
  readonly error?: string;
}

/** Whether the gateway can serve: every dependency it has (`database`, `redis`) reachable. */
export interface Readiness {
  readonly ready: boolean;
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
}

/** A dependency's probe: resolves when it answered. */
export type Probe = () => Promise<unknown>;

/** How long a probe may take before its dependency counts as unreachable. */
export const PROBE_TIMEOUT_MS = 1_000;

async function run(probe: Probe, timeoutMs: number): Promise<ReadinessCheck> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReadinessCheck>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, error: `timed out after ${timeoutMs} ms` }), timeoutMs);
  });
  try {
    return await Promise.race([
      probe().then(
        (): ReadinessCheck => ({ ok: true }),
        (error: unknown): ReadinessCheck => ({ ok: false, error: error instanceof Error ? error.message : String(error) }),
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every probe at once, each within `timeoutMs`. */
export async function checkReadiness(probes: Readonly<Record<string, Probe>>, timeoutMs = PROBE_TIMEOUT_MS): Promise<Readiness> {
  const names = Object.keys(probes);
  const results = await Promise.all(names.map((name) => run(probes[name]!, timeoutMs)));
  const checks: Record<string, ReadinessCheck> = {};
  names.forEach((name, index) => (checks[name] = results[index]!));
  return { ready: results.every((check) => check.ok), checks };
}
