import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openAIRules, type EndpointRules } from '../../src/endpoints/endpoint-rules.js';
import { createGenerationEndpoint } from '../../src/endpoints/generation.js';
import type { RequestStages } from '../../src/endpoints/stages.js';
import { silentLogger } from '../../src/logger.js';
import type { GatewayOptions } from '../../src/gateway/options.js';
import { resolveOptions } from '../../src/gateway/resolve-options.js';
import type { InboundCodec } from '../../src/protocols/codec.js';
import type { Usage } from '../../src/canonical/index.js';
import type { AdmissionRequest } from '../../src/limits/admit-stage.js';
import type { RequestRecord } from '../../src/usage/record-stage.js';

export const ENDPOINT_KEY = 'sk-stages-test';

export interface ServedEndpoint {
  /** `http://127.0.0.1:<port>/v1`, for an OpenAI client's `baseURL`. */
  baseURL: string;
  /** The stages' turns, as the `stages` function logged them. */
  seen: string[];
  close(): void;
}

/**
 * Serves one generation endpoint (any path reaches it) with some stages swapped in: how tests see
 * what a stage receives. The key is `ENDPOINT_KEY`.
 */
export async function serveEndpoint(
  codec: InboundCodec,
  stages: (defaults: RequestStages, seen: string[]) => Partial<RequestStages>,
  options: GatewayOptions = {},
  rules: EndpointRules = openAIRules,
): Promise<ServedEndpoint> {
  const resolved = resolveOptions({ apiKeys: [ENDPOINT_KEY], logger: silentLogger, ...options });
  const seen: string[] = [];
  const endpoint = createGenerationEndpoint(
    codec,
    { ...resolved, stages: { ...resolved.stages, ...stages(resolved.stages, seen) } },
    rules,
  );
  const server: Server = createServer((req, res) => void endpoint(req, res));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/**
 * Services that log their turn to `seen` around the defaults — authenticate, admit (and its
 * release), call, record — and keep what they were given in the lists passed.
 */
export function tracingStages(records: RequestRecord[] = [], releases: (Usage | undefined)[] = [], admitted: AdmissionRequest[] = []) {
  return (defaults: RequestStages, seen: string[]): Partial<RequestStages> => ({
    authenticate(headers, acceptXApiKey) {
      seen.push('authenticate');
      return defaults.authenticate(headers, acceptXApiKey);
    },
    admit: {
      admit(request) {
        seen.push('admit');
        admitted.push(request);
        return { release: (usage) => (seen.push('release'), releases.push(usage)) };
      },
    },
    call: {
      generate: (route, context, control) => (seen.push('call'), defaults.call.generate(route, context, control)),
      stream: (route, context, control) => (seen.push('call'), defaults.call.stream(route, context, control)),
    },
    record: { record: (entry) => (seen.push('record'), records.push(entry)) },
  });
}
