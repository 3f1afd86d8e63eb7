import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../src/canonical/index.js';
import { createModelProbe } from '../../src/endpoints/probe-model.js';
import type { RequestStages } from '../../src/endpoints/stages.js';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
import { silentLogger } from '../../src/logger.js';
import type { Stage } from '../../src/pipeline/stage.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';
import { tracingStages } from '../helpers/serve-endpoint.js';

/** The status page's probe over the gateway's own stages, some swapped for tracing ones. */
function probeWith(userStages: Stage[], swap: (defaults: RequestStages, seen: string[]) => Partial<RequestStages>) {
  const resolved = resolveOptions({ apiKeys: ['sk-probe-test'], logger: silentLogger, stages: userStages });
  const seen: string[] = [];
  const probe = createModelProbe({ ...resolved, stages: { ...resolved.stages, ...swap(resolved.stages, seen) } });
  return { probe, seen };
}

describe('the status probe', () => {
  it('should run the stages that apply to it — fit, the stages that ask for probes, the call, the record — and none that need a caller', async () => {
    const records: RequestRecord[] = [];
    const asked: string[] = [];
    const { probe, seen } = probeWith(
      [
        {
          name: 'for-probes',
          endpoints: ['generation', 'probe'],
          before: (context) => void asked.push(`for-probes ${context.endpoint} ${context.caller.keyId}`),
        },
        { name: 'for-callers', before: () => void asked.push('for-callers') },
      ],
      tracingStages(records),
    );
    const result = await probe({ model: 'mock', maxOutputTokens: 16, timeoutMs: 10_000 });
    expect(result).toMatchObject({ model: 'mock', ok: true });
    expect(asked).toEqual(['for-probes probe probe']);
    // No key, no admission: the gateway itself is the caller.
    expect(seen).toEqual(['call', 'record']);
    expect(records[0]).toMatchObject({
      caller: { keyId: 'probe' },
      model: 'mock',
      status: 200,
      userAgent: 'switchyard-probe',
      attempts: 1,
    });
    expect(records[0]?.usage?.outputTokens).toBeGreaterThan(0);
  });

  it("should report a stage's refusal as the probe's error, without calling the provider", async () => {
    const records: RequestRecord[] = [];
    const refusing: Stage = {
      name: 'refusing',
      endpoints: ['probe'],
      before() {
        throw new GatewayError({ code: 'REQUEST_POLICY_REFUSED', message: 'Not today.' });
      },
    };
    const { probe, seen } = probeWith([refusing], tracingStages(records));
    const result = await probe({ model: 'mock', maxOutputTokens: 16, timeoutMs: 10_000 });
    expect(result).toMatchObject({ ok: false, errorCode: 'REQUEST_POLICY_REFUSED' });
    expect(seen).toEqual(['record']);
    expect(records[0]).toMatchObject({ status: 400, errorCode: 'REQUEST_POLICY_REFUSED' });
  });

  it("should end a probe that outlives its timeout as the upstream's timeout, the provider cancelled", async () => {
    const records: RequestRecord[] = [];
    let cancelled = false;
    const { probe } = probeWith([], (defaults, seen) => ({
      ...tracingStages(records)(defaults, seen),
      call: {
        ...defaults.call,
        generate: (_route, context) =>
          new Promise((_resolve, reject) => {
            context.signal.addEventListener('abort', () => {
              cancelled = true;
              reject(new Error('aborted'));
            });
          }),
      },
    }));
    const result = await probe({ model: 'mock', maxOutputTokens: 16, timeoutMs: 50 });
    expect(result).toMatchObject({ ok: false, errorCode: 'UPSTREAM_TIMEOUT' });
    expect(cancelled).toBe(true);
    expect(records[0]).toMatchObject({ status: 504, errorCode: 'UPSTREAM_TIMEOUT' });
  });
});
