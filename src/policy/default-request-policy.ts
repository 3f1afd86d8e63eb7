import type { RequestPolicy } from './request-policy.js';

/**
 * The built-in policy, below the gateway's own: what a key holder may spend of the operator's
 * money, or reach through the operator's accounts, without the operator having said so.
 *
 * - Cost hints are stripped: the provider's default applies and the answer is the same
 *   (`service_tier`, Anthropic `speed`). `store` is stripped too: Chat stores nothing by default
 *   and the gateway sends Responses `store: false`, so nothing is kept in the operator's account.
 * - Features a caller asks for on purpose, which reach another server or run billed machinery, are
 *   refused with a 400 naming them (remote MCP servers, containers, background responses, Chat
 *   web search, data-residency routing).
 * - Hosted tools: web search and image generation are stripped (Codex sends `web_search`, and with
 *   its image tool on `image_generation`, on every request: it must keep working); the rest that
 *   bill or reach out are refused.
 * - `anthropic-beta`: the betas the SDKs and Claude Code send for features that cost nothing extra
 *   pass; the rest are not sent (a beta the provider does not get is simply off). Betas that are
 *   priced higher (1M context, fast mode) or reach out (MCP client, files, code execution) are
 *   named, so that even `'*': 'allow'` needs them allowed one by one.
 * - `n` is capped at 1; output is not capped (the provider's maximum applies).
 */
export const defaultRequestPolicy: RequestPolicy = {
  fields: {
    service_tier: 'strip',
    speed: 'strip',
    store: 'strip',
    logit_bias: 'allow',
    web_search_options: 'refuse',
    background: 'refuse',
    mcp_servers: 'refuse',
    container: 'refuse',
    inference_geo: 'refuse',
  },
  tools: {
    web_search: 'strip',
    image_generation: 'strip',
    web_fetch: 'refuse',
    mcp: 'refuse',
    code_execution: 'refuse',
    file_search: 'refuse',
  },
  anthropicBetas: {
    'claude-code-*': 'allow',
    'interleaved-thinking-*': 'allow',
    'fine-grained-tool-streaming-*': 'allow',
    'context-management-*': 'allow',
    'prompt-caching-*': 'allow',
    'extended-cache-ttl-*': 'allow',
    'effort-*': 'allow',
    'token-efficient-tools-*': 'allow',
    'redact-thinking-*': 'allow',
    'thinking-token-count-*': 'allow',
    'mid-conversation-system-*': 'allow',
    'advanced-tool-use-*': 'allow',
    'tool-search-tool-*': 'allow',
    'tool-examples-*': 'allow',
    'structured-outputs-*': 'allow',
    'output-128k-*': 'allow',
    'cache-diagnosis-*': 'allow',
    'context-1m-*': 'strip',
    'fast-mode-*': 'strip',
    'advisor-tool-*': 'strip',
    'mcp-client-*': 'strip',
    'code-execution-*': 'strip',
    'files-api-*': 'strip',
    'skills-*': 'strip',
    'web-fetch-*': 'strip',
    '*': 'strip',
  },
  maxChoices: 1,
};
