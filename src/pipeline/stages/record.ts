import type { Recorder } from '../../usage/record-stage.js';
import type { PipelineStage } from '../run-stages.js';

/**
 * A stage that learns of each finished request after its answer (the ledger, the request log,
 * metrics, traces): after-part only, so it runs last, once every other stage gave back what it held.
 */
export function recordStage(name: string, recorder: Recorder): PipelineStage {
  return {
    name,
    after(context) {
      recorder.record(context.toRecord());
    },
  };
}
