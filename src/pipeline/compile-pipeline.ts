import type { KeyCheck } from '../access/authenticate-stage.js';
import type { AdmissionControl } from '../limits/admit-stage.js';
import { admitEverything } from '../limits/admit-stage.js';
import type { Logger } from '../logger.js';
import type { RequestPolicyTable } from '../policy/request-policy-table.js';
import type { InboundCodec } from '../protocols/codec.js';
import type { ResolvedModel } from '../routing/resolve-model.js';
import { recordNothing, type Recorder } from '../usage/record-stage.js';
import type { RequestContext } from './request-context.js';
import type { WatchEvents } from './respond.js';
import type { PipelineStage } from './run-stages.js';
import type { BuiltInStageName, PipelineEndpoint, Stage } from './stage.js';
import { admitStage } from './stages/admit.js';
import { authenticateStage } from './stages/authenticate.js';
import { fitStage } from './stages/fit.js';
import { policeStage } from './stages/police.js';
import { recordStage } from './stages/record.js';

/** The built-in services the stages are made of (each a default that does nothing when its feature is off). */
export interface StageServices {
  readonly authenticate: KeyCheck;
  readonly admit: AdmissionControl;
  readonly record: Recorder;
}

/** What compiling needs: the services, the request policy, and the users' own stages. */
export interface CompilePipelineOptions {
  readonly services: StageServices;
  readonly requestPolicy: RequestPolicyTable;
  readonly logger: Logger;
  /** `gateway({ stages })`, in the order given. */
  readonly userStages: readonly Stage[];
}

/** One route's stages, compiled: the list, and its watchers. */
export interface CompiledRoute {
  /** Begins with the endpoint's `prelude`. */
  readonly stages: readonly PipelineStage[];
  /** The stages that watch a stream's events: none for most routes. */
  readonly watching: readonly PipelineStage[];
}

/** An endpoint's pipeline: the stages before the model is known, then each model's, compiled on first use. */
export interface EndpointPipeline {
  /** What runs before the body is decoded (the record stages' after-parts, authentication). */
  readonly prelude: readonly PipelineStage[];
  routeOf(model: ResolvedModel): CompiledRoute;
  /** Whether any record stage wants the upstream's own report. */
  readonly wantsUpstream: boolean;
}

/** What an entry point is: its protocol, who may call it, and whether it generates. */
export interface EndpointShape {
  readonly endpoint: PipelineEndpoint;
  readonly codec: InboundCodec;
  readonly acceptXApiKey: boolean;
  /** Caller headers passed on to the provider (lower-case names). */
  readonly forwardedHeaders: readonly string[];
}

/** The slots users' stages are placed in, in running order: `before` a built-in, or `after` it. */
const SLOTS: readonly (readonly [BuiltInStageName, 'before' | 'after'])[] = [
  ['authenticate', 'after'],
  ['fit', 'before'],
  ['fit', 'after'],
  ['police', 'before'],
  ['police', 'after'],
  ['admit', 'before'],
  ['admit', 'after'],
  ['call', 'before'],
];

const slotOf = (stage: Stage): string => {
  const position = stage.position ?? { before: 'call' };
  return 'before' in position ? `before:${position.before}` : `after:${position.after}`;
};

/**
 * Compiles an endpoint's stages once: a feature that is off is not in the list (no record stage
 * without a ledger or a log, no admission without limits, budgets or an allowlist), so it costs
 * nothing per request. Each model's list is compiled the first time it is asked for and kept.
 */
export function compilePipeline(setup: CompilePipelineOptions, shape: EndpointShape): EndpointPipeline {
  const { services, logger } = setup;
  const { endpoint } = shape;
  // The probe generates, as the gateway itself: no key, no request policy, no admission.
  const generates = endpoint !== 'count_tokens';
  const callerCalls = endpoint !== 'probe';
  const prelude: PipelineStage[] = [];
  if (generates && services.record !== recordNothing) prelude.push(recordStage('record', services.record));
  if (callerCalls) prelude.push(authenticateStage(services.authenticate, shape.acceptXApiKey));
  const users = setup.userStages.filter((stage) => (stage.endpoints ?? ['generation']).includes(endpoint)) as PipelineStage[];
  const placed = (slot: string) => users.filter((stage) => slotOf(stage) === slot);
  const police = callerCalls ? policeStage(setup.requestPolicy, shape.codec.protocol, shape.forwardedHeaders, logger) : undefined;
  const admit = endpoint === 'generation' && services.admit !== admitEverything ? admitStage(services.admit) : undefined;
  const routes = new Map<ResolvedModel, CompiledRoute>();

  const compile = (model: ResolvedModel): CompiledRoute => {
    const builtIn: Record<BuiltInStageName, PipelineStage | undefined> = {
      authenticate: undefined, // in the prelude
      police,
      fit: fitStage(model, shape.codec, logger, generates),
      admit,
      call: undefined, // the end of the list: the responder
    };
    const stages = [...prelude];
    for (const [name, side] of SLOTS) {
      const own = builtIn[name];
      if (side === 'before') {
        stages.push(...placed(`before:${name}`));
        if (own !== undefined) stages.push(own);
      } else {
        stages.push(...placed(`after:${name}`));
      }
    }
    return { stages, watching: stages.filter((stage) => stage.watch !== undefined) };
  };

  return {
    prelude,
    wantsUpstream: generates && services.record.wantsUpstream === true,
    routeOf(model) {
      let route = routes.get(model);
      if (route === undefined) routes.set(model, (route = compile(model)));
      return route;
    },
  };
}

/** The route's watchers as one call per event for this request; undefined when none watches (nothing is allocated). */
export function watchOf(route: CompiledRoute, context: RequestContext): WatchEvents {
  const { watching } = route;
  if (watching.length === 0) return undefined;
  return (event) => {
    for (const stage of watching) stage.watch!(context, event);
  };
}
