import type { CanonicalRequest } from '../canonical/index.js';
import type { ModelCapabilities } from '../providers/types.js';

/**
 * The request without the hosted tools (another protocol's `web_search`, server tools, …) the
 * model cannot run. Used only for models configured with `hostedTools: 'omit'`: clients such as
 * Codex always send `web_search`, and the operator chose to serve them without it.
 */
export function omitHostedTools(request: CanonicalRequest, capabilities: ModelCapabilities): CanonicalRequest {
  const tools = request.tools?.filter(
    (tool) => tool.type !== 'provider-defined' || capabilities.providerTools.includes(tool.protocol),
  );
  if (tools === undefined || tools.length === request.tools?.length) return request;
  return tools.length > 0 ? { ...request, tools } : { ...request, tools: undefined, toolChoice: undefined };
}
