import type { KeyCheck } from '../access/authenticate-stage.js';
import type { AdmissionControl } from '../limits/admit-stage.js';
import type { Logger } from '../logger.js';
import type { Stage } from '../pipeline/stage.js';
import type { RequestPolicyTable } from '../policy/request-policy-table.js';
import type { CallStage } from '../routing/call-model.js';
import type { ModelTable, ResolvedModel, UnavailableModels } from '../routing/resolve-model.js';
import type { Recorder } from '../usage/record-stage.js';

/**
 * The services the built-in stages are made of (src/pipeline/stages): each subsystem fills one,
 * and a feature that is off leaves its default, which the compiled pipeline leaves out.
 */
export interface RequestStages {
  /** Who is calling (keys). Default: the configured keys, or anyone when none are required. */
  readonly authenticate: KeyCheck;
  /** Let in or 429 (allowlist, budgets, limits). Default: everyone. */
  readonly admit: AdmissionControl;
  /** Get the answer from a provider (retries, fallbacks). Default: one call to the model. */
  readonly call: CallStage;
  /** Learn of each finished request (usage ledger, request log, metrics, traces). Default: nothing. */
  readonly record: Recorder;
}

/** What the endpoints are built from: the resolved options they read. */
export interface EndpointOptions {
  readonly models: ModelTable;
  /** Models in configuration order, without aliases (`GET /v1/models`). */
  readonly modelList: readonly ResolvedModel[];
  /** Ids known but not served, and why: their 404 says so (`GatewayOptions.unavailableModels`). */
  readonly unavailableModels?: UnavailableModels;
  /** Largest request body, in bytes. */
  readonly bodyLimit: number;
  /** What each caller may send on to each model (pass-through fields, hosted tools, betas, caps). */
  readonly requestPolicy: RequestPolicyTable;
  readonly logger: Logger;
  readonly stages: RequestStages;
  /** The users' own stages (`gateway({ stages })`), in the order given. */
  readonly userStages?: readonly Stage[];
}
